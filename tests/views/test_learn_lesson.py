"""The Learn page's lesson: what each step shows, asks and expects, checked against the textbook corpora worked by
hand."""

from __future__ import annotations

import re

import pytest
from support.banana import BANANA_BANDANA_MERGES

from pages.learn.views.lesson import (
    EXAMPLES,
    check_count,
    check_next_merge,
    count_hint,
    counts_hint,
    example_corpus,
    example_merges,
    lesson_moment,
    next_merge_choices,
    next_merge_question,
    pair_to_count,
    words_holding,
)
from pages.learn.views.lesson_html import words_html

# "low lower newest widest low low low low newest newest newest newest", words + _ : low ×5, lower ×1, newest ×5,
# widest ×1. Before merge 1: l o 6 (5 + 1), o w 6, w _ 5, w e 6 (lower 1 + newest 5), e r 1, r _ 1, n e 5, e w 5,
# e s 6 (5 + 1), s t 6, t _ 6, w i 1, i d 1, d e 1.
LOW_STEP_1 = {
    ("l", "o"): 6,
    ("o", "w"): 6,
    ("w", "_"): 5,
    ("w", "e"): 6,
    ("e", "r"): 1,
    ("r", "_"): 1,
    ("n", "e"): 5,
    ("e", "w"): 5,
    ("e", "s"): 6,
    ("s", "t"): 6,
    ("t", "_"): 6,
    ("w", "i"): 1,
    ("i", "d"): 1,
    ("d", "e"): 1,
}


def test_low_step_1_six_pairs_tie_at_6_and_the_first_occurrence_wins():
    moment = lesson_moment("low", 1)
    assert dict(moment.pair_counts) == LOW_STEP_1
    assert [pair for pair, _ in moment.pair_counts] == list(LOW_STEP_1)  # in the order they first occur
    assert moment.tied() == [("l", "o"), ("o", "w"), ("w", "e"), ("e", "s"), ("s", "t"), ("t", "_")]
    assert moment.merge == ("l", "o")
    # every tied pair is offered (six, more than the usual four), sorted by how they are written
    assert next_merge_choices(moment) == [("e", "s"), ("l", "o"), ("o", "w"), ("s", "t"), ("t", "_"), ("w", "e")]
    assert check_next_merge(moment, ("l", "o")) == (
        True,
        "Right: l + o merges next. It occurs 6 times, the first of the 6 pairs that occur that often.",
    )
    assert check_next_merge(moment, ("t", "_")) == (
        False,
        "Not this one: t + _ occurs 6 times, as often as 5 other pairs, and the tie goes to l + o, which occurs first.",
    )
    assert check_next_merge(moment, ("w", "_")) == (
        False,
        "Not this one: w + _ occurs 5 times, but l + o occurs 6 times.",
    )
    assert counts_hint(moment, 3) == "The pair counts now: l + o 6, o + w 6, w + e 6, and 11 more."


def test_low_step_2_shows_the_words_cut_by_the_first_merge():
    moment = lesson_moment("low", 2)
    assert moment.words == (
        (("lo", "w", "_"), 5),
        (("lo", "w", "e", "r", "_"), 1),
        (("n", "e", "w", "e", "s", "t", "_"), 5),
        (("w", "i", "d", "e", "s", "t", "_"), 1),
    )
    # lo w 6 now ties with w e, e s, s t, t _; it occurs first
    assert moment.merge == ("lo", "w") and moment.count_of(("lo", "w")) == 6 and len(moment.tied()) == 5
    assert example_merges("low")[:4] == (("l", "o"), ("lo", "w"), ("e", "s"), ("es", "t"))


def test_count_a_pair_with_its_hint():
    moment = lesson_moment("low", 1)
    assert pair_to_count(moment) == ("o", "w")  # the most frequent pair that is not merged now
    assert check_count(moment, ("o", "w"), 6) == (True, "Right: o + w occurs 6 times.")
    assert check_count(moment, ("o", "w"), 5) == (False, "Not quite: o + w occurs 6 times, not 5.")
    hint = count_hint(moment, ("o", "w"))  # the words, not the count: l o w _ ×5 and l o w e r _ ×1 make the 6
    assert (
        hint == "o + w is in l o w _ and l o w e r _: count it in each of those words, times the word's ×, and add up."
    )
    assert not re.search(r"\d", hint)
    assert [(word, count, times) for word, count, times in words_holding(moment, ("e", "s"))] == [
        (("n", "e", "w", "e", "s", "t", "_"), 5, 1),
        (("w", "i", "d", "e", "s", "t", "_"), 1, 1),
    ]


