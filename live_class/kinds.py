"""The kinds of question a live class asks, one record each: what it asks, how students answer and see it, who
scores. A question keeps its kind's name (``Question.kind``, the text the stores keep); ``kind_of`` is the one place
a name becomes its kind, and a name it does not know is a ``ValueError`` on every layer (a store written by another
version of the app, or a page's mistake: nothing a student or teacher typed).

>>> question = Question(1, "pair", "Step 1", ("a + n", "n + a"), "n + a")
>>> PAIR.winners(question, {"s1": "a + n", "s2": "n + a"}), COUNT.read_vote(question, " 1,000 ")
({'s2'}, '1000')
>>> kind_of("pair") is PAIR, kind_of("count").asks
(True, 'How many tokens will GPT-4 use for this sentence?')
>>> kind_of("poll")
Traceback (most recent call last):
...
ValueError: unknown question kind 'poll' (this app asks: pair, longest, count, model_count)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from live_class import rules
from live_class.records import Question
from live_class.rules import ClassProblem


@dataclass(frozen=True)
class QuestionKind:
    name: str  # what a Question and the stores keep
    asks: str  # the question as a student's screen and the teacher's button put it
    asks_briefly: str  # on the projector's banner, before the number of votes
    taps_choices: bool  # students tap one of the question's choices and see their tally; else they type a number
    answer_is: str  # what the reveal says before the answer: "The pair merged: a + n", "GPT-4 uses 7 tokens"
    read_vote: Callable[[Question, str], str]  # a student's answer as it is kept, or ClassProblem
    winners: Callable[[Question, dict[str, str]], set[str]]  # who scores a point once the answer is revealed

    def check(self, choices: tuple[str, ...], answer: str) -> None:
        """A question of this kind with these choices and answer can be asked; else ``ValueError`` (a page's
        mistake, not a user's)."""
        if self.taps_choices and answer not in choices:
            raise ValueError(f"a {self.name} question needs its answer among its choices")


def _one_of_the_choices(question: Question, answer: str) -> str:
    if answer not in question.choices:
        raise ClassProblem("That is not one of the choices.")
    return answer


def _right_choice(question: Question, votes: dict[str, str]) -> set[str]:
    return {student for student, answer in votes.items() if answer == question.answer}


def _closest_count(question: Question, votes: dict[str, str]) -> set[str]:
    return rules.closest_guesses(int(question.answer), votes)


def _guessed_count(question: Question, typed: str) -> str:
    return str(rules.read_guess(typed))


def _tapped(name: str, asks: str, answer_is: str) -> QuestionKind:
    """A kind whose students tap one of its choices; the right one scores."""
    return QuestionKind(name, asks, asks, True, answer_is, read_vote=_one_of_the_choices, winners=_right_choice)


def _counted(name: str, asks: str, asks_briefly: str, answer_is: str) -> QuestionKind:
    """A kind whose students type a number of tokens; the closest guesses score."""
    return QuestionKind(name, asks, asks_briefly, False, answer_is, read_vote=_guessed_count, winners=_closest_count)


# the choices: the step's top pairs; the answer: the one merged
PAIR = _tapped("pair", "Which pair merges next?", "The pair merged:")
# the choices: tokens made so far; the answer: the one that stands for the most characters
LONGEST = _tapped("longest", "Which is the longest token so far?", "The longest token so far:")
# no choices, a number is typed; the answer: GPT-4's count, or the class model's
COUNT = _counted(
    "count", "How many tokens will GPT-4 use for this sentence?", "How many tokens will GPT-4 use?", "GPT-4 uses"
)
MODEL_COUNT = _counted(
    "model_count",
    "How many tokens will our model use for this sentence?",
    "How many tokens will our model use?",
    "Our model uses",
)
QUESTION_KINDS = {kind.name: kind for kind in (PAIR, LONGEST, COUNT, MODEL_COUNT)}
COUNTED_BY = {"GPT-4": COUNT, "our model": MODEL_COUNT}  # who counts a sentence's tokens, as the teacher picks


def kind_of(name: str) -> QuestionKind:
    """The kind a question's ``kind`` names; ``ValueError`` for a name this app does not ask."""
    try:
        return QUESTION_KINDS[name]
    except KeyError:
        raise ValueError(f"unknown question kind {name!r} (this app asks: {', '.join(QUESTION_KINDS)})") from None
