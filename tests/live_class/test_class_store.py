"""The class store's contract, run on both implementations: SQLite (the embedded default) and Redis (replicas).
Each test opens a fresh store; "another replica" is a second store object on the same file or server."""

from __future__ import annotations

import sqlite3
import threading

import pytest
import redis
from live_class_fixtures import pair_question

from live_class.choose import open_store
from live_class.kinds import COUNT
from live_class.records import ClassRecord, Question, ShownWord, StepText
from live_class.redis_store import RedisClassStore
from live_class.rules import ClassProblem
from live_class.sqlite_store import SqliteClassStore
from live_class.store import KEEP_SECONDS, Joining, JoinRequest

HOSTILE_NAME = "<img src=x onerror=alert(1)> **bold** {{x}}"


def test_the_address_picks_the_implementation(store_address, store):
    assert isinstance(store, RedisClassStore if store_address.startswith("redis") else SqliteClassStore)


def test_a_bad_address_says_what_is_accepted():
    with pytest.raises(ValueError, match="redis://host:port/db or sqlite:///path"):
        open_store("postgres://x")


def test_a_class_code_is_taken_once(store):
    assert store.create_class(ClassRecord("ABCDE", "first", 10.0))
    assert not store.create_class(ClassRecord("ABCDE", "second", 20.0))
    assert store.class_record("ABCDE") == ClassRecord("ABCDE", "first", 10.0)
    assert store.class_record("ZZZZZ") is None


def test_what_the_teacher_shows_is_what_another_replica_reads(store_address, store):
    store.create_class(ClassRecord("ABCDE", "h", 10.0))
    store.update_class("ABCDE", 12.5, model_title="My <model>", model_link="corpus=bible&merges=50", step=7)
    store.update_class("ABCDE", 13.0, question=2, ended=True)
    other_replica = open_store(store_address)
    expected = ClassRecord("ABCDE", "h", 13.0, "My <model>", "corpus=bible&merges=50", 7, 2, True)
    assert other_replica.class_record("ABCDE") == expected
    with pytest.raises(ValueError, match="teacher_hash"):
        store.update_class("ABCDE", 14.0, teacher_hash="mine now")


def test_students_come_back_in_joining_order_with_their_names_literal(store):
    store.create_class(ClassRecord("ABCDE", "h", 0.0))
    for index, name in enumerate(["Zoë", HOSTILE_NAME, "Ada"]):
        assert (
            store.add_student("ABCDE", JoinRequest(f"s{index}", name, (f"key {index}",), float(index + 1)))
            == Joining.JOINED
        )
    assert store.students("ABCDE") == {"s0": "Zoë", "s1": HOSTILE_NAME, "s2": "Ada"}
    assert list(store.students("ABCDE")) == ["s0", "s1", "s2"]
    assert store.class_record("ABCDE").last_active == 3.0
    assert store.students("OTHER") == {}


def join_all(store, code: str, *students: str) -> None:
    """Students of a class, each named as their id, joined at time 0."""
    for student in students:
        assert store.add_student(code, JoinRequest(student, student, (student,), 0.0)) == Joining.JOINED


def test_a_vote_counts_once_with_the_last_tap_until_the_reveal(store):
    store.create_class(ClassRecord("ABCDE", "h", 0.0))
    join_all(store, "ABCDE", "s1", "s2", "s3")
    assert not store.vote("ABCDE", 1, "s1", "a + n", 1.0)  # nothing asked yet
    store.put_question("ABCDE", pair_question())
    assert store.vote("ABCDE", 1, "s1", "n + a", 2.0)
    assert store.vote("ABCDE", 1, "s1", "a + n", 3.0)  # a second tap changes the vote
    assert store.vote("ABCDE", 1, "s2", "b + a", 4.0)
    assert store.votes("ABCDE", 1) == {"s1": "a + n", "s2": "b + a"}
    assert store.reveal("ABCDE", 1) and not store.reveal("ABCDE", 1)  # only the first reveal counts
    assert not store.vote("ABCDE", 1, "s3", "a + n", 5.0) and not store.vote("ABCDE", 1, "s1", "b + a", 5.0)
    assert store.votes("ABCDE", 1) == {"s1": "a + n", "s2": "b + a"}
    assert store.class_record("ABCDE").last_active == 4.0  # refused votes are no activity
    assert not store.reveal("ABCDE", 2)  # not asked


