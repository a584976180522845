"""The split question (views/questions.py's split_question, split_view.py): where our model starts its tokens
in a word, held to the textbook encoder (bpe_core/textbook.py) at every step, and the word drawn with each place
marked, worked out by hand."""

from __future__ import annotations

import re

import pytest

from bpe_core import Config, textbook, train
from bpe_core.pretrained import load_pretrained
from live_class import cuts
from pages.classroom.views.questions import WORD_LIMIT, split_question, word_to_split
from pages.classroom.views.split_view import (
    LABEL_REACH,
    my_split_result,
    place_counts,
    place_labels,
    room_split_result,
    split_html,
)
from pages.classroom.views.text_view import style_html

TEXTBOOK = "low lower newest widest low low low low newest newest newest newest"  # Train's textbook corpus
HOSTILE = "<img src=x onerror=alert(1)>"


def textbook_places(word: str, corpus: str, config: Config, step: int) -> str:
    """Where the textbook's tokens of ``word`` start, its first ``step`` merges applied (a marker is no letter)."""
    tokens = textbook.encode(word, textbook.train_merges(corpus, config, merges=step), config)
    marker, starts, start = config.end_of_word or "", [], 0
    for token in tokens:
        starts.append(start)
        start += len(token.removesuffix(marker)) if marker else len(token)
    return cuts.places_text(place for place in starts if 0 < place < len(word))


@pytest.mark.parametrize(
    "config",
    [Config(end_of_word="</w>"), Config(end_of_word="_", glue_marker=True), Config(split="gpt2"), Config(split="none")],
    ids=["end-of-word", "glued marker", "gpt2 split", "no split"],
)
def test_the_places_are_where_the_textbook_starts_each_token_at_every_step(config):
    model = train(TEXTBOOK, config, merges=12)
    for step in range(1, len(model.merges) + 1):
        for word in ("lowest", "newer", "widely", "slower", "low"):
            expected = textbook_places(word, TEXTBOOK, config, step)
            if not expected:
                with pytest.raises(ValueError, match=f"After step {step} {word} is one token: pick a longer word"):
                    split_question(model, step, word)
            elif expected == cuts.places_text(range(1, len(word))):  # a letter a token: every cut would score
                with pytest.raises(ValueError, match=f"After step {step} our model has no merge in {word} yet"):
                    split_question(model, step, word)
            else:
                offered = tuple(str(place) for place in range(1, len(word)))
                assert split_question(model, step, f"  {word}\n") == (word, offered, expected), (step, word)


