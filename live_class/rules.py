"""The rules of a live class, as pure functions: class codes, names, the teacher's key, when a class is over,
how the room voted and the points (who scores on each kind of question is ``live_class.kinds``').

A student's second tap changes their vote until the teacher reveals the answer: each student counts once, with
their last choice. After the reveal no vote is taken.

>>> tally(("a + n", "n + a"), {"s1": "a + n", "s2": "n + a", "s3": "a + n"})
[('a + n', 2), ('n + a', 1)]
>>> sorted(closest_guesses(7, {"s1": "5", "s2": "9", "s3": "12"}))
['s1', 's2']
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Mapping

from live_class.names import draws_nothing
from live_class.records import ClassRecord

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0 or 1: read aloud and typed without doubt
CODE_LENGTH = 5
NAME_LIMIT = 40  # characters of "Your name"
MOST_STUDENTS = 200  # a class's size: the projector's names and tally stay readable, each poll stays small
# Joins to one class from one address: a room of 30 behind one NAT address, each joining twice (a second phone, a
# cleared browser), with room to spare; a lecture hall behind one address sets BPE_JOINS_PER_ADDRESS to its size.
JOINS_PER_ADDRESS = 60
JOINS_PER_ADDRESS_ENV = "BPE_JOINS_PER_ADDRESS"
IDLE_SECONDS = 4 * 3600  # a class nobody acted in for this long is over
STUDENT_ID_LENGTH = 16
MAX_COUNT_GUESS = 10**9
# While a class runs, one training of its teacher or a student asks for at most this many merges (or vocabulary):
# the heaviest recipe on the 1 MB sample (raw bytes, no split) then takes about 3 s and 250 MiB.
CLASS_TRAINING_LIMIT = 20_000

_CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
_STUDENT_ID = re.compile(f"[A-Za-z0-9_-]{{{STUDENT_ID_LENGTH}}}")


class ClassProblem(ValueError):
    """Something a class cannot do, said in words a student or teacher reads on the page."""


def joins_per_address(environ: Mapping[str, str] = os.environ) -> int:
    """How many joins one address may make to one class: ``JOINS_PER_ADDRESS_ENV``, else ``JOINS_PER_ADDRESS``.

    >>> joins_per_address({}), joins_per_address({JOINS_PER_ADDRESS_ENV: " 250 "})
    (60, 250)
    >>> joins_per_address({JOINS_PER_ADDRESS_ENV: "many"})
    Traceback (most recent call last):
    ...
    live_class.rules.ClassProblem: This server's BPE_JOINS_PER_ADDRESS must be a whole number above 0, not 'many': \
its operator can fix it.
    """
    text = environ.get(JOINS_PER_ADDRESS_ENV, "").strip()
    if not text:
        return JOINS_PER_ADDRESS
    if not (text.isascii() and text.isdecimal()) or int(text) < 1:
        raise ClassProblem(
            f"This server's {JOINS_PER_ADDRESS_ENV} must be a whole number above 0, not {text[:40]!r}: "
            "its operator can fix it."
        )
    return int(text)


def address_token(code: str, address: str | None) -> str:
    """What a store keeps of the address a student joined from: a hash that tells two joins from one address
    apart from others within a class, never the address itself; "" for no address (this machine, uncounted).

    >>> address_token("ABCDE", "10.0.0.7") == address_token("ABCDE", "10.0.0.7") != address_token("FGHJK", "10.0.0.7")
    True
    >>> "10.0.0.7" in address_token("ABCDE", "10.0.0.7"), address_token("ABCDE", None)
    (False, '')
    """
    if not address:
        return ""
    return hashlib.sha256(f"{code}\0{address}".encode()).hexdigest()[:24]


def new_code() -> str:
    """A random class code: five characters from ``CODE_ALPHABET``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: str) -> str | None:
    """A class code as typed or taken from an address (any case, spaces around), or None if it cannot be one.

    >>> read_code(" abc23 "), read_code("ABC10"), read_code("<b>")
    ('ABC23', None, None)
    """
    code = text.strip().upper()
    return code if _CODE.fullmatch(code) else None


def new_student_id() -> str:
    """A student's id: random, kept in their session and their address, so a reload keeps their place."""
    return secrets.token_urlsafe(12)[:STUDENT_ID_LENGTH]


def is_student_id(text: str) -> bool:
    """
    >>> is_student_id("a" * 16), is_student_id("a" * 15), is_student_id("<script>aaaaaaaa")
    (True, False, False)
    """
    return bool(_STUDENT_ID.fullmatch(text))


def new_teacher_key() -> str:
    """The teacher's key: it stays in the teacher's server-side session; the store keeps only its hash."""
    return secrets.token_urlsafe(32)


def teacher_hash(teacher_key: str) -> str:
    """
    >>> teacher_hash("k")[:12]
    '8254c329a928'
    """
    return hashlib.sha256(teacher_key.encode("utf-8")).hexdigest()


def is_teacher(record: ClassRecord, teacher_key: str | None) -> bool:
    """Whether ``teacher_key`` is this class's teacher key (compared in constant time)."""
    return bool(teacher_key and hmac.compare_digest(record.teacher_hash, teacher_hash(teacher_key)))


