"""The text a pair question is about (classroom views/step_text.py) and what the reveal says (text_view.py): worked
out by hand on the textbook corpus, and held to the textbook trainer (bpe_core/textbook.py) on other corpora."""

from __future__ import annotations

import re

import pytest
from wcag import contrast

from bpe_core import Config, textbook, train
from bpe_core.config import TIE_BREAKS
from drawing.readable import token_text
from live_class.records import Question, StepText
from pages.classroom.views.questions import pair_question
from pages.classroom.views.step_text import ALL_WORDS_UP_TO, MOST_FREQUENT, model_pieces, shown_pieces, step_text
from pages.classroom.views.text_view import (
    FOLD_OVER,
    MARK_COLOURS,
    TIE_RULES,
    reveal_html,
    reveal_sentence,
    style_html,
    text_html,
)

TEXTBOOK = "low lower newest widest low low low low newest newest newest newest"  # Train's textbook corpus
HOSTILE = "<img src=x onerror=alert(1)>"


def asked(corpus: str, config: Config, step: int, merges: int = 6) -> Question:
    """Step ``step``'s pair question of a model of ``corpus``, with its text, as the teacher's page asks it."""
    model = train(corpus, config, merges=merges)
    prompt, choices, answer = pair_question(model, step)
    text = step_text(model, shown_pieces(model_pieces(corpus, config)), step, choices)
    return Question(step, "pair", prompt, choices, answer, text=text)


def test_step_one_of_the_textbook_shows_every_word_cut_into_letters_with_the_pairs_marked():
    """low ×5, lower, newest ×5, widest as letters and </w>. Before step 1, l+o, o+w, w+e, e+s, s+t and t+</w>
    occur 6 times each; the choices are the first four, in reading order: A e+s, B l+o, C o+w, D w+e."""
    question = asked(TEXTBOOK, Config(end_of_word="</w>"), 1)
    assert question.choices == ("e + s", "l + o", "o + w", "w + e") and question.answer == "l + o"
    words = [(word.symbols, word.count, word.marks) for word in question.text.words]
    assert words == [
        (("l", "o", "w", "</w>"), 5, (1, 2, -1)),
        (("l", "o", "w", "e", "r", "</w>"), 1, (1, 2, 3, -1, -1)),
        (("n", "e", "w", "e", "s", "t", "</w>"), 5, (-1, -1, 3, 0, -1, -1)),
        (("w", "i", "d", "e", "s", "t", "</w>"), 1, (-1, -1, -1, 0, -1, -1)),
    ]
    assert (question.text.counts, question.text.tied, question.text.more, question.text.made) == ((6,) * 4, 6, 0, "")
    assert reveal_sentence(question) == (
        "l + o merges: it occurs 6 times in the text. 6 pairs occur 6 times, the most: "
        "the first pair to occur in the text wins."
    )


def test_the_next_step_shows_the_symbol_just_made():
    """Step 2 of the textbook: l+o made lo, so low is lo w </w>, outlined where it stands; lo+w occurs 6 times."""
    question = asked(TEXTBOOK, Config(end_of_word="</w>"), 2)
    assert question.text.made == "lo" and question.text.words[0].symbols == ("lo", "w", "</w>")
    words = re.search(r'<div class="bpe-words">(.*?)</div>', text_html(question)).group(1)
    assert words.count('<i class="bpe-made">lo</i>') == 2  # low and lower
    assert question.text.counts[question.choices.index("lo + w")] == 6


@pytest.mark.parametrize(
    ("tie_break", "answer"),
    [("lex", "w + e"), ("hf", "e + s")],  # the greatest pair; the smallest ids (</w> d e i l n o r s t w: e first)
)
def test_each_tie_break_rule_is_said_in_its_own_words(tie_break, answer):
    question = asked(TEXTBOOK, Config(end_of_word="</w>", tie_break=tie_break), 1)
    assert question.answer == answer
    assert reveal_sentence(question).endswith(f"6 pairs occur 6 times, the most: {TIE_RULES[tie_break]}.")