def test_a_word_that_cannot_be_asked_is_refused_in_words():
    model = train(TEXTBOOK, Config(end_of_word="</w>"), merges=3)
    for typed in ("", "   ", "low newest", "low\tnewest"):
        with pytest.raises(ValueError, match="Type one word, without spaces"):
            split_question(model, 1, typed)
    longest = "lo" * (WORD_LIMIT // 2)  # step 1 merged l + o: lo lo lo ...
    assert split_question(model, 1, longest)[0] == longest
    with pytest.raises(ValueError, match=f"at most {WORD_LIMIT} characters; this one has {WORD_LIMIT + 1}"):
        split_question(model, 1, "x" * (WORD_LIMIT + 1))
    bytes_model = train("é é é", Config(split="gpt2", units="bytes"), merges=0)  # é is two bytes, not yet merged
    with pytest.raises(ValueError, match="cuts éa inside a character: pick a word of plain letters"):
        split_question(bytes_model, 0, "éa")


def test_a_letter_and_its_accent_or_an_emoji_and_its_skin_tone_stay_one_place():
    """e + a combining acute accent is one grapheme, as is a thumbs-up with its skin tone: no place between them is
    offered, and a model that still cuts there is refused; once it merged them (step 1) it cuts at both places left,
    a question every tap wins; after step 2 (é + t, 👍🏽 + o: each pair's first occurrence) the word is asked."""
    accented, thumbs = "e\u0301tt", "\U0001f44d\U0001f3fdok"
    for word in (accented, thumbs):
        model = train(f"{word} {word}", Config(), merges=2)
        with pytest.raises(ValueError, match="After step 0 our model cuts .* inside a character"):
            split_question(model, 0, word)
        with pytest.raises(ValueError, match="After step 1 our model has no merge in .* yet"):
            split_question(model, 1, word)
        assert split_question(model, 2, word) == (word, ("2", "3"), "3")


@pytest.mark.parametrize(
    ("name", "word", "step", "expected"),
    [
        ("llama2", "don't", None, "3,4"),  # ▁don ' t: Llama 2 writes ▁ in front, which is no place of the word
        ("gpt2", "don't", None, "3"),  # GPT-2's pattern takes 't apart
    ],
)
def test_a_published_model_is_asked_about_the_word_it_sees(name, word, step, expected):
    model = load_pretrained(name)
    reference = model.tokenize(word)  # the publisher's tokens, written as the model writes them
    assert split_question(model, len(model.merges) if step is None else step, word)[2] == expected, reference


def test_a_word_the_model_has_no_merge_in_yet_is_refused_in_words():
    """Every place a cut, every tap would score: Llama 2 before its first merge (d o n ' t, its ▁ apart), and the
    textbook corpus after its merges l + o and lo + w, for wide (no l in it)."""
    message = "After step {} our model has no merge in {} yet: it cuts it between every two letters"
    with pytest.raises(ValueError, match=message.format(0, "don't")):
        split_question(load_pretrained("llama2"), 0, "don't")
    with pytest.raises(ValueError, match=message.format(2, "wide")):
        split_question(train(TEXTBOOK, Config(end_of_word="</w>"), merges=2), 2, "wide")


def test_a_model_that_rewrites_the_word_before_cutting_it_says_so():
    """Qwen3 composes a letter and its combining accent (NFC) before it cuts: the places of the typed word are not
    the places it cuts, so the teacher is asked to type the word as the model sees it."""
    model = load_pretrained("qwen3")
    with pytest.raises(
        ValueError, match="Our model rewrites e\u0301te as \u00e9te before it cuts it: type it that way"
    ):
        split_question(model, len(model.merges), "e\u0301te")


def test_the_first_word_offered_is_the_longest_single_word_shown():
    pieces = (("low", 5), (" lower", 1), (" newest", 5), (" a", 9), ("two words", 1), ("y" * (WORD_LIMIT + 1), 1))
    assert word_to_split(pieces) == "newest"  # lower is shorter; the too long and the two words are passed over
    assert word_to_split((("a", 3),)) == "lowest"  # no word of two letters: the textbook's new word


def marks(html: str) -> list[tuple[str, str]]:
    """Each place's class and what is written over it, in order."""
    return re.findall(r'<span class="([^"]*)">([^<]*)</span>', html)


def test_the_word_is_drawn_with_each_place_marked_as_its_screen_needs():
    lowest = "lowest"
    every = (1, 2, 3, 4, 5)
    assert marks(split_html(lowest, every, {3, 4}, None)) == [
        ("", ""),
        ("", ""),
        ("bpe-cut", ""),
        ("bpe-cut", ""),
        ("", ""),
    ]
    # after the reveal (our model: low|est): 3 right, 4 wrong, 1 left alone rightly, nothing missed
    assert marks(split_html(lowest, every, {3, 4}, {3})) == [
        ("", ""),
        ("", ""),
        ("bpe-right", "✓"),
        ("bpe-wrong", "✗"),
        ("", ""),
    ]
    assert marks(split_html(lowest, every, set(), {2, 5})) == [
        ("", ""),
        ("bpe-missed", ""),
        ("", ""),
        ("", ""),
        ("bpe-missed", ""),
    ]
    # the projector: how many cut at each place, over it
    assert marks(split_html(lowest, every, {1, 3}, {3}, {1: 2, 3: 7})) == [
        ("bpe-wrong", "2"),
        ("", ""),
        ("bpe-right", "7"),
        ("", ""),
        ("", ""),
    ]
    assert "Blue: your cuts." in split_html(lowest, every, {3}, None)
    assert "Over each place: how many students cut there.</p>" in split_html(lowest, every, {3}, None, {3: 1})
    assert "cut there. Green: where our model starts a token; red: where it does not." in split_html(
        lowest, every, {3}, {3}, {3: 1}
    )
    assert "✓ you cut there; dashed: you did not). ✗: no token starts there." in split_html(lowest, every, {3}, {3})
    # only the places offered: a letter with its accent is one box
    assert re.findall(r"<i>([^<]*)</i>", split_html("e\u0301te", (2, 3), set(), None)) == ["e\u0301", "t", "e"]
    hostile = split_html(HOSTILE[:12], tuple(range(1, 12)), set(), None)
    assert "<img" not in hostile and "<i>&lt;</i>" in hostile and hostile.count("<i>") == 12


def test_the_room_and_each_student_are_told_how_they_cut():
    votes = {"s1": "3", "s2": "1,3", "s3": "", "s4": "3"}
    assert place_counts(votes) == {1: 1, 3: 3}
    assert room_split_result("3", votes) == "Cut exactly right: 2 of 4 students."
    assert room_split_result("3", {"s1": "1,3"}) == "Cut exactly right: 0 of 1 student."
    assert my_split_result("2,4", "2,4") == "2 places right, 0 where no token starts: 2 points."
    assert my_split_result("2,4", "1,2,3") == "1 place right, 2 where no token starts: 0 points."
    assert my_split_result("2,4", "") == "0 places right, 0 where no token starts: 0 points."
    assert my_split_result("2,4", "2,3,4") == "2 places right, 1 where no token starts: 1 point."


def test_the_style_sheet_is_drawn_once_by_the_page_not_with_every_poll():
    drawn = split_html("lowest", (1, 2, 3, 4, 5), {3}, {3}, {3: 1})
    assert "<style>" not in drawn  # a screen asks every second
    assert ".bpe-split span.bpe-right::after{background:#1a7f37}" in style_html()


def test_a_long_words_places_read_apart_and_an_accent_stays_on_its_letter():
    word = "supercalifragilistic"  # 20 letters: 19 places
    labels = list(place_labels(word, tuple(range(1, 20))).values())
    assert len(set(labels)) == 19 and max(map(len, labels)) == 2 * LABEL_REACH + 3  # "…" + 4 | 4 + "…"
    assert labels[0] == "s|uper…" and labels[8] == "…cali|frag…" and labels[-1] == "…isti|c"
    accented = "ca" + "fe\u0301" * 4  # café's é, as e + an accent, after each fe
    offered = (1, 2, 3, 5, 6, 8, 9, 11, 12)  # never between an e and its accent
    assert place_labels(accented, offered)[2] == "ca|fe\u0301fe\u0301…"
    assert place_labels(accented, offered)[12] == "…e\u0301fe\u0301f|e\u0301"  # four letters: é f é f
    # eight letters are written whole, nine are cut to four either side of the bar
    assert place_labels("abcdefgh", tuple(range(1, 8)))[1] == "a|bcdefgh"
    assert place_labels("abcdefghi", tuple(range(1, 9)))[1] == "a|bcde…"
