"""Names, colours and plain-text labels shared by the Merges figures.

Every merge figure labels pairs, steps and tie-break rules the same way, and
draws the winning pair in the same colour.

>>> pair_label("a", "n")
'a + n'
"""

from __future__ import annotations

from bpe_core import Step
from viz.describe import TIE_BREAK_WORDS
from viz.escape import plotly_text
from viz.readable import pair_label, readable_symbol

WINNER_COLOUR = "#e4572e"  # the pair merged at this step
TIED_COLOUR = "#f3a712"  # pairs with the winner's count that lost the tie-break
OTHER_COLOUR = "#8da9c4"  # every other pair in the top K


def plot_text(text: str) -> str:
    """A token as plotly text: visible, with ``<``/``>``/``&`` escaped (plotly reads a few HTML tags).

    >>> plot_text("<b>")
    '&lt;b&gt;'
    """
    return plotly_text(readable_symbol(text))


def tie_break_rule(tie_break: str) -> str:
    """The tie-break rule in words: ``tie_break_rule("hf")`` -> ``'smallest ids (HF) wins'``."""
    return f"{TIE_BREAK_WORDS[tie_break]} wins"


def step_summary(step: Step) -> str:
    """One line about a step, plain text.

    >>> step_summary(Step(2, "b", "an", "ban", 7, 2, 3))
    'step 2: b + an → ban (count 2, 3 pairs tied)'
    """
    if step.count is None:
        detail = "count n/a"
    elif step.tied > 1:
        detail = f"count {step.count:,}, {step.tied} pairs tied"
    else:
        detail = f"count {step.count:,}"
    return f"step {step.step}: {pair_label(step.left, step.right)} → {readable_symbol(step.new_token)} ({detail})"
