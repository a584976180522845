"""Compare's sentences and metrics, on small cases worked out by hand."""

from bpe_core import Token
from pages.compare.views.data import MergeListDiff, VocabularyUsage
from pages.compare.views.setup import (
    STRIP_BOXES_IN_ALL,
    STRIP_MAX_CHARS,
    merge_lists_sentence,
    merge_rows,
    merge_text,
    only_heading,
    strip_chars,
    unused_rows,
    usage_metrics,
)


def diff(first_difference, first_a=None, first_b=None, shared_tokens=0) -> MergeListDiff:
    return MergeListDiff(
        first_difference=first_difference,
        first_a=first_a,
        first_b=first_b,
        only_a=(),
        only_b=(),
        shared_tokens=shared_tokens,
    )


def test_a_merge_reads_left_plus_right_with_spaces_shown_and_backticks_made_harmless():
    assert merge_text(("`x", " y")) == "'x + ␣y"
    assert merge_text(None) == "(nothing: the list ended)"


def test_identical_lists_say_so_with_the_number_of_merges():
    assert merge_lists_sentence(diff(None), 1200) == "The two merge lists are identical (1,200 merges)."
    assert merge_lists_sentence(diff(None), 1) == "The two merge lists are identical (1 merge)."


def test_lists_that_differ_at_once_have_no_agreed_steps():
    assert merge_lists_sentence(diff(1, ("a", "b"), ("c", "d"), shared_tokens=1), 5) == (
        "The merge lists first differ at **step 1**: A merges `a + b`, B merges `c + d`. They share 1 merged token."
    )


def test_lists_that_agree_for_some_steps_count_them_in_the_plural():
    assert merge_lists_sentence(diff(1001, ("a", "b"), None, shared_tokens=1000), 1000) == (
        "The merge lists agree for 1,000 steps and first differ at **step 1,001**: A merges `a + b`, "
        "B merges `(nothing: the list ended)`. They share 1,000 merged tokens."
    )


def test_usage_metrics_give_the_never_used_share_and_zero_for_an_empty_vocabulary():
    usage = VocabularyUsage(bins=[], vocabulary=400, used=399, never_used=1, text_tokens=9)
    assert [(label, value, note) for label, value, note, _ in usage_metrics(usage)] == [
        ("Vocabulary entries", "400", None),
        ("Used at least once", "399", None),
        ("Never used", "1", "0% of the vocabulary"),
    ]
    empty = VocabularyUsage(bins=[], vocabulary=0, used=0, never_used=0, text_tokens=0)
    assert usage_metrics(empty)[2][2] == "0% of the vocabulary"
    half = VocabularyUsage(bins=[], vocabulary=2, used=1, never_used=1, text_tokens=1)
    assert usage_metrics(half)[2][2] == "50% of the vocabulary"


def test_the_heading_says_only_the_first_500_are_shown_beyond_500():
    assert only_heading("A", 500) == "**500 merged tokens only A makes**"
    assert only_heading("B", 501) == "**501 merged tokens only B makes** (first 500 shown)"


def test_byte_level_merges_are_written_as_the_text_they_spell():
    # GPT-2's stand-ins: Ġ is a space, Ã and © are the two bytes of é
    assert merge_rows([(1, ("Ã", "©"))], limit=1, byte_level=True) == [
        {"step": 1, "left": "\\xc3", "right": "\\xa9", "new token": "é"}
    ]
    assert merge_rows([(1, ("Ã", "©"))], limit=1) == [{"step": 1, "left": "Ã", "right": "©", "new token": "Ã©"}]
    assert merge_text(("Ġ", "t"), byte_level=True) == "␣ + t"
    assert unused_rows(((4, "Ġthe"),), limit=1, byte_level=True) == [{"step": 4, "token": "␣the"}]


def test_merge_rows_are_readable_and_limited():
    assert merge_rows([(3, ("a", " b")), (5, ("x", "y"))], limit=1) == [
        {"step": 3, "left": "a", "right": "␣b", "new token": "a␣b"}
    ]


def tokens_of(per_character: int, characters: int) -> list[Token]:
    """``per_character`` tokens on each of ``characters`` characters, as a byte-level tokenizer cuts emoji."""
    return [Token(0, "x", start, start + 1, b"x") for start in range(characters) for _ in range(per_character)]


def test_a_strip_draws_its_share_of_the_boxes_and_no_more():
    assert STRIP_BOXES_IN_ALL == 6_000 and STRIP_MAX_CHARS == 5_000  # the numbers worked out below
    # Five strips share 6,000 boxes: 1,200 each. Four tokens a character: 300 characters hold 1,200 of them.
    assert strip_chars(tokens_of(4, 100_000), strips=5) == 300
    # One token a character: the first 5,000 characters hold 5,000 tokens, within a lone strip's 6,000.
    assert strip_chars(tokens_of(1, 100_000), strips=1) == STRIP_MAX_CHARS
    # Fewer tokens than the share: the whole first 5,000 characters.
    assert strip_chars(tokens_of(7, 100), strips=5) == STRIP_MAX_CHARS
    # One character with more tokens than the share: that character still, never none.
    assert strip_chars(tokens_of(2_000, 2), strips=5) == 1