def test_every_tie_break_rule_has_its_words():
    assert set(TIE_RULES) == set(TIE_BREAKS)


def test_a_clear_winner_is_said_so():
    """banana_bandana_, one piece: a+n occurs 4 times, n+a 3: no tie."""
    question = asked("banana_bandana_", Config(split="none"), 1)
    assert reveal_sentence(question) == "a + n merges: it occurs 4 times in the text, more than any other pair."


def test_a_question_without_its_text_reveals_nothing_rather_than_failing():
    question = Question(1, "pair", "Step 1", ("a + n", "n + a"), "a + n")  # a record without its text
    assert reveal_sentence(question) == "" and reveal_html(question, [("a + n", 2)]) == ""


@pytest.mark.parametrize(
    ("corpus", "config"),
    [
        (TEXTBOOK, Config(end_of_word="</w>")),
        ("banana_bandana_", Config(split="none")),
        ("low lower lowest newer wider ok", Config(split="gpt2", units="bytes")),
        ("aaa aaaa abab babab", Config(tie_break="hf")),
        ("the cat sat on the mat, the hat!", Config(split="gpt4", tie_break="lex", space_marker=True)),
    ],
)
def test_each_steps_words_are_the_textbooks_words_before_that_merge(corpus, config):
    """The textbook recounts everything before each merge: its words after k - 1 merges are the text of step k,
    and each offered pair's marks, counted as often as their word occurs, add up to the trace's count."""
    merges = textbook.train_merges(corpus, config, merges=6)
    words = textbook.words_of(corpus, config)
    model = train(corpus, config, merges=6)
    for step, pair in enumerate(merges, start=1):
        if pair_question(model, step) is not None:  # a step with no rival asks nothing
            question = asked(corpus, config, step)
            expected = [(tuple(token_text(s, config.byte_level) for s in word), n) for word, n in words.items()]
            assert [(word.symbols, word.count) for word in question.text.words] == expected, step
            for index, count in enumerate(question.text.counts):
                marked = sum(word.count * word.marks.count(index) for word in question.text.words)
                assert marked == count, (step, question.choices[index])
        merged: dict[tuple[str, ...], int] = {}
        for word, n in words.items():
            merged[textbook.merge(word, pair)] = merged.get(textbook.merge(word, pair), 0) + n
        words = merged


def test_a_large_corpus_shows_its_most_frequent_words_and_how_many_more():
    """31 different words: "the" 4 times, "a" 3 times, "of" twice, the other 28 once; the 12 shown are the, a, of,
    then the first nine words seen once."""
    others = [f"w{chr(ord('a') + n)}x" for n in range(ALL_WORDS_UP_TO - 2)]
    corpus = " ".join(["the", *others[:5], "a", "the", "of", *others[5:], "a", "the", "of", "a", "the"])
    question = asked(corpus, Config(), 1, merges=2)
    shown = ["".join(word.symbols) for word in question.text.words]
    assert len(shown) == MOST_FREQUENT and shown[:3] == ["the", "a", "of"] and shown[3:] == others[:9]
    assert [word.count for word in question.text.words[:4]] == [4, 3, 2, 1]
    assert question.text.more == 31 - MOST_FREQUENT
    body = text_html(question)
    assert "its 12 most frequent words of 31" in body and "… and 19 more words" in body


def test_a_phone_folds_a_long_text_and_opens_a_short_one():
    short = asked(TEXTBOOK, Config(end_of_word="</w>"), 1)  # 4 words
    words = " ".join(f"w{chr(ord('a') + n)}x" for n in range(FOLD_OVER + 1))
    long = asked(f"{words} wax wax", Config(), 1, merges=2)  # FOLD_OVER + 1 words
    assert '<details class="bpe-text" open>' in text_html(short, folded=True)
    assert '<details class="bpe-text">' in text_html(long, folded=True)
    assert '<details class="bpe-text" open>' in text_html(long)  # the projector's: always open


