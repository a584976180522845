"""The one key to the glyphs tokens are written with (drawing/notation.py): each mark named when, and only when, a view
shows it; GPT-2's stand-ins only where the view says it writes them."""

from __future__ import annotations

import pytest

from bpe_core import Config
from drawing.notation import glyph_legend, glyphs_shown, token_glyph_legend


def named(texts, **flags) -> list[str]:
    return [glyph for glyph, _ in glyphs_shown(texts, **flags)]


@pytest.mark.parametrize(
    "text, glyph",
    [
        ("a␣b", "␣"),
        ("a↵", "↵"),
        ("→x", "→"),
        ("←", "←"),
        ("\\xc3", "\\xNN"),  # a partial byte as drawing.readable writes it
        ("\\u200b", "\\uNNNN"),  # a zero-width space
        ("<0xE2>", "<0xNN>"),  # byte fallback (Llama, Gemma)
        ("▁the", "▁"),  # SentencePiece's space
        ("low</w>", "</w>"),
    ],
)
def test_each_mark_is_named_when_shown(text, glyph):
    assert named([text]) == [glyph]


def test_plain_text_needs_no_key():
    assert glyph_legend(["the", "an", "x0e2", "<0xg1>", "\\x", "w>"]) == ""


def test_the_key_names_marks_in_a_fixed_order_once_each():
    assert named(["</w>", "b␣", "a␣", "↵"]) == ["␣", "↵", "</w>"]
    assert glyph_legend(["a␣", "↵"]) == "Key: ␣ a space · ↵ a newline."


def test_gpt2_stand_ins_are_named_only_where_the_view_writes_them():
    maltese = "Ġgantija"  # Ġ is a letter of Maltese
    assert named([maltese]) == []
    assert named([maltese], spaces_as_g=True) == ["Ġ"]
    # raw byte-level symbols: Ġ a space, Ċ a newline, Ã© the two bytes of é (0xC3 0xA9)
    assert named(["Ġcaf", "Ã©", "Ċ"], byte_alphabet=True) == ["Ġ", "Ċ", "Ã©"]
    assert named(["plain ascii"], byte_alphabet=True) == []
    assert named(["é"], byte_alphabet=True) == ["Ã©"]  # raw, é is byte 0xE9's stand-in, not the letter


def test_a_models_tokens_are_keyed_as_written():
    gpt2 = Config(split="gpt2", units="bytes")
    assert token_glyph_legend(["Ġthe"], gpt2) == "Key: ␣ a space."  # written ␣the
    assert "\\xNN" in token_glyph_legend(["Ã"], gpt2)  # 0xC3 alone: part of a character
    assert token_glyph_legend(["Ã©"], gpt2) == ""  # é whole
    assert token_glyph_legend(["Ġthe"], Config(space_marker=True)) == "Key: Ġ a space in GPT-2's byte alphabet."