def test_questions_keep_their_fields_and_reveals(store):
    store.create_class(ClassRecord("ABCDE", "h", 0.0))
    count = Question(2, COUNT.name, "How many tokens? «日本» <b>", (), "17")
    store.put_question("ABCDE", pair_question())
    store.put_question("ABCDE", count)
    store.reveal("ABCDE", 1)
    assert store.questions("ABCDE") == [pair_question().replace(revealed=True), count]
    assert store.question("ABCDE", 2) == count and store.question("ABCDE", 3) is None
    assert store.question("ABCDE", 1) == pair_question().replace(revealed=True)
    assert store.votes("ABCDE", 2) == {}


def test_votes_racing_a_reveal_are_all_kept_or_refused(store_address, store):
    """Thirty students vote at once on two replicas while the teacher reveals: every vote the store accepted is
    in the tally, and none came in after the reveal."""
    store.create_class(ClassRecord("ABCDE", "h", 0.0))
    store.put_question("ABCDE", pair_question())
    join_all(store, "ABCDE", *(f"s{index}" for index in range(30)))
    replicas = [store, open_store(store_address)]
    accepted: dict[str, bool] = {}
    start = threading.Barrier(31)

    def student(index: int) -> None:
        start.wait()
        accepted[f"s{index}"] = replicas[index % 2].vote("ABCDE", 1, f"s{index}", "n + a", 1.0)

    threads = [threading.Thread(target=student, args=(index,)) for index in range(30)]
    for thread in threads:
        thread.start()
    start.wait()
    assert store.reveal("ABCDE", 1)
    after_reveal = dict(store.votes("ABCDE", 1))
    for thread in threads:
        thread.join()
    counted = {student for student, ok in accepted.items() if ok}
    assert set(store.votes("ABCDE", 1)) == counted == set(after_reveal)
    assert len(accepted) == 30


def test_a_restarted_server_finds_the_class_as_it_was(store_address, store):
    store.create_class(ClassRecord("ABCDE", "h", 0.0))
    store.add_student("ABCDE", JoinRequest("s1", "Ada", ("ada",), 1.0))
    store.put_question("ABCDE", pair_question())
    store.vote("ABCDE", 1, "s1", "a + n", 2.0)
    del store
    restarted = open_store(store_address)
    assert restarted.students("ABCDE") == {"s1": "Ada"}
    assert restarted.votes("ABCDE", 1) == {"s1": "a + n"}
    assert restarted.class_record("ABCDE").last_active == 2.0


def test_a_forgotten_class_leaves_nothing_behind(store_address, store):
    """SQLite deletes a class nobody acted in for KEEP_SECONDS when the next class starts; Redis gives each of a
    class's keys that lifetime on every write."""
    store.create_class(ClassRecord("OLDER", "h", 0.0))
    store.add_student("OLDER", JoinRequest("s1", "Ada", ("ada",), 1.0, address="a1", most_from_address=60))
    store.put_question("OLDER", pair_question())
    store.vote("OLDER", 1, "s1", "a + n", 1.0)
    if isinstance(store, SqliteClassStore):
        store.create_class(ClassRecord("NEWER", "h", 1.0 + KEEP_SECONDS - 1))
        assert store.class_record("OLDER") is not None
        store.create_class(ClassRecord("LATER", "h", 1.0 + KEEP_SECONDS + 1))
        assert store.class_record("OLDER") is None and store.students("OLDER") == {}
        assert store.questions("OLDER") == [] and store.votes("OLDER", 1) == {}
    else:
        client = redis.Redis.from_url(store_address)
        keys = client.keys("bpe:class:OLDER*")
        assert len(keys) == 7  # the class, its students, their joining order, names' keys, addresses, questions, votes
        assert all(0 < client.ttl(key) <= KEEP_SECONDS for key in keys)


def test_a_store_that_does_not_answer_says_so_in_words(tmp_path):
    """Redis on a port nobody listens on, and an SQLite file that is a folder: a ClassProblem a page can show."""
    from browser_helpers import free_port

    from live_class.store import StoreUnavailable

    for address in (f"redis://127.0.0.1:{free_port()}/0", f"sqlite:///{tmp_path}"):
        with pytest.raises(StoreUnavailable, match=r"The class store \((Redis|SQLite)\) does not answer"):
            open_store(address).class_record("ABCDE")