def test_banana_bandana_counts_a_pair_twice_in_one_text():
    # banana_bandana_ is one sequence (no split): a n occurs at b[an][an]a_b[an]d[an]a_: 4 times in the one "word"
    moment = lesson_moment("banana_bandana", 1)
    assert moment.words == ((tuple("banana_bandana_"), 1),)
    assert moment.merge == ("a", "n") and moment.count_of(("a", "n")) == 4
    assert pair_to_count(moment) == ("n", "a")  # n a: ba[na][na]_banda[na]_, 3 times
    assert check_count(moment, ("n", "a"), 3)[0] is True
    hint = count_hint(moment, ("n", "a"))  # one word, once: its "3 times" would be the answer itself
    assert hint == "n + a is in b a n a n a _ b a n d a n a _: count it there, times its ×, and add up."
    assert not re.search(r"\d", hint)
    assert example_merges("banana_bandana") == BANANA_BANDANA_MERGES


def test_hello_step_1_merges_h_e_from_hello_and_there():
    moment = lesson_moment("hello", 1)  # hello ×2, world ×2, there ×2, peace ×1, hi ×1; h e: hello 2 + there 2
    assert moment.merge == ("h", "e") and moment.count_of(("h", "e")) == 4
    assert check_next_merge(moment, ("h", "e")) == (
        True,
        "Right: h + e merges next. It occurs 4 times, more than any other pair.",
    )


def test_every_example_walks_its_first_merges_and_no_more_than_ten():
    assert EXAMPLES == ("low", "banana_bandana", "banana", "hello", "documents")
    # low stops at a vocabulary of 50 or a pair seen once: 9 merges; banana_bandana's preset asks for 6
    assert {example: len(example_merges(example)) for example in EXAMPLES} == {
        "low": 9,
        "banana_bandana": 6,
        "banana": 6,
        "hello": 10,
        "documents": 10,
    }


@pytest.mark.parametrize("example", EXAMPLES)
def test_each_step_offers_its_merge_and_says_so(example):
    for step in range(1, len(example_merges(example)) + 1):
        moment = lesson_moment(example, step)
        assert moment.merge == example_merges(example)[step - 1]
        assert moment.merge in next_merge_choices(moment)
        assert check_next_merge(moment, moment.merge)[0] is True


def test_the_words_are_escaped_and_the_counted_pair_marked():
    moment = lesson_moment("documents", 1)
    html = words_html(moment, highlight=("s", "</w>"))
    assert "&lt;/w&gt;" in html and "</w>" not in html.split("</style>", 1)[1]
    # This ×2, is ×3, this ×2 and Is ×1 end in s </w>: 8 in all, the first merge (the highlighted symbols are bold)
    assert html.count('<span class="sym hit">s</span><span class="sym hit">&lt;/w&gt;</span>') == 4
    assert moment.merge == ("s", "</w>") and moment.count_of(("s", "</w>")) == 8
    assert "font-weight:600" in html


def test_a_preset_without_its_own_text_is_no_lesson_example():
    with pytest.raises(ValueError, match="sample: not a textbook example"):
        example_corpus("sample")  # the shipped sample, read by the Train page


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_first_question_has_one_best_pair_or_states_the_tie_rule(example):
    # a newcomer's first click must be decidable from what the page says: one pair above the rest, or the rule
    moment = lesson_moment(example, 1)
    counts = sorted((count for _, count in moment.pair_counts), reverse=True)
    unique_best = len(counts) == 1 or counts[0] > counts[1]
    assert unique_best or "When pairs tie, the one that occurs first in the text wins." in next_merge_question(moment)


def test_the_tie_rule_is_stated_only_when_the_top_count_ties():
    # low, step 1: six pairs at 6 (LOW_STEP_1); banana_bandana, step 1: a + n 4, n + a 3 (counts_hint's doctest)
    assert next_merge_question(lesson_moment("low", 1)) == (
        "Which pair does BPE merge next? When pairs tie, the one that occurs first in the text wins."
    )
    assert next_merge_question(lesson_moment("banana_bandana", 1)) == "Which pair does BPE merge next?"
