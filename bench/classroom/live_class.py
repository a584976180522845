"""A live class through the balancer, spoken in Streamlit's protocol: a teacher starts a class on the Class page,
students join it by its code, and for three steps they vote which pair merges next (some tap twice), the teacher
reveals and moves everyone on. During the second question a replica is killed and started again; during the third
one student trains the heaviest recipe the class allows on the 1 MB sample.

Each student asks for its screen again every second, as the browser does for the page's ``st.fragment(run_every)``,
and notes when it first shows the teacher's new step. What was counted is read back from the class store itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bench.classroom.cluster import Classroom, restart_replica
from bench.classroom.student import ActionFailed, Student, seat_on_every_replica
from bench.measure import cpu_seconds, percentile
from live_class.choose import open_store
from live_class.rules import CLASS_TRAINING_LIMIT
from pages.classroom.class_cookies import COOKIES
from pages.classroom.views.live_view import POLL_SECONDS  # as the Class page's fragments ask the browser

STEP_TARGET = 2.0  # seconds: a student sees the teacher's new step within this (p95)
ROUNDS = 3
RECONNECT_SECONDS = 90.0  # how long a student whose replica died keeps trying to come back
WAIT_SECONDS = 60.0  # for every vote of a round to be counted, and every student to see a step
# The heaviest recipe on the sample (raw bytes, no split), at the largest size a running class allows.
HEAVY_LINK = f"preset=sample&units=bytes&split=none&eow=&merges={CLASS_TRAINING_LIMIT}"
_VOTE_BUTTON = re.compile(r"class_vote_(\d+)_(\d+)$")  # the Class page's keys of a question's choices
_LETTER = re.compile(r"^[A-Z] · ")  # a pair's button reads first the letter that marks it in the text
_STEP = re.compile(r"\bStep (\d+)\b")
_JOIN = re.compile(r"/Class\?join=([A-Z2-9]{5})\b")
_TALLY = re.compile(r"\b(\d+) votes? from (\d+) students?\b")


class ClassStudent(Student):
    """A student of a live class: joins, then asks for its screen every second, votes when asked, and comes back
    (like a phone's reload of the same address, with its class's cookie) when its replica goes away."""

    role = "student"  # whose cookie the page's component sets

    def __init__(self, base_url: str, name: str = ""):
        super().__init__(base_url)
        self.name = name
        self.code = ""
        self.lock = asyncio.Lock()  # one message exchange at a time on the websocket
        self.step_seen: dict[int, float] = {}  # step -> when this student's screen first showed it
        self.votes: dict[int, str] = {}  # question -> the last choice the screen confirmed
        self.reconnects = 0
        self.poll_bytes: list[int] = []  # what each poll of the screen cost: the bytes its run sent back

    def keep_cookie(self) -> None:
        """What the page's class-cookie component does in a browser: store the value it is given for this role."""
        for element in self.elements:
            if (
                element.WhichOneof("type") == "bidi_component"
                and "bpe_class_cookie" in element.bidi_component.component_name
            ):
                data = json.loads(element.bidi_component.json)
                if data["name"] == COOKIES[self.role]:
                    self.cookies[data["name"]] = data["value"]

    @property
    def student_id(self) -> str:
        """The id the class knows this student by, from the cookie its page set (no address carries it)."""
        return self.cookies.get(COOKIES["student"], "").partition(".")[2]

    def note_step(self) -> None:
        shown = _STEP.search(self.shown_text())
        if shown:
            self.step_seen.setdefault(int(shown.group(1)), time.monotonic())

    async def join(self, code: str) -> None:
        self.code = code
        await self.enter()
        await self.open_page("Class", f"join={code}")
        await self.submit({"Your name": self.name}, "Join")
        self.keep_cookie()
        if not self.student_id:
            raise ActionFailed(f"{self.name} did not join: {self.shown_text()[:200]}")
        self.note_step()

    async def rerun_or_come_back(self, trigger: str = "", fragment: str = "") -> bool:
        """A run (``Student.rerun``); True if it went through, False if the replica had gone away (a closed socket,
        a timeout) and the student came back instead. An exception on the page is a real failure: raised."""
        try:
            await self.rerun(trigger=trigger, fragment=fragment)
        except ActionFailed:
            raise
        except Exception:
            await self.come_back()
            return False
        return True

    async def poll(self) -> None:
        """One auto-rerun of the screen's fragment; a lost replica makes the student reconnect first."""
        async with self.lock:
            before = self.received
            if await self.rerun_or_come_back(fragment=self.auto_rerun):
                self.poll_bytes.append(self.received - before)
            self.note_step()

    async def come_back(self) -> None:
        """Reload the same address (class and student id) until a replica answers: the store keeps the rest."""
        deadline = time.monotonic() + RECONNECT_SECONDS
        while True:
            with contextlib.suppress(Exception):
                await self.leave()
            try:
                await self.connect()
                await self.rerun()
                self.reconnects += 1
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)

    async def keep_polling(self, stop: asyncio.Event) -> None:
        await asyncio.sleep(random.random() * POLL_SECONDS)  # browsers do not tick together
        while not stop.is_set():
            started = time.monotonic()
            await self.poll()
            await asyncio.sleep(max(0.0, POLL_SECONDS - (time.monotonic() - started)))

    def choices(self) -> dict[int, tuple[int, str]]:
        """The question's choice buttons the screen shows: index -> (question number, button id)."""
        found = {}
        for element in self.elements:
            if element.WhichOneof("type") == "button" and (match := _VOTE_BUTTON.search(element.button.id)):
                found[int(match.group(2))] = (int(match.group(1)), element.button.id)
        return found

    def button_label(self, button_id: str) -> str:
        return next(
            e.button.label for e in self.elements if e.WhichOneof("type") == "button" and e.button.id == button_id
        )

    async def vote(self, pick: int) -> None:
        """Tap choice ``pick`` (modulo the choices shown) and note it once the screen confirms it."""
        for _ in range(3):  # a reconnect in between redraws the screen: look again
            async with self.lock:
                choices = self.choices()
                if choices:
                    number, button = choices[pick % len(choices)]
                    label = self.button_label(button)
                    if not await self.rerun_or_come_back(trigger=button, fragment=self.auto_rerun):
                        continue
                    choice = _LETTER.sub("", re.sub(r"\\(.)", r"\1", label))
                    if f"Your vote: {choice}" in self.shown_text():
                        self.votes[number] = choice
                        return
            await self.poll()
        raise ActionFailed(f"{self.name}'s vote was not confirmed: {self.shown_text()[-200:]}")


