"""The Learn page's own session-state keys and its choices in its address: the example, the exercise and the step
(a phone's reload comes back to the same place; an exercise beyond the textbook keeps the example and the step for
when the learner comes back to one). The learner's answers are the widgets', one per step and exercise,
and stay out of the address.
"""

from __future__ import annotations

import streamlit as st

from pages.learn.views.lesson import EXAMPLES, LESSON_STEPS
from session import state
from session.choices import Choice, OneOf, WholeNumber

EXAMPLE_KEY, EXERCISE_KEY, STEP_KEY = "learn_example", "learn_exercise", "learn_step"
VERDICT_KEY = "learn_verdict"  # the container of right or wrong, scrolled into view after an answer
EXERCISES = {  # name in the address -> label
    "next": "Predict the next merge",
    "count": "Count a pair",
    "encode": "Encode a word",
    "decode": "Decode ids",
    "premium": "Which language costs most?",
    "healing": "The prompt's last token",
}
BEYOND_TEXTBOOK = ("premium", "healing")  # on published tokenizers: no example, no step

CHOICES = (
    Choice(EXAMPLE_KEY, EXAMPLES[0], "example", OneOf(EXAMPLES)),
    Choice(EXERCISE_KEY, "next", "exercise", OneOf(tuple(EXERCISES))),
    Choice(STEP_KEY, 1, "step", WholeNumber(1, LESSON_STEPS)),  # kept within the example's merges when drawn
)


def answer_key(exercise: str, example: str, step: int) -> str:
    """The widget key of one answer: a new step or example starts with a blank answer, an old one keeps its own.

    >>> answer_key("count", "low", 3)
    'learn_answer_count_low_3'
    """
    return f"learn_answer_{exercise}_{example}_{step}"


def move_step(delta: int, steps: int) -> None:
    """The step buttons' callback: ``delta`` steps on, within the example's ``steps``."""
    st.session_state[STEP_KEY] = max(1, min(steps, st.session_state.get(STEP_KEY, 1) + delta))


def keep_step_within(steps: int, title: str) -> str:
    """Keep the step within the example's ``steps`` merges (an address or another example may have asked for more);
    the sentence saying so when it was past them, else ""."""
    asked = st.session_state.get(STEP_KEY, 1)
    state.keep_in_range(STEP_KEY, 1, steps)
    return f"Step {asked} is past the {steps} merges of {title}: here is step {steps}." if asked > steps else ""
