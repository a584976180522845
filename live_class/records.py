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
class ShownWord:
    """One word of the text as the model sees it before a step: its symbols (written as the pages write tokens),
    how often it occurs, and at each junction between two symbols the index of the choice that pair is, or -1.
    ``clipped``: a long piece (a text not split into words) shows only its beginning."""

    symbols: tuple[str, ...]
    count: int
    marks: tuple[int, ...]
    clipped: bool = False


@dataclass(frozen=True)
class StepText:
    """What a pair question shows of its corpus, worked out once by the teacher's page when it asks: the words (all
    of a small corpus, else the most frequent) and how many more there are, each choice's count in the text (in the
    choices' order), how many pairs had the winner's count (1: no tie), the tie-break rule's name
    (``bpe_core.config.TIE_BREAKS``) and the symbol the step before made ("" at step 1)."""

    words: tuple[ShownWord, ...]
    more: int
    counts: tuple[int, ...]
    tied: int
    tie_break: str
    made: str = ""

    def as_data(self) -> dict:
        words = [[list(word.symbols), word.count, list(word.marks), word.clipped] for word in self.words]
        fields = {"words": words, "more": self.more, "counts": list(self.counts), "tied": self.tied}
        return {**fields, "tie_break": self.tie_break, "made": self.made}

    @classmethod
    def from_data(cls, data: dict) -> StepText:
        words = tuple(
            ShownWord(tuple(symbols), count, tuple(marks), clipped) for symbols, count, marks, clipped in data["words"]
        )
        return cls(words, data["more"], tuple(data["counts"]), data["tied"], data["tie_break"], data["made"])


@dataclass(frozen=True)
class Question:
    """One question of a class: its number in the class (1, 2, ...), the name of its kind (``live_class.kinds``),
    what it asks, the choices a student taps (a pair question) and the answer, revealed or not; a pair question
    also carries the text it is about (``StepText``), shown on every screen."""

    number: int
    kind: str
    prompt: str
    choices: tuple[str, ...]
    answer: str
    revealed: bool = False
    text: StepText | None = None

    def replace(self, **changes) -> Question:
        return dataclasses.replace(self, **changes)

    def to_json(self) -> str:
        """Everything but ``revealed``, which a store keeps apart (a vote checks it atomically).

        >>> Question.from_json(Question(2, "count", "Hi", (), "1").to_json(), revealed=True)
        Question(number=2, kind='count', prompt='Hi', choices=(), answer='1', revealed=True, text=None)
        >>> text = StepText((ShownWord(("a", "n"), 2, (0,)),), more=0, counts=(2,), tied=1, tie_break="first")
        >>> Question.from_json(Question(1, "pair", "Step 1", ("a + n",), "a + n", text=text).to_json(),
        ...                    revealed=False).text == text
        True
        """
        fields = {"number": self.number, "kind": self.kind, "prompt": self.prompt, "choices": list(self.choices)}
        text = {"text": self.text.as_data()} if self.text is not None else {}
        return json.dumps({**fields, "answer": self.answer, **text})

    @classmethod
    def from_json(cls, text: str, *, revealed: bool) -> Question:
        data = json.loads(text)
        choices = tuple(data["choices"])
        shown = StepText.from_data(data["text"]) if "text" in data else None  # a question kept before texts: none
        return cls(data["number"], data["kind"], data["prompt"], choices, data["answer"], revealed, shown)


@dataclass(frozen=True)
class ClassRecord:
    """A class as students follow it: the teacher's model (its title and its link's query string), the step shown,
    the question asked (0: none yet), when anyone last acted (seconds since the epoch), whether it ended, and whether
    the teacher locked it (no one new joins).
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
    locked: bool = False

    def replace(self, **changes) -> ClassRecord:
        return dataclasses.replace(self, **changes)


FOLLOWED = (
    "model_title",
    "model_link",
    "step",
    "question",
    "ended",
    "locked",
)  # what the teacher changes; students follow


def followed_changes(last_active: float, followed: dict) -> dict:
    """The fields a class update writes: ``followed`` (only ``FOLLOWED`` fields, else ``ValueError``) and the time.

    >>> followed_changes(5.0, {"step": 2})
    {'step': 2, 'last_active': 5.0}
    """
    unknown = set(followed) - set(FOLLOWED)
    if unknown:
        raise ValueError(f"not a field students follow: {sorted(unknown)}")
    return {**followed, "last_active": last_active}
