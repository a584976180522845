"""A live class as plain data: the class itself and its questions, as every store keeps and returns them.

>>> question = Question(1, "pair", "Step 3", ("a + n", "n + a"), "a + n")
>>> question.revealed, question.replace(revealed=True).revealed
(False, True)
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Question:
    """One question of a class: its number in the class (1, 2, ...), the name of its kind (``live_class.kinds``),
    what it asks, the choices a student taps (a pair question) and the answer, revealed or not."""

    number: int
    kind: str
    prompt: str
    choices: tuple[str, ...]
    answer: str
    revealed: bool = False

    def replace(self, **changes) -> Question:
        return dataclasses.replace(self, **changes)

    def to_json(self) -> str:
        """Everything but ``revealed``, which a store keeps apart (a vote checks it atomically).

        >>> Question.from_json(Question(2, "count", "Hi", (), "1").to_json(), revealed=True)
        Question(number=2, kind='count', prompt='Hi', choices=(), answer='1', revealed=True)
        """
        fields = {"number": self.number, "kind": self.kind, "prompt": self.prompt, "choices": list(self.choices)}
        return json.dumps({**fields, "answer": self.answer})

    @classmethod
    def from_json(cls, text: str, *, revealed: bool) -> Question:
        data = json.loads(text)
        choices = tuple(data["choices"])
        return cls(data["number"], data["kind"], data["prompt"], choices, data["answer"], revealed)


@dataclass(frozen=True)
class ClassRecord:
    """A class as students follow it: the teacher's model (its title and its link's query string), the step shown,
    the question asked (0: none yet), when anyone last acted (seconds since the epoch) and whether it ended.
    ``teacher_hash`` is the SHA-256 of the teacher's key: the key itself stays in the teacher's session.

    >>> ClassRecord("ABCDE", "00", 10.0).step
    0
    """

    code: str
    teacher_hash: str
    last_active: float
    model_title: str = ""
    model_link: str = ""
    step: int = 0
    question: int = 0
    ended: bool = False

    def replace(self, **changes) -> ClassRecord:
        return dataclasses.replace(self, **changes)


FOLLOWED = ("model_title", "model_link", "step", "question", "ended")  # what the teacher changes; students follow


def followed_changes(last_active: float, followed: dict) -> dict:
    """The fields a class update writes: ``followed`` (only ``FOLLOWED`` fields, else ``ValueError``) and the time.

    >>> followed_changes(5.0, {"step": 2})
    {'step': 2, 'last_active': 5.0}
    """
    unknown = set(followed) - set(FOLLOWED)
    if unknown:
        raise ValueError(f"not a field students follow: {sorted(unknown)}")
    return {**followed, "last_active": last_active}
