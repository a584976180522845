"""The one small interface every class store offers, and the choice between them.

A store keeps records and does two things atomically: a vote is refused once its question is revealed, and only
the first reveal of a question counts. Everything else (who may do what, who wins) is in ``live_class.rules``.
``live_class.choose.open_store`` picks the implementation: SQLite embedded, Redis for replicas.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod

from live_class.records import ClassRecord, Question
from live_class.rules import ClassProblem

KEEP_SECONDS = 2 * 24 * 3600  # a class's records are deleted this long after anyone last acted in it


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
    def add_student(self, code: str, student: str, name: str, name_keys: tuple[str, ...], last_active: float) -> bool:
        """Keep a student (an id only their session knows) and their name, unless another student of the class holds
        one of its ``name_keys`` (``live_class.names``): then False and nothing changed. The check and the keeping
        are one atomic step, so two students joining at once under one name cannot both get it."""

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
        is revealed or unknown: then False and nothing changed. Atomic with ``reveal``."""

    @abstractmethod
    def reveal(self, code: str, number: int) -> bool:
        """Mark the question revealed; True only for the call that did it."""

    @abstractmethod
    def votes(self, code: str, number: int) -> dict[str, str]:
        """The answers to question ``number``: student id -> answer."""

    @abstractmethod
    def question(self, code: str, number: int) -> Question | None:
        """Question ``number`` of the class, or None (read alone: every screen asks for it every second)."""