class Teacher(ClassStudent):
    """The teacher's browser: its class's cookie (which the page's component sets) brings it back to the class
    after its replica restarts."""

    role = "teacher"

    async def start_class(self) -> str:
        await self.enter()
        await self.open_page("Class")
        await self.press("Start a class")
        self.keep_cookie()
        found = _JOIN.search(self.shown_text())
        if not found:
            raise ActionFailed(f"no class code on the teacher's page: {self.shown_text()[:300]}")
        self.code = found.group(1)
        return self.code

    async def tally(self) -> tuple[int, int]:
        """(votes, students) as the projector shows them now."""
        async with self.lock:
            page = self.elements  # the buttons the teacher presses are outside the fragment
            if not await self.rerun_or_come_back(fragment=self.auto_rerun):  # back with the cookie: a new page
                page = self.elements
            found = _TALLY.search(self.shown_text())
            self.elements = page
        return (int(found.group(1)), int(found.group(2))) if found else (0, 0)

    async def act(self, label: str) -> None:
        async with self.lock:
            if not await self.rerun_or_come_back(trigger=self.widget("button", label).id):
                await self.press(label)  # on the page the teacher came back to


@dataclass
class ClassReport:
    students: int
    replicas: int
    joined: int = 0
    counted_once: int = 0
    step_delays: list[float] = field(default_factory=list)
    lost_at_restart: int = 0
    cpu_per_student: float = float("nan")  # share of one core each student cost the replicas, during the class
    heavy_seconds: float = float("nan")
    came_back: int = 0  # sessions (students and teacher) that reconnected after the restart
    steps_shown: list[float] = field(default_factory=list)  # when the teacher moved on (time.monotonic)
    cpu_of_killed: float = 0.0  # CPU seconds the killed replica had used, read just before the kill
    problems: list[str] = field(default_factory=list)
    poll_bytes: list[int] = field(default_factory=list)  # every poll of every student's screen: the bytes sent

    @property
    def p95(self) -> float:
        return percentile(self.step_delays, 0.95) if self.step_delays else float("nan")

    @property
    def passed(self) -> bool:
        n = self.students
        return (
            (self.joined, self.counted_once, self.lost_at_restart) == (n, n, 0)
            and self.p95 < STEP_TARGET
            and not self.problems
        )

    def last_line(self) -> str:
        n = self.students
        return (
            f"class: {self.joined}/{n} students joined, {self.counted_once}/{n} votes counted once, "
            f"p95 step seen {self.p95:.2f} s, restart lost {self.lost_at_restart} votes, {self.replicas} replicas"
        )


async def heavy_training(classroom: Classroom, report: ClassReport) -> None:
    """One student opens the app with a link that trains the heaviest recipe the class allows on the sample."""
    student = Student(classroom.url)
    student.query_string = HEAVY_LINK
    started = time.monotonic()
    try:
        await student.enter()
        if f"{CLASS_TRAINING_LIMIT:,} merges" not in student.shown_text():
            report.problems.append(f"the heavy training did not make its model: {student.shown_text()[:200]}")
    finally:
        report.heavy_seconds = time.monotonic() - started
        await student.leave()


