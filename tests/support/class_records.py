"""Small hand-made records the live-class tests share."""

from __future__ import annotations

from live_class.kinds import PAIR
from live_class.records import Question


def pair_question(number: int = 1) -> Question:
    """Question ``number``: which pair merges at that step, a + n the answer."""
    return Question(number, PAIR.name, f"Step {number}", ("a + n", "n + a", "b + a"), "a + n")
