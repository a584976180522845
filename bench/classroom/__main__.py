"""A classroom on several app replicas behind nginx, and a load test that speaks Streamlit's protocol.

    make classroom REPLICAS=2        # serve: in the foreground until Ctrl+C or SIGTERM, then every process stops
    make classroom-test              # 30 simulated students through the balancer, 2 replicas
    make class-test                  # a live class: a teacher and 30 students, 2 replicas sharing Redis
    .venv/bin/python -m bench.classroom test --replicas 1 --students 10
    .venv/bin/python -m bench.classroom class --students 5 --store sqlite

``test`` starts the classroom, sends one warm-up student to every replica (the first run of a page imports
plotly and builds the default model there), then lets ``--students`` students take the tour of the browser load
test (bench/loadtest.py) all at once, each on the replica the balancer's cookie gives it. It prints a table
per action, the replicas' CPU time and memory, and as its last line
``classroom: S/N sessions completed, p50 X s, p95 Y s per action, R replicas``; it exits 1 if a session failed.

``class`` runs a live class (bench/classroom/live_class.py) on replicas that share the class store (Redis, or one
SQLite file); its last line is ``class: J/N students joined, V/N votes counted once, p95 step seen X s, restart
lost L votes, R replicas`` and it exits 1 unless J = V = N, p95 < 2 s and L = 0.

``serve`` starts a private redis-server beside nginx, so the replicas share one live class.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import signal
import sys
import tempfile
import time
from pathlib import Path

from bench.classroom.cluster import MAX_REPLICAS, Classroom, running_classroom, running_redis
from bench.classroom.live_class import run_class
from bench.classroom.student import Student, seat_on_every_replica
from bench.measure import action_table, cpu_seconds, load_average, percentile, rss_mib
from pages.classroom.views.address import EVERY_INTERFACE, announcement, network_address

CLASS_DATA = Path(__file__).resolve().parents[2] / "data" / "live" / "redis"  # make classroom's Redis keeps it here

MAX_STUDENTS = 60
RUN_DEADLINE = 900.0  # the whole test stops after this long, whatever happens


def replicas_cpu(classroom: Classroom) -> float:
    return sum(cpu_seconds(pid) for pid in classroom.replica_pids)


def replicas_rss(classroom: Classroom) -> float:
    return sum(rss_mib(pid) for pid in classroom.replica_pids)


async def warm_up(classroom: Classroom) -> None:
    """One tour on every replica, one after another; a failure here is reported like any other."""
    for student in await seat_on_every_replica(classroom, 1):
        await student.classroom_tour()
        if student.problems:
            raise RuntimeError(f"warm-up on {student.replica} failed: {student.problems}")


async def load_test(classroom: Classroom, students: int) -> bool:
    await warm_up(classroom)
    memory_before, cpu_before, start = replicas_rss(classroom), replicas_cpu(classroom), time.monotonic()
    crowd = [Student(classroom.url) for _ in range(students)]
    await asyncio.gather(*(student.classroom_tour() for student in crowd))
    wall, server_cpu = time.monotonic() - start, replicas_cpu(classroom) - cpu_before
    # Streamlit keeps a session's state a while after its websocket closed, so this counts every session.
    memory_per_session = (replicas_rss(classroom) - memory_before) / students

    completed = [student for student in crowd if not student.problems]
    spread = collections.Counter(student.replica for student in crowd)
    print(f"\n## Classroom: {students} students at once, {len(classroom.replicas)} replicas behind nginx\n")
    print(action_table(completed or crowd))
    print(
        f"\nStudents per replica: {dict(spread)}. Done in {wall:.1f} s; the replicas used {server_cpu:.1f} s "
        f"of CPU ({server_cpu / students:.2f} s per session) and about {memory_per_session:.1f} MiB more memory "
        f"per session. Load average after: {load_average()}"
    )
    for index, student in enumerate(crowd):
        for problem in student.problems:
            print(f"student {index} on {student.replica}: {problem}")
    times = [seconds for student in completed for seconds in student.times.values()]
    p50, p95 = (percentile(times, 0.5), percentile(times, 0.95)) if times else (float("nan"), float("nan"))
    print(
        f"classroom: {len(completed)}/{students} sessions completed, p50 {p50:.2f} s, p95 {p95:.2f} s "
        f"per action, {len(classroom.replicas)} replicas"
    )
    return len(completed) == students


def serve(replicas: int, port: int, listen: str) -> int:
    """Run the classroom until Ctrl+C or SIGTERM; exit 1 if a process of it dies first. On every interface
    (``listen`` 0.0.0.0) it first prints the address students type and its QR code."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # unwinds through running_classroom's cleanup
    class_url = ""
    if listen in EVERY_INTERFACE:
        url, text = announcement(network_address(), port)
        print(text, flush=True)
        class_url = url or ""
    with (
        running_redis(CLASS_DATA) as store,
        running_classroom(replicas, port, listen=listen, class_url=class_url, class_store=store) as classroom,
    ):
        print(
            f"Classroom: {classroom.url} -> {', '.join(r.address for r in classroom.replicas)} "
            f"(logs in {classroom.folder}). Ctrl+C stops it.",
            flush=True,
        )
        try:
            while all(server.process.poll() is None for server in [*classroom.replicas, classroom.balancer]):
                time.sleep(1)
        except KeyboardInterrupt:
            return 0
        print("A process of the classroom exited; stopping the others.", file=sys.stderr)
        return 1


