"""Small hand-made records the live-class tests share."""

from __future__ import annotations

from live_class.records import PAIR, Question


def pair_question(number: int = 1) -> Question:
    return Question(number, PAIR, f"Step {number}", ("a + n", "n + a", "b + a"), "a + n")