def test_make_classrooms_redis_restarted_loses_no_class_and_no_vote(
    redis_url, tmp_path
):  # redis_url: skip without Redis
    """``make classroom`` keeps Redis's append-only file in a folder of its own (``bench.classroom``): stopped and
    started again on that folder, the server has the class, its students and every vote."""
    from bench.classroom.__main__ import CLASS_DATA
    from bench.classroom.cluster import running_redis

    assert CLASS_DATA.parts[-3:] == ("data", "live", "redis")  # ignored by git, beside the SQLite store's file
    folder = tmp_path / "redis"
    with running_redis(folder) as url:
        store = open_store(url)
        store.create_class(ClassRecord("KEEPS", "h", 1.0))
        store.add_student("KEEPS", JoinRequest("s1", "Ada", ("ada",), 2.0))
        store.put_question("KEEPS", pair_question())
        assert store.vote("KEEPS", 1, "s1", "a + b", 3.0)
    with running_redis(folder) as url:  # a new server, on another port, reading the same folder
        store = open_store(url)
        assert store.class_record("KEEPS").code == "KEEPS"
        assert store.students("KEEPS") == {"s1": "Ada"}
        assert store.votes("KEEPS", 1) == {"s1": "a + b"}


def test_a_name_key_held_by_one_student_refuses_another_and_changes_nothing(store):
    store.create_class(ClassRecord("ABCDE", "h", 0.0))
    assert store.add_student("ABCDE", JoinRequest("s1", "Ada", ("ada",), 1.0)) == Joining.JOINED
    assert store.add_student("ABCDE", JoinRequest("s2", "ADA", ("ada",), 2.0)) == Joining.NAME_TAKEN
    assert (
        store.add_student("ABCDE", JoinRequest("s2", "Вob", ("ʙob", "ada"), 2.0)) == Joining.NAME_TAKEN
    )  # any one key held
    assert store.students("ABCDE") == {"s1": "Ada"} and store.class_record("ABCDE").last_active == 1.0
    assert store.add_student("ABCDE", JoinRequest("s2", "Вob", ("ʙob", "bob"), 2.0)) == Joining.JOINED
    assert (
        store.add_student("ABCDE", JoinRequest("s5", "Bob", ("bob",), 2.0)) == Joining.NAME_TAKEN
    )  # held by Вob's second key
    assert store.add_student("OTHER", JoinRequest("s3", "Ada", ("ada",), 3.0)) == Joining.JOINED  # another class: free
    assert (
        store.add_student("ABCDE", JoinRequest("s1", "Ada", ("ada",), 4.0)) == Joining.JOINED
    )  # the same student again


def test_twelve_students_joining_at_once_under_one_name_give_one_student(store_address):
    """The check and the keeping are one atomic step in each store: one of twelve simultaneous joins as "Sam" wins
    (12 joins gave two Sams in one run of three when they were two steps)."""
    from live_class import room

    store = open_store(store_address)
    code, _ = room.start_class(store, now=0.0)
    start, outcomes = threading.Barrier(12), []

    def join():
        replica = open_store(store_address)  # each its own connection, as students on several replicas
        start.wait()
        try:
            outcomes.append(room.join(replica, code, "Sam", now=1.0))
        except ClassProblem:
            outcomes.append(None)

    threads = [threading.Thread(target=join) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    joined = [student for student in outcomes if student is not None]
    assert len(outcomes) == 12 and len(joined) == 1
    assert store.students(code) == {joined[0]: "Sam"}


def test_a_file_from_before_names_had_keys_is_read_and_checked(tmp_path):
    path = tmp_path / "classes.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE students (code TEXT NOT NULL, student TEXT NOT NULL, name TEXT NOT NULL,"
        " joined INTEGER PRIMARY KEY AUTOINCREMENT, UNIQUE (code, student));"
        "INSERT INTO students (code, student, name) VALUES ('ABCDE', 's1', 'Ada'), ('ABCDE', 's2', 'Bo');"
    )
    old.commit()
    old.close()
    store = SqliteClassStore(str(path))
    assert store.students("ABCDE") == {"s1": "Ada", "s2": "Bo"}
    assert store.add_student("ABCDE", JoinRequest("s3", "Cy", ("cy",), 1.0)) == Joining.JOINED
    assert store.add_student("ABCDE", JoinRequest("s4", "CY", ("cy",), 2.0)) == Joining.NAME_TAKEN


