"""A live class with a hostile visitor beside it (``make hostile-test``): does the class keep its pace, every vote
count once, the server stay within the memory the README promises, and every hostile action get an answer in words?

    .venv/bin/python -m bench.classroom.hostile                      # 30 students, 2 replicas sharing Redis
    .venv/bin/python -m bench.classroom.hostile --students 5 --link-tabs 1 --upload-tabs 1 --tokens 200000

The class is bench/classroom/live_class.py's (a teacher, students voting through three steps; no replica restart
and no heavy training of its own: the visitor brings those). From the moment the students joined, one visitor,
from an address of its own (127.0.0.66: nginx and the app's limits tell it apart from the class on 127.0.0.1), with
one browser whose tabs share its cookies, and so its replica:

- opens the 100,000-merge link (the heaviest recipe on the sample) in ``--link-tabs`` tabs;
- uploads a tokenizer.json whose pre-tokenizer is ``(x|x)+y`` on Encode, then types 40 x's;
- uploads a tokenizer.json.xz of ``--tokens`` tokens (60 MB unpacked by default) on Encode in ``--upload-tabs`` tabs,
  each tab another file of the same size;
- floods the class's join form: ``--joins`` attempts one after another, each with a name taken (a student's,
  or one that passes for it), past the joins a minute one address may make.

Beside it a victim (``victim.py``), from another address of its own, comes again and again while the visitor acts:
a new tab's first page, then a small training of its own, each timed.

nginx reaches the replicas from 127.0.0.2, the address they trust to name a visitor (``BPE_TRUSTED_PROXY``), as
Docker's nginx reaches them from its container's address: the app never sees a visitor as 127.0.0.1.

An action is answered in words when its page shows an alert whose words say what happened (a ceiling, the
vocabulary's stop, the pattern that took too long, the upload loaded or refused, the joins refused) and no
exception; silence (no answer in ``ACTION_TIMEOUT``) and a closed connection are not. Meanwhile the resident memory of
every server process (replicas with their job workers, nginx, Redis) is added up five times a second, from /proc.
The last line is

    hostile: class p95 step seen X s, votes V/N counted once, peak server memory M GiB, hostile actions answered in
    words H/T, victims answered in Y s (p95)

(one line), and the run exits 1 unless X < 2, V = N, M is under the README's total (``server_memory``), H = T and
Y < 60 (``victim.VICTIM_TARGET``, with no victim's visit gone wrong).

Why the protocol rather than a browser: the students already speak it (bench/classroom/student.py); an upload is
one PUT to the session's upload address and one widget state, which the protocol sends as Streamlit's own front end
does; and nine Chromium tabs beside 30 students would take the 2 cores the server is measured on.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import sys
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bench.classroom.cluster import Classroom, running_classroom, running_redis
from bench.classroom.hostile_files import BIG_TOKENS, backtracking_tokenizer, big_tokenizer_xz
from bench.classroom.live_class import STEP_TARGET, ClassReport, run_class
from bench.classroom.server_memory import PeakMemory, documented_total_mb, gib, listening_pid
from bench.classroom.student import ACTION_TIMEOUT, Student
from bench.classroom.victim import VICTIM_TARGET, Victim
from bench.measure import load_average, percentile
from live_class.limits import JOINS

VISITOR_ADDRESS = "127.0.0.66"
HEAVY_LINK = "preset=sample&units=bytes&split=none&eow=&merges=100000"
BACKTRACKING_TEXT = "x" * 40
JOIN_ATTEMPTS = JOINS[0] + 60  # past what one address may do in a minute
FLOOD_TABS = 4  # the join attempts come from this many tabs at once
RUN_DEADLINE = 900.0
# What each action's answer must say (any one of its phrases, in an alert).
CEILINGS = ("memory ceiling", "time ceiling")
# a job's ceiling, the vocabulary's stop, or the training done within the budget
LINK_WORDS = (*CEILINGS, "merged tokens' text past", "merges asked for")
UPLOAD_WORDS = (*CEILINGS, "Loaded ", "Could not load")
PATTERN_WORDS = ("took longer than",)
JOINS_REFUSED = ("the most it may", "too often")
LAST_LINE = re.compile(
    r"hostile: class p95 step seen (\S+) s, votes (\d+)/(\d+) counted once, peak server memory (\S+) GiB, "
    r"hostile actions answered in words (\d+)/(\d+), victims answered in (\S+) s \(p95\)"
)


@dataclass
class Answer:
    """What the page said to one hostile action: the alert that answered in words, or what happened instead."""

    action: str
    seconds: float = float("nan")
    after: float = float("nan")  # seconds from the visitor's first visit to this answer
    words: str = ""
    problem: str = ""

    @property
    def in_words(self) -> bool:
        return bool(self.words) and not self.problem


def answer_in(alerts: list[str], phrases: tuple[str, ...]) -> str:
    """The first alert that says one of ``phrases``, else "".

    >>> answer_in(["Round trip OK", "Could not load a.json: ..."], UPLOAD_WORDS)
    'Could not load a.json: ...'
    >>> answer_in(["Round trip OK"], PATTERN_WORDS)
    ''
    """
    return next((alert for alert in alerts if any(phrase in alert for phrase in phrases)), "")


@dataclass
class Hostility:
    """How hostile the visitor is: tabs of the 100,000-merge link, tabs uploading the big tokenizer (of ``tokens``
    tokens), join attempts."""

    link_tabs: int = 3
    upload_tabs: int = 5
    tokens: int = BIG_TOKENS
    joins: int = JOIN_ATTEMPTS

    @property
    def actions(self) -> int:
        return self.link_tabs + 2 + self.upload_tabs + 1  # the backtracking upload and its typing; the flood


class HostileVisitor:
    """One browser from one address: every tab a session of its own with the browser's cookies (the balancer's
    replica cookie among them, so every tab reaches the same replica)."""

    def __init__(self, base_url: str, hostility: Hostility, big_files: list[bytes]):
        self.base_url, self.hostility, self.big_files = base_url, hostility, big_files
        self.cookies: dict[str, str] = {}
        self.answers: list[Answer] = []
        self.came = float("nan")  # when it came (time.monotonic)
        self.under_way = asyncio.Event()  # every file is up: the server is about to read them all
        self._files_up = 0

    def tab(self) -> Student:
        tab = Student(self.base_url, source_address=VISITOR_ADDRESS)
        tab.cookies = dict(self.cookies)
        return tab

    async def act(self, code: str) -> None:
        """Every action at once; each one's answer is kept in ``answers``."""
        self.came, first = time.monotonic(), self.tab()
        await asyncio.to_thread(first.load_front_page)  # the browser's first visit: its replica cookie
        self.cookies = first.cookies
        hostility = self.hostility
        await asyncio.gather(
            *(self.timed(f"the 100,000-merge link, tab {n + 1}", self.open_link) for n in range(hostility.link_tabs)),
            self.backtracking(),
            *(
                self.timed(f"a tokenizer of {hostility.tokens:,} tokens, tab {n + 1}", self.upload_big(file))
                for n, file in enumerate(self.big_files)
            ),
            self.timed(f"{hostility.joins} joins from one address", lambda tab: self.flood(tab, code)),
        )

    async def timed(self, action: str, run, tab: Student | None = None, close: bool = True) -> Answer:
        """``run(tab)`` in ``tab`` (a new tab if None), its answer (the words it returns) timed and kept; the tab
        closed after unless not ``close``."""
        answer, tab, started = Answer(action), tab or self.tab(), time.monotonic()
        self.answers.append(answer)
        try:
            answer.words = await run(tab)
            if not answer.words:
                answer.problem = f"no answer in words: {' | '.join(tab.alerts()) or tab.shown_text()[-200:]}"
        except TimeoutError:
            answer.problem = f"silence: no answer in {ACTION_TIMEOUT:.0f} s"
        except Exception as error:  # an exception on the page, a closed connection, a refused request
            answer.problem = f"{type(error).__name__}: {str(error)[:300]}"
        finally:
            answer.seconds, answer.after = time.monotonic() - started, time.monotonic() - self.came
            if close:
                with contextlib.suppress(Exception):
                    await tab.leave()
        return answer

    async def open_link(self, tab: Student) -> str:
        tab.query_string = HEAVY_LINK
        await tab.enter()  # the first run trains what the link asks
        await tab.open_page("Train", HEAVY_LINK)  # where the page says how training went (the root is Start)
        return answer_in(tab.alerts(), LINK_WORDS)

    async def upload_on_encode(self, tab: Student, name: str, data: bytes) -> str:
        await tab.enter()
        await tab.open_page("Encode / Decode")
        await tab.open_expander("Load a tokenizer")
        await tab.put_file("Tokenizer files", name, data)
        self._files_up += 1
        if self._files_up == len(self.big_files) + 1:  # with the backtracking tokenizer
            self.under_way.set()
        await tab.rerun()  # the run that reads the file
        return answer_in(tab.alerts(), UPLOAD_WORDS)

    def upload_big(self, file: bytes):
        return lambda tab: self.upload_on_encode(tab, "tokenizer.json.xz", file)

    async def backtracking(self) -> None:
        """Two actions in one tab: the upload, then the 40 x's typed once the upload was answered."""
        tab, typed = self.tab(), "a backtracking tokenizer: 40 x's typed"
        upload = self.upload_on_encode(tab, "tokenizer.json", backtracking_tokenizer())
        if (await self.timed("a backtracking tokenizer: the upload", lambda _: upload, tab, close=False)).in_words:
            await self.timed(typed, self.type_xs, tab)
        else:
            self.answers.append(Answer(typed, problem="its upload was not answered in words"))
            await tab.leave()

    @staticmethod
    async def type_xs(tab: Student) -> str:
        await tab.type_text("Text to encode", BACKTRACKING_TEXT)
        return answer_in(tab.alerts(), PATTERN_WORDS)

    async def flood(self, tab: Student, code: str) -> str:
        """Join attempts from ``FLOOD_TABS`` tabs at once (``tab`` the first), each one after another with a name
        taken; every one must be answered, and some refused as too many. Returns the refusal's words."""
        tabs = [tab, *(self.tab() for _ in range(FLOOD_TABS - 1))]
        share = -(-self.hostility.joins // FLOOD_TABS)
        try:
            refusals = await asyncio.gather(*(self.flood_tab(each, code, share) for each in tabs))
        finally:
            await asyncio.gather(*(each.leave() for each in tabs[1:]), return_exceptions=True)
        return next((words for words in refusals if words), "")

    @staticmethod
    async def flood_tab(tab: Student, code: str, attempts: int) -> str:
        await tab.enter()
        await tab.open_page("Class", f"join={code}")
        names = ("Student 2", "student 2", "STUDENT 2", "\u0405tudent 2")  # the last with a Cyrillic S
        refusal = ""
        for attempt in range(attempts):
            await tab.submit({"Your name": names[attempt % len(names)]}, "Join")
            if not tab.alerts():
                raise RuntimeError(f"join attempt {attempt + 1} got no answer: {tab.shown_text()[-200:]}")
            refusal = answer_in(tab.alerts(), JOINS_REFUSED) or refusal
        return refusal


@dataclass
class HostileReport:
    students: int
    hostility: Hostility
    bound_mb: int
    klass: ClassReport | None = None
    answers: list[Answer] = field(default_factory=list)
    peak_mb: float = float("nan")
    peak_shares: dict[str, float] = field(default_factory=dict)  # each server process's tree at the peak, MB
    before_shares: dict[str, float] = field(default_factory=dict)  # when the visitor came: the class following
    steps_after: list[float] = field(default_factory=list)  # when the teacher moved on, from the visitor's coming
    victim: Victim | None = None  # the other visitor, beside the hostile one
    stopped: str = ""  # why the run stopped before its end

    @property
    def figures(self) -> tuple[float, int, int, int]:
        """(p95 step seen, votes counted once, actions answered in words, actions)."""
        klass = self.klass
        p95, votes = (klass.p95, klass.counted_once) if klass else (float("nan"), 0)
        return p95, votes, sum(answer.in_words for answer in self.answers), self.hostility.actions

    @property
    def victims_p95(self) -> float:
        """The p95 of the victim's answers (first pages and trainings together); NaN without one."""
        times = self.victim.all_times if self.victim else []
        return percentile(times, 0.95) if times else float("nan")

    @property
    def passed(self) -> bool:
        p95, votes, answered, actions = self.figures
        victims_fair = self.victims_p95 < VICTIM_TARGET and not (self.victim and self.victim.problems)
        held = p95 < STEP_TARGET and votes == self.students and self.peak_mb < self.bound_mb
        return held and answered == actions and victims_fair

    def last_line(self) -> str:
        p95, votes, answered, actions = self.figures
        return (
            f"hostile: class p95 step seen {p95:.2f} s, votes {votes}/{self.students} counted once, peak server memory "
            f"{self.peak_mb / 1024:.2f} GiB, hostile actions answered in words {answered}/{actions}, victims answered "
            f"in {self.victims_p95:.1f} s (p95)"
        )

    def details(self) -> str:
        rows = ["| hostile action | seconds | answered with |", "|---|---:|---|"]
        for answer in self.answers:
            said = answer.words if answer.in_words else f"NOT IN WORDS: {answer.problem}"
            rows.append(f"| {answer.action} | {answer.seconds:.1f} | {' '.join(said.split())[:160]} |")
        klass = self.klass
        if klass and klass.step_delays:
            rows.append(
                f"\nStep seen: p50 {percentile(klass.step_delays, 0.5):.2f} s, p95 {klass.p95:.2f} s, max "
                f"{max(klass.step_delays):.2f} s; {klass.joined}/{self.students} joined."
            )
        rows += [f"class: {problem}" for problem in klass.problems] if klass else []
        if self.answers:
            steps = ", ".join(f"{seconds:.0f}" for seconds in self.steps_after) or "never"
            last = max(answer.after for answer in self.answers)
            rows.append(f"The teacher moved on {steps} s after the visitor came; its last answer came at {last:.0f} s.")
        rows += victim_lines(self.victim)
        rows.append(
            f"Server memory when the visitor came {memory_shares(self.before_shares)}; at its peak "
            f"{memory_shares(self.peak_shares)}, against the README's total of {self.bound_mb:,} MB."
        )
        return "\n".join(rows + ([f"Stopped: {self.stopped}"] if self.stopped else []))


def victim_lines(victim: Victim | None) -> list[str]:
    """The victim's answers in words: each action's count, p50 and worst, and what went wrong."""
    if victim is None:
        return []
    said = [
        f"{action} x{len(times)}: p50 {percentile(times, 0.5):.1f} s, max {max(times):.1f} s"
        for action, times in victim.times.items()
        if times
    ]
    lines = [f"The victim, from its own address, beside the visitor: {'; '.join(said) or 'no answer'}."]
    return lines + [f"victim: {problem}" for problem in victim.problems]


def memory_shares(shares: dict[str, float]) -> str:
    """
    >>> memory_shares({"replica 1": 170.4, "nginx": 14.0})
    '184 MB (replica 1 170 MB, nginx 14 MB)'
    """
    parts = ", ".join(f"{name} {megabytes:,.0f} MB" for name, megabytes in shares.items())
    return f"{sum(shares.values()):,.0f} MB ({parts})"


def server_processes(classroom: Classroom, store_url: str) -> dict[str, int]:
    """The server's processes by name: every replica (its job workers are its children), nginx and redis-server."""
    processes = {replica.name: replica.process.pid for replica in classroom.replicas}
    processes["nginx"] = classroom.balancer.process.pid
    redis = listening_pid("redis-server", urlsplit(store_url).port or 6379)
    return {**processes, **({"redis": redis} if redis else {})}


async def run_hostile(classroom: Classroom, store_url: str, students: int, hostility: Hostility) -> HostileReport:
    """The class with the visitor beside it, the server's memory sampled throughout. The run stops early (and
    fails) if the server passes twice its documented total, so that it cannot take the whole machine."""
    report = HostileReport(students, hostility, documented_total_mb(len(classroom.replicas)))
    big_files = [await asyncio.to_thread(big_tokenizer_xz, hostility.tokens, n) for n in range(hostility.upload_tabs)]
    visitor = HostileVisitor(classroom.url, hostility, big_files)
    report.victim = victim = Victim(classroom.url)
    processes = server_processes(classroom, store_url)
    loop, over = asyncio.get_running_loop(), asyncio.Event()
    memory = PeakMemory(
        processes.values, over_mb=2 * report.bound_mb, on_over=lambda: loop.call_soon_threadsafe(over.set)
    )

    names = {pid: name for name, pid in processes.items()}

    async def visit(code: str) -> asyncio.Future:
        """The visitor comes, and the victim comes and goes until it is done; the class's questions start once the
        visitor's files are up (or it is done)."""
        report.before_shares = {names[pid]: megabytes for pid, megabytes in memory.shares_mb().items()}
        visit = asyncio.create_task(visitor.act(code))
        victims = asyncio.create_task(victim.come_and_go(visit))
        await asyncio.wait([visit, asyncio.create_task(visitor.under_way.wait())], return_when=asyncio.FIRST_COMPLETED)
        return asyncio.gather(visit, victims)

    with memory:
        lesson = asyncio.create_task(run_class(classroom, store_url, students, beside=visit))
        watch = asyncio.create_task(over.wait())
        await asyncio.wait([lesson, watch], return_when=asyncio.FIRST_COMPLETED)
        watch.cancel()
        if over.is_set():  # the replicas go at once (their memory with them), then the class
            report.stopped = f"the server passed {gib(memory.over_mb)}, twice its documented total: replicas killed"
            for replica in classroom.replicas:
                replica.process.kill()
            lesson.cancel()
            await asyncio.wait([lesson], timeout=30)
    if lesson.done() and not lesson.cancelled():
        if lesson.exception() is not None:
            report.stopped = f"the class stopped: {lesson.exception()!r}"
        else:
            report.klass = lesson.result()
    report.peak_shares = {names[pid]: megabytes for pid, megabytes in memory.peak_shares.items()}
    report.answers, report.peak_mb = visitor.answers, memory.peak_mb
    report.steps_after = [shown - visitor.came for shown in report.klass.steps_shown] if report.klass else []
    return report


def hostile_test(replicas: int, students: int, hostility: Hostility) -> HostileReport:
    with running_redis() as store, running_classroom(replicas, class_store=store) as classroom:
        try:
            return asyncio.run(
                asyncio.wait_for(run_hostile(classroom, store, students, hostility), timeout=RUN_DEADLINE)
            )
        except TimeoutError:
            report = HostileReport(students, hostility, documented_total_mb(replicas))
            report.stopped = f"the run took longer than {RUN_DEADLINE:.0f} s"
            return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2, help="app processes behind nginx, sharing Redis")
    parser.add_argument(
        "--students", type=int, default=30, help="students in the class (2 or more: the flood takes the second's name)"
    )
    parser.add_argument("--link-tabs", type=int, default=3, help="tabs opening the 100,000-merge link")
    parser.add_argument("--upload-tabs", type=int, default=5, help="tabs uploading the big tokenizer")
    parser.add_argument("--tokens", type=int, default=BIG_TOKENS, help="the big tokenizer's tokens")
    parser.add_argument("--joins", type=int, default=JOIN_ATTEMPTS, help="join attempts from the visitor's address")
    args = parser.parse_args()
    if args.students < 2:
        parser.error("--students: 2 or more (the join flood takes the second student's name)")
    hostility = Hostility(args.link_tabs, args.upload_tabs, args.tokens, args.joins)
    print(f"Load average at the start: {load_average()}", flush=True)
    report = hostile_test(args.replicas, args.students, hostility)
    print(f"\n## A live class of {args.students} with a hostile visitor, {args.replicas} replicas sharing Redis\n")
    print(report.details())
    print(f"Load average after: {load_average()}")
    print(report.last_line())
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
