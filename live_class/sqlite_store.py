"""The embedded class store: one SQLite file (write-ahead log, so readers never wait for a writer), shared by every
thread of a server and by the servers of one machine. Each thread has its own connection.

>>> from live_class.records import ClassRecord, Question
>>> store = SqliteClassStore(":memory:")
>>> store.create_class(ClassRecord("ABCDE", "hash", 0.0))
True
>>> store.put_question("ABCDE", Question(1, "pair", "Step 1", ("a + b", "b + c"), "a + b"))
>>> store.add_student("ABCDE", JoinRequest("s1", "Ada", ("ada",), 1.0))
<Joining.JOINED: 'joined'>
>>> store.add_student("ABCDE", JoinRequest("s2", "Bo", ("bo",), 1.0))
<Joining.JOINED: 'joined'>
>>> store.vote("ABCDE", 1, "s1", "b + c", 1.0), store.reveal("ABCDE", 1), store.vote("ABCDE", 1, "s2", "a + b", 2.0)
(True, True, False)
>>> store.votes("ABCDE", 1)
{'s1': 'b + c'}
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from live_class.records import FOLLOWED, ClassRecord, Question, followed_changes
from live_class.store import KEEP_SECONDS, ClassStore, Joining, JoinRequest, unavailable_as_problem

_SCHEMA = """
CREATE TABLE IF NOT EXISTS classes (
    code TEXT PRIMARY KEY, teacher_hash TEXT NOT NULL, last_active REAL NOT NULL, model_title TEXT NOT NULL,
    model_link TEXT NOT NULL, step INTEGER NOT NULL, question INTEGER NOT NULL, ended INTEGER NOT NULL,
    locked INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS classes_by_activity ON classes (last_active);
CREATE TABLE IF NOT EXISTS students (
    code TEXT NOT NULL, student TEXT NOT NULL, name TEXT NOT NULL, joined INTEGER PRIMARY KEY AUTOINCREMENT,
    UNIQUE (code, student));
CREATE TABLE IF NOT EXISTS student_keys (
    code TEXT NOT NULL, name_key TEXT NOT NULL, student TEXT NOT NULL, PRIMARY KEY (code, name_key));
CREATE TABLE IF NOT EXISTS address_joins (
    code TEXT NOT NULL, address TEXT NOT NULL, joins INTEGER NOT NULL, PRIMARY KEY (code, address));
CREATE TABLE IF NOT EXISTS questions (
    code TEXT NOT NULL, number INTEGER NOT NULL, body TEXT NOT NULL, revealed INTEGER NOT NULL,
    PRIMARY KEY (code, number));
CREATE TABLE IF NOT EXISTS rate_counts (key TEXT NOT NULL, at REAL NOT NULL, until REAL NOT NULL);
CREATE INDEX IF NOT EXISTS rate_counts_by_key ON rate_counts (key);
CREATE INDEX IF NOT EXISTS rate_counts_by_end ON rate_counts (until);
CREATE TABLE IF NOT EXISTS votes (
    code TEXT NOT NULL, number INTEGER NOT NULL, student TEXT NOT NULL, answer TEXT NOT NULL,
    PRIMARY KEY (code, number, student));
"""
# A file from when a name had one key, kept beside it: its keys are copied to their table
_OLD_KEYS = "INSERT OR IGNORE INTO student_keys SELECT code, name_key, student FROM students WHERE name_key != ''"
FORGET_BATCH = 100  # old classes deleted each time a class starts: a steady trickle, never a long write lock
_COLUMNS = ("code", "teacher_hash", "last_active", *FOLLOWED)
_TABLES = ("classes", "students", "student_keys", "address_joins", "questions", "votes")


@unavailable_as_problem((sqlite3.Error, OSError), "SQLite")  # a locked or damaged file, its folder not writable
class SqliteClassStore(ClassStore):
    """Classes in one SQLite file (``":memory:"``: one private database, for examples)."""

    def __init__(self, path: str):
        self.path = path
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._shared = self._connect() if path == ":memory:" else None  # one in-memory database, not one a thread
        with self._connection() as connection:
            connection.executescript(_SCHEMA)
            if "name_key" in self._columns(connection, "students"):
                connection.execute(_OLD_KEYS)
            if "locked" not in self._columns(connection, "classes"):  # a file from before classes were locked
                connection.execute("ALTER TABLE classes ADD COLUMN locked INTEGER NOT NULL DEFAULT 0")

    @staticmethod
    def _columns(connection: sqlite3.Connection, table: str) -> set[str]:
        return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable across a crashed process
        return connection

    def _connection(self) -> sqlite3.Connection:
        if self._shared is not None:
            return self._shared
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._local.connection = self._connect()
        return connection

    def _run(self, sql: str, parameters: tuple = ()) -> sqlite3.Cursor:
        return self._connection().execute(sql, parameters)

    def create_class(self, record: ClassRecord) -> bool:
        self._forget_old_classes(record.last_active)
        values = tuple(getattr(record, column) for column in _COLUMNS)
        placeholders = ",".join("?" * len(values))
        cursor = self._run(f"INSERT OR IGNORE INTO classes ({','.join(_COLUMNS)}) VALUES ({placeholders})", values)
        return cursor.rowcount == 1

    def _forget_old_classes(self, now: float) -> None:
        """Delete up to ``FORGET_BATCH`` classes nobody acted in for ``KEEP_SECONDS``, each whole, in one short
        transaction (all of 500,000 at once held the write lock 144 ms)."""
        connection = self._connection()
        with connection:
            connection.execute("BEGIN IMMEDIATE")
            old = "SELECT code FROM classes WHERE last_active < ? LIMIT ?"
            codes = [code for (code,) in connection.execute(old, (now - KEEP_SECONDS, FORGET_BATCH))]
            if codes:
                marks = ",".join("?" * len(codes))
                for table in reversed(_TABLES):
                    connection.execute(f"DELETE FROM {table} WHERE code IN ({marks})", codes)

    def class_record(self, code: str) -> ClassRecord | None:
        row = self._run(f"SELECT {','.join(_COLUMNS)} FROM classes WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        fields = dict(zip(_COLUMNS, row))
        return ClassRecord(**{**fields, "ended": bool(fields["ended"]), "locked": bool(fields["locked"])})

    def update_class(self, code: str, last_active: float, **followed) -> None:
        changes = followed_changes(last_active, followed)
        assignments = ", ".join(f"{name} = ?" for name in changes)
        self._run(f"UPDATE classes SET {assignments} WHERE code = ?", (*changes.values(), code))

    def add_student(self, code: str, join: JoinRequest) -> Joining:
        connection = self._connection()
        student = join.student
        try:  # one write transaction: no other join reads the class between the checks and the keeping
            with connection:
                connection.execute("BEGIN IMMEDIATE")
                refusal = _refusal(connection, code, join)
                if refusal is not None:
                    return refusal
                connection.execute(
                    "INSERT INTO students (code, student, name) VALUES (?, ?, ?)", (code, student, join.name)
                )
                connection.executemany(  # a key another student holds: the primary key refuses it, undoing the join
                    "INSERT INTO student_keys (code, name_key, student) VALUES (?, ?, ?)",
                    [(code, key, student) for key in join.name_keys],
                )
                if join.address and join.most_from_address:
                    connection.execute(
                        "INSERT INTO address_joins (code, address, joins) VALUES (?, ?, 1) "
                        "ON CONFLICT (code, address) DO UPDATE SET joins = joins + 1",
                        (code, join.address),
                    )
                connection.execute("UPDATE classes SET last_active = ? WHERE code = ?", (join.last_active, code))
        except sqlite3.IntegrityError:
            return Joining.NAME_TAKEN
        return Joining.JOINED

    def remove_student(self, code: str, student: str) -> bool:
        connection = self._connection()
        with connection:
            connection.execute("BEGIN IMMEDIATE")
            removed = connection.execute("DELETE FROM students WHERE code = ? AND student = ?", (code, student))
            for table in ("student_keys", "votes"):
                connection.execute(f"DELETE FROM {table} WHERE code = ? AND student = ?", (code, student))
        return removed.rowcount == 1

    def students(self, code: str) -> dict[str, str]:
        rows = self._run("SELECT student, name FROM students WHERE code = ? ORDER BY joined", (code,))
        return dict(rows.fetchall())

    def put_question(self, code: str, question: Question) -> None:
        self._run(
            "INSERT OR REPLACE INTO questions (code, number, body, revealed) VALUES (?, ?, ?, 0)",
            (code, question.number, question.to_json()),
        )

    def questions(self, code: str) -> list[Question]:
        rows = self._run("SELECT body, revealed FROM questions WHERE code = ? ORDER BY number", (code,))
        return [Question.from_json(body, revealed=bool(revealed)) for body, revealed in rows.fetchall()]

    def question(self, code: str, number: int) -> Question | None:
        row = self._run("SELECT body, revealed FROM questions WHERE code = ? AND number = ?", (code, number)).fetchone()
        return None if row is None else Question.from_json(row[0], revealed=bool(row[1]))

    def vote(self, code: str, number: int, student: str, answer: str, last_active: float) -> bool:
        # One statement: the check that the question is open and the student in the class, and the write, cannot be
        # split by a reveal or a removal.
        cursor = self._run(
            "INSERT INTO votes (code, number, student, answer) SELECT ?, ?, ?, ? FROM questions"
            " WHERE code = ? AND number = ? AND revealed = 0"
            " AND EXISTS (SELECT 1 FROM students WHERE code = ? AND student = ?)"
            " ON CONFLICT (code, number, student) DO UPDATE SET answer = excluded.answer",
            (code, number, student, answer, code, number, code, student),
        )
        if cursor.rowcount != 1:
            return False
        self._run("UPDATE classes SET last_active = MAX(last_active, ?) WHERE code = ?", (last_active, code))
        return True

    def reveal(self, code: str, number: int) -> bool:
        cursor = self._run(
            "UPDATE questions SET revealed = 1 WHERE code = ? AND number = ? AND revealed = 0", (code, number)
        )
        return cursor.rowcount == 1

    def votes(self, code: str, number: int) -> dict[str, str]:
        rows = self._run("SELECT student, answer FROM votes WHERE code = ? AND number = ?", (code, number))
        return dict(rows.fetchall())

    def count_in_window(self, key: str, now: float, most: int, seconds: float) -> bool:
        connection = self._connection()
        with connection:  # one write transaction: no other count reads the key between the check and the count
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("DELETE FROM rate_counts WHERE until <= ?", (now,))  # every key's, out of its window
            (counted,) = connection.execute("SELECT COUNT(*) FROM rate_counts WHERE key = ?", (key,)).fetchone()
            if counted >= most:
                return False
            connection.execute("INSERT INTO rate_counts (key, at, until) VALUES (?, ?, ?)", (key, now, now + seconds))
        return True


def _refusal(connection: sqlite3.Connection, code: str, join: JoinRequest) -> Joining | None:
    """Why a join may not keep the student (name keys aside: the insert checks them), or None; inside the join's
    transaction. A student already in the class is ``JOINED`` as they are."""

    def one(sql: str, *parameters) -> int:
        row = connection.execute(sql, parameters).fetchone()
        return 0 if row is None else row[0]

    if one("SELECT 1 FROM students WHERE code = ? AND student = ?", code, join.student):
        return Joining.JOINED
    if one("SELECT locked FROM classes WHERE code = ?", code):
        return Joining.LOCKED
    if one("SELECT COUNT(*) FROM students WHERE code = ?", code) >= join.most_students:
        return Joining.FULL
    joins = one("SELECT joins FROM address_joins WHERE code = ? AND address = ?", code, join.address)
    if join.address and join.most_from_address and joins >= join.most_from_address:
        return Joining.ADDRESS_SPENT
    return None
