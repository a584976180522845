"""Names, colours and plain-text labels shared by the Merges figures.

Every merge figure labels pairs, steps and tie-break rules the same way, and
draws the winning pair in the same colour. A byte-level token is named by the text its bytes spell, as the token
boxes show it (``␣`` for a space), not by GPT-2's stand-ins (``Ġ``): one notation on the whole page.

>>> token_pair("a", "n", byte_level=False), token_pair("Ġ", "Ġ", byte_level=True)
('a + n', '␣ + ␣')
"""

from __future__ import annotations

from bpe_core import Step
from drawing.describe import TIE_BREAK_WORDS
from drawing.readable import token_pair, token_text

WINNER_COLOUR = "#e4572e"  # the pair merged at this step
TIED_COLOUR = "#f3a712"  # pairs with the winner's count that lost the tie-break
OTHER_COLOUR = "#8da9c4"  # every other pair in the top K


def tie_break_rule(tie_break: str) -> str:
    """The tie-break rule in words: ``tie_break_rule("hf")`` -> ``'the pair with the lowest ids wins'``."""
    return f"{TIE_BREAK_WORDS[tie_break]} wins"


def step_summary(step: Step, byte_level: bool = False) -> str:
    """One line about a step, plain text (tokens in ``token_text``'s notation).

    >>> step_summary(Step(2, "b", "an", "ban", 7, 2, 3))
    'step 2: b + an → ban (count 2, 3 pairs tied)'
    """
    if step.count is None:
        detail = "count n/a"
    elif step.tied > 1:
        detail = f"count {step.count:,}, {step.tied} pairs tied"
    else:
        detail = f"count {step.count:,}"
    made = token_text(step.new_token, byte_level)
    return f"step {step.step}: {token_pair(step.left, step.right, byte_level)} → {made} ({detail})"
