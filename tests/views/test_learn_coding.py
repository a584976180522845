"""The Learn page's encoding and decoding exercises, checked against the textbook corpora worked by hand."""

from __future__ import annotations

import pytest

from pages.learn.views.coding import (
    answer_placeholder,
    check_decoding,
    check_encoding,
    decode_ids,
    decoded_text,
    encode_answer,
    replay,
    typed_tokens,
    vocabulary,
)
from pages.learn.views.lesson import EXAMPLES, lesson_moment


def test_lowest_is_cut_by_the_merges_so_far():
    # low's merges: l o, lo w, e s, es t, est _, low _, n e, ne w, new est_
    assert encode_answer("low", 1) == ("l", "o", "w", "e", "s", "t", "_")
    assert encode_answer("low", 4) == ("low", "es", "t", "_")
    assert encode_answer("low", 9) == ("low", "est_")  # low _ never applies: low is followed by est_ here
    assert check_encoding("low", 9, "  low   est_ ") == (True, "Right: lowest is low est_ (2 tokens) after 8 merges.")
    assert check_encoding("low", 2, "lo w e s t _") == (True, "Right: lowest is lo w e s t _ (6 tokens) after 1 merge.")
    assert check_encoding("low", 9, "lowest_") == (
        False,
        "Not quite: after 8 merges lowest is low est_ (2 tokens), not lowest_.",
    )
    assert replay("low", 3) == ["l o w e s t _", "after l + o: lo w e s t _", "after lo + w: low e s t _"]
    # a merge that leaves the word as it is (low _, n e, ne w, new est_) is no line of the hint
    assert replay("low", 9)[3:] == ["after e + s: low es t _", "after es + t: low est _", "after est + _: low est_"]
    assert len(replay("low", 9)) == 6


def test_bandana_as_the_textbook_encodes_it():
    # bpe_core.textbook's own worked example: after a n, b an, an a, ana _ the text bandana_ is ban d ana_
    assert encode_answer("banana_bandana", 5) == ("ban", "d", "ana_")
    assert replay("banana_bandana", 5) == [
        "b a n d a n a _",
        "after a + n: b an d an a _",
        "after b + an: ban d an a _",
        "after an + a: ban d ana _",
        "after ana + _: ban d ana_",
    ]


def test_a_space_is_a_symbol_of_its_own_in_banana_banana():
    # split none, spaces as Ġ: banana ban is b a n a n a Ġ b a n; after a n and b an: ban an a Ġ ban
    assert encode_answer("banana", 3) == ("ban", "an", "a", "Ġ", "ban")
    assert check_encoding("banana", 3, "ban an a Ġ ban")[0] is True
    assert check_encoding("banana", 3, "ban an a _ ban")[0] is True  # Ġ typed as _, as the key says
    assert check_encoding("banana", 3, "ban an a - ban")[0] is False
    assert check_encoding("low", 4, "low es t Ġ")[0] is False  # low's _ ends a word: no Ġ stands for it


def test_newest_decoded_from_its_ids():
    # base ids in code-point order: <unk> 0, _ 1, d 2, e 3, i 4, l 5, n 6, o 7, r 8, s 9, t 10, w 11
    assert vocabulary("low", 1) == {
        "<unk>": 0, "_": 1, "d": 2, "e": 3, "i": 4, "l": 5, "n": 6, "o": 7, "r": 8, "s": 9, "t": 10, "w": 11,
    }  # fmt: skip
    assert decode_ids("low", 1) == [6, 3, 11, 3, 9, 10, 1]  # n e w e s t _
    # then lo 12, low 13, es 14, est 15, est_ 16, low_ 17, ne 18, new 19: newest is new est_
    assert decode_ids("low", 9) == [19, 16]
    assert decoded_text("low", 9, [19, 16]) == "newest" and decoded_text("low", 9, [17, 17]) == "low low"
    assert check_decoding("low", 9, " newest ") == (True, "Right: the ids spell newest.")
    assert check_decoding("low", 9, "new est") == (False, "Not quite: the ids spell newest, not new est.")


def test_banana_decoded_with_its_space_marker():
    # bananaĠbanana: <unk> 0, a 1, b 2, n 3, Ġ 4 (U+0120 after the letters)
    assert decode_ids("banana", 1) == [2, 1, 3, 1, 3, 1]
    assert decoded_text("banana", 1, [2, 1, 4, 3]) == "ba n"


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_answer_placeholder_is_an_answer_as_typed(example):
    """The empty box's example is the text's first word in base symbols, typed as an answer must be: read back by
    typed_tokens it is that word, its end mark or space mark included (the issue's "e.g. l o w" left out the _)."""
    placeholder = answer_placeholder(example)
    assert placeholder.startswith("e.g. ")
    assert typed_tokens(example, placeholder.removeprefix("e.g. ")) == lesson_moment(example, 1).words[0][0]
    assert answer_placeholder("low") == "e.g. l o w _"