def test_the_key_gives_each_offered_pair_its_letter_and_the_words_carry_them():
    body = text_html(asked(TEXTBOOK, Config(end_of_word="</w>"), 1))
    key = re.search(r'<div class="bpe-key">(.*?)</div>', body).group(1)
    assert re.findall(r">([A-D])</b> ([^<·]+?) ?(?:·|$)", key) == [
        ("A", "e + s"),
        ("B", "l + o"),
        ("C", "o + w"),
        ("D", "w + e"),
    ]
    low = re.search(r'<span class="bpe-word">(.*?)</span>', body).group(1)  # l B o C w </w> ×5
    assert re.sub(r"<[^>]*>", " ", low).split() == ["l", "B", "o", "C", "w", "&lt;/w&gt;", "×5"]


def test_the_reveal_puts_each_pairs_count_beside_its_votes():
    question = asked(TEXTBOOK, Config(end_of_word="</w>"), 1).replace(revealed=True)
    body = reveal_html(question, [("e + s", 1), ("l + o", 3), ("o + w", 0), ("w + e", 2)])
    rows = [re.sub(r"<[^>]*>", " ", row).split() for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body)[1:]]
    assert rows == [
        ["A", "e", "+", "s", "6", "1"],
        ["B", "l", "+", "o", "✓", "6", "3"],
        ["C", "o", "+", "w", "6", "0"],
        ["D", "w", "+", "e", "6", "2"],
    ]
    assert body.count('class="bpe-won"') == 1


def test_corpus_text_stays_literal():
    question = asked(f"{HOSTILE} {HOSTILE} ok", Config(), 1, merges=3)
    for body in (text_html(question), reveal_html(question, [(choice, 0) for choice in question.choices])):
        assert "<img" not in body and "&lt;" in body


def test_a_long_piece_shows_its_beginning():
    """A text not split into words is one piece: only its first characters are cut and shown, marked clipped."""
    corpus = "ab" * 100
    question = asked(corpus, Config(split="none"), 1, merges=3)
    (word,) = question.text.words
    assert word.clipped and "".join(word.symbols) == corpus[:80] and "…" in text_html(question)


def test_the_pairs_letters_keep_aa_contrast_on_their_colours():
    """White letters on each pair's colour, as the style sheet draws them: WCAG AA (4.5:1)."""
    assert "color:#fff;" in re.search(r"\.bpe-word b,[^{]*\{([^}]*)\}", style_html()).group(1)
    for index, colour in enumerate(MARK_COLOURS):
        assert f".bpe-m{index}{{background:{colour}}}" in style_html()
        assert contrast("#ffffff", colour) >= 4.5, colour


def test_a_right_to_left_pair_keeps_the_reveal_sentence_in_order():
    text = StepText((), more=0, counts=(4, 3), tied=1, tie_break="first")
    pair = "\u05e9 + \u05dc"
    said = reveal_sentence(Question(1, "pair", "Step 1", (pair, "a + b"), pair, text=text))
    assert said == f"\u2068{pair}\u2069 merges: it occurs 4 times in the text, more than any other pair."


def test_signs_cut_out_by_the_pre_tokenizer_are_not_called_words():
    """GPT-2's split cuts "the cat, the dog. the end" into the, ␣cat, ",", ␣the, ␣dog, ".", ␣the, ␣end: 8 pieces, 7
    different ones (the first "the" has no space before it), two of them signs; the textbook corpus (whitespace
    split) has only words."""
    signs = asked("the cat, the dog. the end", Config(split="gpt2"), 1, merges=2)
    body = text_html(signs)
    assert "The text so far: 7 words and signs, each with its count" in body
    assert "pre-tokenizer first cuts the text into pieces" in body  # the tooltip says why
    assert "The text so far: 4 words, each with its count" in text_html(asked(TEXTBOOK, Config(), 1))
