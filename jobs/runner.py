"""One job: a function run in a worker process of its own, under a budget, while the caller waits.

A worker is a fresh Python process (``python -m jobs.worker``): none of the server's threads, memory or open files.
It takes its ceiling on address space before it reads the job; the caller keeps the clock and ends the worker when
the time is up or when it stops waiting (a page closed or asked again: Streamlit raises in its callback). One idle
worker is kept started, so a job does not wait for an interpreter to boot. The function's arguments go to the worker
and its result comes back through two private pipes between these processes; nothing a user sent is deserialised
(a user's text and settings travel as arguments, encoded by this process).

>>> from collections import Counter
>>> run_job(Counter, "banana", budget=Budget(memory_mb=512, seconds=30), slots=Slots(1))
Counter({'a': 3, 'n': 2, 'b': 1})
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Hashable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from jobs.budget import Budget, Slots

POLL_SECONDS = 0.2  # how often a waiting caller hears from its job (``on_progress`` is called at least this often)
_ROOT = Path(__file__).resolve().parents[1]  # the worker imports the job's function from here
PRELOADED = ("bpe_core",)  # what an idle worker imports while it waits, so that a job starts at once


class JobStopped(ValueError):
    """A job stopped at a ceiling of its budget, or its worker ended without a result; the message says which and
    what to change. ``ceiling`` is "memory", "time" or "worker"."""

    def __init__(self, ceiling: str, message: str):
        super().__init__(message)
        self.ceiling = ceiling


class _Worker:
    """A started worker process and its two pipes: jobs go down ``to_worker``, messages come up ``from_worker``."""

    def __init__(self):
        job_read, job_write = os.pipe()
        message_read, message_write = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jobs.worker", str(job_read), str(message_write), *PRELOADED],
            cwd=_ROOT,
            pass_fds=(job_read, message_write),
            stdin=subprocess.DEVNULL,
        )
        os.close(job_read)
        os.close(message_write)
        self.to_worker = Connection(job_write, readable=False)
        self.from_worker = Connection(message_read, writable=False)

    def end(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.to_worker.close()
        self.from_worker.close()


class _SpareWorker:
    """One worker started ahead of need; taking it starts the next."""

    def __init__(self):
        self._lock = threading.Lock()
        self._spare: _Worker | None = None
        atexit.register(self.end)

    def take(self) -> _Worker:
        with self._lock:
            worker, self._spare = self._spare, _Worker()
        if worker is None:  # the first job: no spare was started yet
            return _Worker()
        if worker.process.poll() is not None:  # it died idle: end it (its pipes) and take the next
            worker.end()
            return self.take()
        return worker

    def end(self) -> None:
        with self._lock:
            if self._spare is not None:
                self._spare.end()
                self._spare = None


_SPARE = _SpareWorker()


def run_job(
    function: Callable[..., Any],
    *args: Any,
    budget: Budget,
    slots: Slots,
    visitor: Hashable | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    on_wait: Callable[[int], None] | None = None,
    **kwargs: Any,
) -> Any:
    """``function(*args, **kwargs)`` in a worker process, within ``budget``, once one of ``slots`` is free.

    ``visitor`` names whose job it is, so that the line is fair between visitors (``Slots.held``; a visitor
    with as many jobs as ``slots`` allows one is refused by a :class:`jobs.budget.TooManyJobs`, a ValueError).
    ``on_wait(place)`` is called while the job waits in line; ``on_progress(done, total)`` while it runs, from the
    function's own ``progress`` callback (passed to it only when ``on_progress`` is given) and at least every
    ``POLL_SECONDS`` with the last values. A ``ValueError`` of the function comes back as one; a ceiling reached is a
    :class:`JobStopped`. If a callback raises, the worker is ended at once and the exception goes on."""
    with slots.held(on_wait, visitor=visitor):
        worker = _SPARE.take()
        try:
            worker.to_worker.send(budget.memory_mb)  # the ceiling first: the job's arguments count against it
            worker.to_worker.send((function, args, kwargs, on_progress is not None))
            return _wait_for(worker, budget, on_progress)
        except BrokenPipeError:
            raise JobStopped("worker", "its worker process ended before it took the job") from None
        finally:
            worker.end()


def _wait_for(worker: _Worker, budget: Budget, on_progress) -> Any:
    deadline, last = time.monotonic() + budget.seconds, (0, 0)
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise JobStopped(
                "time",
                f"it took longer than its time ceiling of {budget.seconds:g} s: ask for less "
                "(the server's BPE_JOB_SECONDS sets the ceiling)",
            )
        if worker.from_worker.poll(min(remaining, POLL_SECONDS)):
            try:
                kind, value = worker.from_worker.recv()
            except EOFError:  # the worker ended without a word (killed by the system, a crash)
                code = worker.process.wait()
                raise JobStopped("worker", f"its worker process ended without a result (exit code {code})") from None
            if kind == "result":
                return value
            if kind == "error":
                raise ValueError(value)
            if kind == "memory":
                raise JobStopped(
                    "memory",
                    f"it needed more than its memory ceiling of {budget.memory_mb:,} MB: ask for less "
                    "(the server's BPE_JOB_MEMORY_MB sets the ceiling)",
                )
            last = value
        if on_progress is not None:
            on_progress(*last)