def test_a_file_from_when_a_name_had_one_key_keeps_its_students_names_taken(tmp_path):
    path = tmp_path / "classes.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE students (code TEXT NOT NULL, student TEXT NOT NULL, name TEXT NOT NULL,"
        " joined INTEGER PRIMARY KEY AUTOINCREMENT, name_key TEXT NOT NULL DEFAULT '', UNIQUE (code, student));"
        "CREATE UNIQUE INDEX name_keys ON students (code, name_key) WHERE name_key != '';"
        "INSERT INTO students (code, student, name, name_key) VALUES ('ABCDE', 's1', 'Ada', 'ada');"
    )
    old.commit()
    old.close()
    store = SqliteClassStore(str(path))
    assert store.add_student("ABCDE", JoinRequest("s2", "ADA", ("ada",), 1.0)) == Joining.NAME_TAKEN
    assert store.add_student("ABCDE", JoinRequest("s3", "Bo", ("bo",), 2.0)) == Joining.JOINED
    assert store.students("ABCDE") == {"s1": "Ada", "s3": "Bo"}


def test_a_file_from_before_classes_were_locked_reads_them_open_and_locks_them(tmp_path):
    path = tmp_path / "classes.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE classes (code TEXT PRIMARY KEY, teacher_hash TEXT NOT NULL, last_active REAL NOT NULL,"
        " model_title TEXT NOT NULL, model_link TEXT NOT NULL, step INTEGER NOT NULL, question INTEGER NOT NULL,"
        " ended INTEGER NOT NULL);"
        "INSERT INTO classes VALUES ('ABCDE', 'h', 1.0, 'Bible', '', 2, 0, 0);"
    )
    old.commit()
    old.close()
    store = SqliteClassStore(str(path))
    assert store.class_record("ABCDE") == ClassRecord("ABCDE", "h", 1.0, "Bible", "", 2, 0, False, False)
    store.update_class("ABCDE", 2.0, locked=True)
    assert store.class_record("ABCDE").locked
    assert store.add_student("ABCDE", JoinRequest("s1", "Ada", ("ada",), 3.0)) == Joining.LOCKED


def test_old_classes_are_forgotten_a_batch_at_a_time(tmp_path):
    """Each class started deletes at most FORGET_BATCH old ones, each whole: the write lock stays short however many
    have piled up."""
    from live_class.sqlite_store import FORGET_BATCH

    store = SqliteClassStore(str(tmp_path / "classes.sqlite3"))
    old = [f"O{index:04d}" for index in range(FORGET_BATCH * 2 + 50)]
    for code in old:
        store.create_class(ClassRecord(code, "h", 0.0))
        store.add_student(code, JoinRequest("s1", "Ada", ("ada",), 0.0))
    later = KEEP_SECONDS + 1.0

    def left() -> int:
        return sum(store.class_record(code) is not None for code in old)

    store.create_class(ClassRecord("NEWA1", "h", later))
    assert left() == FORGET_BATCH + 50
    store.create_class(ClassRecord("NEWA2", "h", later))
    store.create_class(ClassRecord("NEWA3", "h", later))
    assert left() == 0 and all(store.students(code) == {} for code in old)
    assert store.class_record("NEWA1") is not None


def test_a_pair_questions_text_comes_back_whole_on_another_replica(store_address, store):
    """The text a pair question is about travels with it (asked once by the teacher, read by every screen)."""
    text = StepText(
        (ShownWord(("lo", "w", "</w>"), 5, (1, -1)), ShownWord(("<b>", "é", "x"), 1, (-1, 0), clipped=True)),
        more=7,
        counts=(6, 6),
        tied=5,
        tie_break="hf",
        made="lo",
    )
    store.create_class(ClassRecord("ABCDE", "h", 0.0))
    store.put_question("ABCDE", Question(1, "pair", "Step 2", ("é + x", "lo + w"), "lo + w", text=text))
    assert open_store(store_address).question("ABCDE", 1).text == text
    assert store.questions("ABCDE")[0].text == text
