"""Labels shared by the Merges figures: pairs, steps and tie-break rules in words."""

from __future__ import annotations

from bpe_core import Step
from viz.merges.labels import pair_label, step_summary, tie_break_rule


def test_pair_label_keeps_byte_level_space_marker():
    assert pair_label("Ġ", "t") == "Ġ + t"
    assert pair_label("\n", "\n") == "↵ + ↵"


def test_tie_break_rules_are_named():
    assert tie_break_rule("first") == "first occurrence wins"
    assert tie_break_rule("hf") == "smallest ids (HF) wins"
    assert tie_break_rule("lex") == "greatest pair (lex) wins"


def test_step_summary_names_count_and_ties():
    assert step_summary(Step(1, "a", "n", "an", 6, 4, 1)) == "step 1: a + n → an (count 4)"
    assert step_summary(Step(2, "b", "an", "ban", 7, 2, 3)) == "step 2: b + an → ban (count 2, 3 pairs tied)"
    assert step_summary(Step(3, " ", "t", " t", 9, None, 0)) == "step 3: ␣ + t → ␣t (count n/a)"
