"""A live class's actions over a store, each checked by the rules: the teacher starts it, shows a model and a step,
asks, reveals and ends it, removes a student, locks and unlocks it; a student joins and votes. A teacher action
needs the teacher's key; whatever an address says, a student's session has none. ``TeacherRoom`` holds a teacher's
class (store, code, key, clock) once, with these actions as its methods.

>>> from live_class.sqlite_store import SqliteClassStore
>>> store = SqliteClassStore(":memory:")
>>> code, teacher_key = start_class(store, now=0.0)
>>> ada = join(store, code, "Ada", now=1.0)
>>> number = ask(store, code, teacher_key, PAIR, "Step 1", ("a + n", "n + a"), "a + n", now=2.0)
>>> vote(store, code, ada, number, "n + a", now=3.0), vote(store, code, ada, number, "a + n", now=4.0)
('Your vote: n + a', 'Your vote: a + n')
>>> reveal(store, code, teacher_key, now=5.0).answer
'a + n'
>>> results(store, code)
[('Ada', 1)]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from live_class import rules
from live_class.kinds import COUNT, PAIR, QuestionKind, kind_of
from live_class.names import name_keys
from live_class.records import ClassRecord, Question, StepText
from live_class.rules import ClassProblem
from live_class.store import ClassStore, Joining, JoinRequest

__all__ = [
    "COUNT",
    "PAIR",
    "ClassProblem",
    "TeacherRoom",
    "start_class",
    "join",
    "ask",
    "vote",
    "reveal",
    "withdraw",
    "results",
    "remove_student",
    "lock",
    "unlock",
]

_CODE_TRIES = 20  # codes are drawn at random from 32**5; a taken one is drawn again


def start_class(store: ClassStore, now: float) -> tuple[str, str]:
    """A new class: its code, and the teacher's key (for the teacher's session only)."""
    teacher_key = rules.new_teacher_key()
    for _ in range(_CODE_TRIES):
        code = rules.new_code()
        if store.create_class(ClassRecord(code, rules.teacher_hash(teacher_key), now)):
            return code, teacher_key
    raise ClassProblem("No free class code was found: try again.")


def open_class(store: ClassStore, code: str, now: float) -> ClassRecord:
    """The class, if it runs; otherwise ``ClassProblem`` says why."""
    record = store.class_record(code)
    if record is None:
        raise ClassProblem(f"There is no class {code}: check the code with your teacher.")
    if rules.is_over(record, now):
        raise ClassProblem(f"Class {code} is over.")
    return record


def _as_teacher(store: ClassStore, code: str, teacher_key: str | None, now: float) -> ClassRecord:
    record = open_class(store, code, now)
    if not rules.is_teacher(record, teacher_key):
        raise ClassProblem("Only the teacher's browser can do that.")
    return record


def show(store: ClassStore, code: str, teacher_key: str | None, now: float, **followed) -> None:
    """The teacher shows students a model (``model_title``, ``model_link``) or a ``step``."""
    _as_teacher(store, code, teacher_key, now)
    store.update_class(code, now, **followed)


def end_class(store: ClassStore, code: str, teacher_key: str | None, now: float) -> None:
    _as_teacher(store, code, teacher_key, now)
    store.update_class(code, now, ended=True)


def join(store: ClassStore, code: str, typed_name: str, now: float, address: str | None = None) -> str:
    """A student joins under a name (``rules.clean_name``) that looks like no one's in the class; their new id.
    ``address``: where they join from (``limits.visitor``; None: this machine), whose joins to the class are bounded
    by ``rules.joins_per_address``. A refusal is a ``ClassProblem`` that says why in words."""
    open_class(store, code, now)
    name = rules.clean_name(typed_name)
    student = rules.new_student_id()
    most_from_address = rules.joins_per_address()
    bounds = (rules.address_token(code, address), rules.MOST_STUDENTS, most_from_address)
    joining = store.add_student(code, JoinRequest(student, name, name_keys(name), now, *bounds))
    if joining is Joining.NAME_TAKEN:
        raise rules.name_taken(name)
    if joining is not Joining.JOINED:
        raise ClassProblem(_JOIN_REFUSED[joining].format(students=rules.MOST_STUDENTS, most=most_from_address))
    return student


_JOIN_REFUSED = {
    Joining.LOCKED: "This class is closed to new students: ask your teacher to open it.",
    Joining.FULL: "This class is full: {students} students have joined.",
    Joining.ADDRESS_SPENT: (
        "{most} students have already joined this class from your network's address, the most one address may."
        f" If your whole room shares one address, the server's {rules.JOINS_PER_ADDRESS_ENV} raises it."
    ),
}


def remove_student(store: ClassStore, code: str, teacher_key: str | None, student: str, now: float) -> str:
    """The teacher takes a student out of the class: their name is free again and their votes are dropped, so no
    tally nor scoreboard counts them (a revealed question's too); their phone is asked to join again. The name
    removed, or ``ClassProblem``."""
    _as_teacher(store, code, teacher_key, now)
    name = store.students(code).get(student)
    if name is None or not store.remove_student(code, student):
        raise ClassProblem("That student is not in the class.")
    store.update_class(code, now)
    return name


def lock(store: ClassStore, code: str, teacher_key: str | None, now: float) -> None:
    """The teacher closes the class to new students; those in it carry on."""
    show(store, code, teacher_key, now, locked=True)


def unlock(store: ClassStore, code: str, teacher_key: str | None, now: float) -> None:
    show(store, code, teacher_key, now, locked=False)


def ask(
    store: ClassStore,
    code: str,
    teacher_key: str | None,
    kind: QuestionKind,
    prompt: str,
    choices: tuple[str, ...],
    answer: str,
    now: float,
    text: StepText | None = None,
) -> int:
    """The teacher asks a new question (the one before it is closed to votes), with the text it is about if any;
    its number."""
    kind.check(prompt, choices, answer)
    record = _as_teacher(store, code, teacher_key, now)
    number = _next_number(store, code, record)
    if record.question:
        store.reveal(code, record.question)
    store.put_question(code, Question(number, kind.name, prompt, choices, answer, text=text))
    store.update_class(code, now, question=number)
    return number


def _next_number(store: ClassStore, code: str, record: ClassRecord) -> int:
    """The number of the class's next question: after the last one asked, even when none is shown now (withdrawn)."""
    if record.question:
        return record.question + 1
    return max((question.number for question in store.questions(code)), default=0) + 1


def withdraw(store: ClassStore, code: str, teacher_key: str | None, now: float) -> None:
    """The teacher takes the open question off every screen (it no longer fits the class: the model changed and
    the step has no question to ask): it takes no vote from then on, and every screen waits for the next one."""
    record = _as_teacher(store, code, teacher_key, now)
    if record.question:
        store.reveal(code, record.question)
    store.update_class(code, now, question=0)


_NOT_IN = "Join the class first."


def vote(store: ClassStore, code: str, student: str, number: int, answer: str, now: float) -> str:
    """A student's answer to question ``number``; what their screen says, or ``ClassProblem``."""
    open_class(store, code, now)
    if student not in store.students(code):
        raise ClassProblem(_NOT_IN)
    question = store.question(code, number)
    if question is None:
        raise ClassProblem("That question was not asked.")
    kind = kind_of(question.kind)
    answer = kind.read_vote(question, answer)
    if not store.vote(code, number, student, answer, now):  # revealed, or the student removed, since read above
        raise ClassProblem("Too late: the answer is out." if student in store.students(code) else _NOT_IN)
    return kind.vote_said(question, answer)


def reveal(store: ClassStore, code: str, teacher_key: str | None, now: float) -> Question:
    """The teacher reveals the current question's answer; it takes no vote from then on."""
    record = _as_teacher(store, code, teacher_key, now)
    if not record.question:
        raise ClassProblem("Ask a question first.")
    store.reveal(code, record.question)
    store.update_class(code, now)
    question = store.question(code, record.question)
    if question is None:  # the class's data expired meanwhile
        raise ClassProblem("That question was not asked.")
    return question


def results(store: ClassStore, code: str, students: dict[str, str] | None = None) -> list[tuple[str, int]]:
    """The class's scoreboard over its revealed questions (``rules.scoreboard``); ``students`` if the caller has
    just read them (a screen asks every second), else read here. Only revealed questions' votes are read."""
    earned = [kind_of(q.kind).points(q, store.votes(code, q.number)) for q in store.questions(code) if q.revealed]
    return rules.scoreboard(store.students(code) if students is None else students, earned)


@dataclass(frozen=True)
class TeacherRoom:
    """A teacher's class, bound once: the store, the class's code and the teacher's key, and the clock each action
    is timed by. Its methods are the teacher's actions above.

    >>> from live_class.sqlite_store import SqliteClassStore
    >>> teacher = TeacherRoom.start(SqliteClassStore(":memory:"), clock=lambda: 1.0)
    >>> bo = join(teacher.store, teacher.code, "Bo", now=2.0)
    >>> teacher.lock()
    >>> join(teacher.store, teacher.code, "Cy", now=3.0)
    Traceback (most recent call last):
    ...
    live_class.rules.ClassProblem: This class is closed to new students: ask your teacher to open it.
    >>> teacher.remove(bo), teacher.store.students(teacher.code)
    ('Bo', {})
    """

    store: ClassStore
    code: str
    teacher_key: str | None
    clock: Callable[[], float] = time.time

    @classmethod
    def start(cls, store: ClassStore, clock: Callable[[], float] = time.time) -> TeacherRoom:
        """A new class (``start_class``), bound."""
        return cls(store, *start_class(store, clock()), clock=clock)

    def record(self) -> ClassRecord:
        """The class, if it runs and this is its teacher; else ``ClassProblem``."""
        return _as_teacher(self.store, self.code, self.teacher_key, self.clock())

    def show(self, **followed) -> None:
        show(self.store, self.code, self.teacher_key, self.clock(), **followed)

    def ask(
        self, kind: QuestionKind, prompt: str, choices: tuple[str, ...], answer: str, text: StepText | None = None
    ) -> int:
        return ask(self.store, self.code, self.teacher_key, kind, prompt, choices, answer, self.clock(), text)

    def reveal(self) -> Question:
        return reveal(self.store, self.code, self.teacher_key, self.clock())

    def end(self) -> None:
        end_class(self.store, self.code, self.teacher_key, self.clock())

    def remove(self, student: str) -> str:
        return remove_student(self.store, self.code, self.teacher_key, student, self.clock())

    def lock(self) -> None:
        lock(self.store, self.code, self.teacher_key, self.clock())

    def unlock(self) -> None:
        unlock(self.store, self.code, self.teacher_key, self.clock())