async def one_question(
    crowd: list[ClassStudent],
    round_: int,
    classroom: Classroom,
    report: ClassReport,
    store,
    code: str,
    disturb: bool = True,
) -> None:
    """Every student votes once (every fourth taps twice); with ``disturb``, round 2 restarts a replica half way and
    round 3 trains."""
    acknowledged = asyncio.Event()
    done = 0

    async def student_votes(index: int, student: ClassStudent) -> None:
        nonlocal done
        await asyncio.sleep(random.random() * 1.5)
        await student.vote(index + round_)
        if index % 4 == 1:
            await asyncio.sleep(0.3)
            await student.vote(index + round_ + 1)  # a second tap changes the vote
        done += 1
        if done >= len(crowd) // 2:
            acknowledged.set()

    async def restart_half_way() -> None:
        await acknowledged.wait()
        number = store.class_record(code).question
        before = {student.student_id: student.votes.get(number) for student in crowd if number in student.votes}
        killed = classroom.replicas[0].process.pid
        report.cpu_of_killed = cpu_seconds(killed)  # its CPU time would go with it
        await asyncio.to_thread(restart_replica, classroom, 1)
        after = store.votes(code, number)
        report.lost_at_restart = sum(1 for sid, choice in before.items() if after.get(sid) is None)

    disturbances = {2: restart_half_way, 3: lambda: heavy_training(classroom, report)}  # started only when used
    extra = [disturbances[round_]()] if disturb and round_ in disturbances else []
    await asyncio.gather(*(student_votes(index, student) for index, student in enumerate(crowd)), *extra)


async def run_class(
    classroom: Classroom,
    store_address: str,
    students: int,
    beside: Callable[[str], Awaitable[asyncio.Future]] | None = None,
) -> ClassReport:
    """The class, its three questions and what it measured. ``beside(code)``, when given, starts what runs beside the
    class once its students joined (bench/classroom/hostile.py's visitor) and returns, when that is under way, its
    end to wait for; the questions follow, without the restart and the heavy training, and the students go on
    polling until it is done."""
    report = ClassReport(students, len(classroom.replicas))
    store = open_store(store_address)
    teacher = Teacher(classroom.url)
    code = await teacher.start_class()
    per_replica = -(-students // len(classroom.replicas))  # the last round may seat one or two more than asked
    seated = await seat_on_every_replica(classroom, per_replica, lambda: ClassStudent(classroom.url))
    crowd = seated[:students]
    for index, student in enumerate(crowd):
        student.name = f"Student {index + 1}" if index % 7 else f"<b>Student {index + 1}</b>"  # names stay literal
    cpu_before, start = sum(cpu_seconds(pid) for pid in classroom.replica_pids), time.monotonic()
    joined = await asyncio.gather(*(student.join(code) for student in crowd), return_exceptions=True)
    report.problems += [f"join: {error}" for error in joined if isinstance(error, Exception)]
    report.joined = sum(1 for name in store.students(code).values() if name in {s.name for s in crowd})
    stop = asyncio.Event()
    pollers = [asyncio.create_task(student.keep_polling(stop)) for student in crowd]
    companion = await beside(code) if beside else None
    try:
        for round_ in range(1, ROUNDS + 1):
            await one_question(crowd, round_, classroom, report, store, code, disturb=beside is None)
            deadline = time.monotonic() + WAIT_SECONDS
            while (await teacher.tally())[0] < students and time.monotonic() < deadline:
                await asyncio.sleep(0.5)
            await teacher.act("Reveal")
            await teacher.act("Next step")
            shown_at, step = time.monotonic(), round_ + 1
            report.steps_shown.append(shown_at)
            while any(step not in s.step_seen for s in crowd) and time.monotonic() < shown_at + WAIT_SECONDS:
                await asyncio.sleep(0.1)
            report.step_delays += [max(0.0, s.step_seen.get(step, float("inf")) - shown_at) for s in crowd]
    finally:
        if companion is not None:
            await asyncio.gather(companion, return_exceptions=True)  # it keeps its own account of what went wrong
        stop.set()
        results = await asyncio.gather(*pollers, return_exceptions=True)
        report.problems += [f"poll: {error}" for error in results if isinstance(error, Exception)]
    wall = time.monotonic() - start
    cpu = sum(cpu_seconds(pid) for pid in classroom.replica_pids) + report.cpu_of_killed - cpu_before
    report.cpu_per_student = cpu / wall / students
    report.came_back = sum(person.reconnects for person in (teacher, *crowd))
    report.poll_bytes = [size for student in crowd for size in student.poll_bytes]
    questions = [q.number for q in store.questions(code)][:ROUNDS]
    counted = {q: store.votes(code, q) for q in questions}
    report.counted_once = sum(
        1 for s in crowd if all(q in s.votes and counted[q].get(s.student_id) == s.votes[q] for q in questions)
    )
    await asyncio.gather(teacher.leave(), *(student.leave() for student in crowd), return_exceptions=True)
    return report