def live_class(replicas: int, students: int, store_kind: str) -> int:
    """A live class on ``replicas`` replicas sharing Redis or one SQLite file; prints what it measured."""
    print(f"Load average at the start: {load_average()}", flush=True)
    with contextlib.ExitStack() as stack:
        if store_kind == "redis":
            store = stack.enter_context(running_redis())
        else:
            store = f"sqlite:///{stack.enter_context(tempfile.TemporaryDirectory())}/classes.sqlite3"
        classroom = stack.enter_context(running_classroom(replicas, class_store=store))
        try:
            report = asyncio.run(asyncio.wait_for(run_class(classroom, store, students), timeout=RUN_DEADLINE))
        except TimeoutError:
            print(f"class: stopped after {RUN_DEADLINE:.0f} s, {replicas} replicas")
            return 1
    print(
        f"\n## A live class: {students} students, {replicas} replicas sharing {store_kind}\n\n"
        f"Step seen: p50 {percentile(report.step_delays, 0.5):.2f} s, p95 {report.p95:.2f} s, "
        f"max {max(report.step_delays):.2f} s. Replicas' CPU per student: {100 * report.cpu_per_student:.1f}% "
        f"of a core. {report.came_back} sessions came back after the restart. The heavy training took "
        f"{report.heavy_seconds:.1f} s. Load average after: {load_average()}\n"
        f"A poll (a student's screen, once a second): p50 {percentile(report.poll_bytes or [0], 0.5):,.0f} bytes, "
        f"max {max(report.poll_bytes, default=0):,} bytes sent by the replica, over {len(report.poll_bytes):,} polls"
    )
    for problem in report.problems:
        print(problem)
    print(report.last_line())
    return 0 if report.passed else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["serve", "test", "class"])
    parser.add_argument("--replicas", type=int, default=2, help=f"app processes behind nginx (1-{MAX_REPLICAS})")
    parser.add_argument("--students", type=int, default=30, help=f"test: students at once (1-{MAX_STUDENTS})")
    parser.add_argument("--port", type=int, default=8080, help="serve: nginx's port")
    parser.add_argument("--listen", default="127.0.0.1", help="serve: nginx's address (0.0.0.0: every interface)")
    parser.add_argument("--store", choices=["redis", "sqlite"], default="redis", help="class: the shared class store")
    args = parser.parse_args()
    replicas = max(1, min(MAX_REPLICAS, args.replicas))
    if args.command == "serve":
        return serve(replicas, args.port, args.listen)
    students = max(1, min(MAX_STUDENTS, args.students))
    if args.command == "class":
        return live_class(replicas, students, args.store)
    print(f"Load average at the start: {load_average()}", flush=True)
    with running_classroom(replicas) as classroom:
        try:
            ok = asyncio.run(asyncio.wait_for(load_test(classroom, students), timeout=RUN_DEADLINE))
        except TimeoutError:
            print(f"classroom: stopped after {RUN_DEADLINE:.0f} s, {replicas} replicas")
            return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
