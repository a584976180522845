"""Another visitor beside the hostile one (``make hostile-test``): is the server still fair to someone who only comes
to learn? From an address of its own (127.0.0.77: nginx names it to the replicas, so the hostile visitor's limits and
place in the jobs' line are not its own), again and again while the hostile visitor acts, a new tab:

- opens the app: its first page (Train, with the default model), timed;
- pastes a small corpus of its own (new words each time: no model is reused) and trains it, timed until the page
  says it was trained on the pasted text.

Both must be answered within ``VICTIM_TARGET`` (p95). Why that bound: a first page runs no job, and a training waits
in the jobs' fair line behind at most the job of another visitor that holds the slot it gets (the hostile visitor
has ``BPE_JOBS_PER_VISITOR`` jobs at most, each stopped at ``BPE_JOB_SECONDS``, 60 s): a page answered in a minute
means the line kept its word; past it, the victim waited behind more than one job.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from dataclasses import dataclass, field

from bench.classroom.student import Student

VICTIM_ADDRESS = "127.0.0.77"
VICTIM_TARGET = 60.0  # seconds (p95) for the victim's first page and its training: one job's ceiling
ROUND_PAUSE = 2.0  # seconds between the victim's visits
TRAINED = "Trained on: your pasted text"


def victim_corpus(visit: int) -> str:
    """A small corpus no other visit trains: words made of the visit's number spelt in letters.

    >>> victim_corpus(12)
    'lowbc lowbc newerbc newerbc widestbc widestbc lowbc lowbc newerbc newerbc widestbc widestbc'
    """
    mark = "".join(chr(ord("a") + int(digit)) for digit in str(visit))
    words = [f"{stem}{mark}" for stem in ("low", "newer", "widest") for _ in range(2)]
    return " ".join(words * 2)


@dataclass
class Victim:
    """A visitor who comes, looks and trains while the hostile visitor acts: every answer's time, and what went
    wrong (an exception on the page, a closed connection, silence, a training not said)."""

    base_url: str
    times: dict[str, list[float]] = field(default_factory=lambda: {"first page": [], "training": []})
    problems: list[str] = field(default_factory=list)

    @property
    def all_times(self) -> list[float]:
        return [seconds for times in self.times.values() for seconds in times]

    async def come_and_go(self, until: asyncio.Future) -> None:
        """Visit after visit until ``until`` is done (one visit at least)."""
        for visit in itertools.count(1):
            await self.visit(visit)
            await asyncio.wait([until], timeout=ROUND_PAUSE)  # a pause, cut short by the end
            if until.done():
                return

    async def visit(self, visit: int) -> None:
        tab = Student(self.base_url, source_address=VICTIM_ADDRESS)
        try:
            await self.timed("first page", tab.enter())
            await tab.open_page("Train")  # the root is Start
            await tab.choose("Corpus", "Paste your own text")
            await tab.type_text("Your text", victim_corpus(visit))
            await self.timed("training", tab.press("Train"))
            if TRAINED not in tab.shown_text():
                self.problems.append(f"visit {visit}: the training was not said: {tab.shown_text()[-200:]}")
        except Exception as error:  # a timeout, a closed socket, an exception box: a problem, not the end
            self.problems.append(f"visit {visit}: {type(error).__name__}: {str(error)[:200]}")
        finally:
            with contextlib.suppress(Exception):
                await tab.leave()

    async def timed(self, action: str, run) -> None:
        started = time.monotonic()
        await run
        self.times[action].append(time.monotonic() - started)
