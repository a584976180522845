"""What one job may cost, and how many run at once: read from the environment, each with a default.

| variable | default | what it bounds |
|---|---|---|
| ``BPE_JOB_MEMORY_MB`` | 1024 | the address space of one job's worker process (``RLIMIT_AS``) |
| ``BPE_JOB_SECONDS`` | 60 | the wall time of one job, from its start (waiting for a slot does not count) |
| ``BPE_JOBS_AT_ONCE`` | 2 | jobs running at once in one server process; the others wait in line |

>>> Budget.from_environment({"BPE_JOB_MEMORY_MB": "512"})
Budget(memory_mb=512, seconds=60.0)
>>> Budget.from_environment({"BPE_JOB_SECONDS": "soon"})
Traceback (most recent call last):
...
ValueError: BPE_JOB_SECONDS=soon: not a number of seconds above 0
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

MEMORY_ENV, SECONDS_ENV, AT_ONCE_ENV = "BPE_JOB_MEMORY_MB", "BPE_JOB_SECONDS", "BPE_JOBS_AT_ONCE"


def positive_setting(environ: Mapping[str, str], name: str, default: float, kind: type, unit: str):
    """The setting ``name`` of ``environ`` as a ``kind`` above 0, else ``default`` when unset; a ValueError names
    a value that makes no sense."""
    text = environ.get(name, "")
    if not text:
        return kind(default)
    try:
        value = kind(text)
    except ValueError:
        value = 0
    if value > 0:
        return value
    raise ValueError(f"{name}={text[:40]}: not a {unit} above 0")


@dataclass(frozen=True)
class Budget:
    """The most one job may take: ``memory_mb`` of address space, ``seconds`` of wall time."""

    memory_mb: int = 1024
    seconds: float = 60.0

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Budget:
        return cls(
            memory_mb=positive_setting(environ, MEMORY_ENV, cls.memory_mb, int, "whole number of megabytes"),
            seconds=positive_setting(environ, SECONDS_ENV, cls.seconds, float, "number of seconds"),
        )


def jobs_at_once(environ: Mapping[str, str] = os.environ) -> int:
    """How many jobs one server process runs at once (``BPE_JOBS_AT_ONCE``, 2 by default: one a core here).

    >>> jobs_at_once({}), jobs_at_once({"BPE_JOBS_AT_ONCE": "4"})
    (2, 4)
    """
    return positive_setting(environ, AT_ONCE_ENV, 2, int, "whole number")


class Slots:
    """At most ``size`` jobs at once; the others wait in the order they came, each told its place in line.

    >>> slots = Slots(1)
    >>> with slots.held(on_wait=print):
    ...     slots.running
    1
    """

    def __init__(self, size: int):
        self.size = size
        self.running = 0
        self._line: deque[object] = deque()
        self._changed = threading.Condition()

    @contextmanager
    def held(self, on_wait: Callable[[int], None] | None = None, poll_seconds: float = 0.25) -> Iterator[None]:
        """Wait for a slot, then hold it while the block runs. ``on_wait(place)`` is called while waiting (place 1:
        next), at least every ``poll_seconds``; if it raises (the page was closed), the place in line is given up."""
        ticket = object()
        with self._changed:
            self._line.append(ticket)
        try:
            while place := self._take(ticket):
                if on_wait is not None:
                    on_wait(place)
                with self._changed:
                    self._changed.wait(poll_seconds)
        except BaseException:
            with self._changed:
                if ticket in self._line:
                    self._line.remove(ticket)
                self._changed.notify_all()
            raise
        try:
            yield
        finally:
            with self._changed:
                self.running -= 1
                self._changed.notify_all()

    def _take(self, ticket: object) -> int:
        """Take a slot if one is free and ``ticket`` is first in line (then 0), else its place in line (1: next)."""
        with self._changed:
            if self.running < self.size and self._line[0] is ticket:
                self._line.popleft()
                self.running += 1
                return 0
            return self._line.index(ticket) + 1