def clean_name(typed: str) -> str:
    """A student's name as the class shows it: spaces collapsed, characters that draw nothing dropped (controls,
    format characters, variation selectors: ``names.draws_nothing``), at most ``NAME_LIMIT`` characters, not empty.
    Otherwise ``ClassProblem``. Whether it clashes with a name taken is the store's to say, atomically, by
    ``names.name_keys``.

    >>> clean_name("  Ada \\n Lovelace\\u034f ")
    'Ada Lovelace'
    >>> clean_name("\\u200b")
    Traceback (most recent call last):
    ...
    live_class.rules.ClassProblem: Type your name to join.
    """
    name = " ".join(
        "".join(" " if ch.isspace() else ch for ch in typed if ch.isspace() or not draws_nothing(ch)).split()
    )
    if not name:
        raise ClassProblem("Type your name to join.")
    if len(name) > NAME_LIMIT:
        raise ClassProblem(f"A name has at most {NAME_LIMIT} characters; yours has {len(name)}.")
    return name


def name_taken(name: str) -> ClassProblem:
    """What a student hears when their name would look like someone's already in the class.

    >>> str(name_taken("ada"))
    'Someone in this class is already called ada, or a name that looks the same: add an initial.'
    """
    return ClassProblem(
        f"Someone in this class is already called {name}, or a name that looks the same: add an initial."
    )


def is_over(record: ClassRecord, now: float) -> bool:
    """Ended by the teacher, or nobody acted in it for ``IDLE_SECONDS``.

    >>> record = ClassRecord("ABCDE", "h", last_active=0.0)
    >>> is_over(record, IDLE_SECONDS - 1), is_over(record, IDLE_SECONDS), is_over(record.replace(ended=True), 1)
    (False, True, True)
    """
    return record.ended or now - record.last_active >= IDLE_SECONDS


def read_guess(typed: str) -> int:
    """A token-count guess: a whole number from 0 to ``MAX_COUNT_GUESS``, or ``ClassProblem``.

    >>> read_guess(" 12 "), read_guess("1_000")
    (12, 1000)
    """
    text = typed.strip().replace("_", "").replace(",", "")
    if not text.isdecimal() or len(text) > len(str(MAX_COUNT_GUESS)) or int(text) > MAX_COUNT_GUESS:
        raise ClassProblem(f"Type a whole number of tokens, from 0 to {MAX_COUNT_GUESS:,}.")
    return int(text)


def tally(choices: tuple[str, ...], votes: dict[str, str]) -> list[tuple[str, int]]:
    """How many students chose each choice, in the choices' order; a vote for no choice is not counted."""
    counts = dict.fromkeys(choices, 0)
    for answer in votes.values():
        if answer in counts:
            counts[answer] += 1
    return list(counts.items())


def closest_guesses(answer: int, votes: dict[str, str]) -> set[str]:
    """The students whose guess is nearest the answer (all of them on a tie)."""
    distances = {student: abs(int(guess) - answer) for student, guess in votes.items() if guess.isdecimal()}
    best = min(distances.values(), default=None)
    return {student for student, distance in distances.items() if distance == best}


def scoreboard(students: dict[str, str], earned: list[dict[str, int]]) -> list[tuple[str, int]]:
    """Every student's points over the revealed questions (``earned``: each question's points by student), best
    first (then in joining order).

    >>> scoreboard({"s1": "Ada", "s2": "Bo"}, [{"s2": 1}, {"s1": 1, "s2": 3}])
    [('Bo', 4), ('Ada', 1)]
    """
    points = dict.fromkeys(students, 0)
    for question_points in earned:
        for student, earned_here in question_points.items():
            if student in points:
                points[student] += earned_here
    order = sorted(points, key=lambda student: -points[student])  # stable: joining order on a tie
    return [(students[student], points[student]) for student in order]


def class_runs(latest_activity: float | None, now: float) -> bool:
    """Whether a class runs: its teacher acted in it within ``IDLE_SECONDS`` (``latest_activity``: when, None: the
    class ended or there is none).

    >>> class_runs(None, 100.0), class_runs(100.0, 100.0 + IDLE_SECONDS - 1), class_runs(0.0, IDLE_SECONDS)
    (False, True, False)
    """
    return latest_activity is not None and now - latest_activity < IDLE_SECONDS


def training_refused(size: int, latest_activity: float | None, now: float) -> str | None:
    """Why a training of ``size`` merges (or vocabulary) is refused while a class runs, or None if it may run.

    >>> training_refused(CLASS_TRAINING_LIMIT, 0.0, 1.0) is None, training_refused(50_000, None, 1.0) is None
    (True, True)
    >>> "at most 20,000 merges or tokens (this one asks for 50,000)" in training_refused(50_000, 0.0, 1.0)
    True
    """
    if size <= CLASS_TRAINING_LIMIT or not class_runs(latest_activity, now):
        return None
    return (
        f"You are in a class: while it runs, one training asks for at most {CLASS_TRAINING_LIMIT:,} "
        f"merges or tokens (this one asks for {size:,}), so that every student's screen stays quick."
    )
