"""The one small interface every class store offers, and the choice between them.

A store keeps records and does a few things atomically (the rate limits' counts too, so that replicas sharing a
store share them): a join is checked against the class's lock, its size, its
joins from one address and its names taken in the same step that keeps the student; a vote is refused once its
question is revealed or its student removed; only the first reveal of a question counts. Everything else (who may
do what, who wins) is in ``live_class.rules``. ``live_class.choose.open_store`` picks the implementation: SQLite
embedded, Redis for replicas.
"""

from __future__ import annotations

import enum
import functools
from abc import ABC, abstractmethod
from dataclasses import dataclass

from live_class.records import ClassRecord, Question
from live_class.rules import MOST_STUDENTS, ClassProblem

KEEP_SECONDS = 2 * 24 * 3600  # a class's records are deleted this long after anyone last acted in it


class Joining(enum.Enum):
    """What became of a join: the student is in, or why not (each checked in the one step that keeps a student)."""

    JOINED = "joined"
    LOCKED = "locked"  # the teacher closed the class to new students
    FULL = "full"  # ``most_students`` have joined
    ADDRESS_SPENT = "address spent"  # ``most_from_address`` joins came from the joiner's address
    NAME_TAKEN = "name taken"  # another student holds one of the name's keys


@dataclass(frozen=True)
class JoinRequest:
    """A student asking to join a class, and the bounds their join is checked against."""

    student: str  # an id only their session knows
    name: str  # as shown
    name_keys: tuple[str, ...]  # what no other student's name may share (``live_class.names``)
    last_active: float
    address: str = ""  # where the join comes from (a hash, never the address; "": no bound)
    most_students: int = MOST_STUDENTS  # the class's size
    most_from_address: int = 0  # the joins one address may make (0: no bound)


class StoreUnavailable(ClassProblem):
    """The store did not answer (Redis down, the SQLite file locked too long or on a full disk): a page says so in
    words and carries on, never with a traceback."""


def unavailable_as_problem(errors: type[Exception] | tuple[type[Exception], ...], name: str):
    """A class decorator for an implementation: each method of the interface it defines raises ``StoreUnavailable``
    instead of the library's ``errors``."""

    def decorate(cls):
        interface = {attribute for attribute in vars(ClassStore) if not attribute.startswith("_")} | {"__init__"}
        for attribute in interface & set(vars(cls)):
            setattr(cls, attribute, _plainly(vars(cls)[attribute], errors, name))
        return cls

    return decorate


def _plainly(method, errors, name: str):
    @functools.wraps(method)
    def answered(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except errors as error:
            raise StoreUnavailable(
                f"The class store ({name}) does not answer: {error}. Try again in a moment."
            ) from error

    return answered


class ClassStore(ABC):
    """Classes, their students, questions and votes, shared by every process that opens the same store."""

    @abstractmethod
    def create_class(self, record: ClassRecord) -> bool:
        """Keep a new class; False (and nothing changed) if its code is taken."""

    @abstractmethod
    def class_record(self, code: str) -> ClassRecord | None:
        """The class with this code, or None."""

    @abstractmethod
    def update_class(self, code: str, last_active: float, **followed) -> None:
        """Change what students follow (``records.FOLLOWED`` fields) and mark the class active."""

    @abstractmethod
    def add_student(self, code: str, join: JoinRequest) -> Joining:
        """Keep the student ``join`` names and their name, unless the class is locked, has ``most_students``, has
        taken ``most_from_address`` joins from ``address`` (a join counts for good, a student removed after it too),
        or another student holds one of the name's ``name_keys``: then why not, and nothing changed. The checks and
        the keeping are one atomic step, so joins at once cannot overfill a class nor share a name. A student
        already in the class stays as they are (``JOINED``)."""

    @abstractmethod
    def remove_student(self, code: str, student: str) -> bool:
        """Take a student out of the class with their name's keys and every vote they cast (a tally and the
        scoreboard then count only the students in the class); False if they were not in it. Atomic with ``vote``:
        no vote of theirs is kept after it."""

    @abstractmethod
    def students(self, code: str) -> dict[str, str]:
        """Every student of the class: id -> name, in the order they joined."""

    @abstractmethod
    def put_question(self, code: str, question: Question) -> None:
        """Keep a question (not revealed) under its number."""

    @abstractmethod
    def questions(self, code: str) -> list[Question]:
        """Every question of the class, by number."""

    @abstractmethod
    def vote(self, code: str, number: int, student: str, answer: str, last_active: float) -> bool:
        """Set the student's answer to question ``number`` (a second vote replaces the first), unless the question
        is revealed or unknown or the student is not in the class: then False and nothing changed. Atomic with
        ``reveal`` and ``remove_student``."""

    @abstractmethod
    def reveal(self, code: str, number: int) -> bool:
        """Mark the question revealed; True only for the call that did it."""

    @abstractmethod
    def votes(self, code: str, number: int) -> dict[str, str]:
        """The answers to question ``number``: student id -> answer."""

    @abstractmethod
    def question(self, code: str, number: int) -> Question | None:
        """Question ``number`` of the class, or None (read alone: every screen asks for it every second)."""

    @abstractmethod
    def count_in_window(self, key: str, now: float, most: int, seconds: float) -> bool:
        """Count one action under ``key`` (what, and by which address) at ``now``, unless ``most`` were counted under
        it in the ``seconds`` before (a sliding window): True if counted, False and nothing counted if not. The check
        and the count are one atomic step, so actions at once, on any process sharing the store, cannot pass
        ``most`` together; what left its window is forgotten."""
