"""Where tokenizers cut a text differently: stretches between the places every tokenizer cuts, checked by hand and
against tiktoken's own token offsets; the aligned view's HTML escaped, marked and folded to one row on a phone."""

from __future__ import annotations

import re

import pytest

from bpe_core import Config, Token, train
from bpe_core.pretrained import load_pretrained
from pages.compare.views.aligned_html import aligned_html, row_key, stretch_details
from pages.compare.views.disagreement import Piece, disagreement_sentence, line_up, pieces_of, rows_of, text_positions


def spans(stretches):
    return [(stretch.start, stretch.end, stretch.differs) for stretch in stretches]


def row(*cuts: tuple[int, int]) -> list[Piece]:
    return [Piece(start, end, (index,), (f"t{index}",)) for index, (start, end) in enumerate(cuts)]


@pytest.mark.parametrize(
    ("text", "shown", "positions"),
    [
        ("ab", "ab", [0, 1, 2]),
        ("a b", "a▁b", [0, 1, 2, 3]),  # Gemma 3 writes a space as ▁
        ("a b", "▁a▁b", [0, 0, 1, 2, 3]),  # Llama 2 puts one in front too
        ("ﬁ!", "fi!", [0, 0, 1, 2]),  # NFKC: the ligature is two letters
        ("Ab", "ab", None),  # lowercased: not a rewrite these views line up
        ("ab", "abc", None),
    ],
)
def test_a_normalized_text_is_lined_up_with_the_text_typed(text, shown, positions):
    assert text_positions(text, shown) == positions


def test_tokens_sharing_a_character_and_markers_are_one_piece():
    tokens = [  # "a" with a marker after it; an emoji's bytes in two tokens, the first with the space before it
        Token(1, "a", 0, 1, b"a"),
        Token(2, "</w>", 1, 1, b""),
        Token(3, "ĠðŁĺ", 1, 3, b" \xf0\x9f\x98", partial=True),
        Token(4, "Ģ", 2, 3, b"\x80", partial=True),
    ]
    pieces = pieces_of(tokens, range(4))
    assert [(piece.start, piece.end, piece.ids) for piece in pieces] == [(0, 1, (1, 2)), (1, 3, (3, 4))]


def test_stretches_by_hand():
    # "lowest" (6): A cuts low|est, B low|e|st, C lo|west: all three cut at 0 and 6 only, and A and B at 3
    assert spans(line_up(6, [row((0, 3), (3, 6)), row((0, 3), (3, 4), (4, 6))])) == [(0, 3, False), (3, 6, True)]
    assert spans(line_up(6, [row((0, 3), (3, 6)), row((0, 2), (2, 6))])) == [(0, 6, True)]
    assert spans(line_up(6, [row((0, 3), (3, 6)), row((0, 3), (3, 6))])) == [(0, 3, False), (3, 6, False)]
    # a whitespace split drops the space of "a b": A has no piece at 1-2, B covers it with the b
    stretches = line_up(3, [row((0, 1), (2, 3)), row((0, 1), (1, 3))])
    assert spans(stretches) == [(0, 1, False), (1, 3, True)]
    assert [len(pieces) for pieces in stretches[1].pieces] == [1, 1]


TEXTS = [
    "Tokenizers don't read words, they read pieces.",
    "    indented = x  # comment\n\treturn 12345678",
    "I'LL see you at 3:30!!!   Okay...",
]


@pytest.mark.parametrize("text", TEXTS)
def test_gpt_tokenizers_disagree_where_tiktoken_s_offsets_say(tiktoken_module, text):
    """Each tokenizer's cuts from tiktoken itself (ASCII text: every token starts on a character); a stretch is
    marked exactly when some tokenizer cuts strictly inside it."""
    names = ("gpt2", "cl100k_base", "o200k_base")
    cuts = []
    for name in names:
        encoding = tiktoken_module.get_encoding(name)
        cuts.append(set(encoding.decode_with_offsets(encoding.encode(text))[1]) | {len(text)})
    shared = sorted(set.intersection(*cuts))
    every_cut = set.union(*cuts)
    expected = [(a, b, any(a < cut < b for cut in every_cut)) for a, b in zip(shared, shared[1:])]
    rows, left_out = rows_of(text, {name: load_pretrained(name) for name in names})
    assert left_out == [] and spans(line_up(len(text), list(rows.values()))) == expected
    assert any(differs for *_, differs in expected)  # each text shows some disagreement


def test_a_normalizing_tokenizer_is_lined_up_on_the_text_typed():
    """Llama 2 sees "▁Hello▁world" but its pieces are placed on "Hello world": ▁Hello covers 0-5, ▁world 5-11."""
    rows, left_out = rows_of("Hello world", {"Llama 2": load_pretrained("llama2")})
    assert left_out == [] and [(piece.start, piece.end) for piece in rows["Llama 2"]] == [(0, 5), (5, 11)]


def test_the_sentence_counts_stretches_and_characters():
    stretches = line_up(6, [row((0, 3), (3, 6)), row((0, 3), (3, 4), (4, 6))])
    assert disagreement_sentence(["A", "B"], stretches) == (
        "A and B cut 1 of 2 stretches differently (3 of 6 characters), marked below."
    )
    assert disagreement_sentence(["A", "B", "C"], line_up(2, [row((0, 2))] * 3)) == (
        "A, B and C cut this text in the same places."
    )


def test_a_title_with_an_and_of_its_own_leaves_the_list_one_and():
    """The issue's "Llama 3, Qwen3.5 and Qwen3.6 and DeepSeek-V4 cut 14…": Qwen's title joins its names by a slash."""
    titles = ["Llama 3", "Qwen3.5 and Qwen3.6", "DeepSeek-V4"]
    assert disagreement_sentence(titles, line_up(2, [row((0, 2))] * 3)) == (
        "Llama 3, Qwen3.5/Qwen3.6 and DeepSeek-V4 cut this text in the same places."
    )


def test_the_aligned_view_marks_escapes_and_folds_to_one_row_on_a_phone():
    text = "<b>x"
    merged = train(text, Config(split="none"), merges=1)  # every pair occurs once: the first, < b, is merged
    chars = train(text, Config(split="none"), merges=0)
    rows, _ = rows_of(text, {"merged": merged, "chars": chars})
    stretches = line_up(len(text), list(rows.values()))
    assert spans(stretches) == [(0, 2, True), (2, 3, False), (3, 4, False)]
    html = aligned_html(text, list(rows), stretches, phone_row=1)
    body = re.sub(r"<style>.*?</style>", "", html, flags=re.S)
    assert "<b" not in body and body.count("&lt;b") == 4  # the stretch, the merged piece, twice in the details
    assert body.count('class="st differs"') == 1 and body.count('tabindex="0" data-details=') == 1
    assert body.count('class="rw r1 chosen"') == len(stretches) and 'class="rw r0 chosen"' not in body
    assert "@media (max-width:640px){.bpe-al .rw:not(.chosen),.bpe-al-key{display:none}}" in html
    assert stretch_details(text, list(rows), stretches[0]).splitlines() == [
        "text '<b'",
        f"merged: '<b' ({merged.vocab['<b']})",
        f"chars: '<' ({chars.vocab['<']}) 'b' ({chars.vocab['b']})",
    ]
    key = row_key(["<b>"])
    assert "&lt;b&gt;" in key and "<b>" not in key
