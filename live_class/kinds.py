"""The kinds of question a live class asks, one record each: what it asks, how students answer and see it, the
points each earns. A question keeps its kind's name (``Question.kind``, the text the stores keep); ``kind_of`` is
the one place a name becomes its kind, and a name it does not know is a ``ValueError`` on every layer (a store
written by another version of the app, or a page's mistake: nothing a student or teacher typed).

>>> question = Question(1, "pair", "Step 1", ("a + n", "n + a"), "n + a")
>>> PAIR.points(question, {"s1": "a + n", "s2": "n + a"}), COUNT.read_vote(question, " 1,000 ")
({'s2': 1}, '1000')
>>> kind_of("pair") is PAIR, kind_of("count").asks
(True, 'How many tokens will GPT-4 use for this sentence?')
>>> kind_of("poll")
Traceback (most recent call last):
...
ValueError: unknown question kind 'poll' (this app asks: pair, longest, count, model_count, split, costliest)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from live_class import cuts, rules
from live_class.bidi import isolated
from live_class.records import Question
from live_class.rules import ClassProblem


class Answering(Enum):
    """How students answer a kind of question, and so how every screen draws it."""

    TAP = "tap one of the question's choices (the projector shows the tally)"
    TYPE = "type a number"
    CUT = "tap the places where the prompt's word is cut, among the places its choices offer"


def offered_places(question: Question) -> list[int]:
    """The places a split question offers (its choices: between two graphemes of its word)."""
    return [int(place) for place in question.choices]


def _as_kept(question: Question, kept: str) -> str:
    return kept


@dataclass(frozen=True)
class QuestionKind:
    name: str  # what a Question and the stores keep
    asks: str  # the question as a student's screen and the teacher's button put it
    asks_briefly: str  # on the projector's banner, before the number of votes
    answered_by: Answering
    answer_is: str  # what the reveal says before the answer: "The pair merged: a + n", "GPT-4 uses 7 tokens"
    read_vote: Callable[[Question, str], str]  # a student's answer as it is kept, or ClassProblem
    points: Callable[[Question, dict[str, str]], dict[str, int]]  # each scoring student's points, once revealed
    writes: Callable[[Question, str], str] = _as_kept  # an answer or a vote as a screen reads it

    def check(self, prompt: str, choices: tuple[str, ...], answer: str) -> None:
        """A question of this kind with this prompt, choices and answer can be asked; else ``ValueError`` (a page's
        mistake, not a user's)."""
        if self.answered_by is Answering.TAP and answer not in choices:
            raise ValueError(f"a {self.name} question needs its answer among its choices")
        if self.answered_by is Answering.CUT and not _cut_inside(prompt, choices, answer):
            raise ValueError(f"a {self.name} question offers places inside its word, its answer one or more of them")

    def reveal(self, question: Question) -> str:
        """What the reveal says of the answer (escape it where it is shown).

        >>> SPLIT.reveal(Question(1, "split", "lowest", ("3", "5"), "3"))
        'Our model splits it: low · est.'
        """
        return f"{self.answer_is} {isolated(self.writes(question, question.answer))}."

    def vote_said(self, question: Question, kept: str) -> str:
        """What a student's screen says of their vote (escape it where it is shown).

        >>> SPLIT.vote_said(Question(1, "split", "\u05e9\u05dc\u05d5\u05dd", ("2",), "2"), "2") == (
        ...     "Your vote: \u2068\u05e9\u05dc · \u05d5\u05dd\u2069")
        True
        """
        return f"Your vote: {isolated(self.writes(question, kept))}"


def _cut_inside(word: str, choices: tuple[str, ...], answer: str) -> bool:
    question = Question(0, "", word, choices, answer)
    try:
        offered = offered_places(question)
        return (
            bool(answer) and all(0 < place < len(word) for place in offered) and _cut_places(question, answer) == answer
        )
    except ValueError:  # a choice that is no number, or a place not offered
        return False


def _one_of_the_choices(question: Question, answer: str) -> str:
    if answer not in question.choices:
        raise ClassProblem("That is not one of the choices.")
    return answer


def _right_choice(question: Question, votes: dict[str, str]) -> dict[str, int]:
    return {student: 1 for student, answer in votes.items() if answer == question.answer}


def _closest_count(question: Question, votes: dict[str, str]) -> dict[str, int]:
    return dict.fromkeys(rules.closest_guesses(int(question.answer), votes), 1)


def _cut_places(question: Question, typed: str) -> str:
    return cuts.read_places(typed, question.prompt, offered_places(question))


def _places_right(question: Question, votes: dict[str, str]) -> dict[str, int]:
    return {student: cuts.place_points(question.answer, places) for student, places in votes.items()}


def _cut_word(question: Question, places: str) -> str:
    return cuts.written(question.prompt, places)


def _guessed_count(question: Question, typed: str) -> str:
    return str(rules.read_guess(typed))


def _tapped(name: str, asks: str, answer_is: str) -> QuestionKind:
    """A kind whose students tap one of its choices; the right one scores."""
    return QuestionKind(name, asks, asks, Answering.TAP, answer_is, read_vote=_one_of_the_choices, points=_right_choice)


def _counted(name: str, asks: str, asks_briefly: str, answer_is: str) -> QuestionKind:
    """A kind whose students type a number of tokens; the closest guesses score."""
    return QuestionKind(
        name, asks, asks_briefly, Answering.TYPE, answer_is, read_vote=_guessed_count, points=_closest_count
    )


# the choices: the step's top pairs; the answer: the one merged
PAIR = _tapped("pair", "Which pair merges next?", "The pair merged:")
# the choices: tokens made so far; the answer: the one that stands for the most characters
LONGEST = _tapped("longest", "Which is the longest token so far?", "The longest token so far:")
# the choices: two to four languages; the answer: the one whose text (the same in each) takes the most tokens
COSTLIEST = _tapped(
    "costliest", "Which of these languages needs the most tokens for the same text?", "Needs the most tokens:"
)
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
# the prompt: a word; the choices: the places between its graphemes; the answer: those where the class's model
# (its merges up to the step shown) starts a new token in the word on its own
SPLIT = QuestionKind(
    "split",
    "How will our model split this word on its own?",
    "How will our model split this word?",
    Answering.CUT,
    "Our model splits it:",
    read_vote=_cut_places,
    points=_places_right,
    writes=_cut_word,
)
QUESTION_KINDS = {kind.name: kind for kind in (PAIR, LONGEST, COUNT, MODEL_COUNT, SPLIT, COSTLIEST)}
COUNTED_BY = {"GPT-4": COUNT, "our model": MODEL_COUNT}  # who counts a sentence's tokens, as the teacher picks


def merges_seen(step: int, question: Question | None) -> int:
    """How many of the model's merges the class has seen made while step ``step`` is shown: those of the steps
    before it, and the step's own unless its "Which pair merges next?" (``question``, the class's open question)
    still takes votes. A question made from the tokens so far (the longest) then never gives that answer away.

    >>> open_pair = Question(4, "pair", "Step 2", ("a + n", "n + a"), "a + n")
    >>> merges_seen(2, open_pair), merges_seen(2, open_pair.replace(revealed=True)), merges_seen(2, None)
    (1, 2, 2)
    """
    pending = question is not None and question.kind == PAIR.name and not question.revealed
    return step - 1 if pending else step


def kind_of(name: str) -> QuestionKind:
    """The kind a question's ``kind`` names; ``ValueError`` for a name this app does not ask."""
    try:
        return QUESTION_KINDS[name]
    except KeyError:
        raise ValueError(f"unknown question kind {name!r} (this app asks: {', '.join(QUESTION_KINDS)})") from None
