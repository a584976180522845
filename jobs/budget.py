"""What one job may cost, how many run at once, and how the others wait their turn, fairly between visitors: read
from the environment, each with a default.

| variable | default | what it bounds |
|---|---|---|
| ``BPE_JOB_MEMORY_MB`` | 1024 | the address space of one job's worker process (``RLIMIT_AS``) |
| ``BPE_JOB_SECONDS`` | 60 | the wall time of one job, from its start (waiting for a slot does not count) |
| ``BPE_JOBS_AT_ONCE`` | 2 | jobs running at once in one server process; the others wait in line |
| ``BPE_JOBS_PER_VISITOR`` | 3 | jobs one visitor may have waiting or running at once; one more is refused |

>>> Budget.from_environment({"BPE_JOB_MEMORY_MB": "512"})
Budget(memory_mb=512, seconds=60.0)
>>> Budget.from_environment({"BPE_JOB_SECONDS": "soon"})
Traceback (most recent call last):
...
ValueError: BPE_JOB_SECONDS=soon: not a number of seconds above 0
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

MEMORY_ENV, SECONDS_ENV, AT_ONCE_ENV = "BPE_JOB_MEMORY_MB", "BPE_JOB_SECONDS", "BPE_JOBS_AT_ONCE"
PER_VISITOR_ENV = "BPE_JOBS_PER_VISITOR"


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


def jobs_per_visitor(environ: Mapping[str, str] = os.environ) -> int:
    """How many jobs one visitor may have waiting or running at once (``BPE_JOBS_PER_VISITOR``, 3 by default): a
    visitor's tabs beyond that are refused in words, so that one visitor cannot fill the line.

    >>> jobs_per_visitor({}), jobs_per_visitor({"BPE_JOBS_PER_VISITOR": "1"})
    (3, 1)
    """
    return positive_setting(environ, PER_VISITOR_ENV, 3, int, "whole number")


class TooManyJobs(ValueError):
    """A visitor asked for one job more than it may have waiting or running at once; the message says so in words a
    page can show (after "Training failed: ", say)."""

    def __init__(self, limit: int):
        super().__init__(
            f"you already have {limit} {'job' if limit == 1 else 'jobs'} waiting or running on this server, the "
            f"most one visitor may have at once (the server's {PER_VISITOR_ENV} sets it): let one finish, or close "
            "a tab that waits for one"
        )
        self.limit = limit


@dataclass(frozen=True, eq=False)
class _Ticket:
    """One job in line. Jobs are served by ``(round, number)``: a visitor's first job joins the round being served,
    its next ones the rounds after, so each round serves every visitor who waits once, in the order they came."""

    round: int
    number: int  # the order of arrival: who came first within a round
    visitor: Hashable

    @property
    def order(self) -> tuple[int, int]:
        return self.round, self.number


class Slots:
    """At most ``size`` jobs at once; the others wait in line, each told its place. The line is fair between
    visitors: they take turns, one job each (round-robin), and each visitor's jobs keep the order they came in,
    so that a visitor with many jobs waiting delays another's first job by one job at most. With ``per_visitor``,
    a visitor with that many jobs waiting or running is refused one more (:class:`TooManyJobs`).

    >>> slots = Slots(1)
    >>> with slots.held(on_wait=print, visitor="198.51.100.7"):
    ...     slots.running, slots.jobs_of("198.51.100.7")
    (1, 1)
    >>> Slots(2, per_visitor=2).per_visitor
    2
    """

    def __init__(self, size: int, per_visitor: int | None = None):
        self.size = size
        self.per_visitor = per_visitor
        self._waiting: list[_Ticket] = []
        self._running: list[_Ticket] = []
        self._round = 0  # the round of the job that started last: a newcomer's first job joins it
        self._arrivals = itertools.count()
        self._changes = 0  # counts the changes to the line, so that a waiter never sleeps through one
        self._changed = threading.Condition()

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Slots:
        """``BPE_JOBS_AT_ONCE`` slots, ``BPE_JOBS_PER_VISITOR`` jobs per visitor at most.

        >>> slots = Slots.from_environment({"BPE_JOBS_AT_ONCE": "4"})
        >>> slots.size, slots.per_visitor
        (4, 3)
        """
        return cls(jobs_at_once(environ), per_visitor=jobs_per_visitor(environ))

    @property
    def running(self) -> int:
        return len(self._running)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def jobs_of(self, visitor: Hashable) -> int:
        """How many jobs ``visitor`` has waiting or running."""
        with self._changed:
            return sum(ticket.visitor == visitor for ticket in (*self._waiting, *self._running))

    @contextmanager
    def held(
        self,
        on_wait: Callable[[int], None] | None = None,
        poll_seconds: float = 0.25,
        *,
        visitor: Hashable | None = None,
    ) -> Iterator[None]:
        """Wait for a slot, then hold it while the block runs. ``visitor`` names whose job it is (the client's
        address, a session's id: any hashable; None is a visitor of its own). ``on_wait(place)`` is called while
        waiting (place 1: next; it counts only the jobs served before this one), at once and then whenever the
        line changes, at least every ``poll_seconds``; if it raises (the page was closed), the place in line is
        given up. A visitor with ``per_visitor`` jobs already is refused at once (:class:`TooManyJobs`)."""
        ticket = self._join(object() if visitor is None else visitor)
        try:
            while True:
                place, seen = self._take(ticket)
                if not place:
                    break
                if on_wait is not None:
                    on_wait(place)
                self._wait_for_change(seen, poll_seconds)
        except BaseException:
            self._leave(ticket)
            raise
        try:
            yield
        finally:
            self._leave(ticket)

    def _join(self, visitor: Hashable) -> _Ticket:
        """A ticket at the back of ``visitor``'s jobs, and never before the round being served."""
        with self._changed:
            own = [ticket for ticket in (*self._waiting, *self._running) if ticket.visitor == visitor]
            if self.per_visitor is not None and len(own) >= self.per_visitor:
                raise TooManyJobs(self.per_visitor)
            ticket = _Ticket(max([self._round, *(held.round + 1 for held in own)]), next(self._arrivals), visitor)
            self._waiting.append(ticket)
            self._line_changed()
            return ticket

    def _take(self, ticket: _Ticket) -> tuple[int, int]:
        """Take a slot if one is free and ``ticket`` is served first (place 0), else its place in line (1: next);
        with the count of changes to the line seen."""
        with self._changed:
            ahead = sum(other.order < ticket.order for other in self._waiting)
            if ahead or len(self._running) >= self.size:
                return ahead + 1, self._changes
            self._waiting.remove(ticket)
            self._running.append(ticket)
            self._round = ticket.round
            self._line_changed()
            return 0, self._changes

    def _wait_for_change(self, seen: int, seconds: float) -> None:
        """Sleep until the line changes after the ``seen``-th change, or ``seconds`` pass."""
        with self._changed:
            self._changed.wait_for(lambda: self._changes != seen, seconds)

    def _leave(self, ticket: _Ticket) -> None:
        """``ticket`` out of the line, whether it ran or gave up its place."""
        with self._changed:
            (self._running if ticket in self._running else self._waiting).remove(ticket)
            self._line_changed()

    def _line_changed(self) -> None:
        self._changes += 1
        self._changed.notify_all()
