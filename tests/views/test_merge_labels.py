"""Labels shared by the Merges figures: pairs, steps and tie-break rules in words."""

from __future__ import annotations

from bpe_core import Step
from pages.merges.views.labels import step_summary, tie_break_rule, token_pair, token_text


def test_a_pair_of_characters_keeps_its_own_spelling():
    assert token_pair("Ġ", "t", byte_level=False) == "Ġ + t"
    assert token_pair("\n", "\n", byte_level=False) == "↵ + ↵"


def test_tie_break_rules_are_named():
    assert tie_break_rule("first") == "the pair seen first wins"
    assert tie_break_rule("hf") == "the pair with the lowest ids wins"
    assert tie_break_rule("lex") == "the greatest pair wins"


def test_step_summary_names_count_and_ties():
    assert step_summary(Step(1, "a", "n", "an", 6, 4, 1)) == "step 1: a + n → an (count 4)"
    assert step_summary(Step(2, "b", "an", "ban", 7, 2, 3)) == "step 2: b + an → ban (count 2, 3 pairs tied)"
    assert step_summary(Step(3, " ", "t", " t", 9, None, 0)) == "step 3: ␣ + t → ␣t (count n/a)"


def test_token_text_spells_byte_level_tokens_as_text():
    assert token_text("ĠĠ", byte_level=True) == "␣␣"  # GPT-2's stand-in Ġ is the byte 0x20
    assert token_text("Ċ", byte_level=True) == "↵"  # Ċ is 0x0A
    assert token_text("Ã©", byte_level=True) == "é"  # 0xC3 0xA9: é in UTF-8
    assert token_text("ĠÃ", byte_level=True) == "␣\\xc3"  # half a character: its byte in hex
    assert token_text("<", byte_level=True) == "<"  # plain text: escape it where it goes
    assert token_text("ĠĠ", byte_level=False) == "ĠĠ"  # a model of characters may really hold Ġ
    assert token_text("a b", byte_level=True) == "a␣b"  # a space is no stand-in: the token is read as it is
    assert token_pair("Ġ", "Ġ", byte_level=True) == "␣ + ␣"
    assert step_summary(Step(1, "Ġ", "t", "Ġt", 256, 9, 1), byte_level=True) == "step 1: ␣ + t → ␣t (count 9)"
