"""What the Train page shows while a model trains: a line for the first phase, then the merges made, as a bar.

Before the first merge the trainer counts the corpus's pieces and indexes every pair of symbols; on the
largest recipe (minbpe basic: the 1 MB sample as one piece of bytes) that and the first 1% of the merges
are a third of the training, so the page says so from the click on (``STARTING``, under a spinner with
the time elapsed). The engine then reports every 1% of the merges (``bpe_core.train``'s ``progress``);
``ThinnedProgress`` passes on at most one report every ``MIN_INTERVAL`` seconds, and always the last,
so a browser draws a dozen updates rather than a hundred.
"""

from __future__ import annotations

import time
from collections.abc import Callable

STARTING = "Counting the corpus and its pairs of symbols..."


def waiting(place: int) -> str:
    """The bar's text while the training waits for one of the server's job slots.

    >>> waiting(1), waiting(3)
    ('Waiting for the server: next in line', 'Waiting for the server: 3rd in line')
    """
    if place == 1:
        return "Waiting for the server: next in line"
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"Waiting for the server: {place}{suffix} in line"


MIN_INTERVAL = 0.2  # seconds between two updates of the bar


def merge_progress(done: int, total: int) -> tuple[float, str]:
    """The bar's value and its text after ``done`` of ``total`` merges.

    >>> merge_progress(20, 2000)
    (0.01, 'Merging: 20 of 2,000 merges')
    >>> merge_progress(0, 0)
    (1.0, 'Merging: 0 of 0 merges')
    """
    value = min(done / total, 1.0) if total else 1.0
    return value, f"Merging: {done:,} of {total:,} merges"


class ThinnedProgress:
    """A ``progress(done, total)`` callback for the trainer that calls ``show(value, text)`` (a progress bar's
    ``progress``) on the first report, on the last, and otherwise once ``MIN_INTERVAL`` seconds have passed.

    >>> shown, times = [], iter([0.0, 0.1, 0.25, 0.3, 0.31])
    >>> report = ThinnedProgress(lambda value, text: shown.append(text), clock=lambda: next(times))
    >>> for done in (1, 2, 3, 4, 5):
    ...     report(done, 5)
    >>> shown
    ['Merging: 1 of 5 merges', 'Merging: 3 of 5 merges', 'Merging: 5 of 5 merges']
    """

    def __init__(
        self,
        show: Callable[[float, str], object],
        *,
        min_interval: float = MIN_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.show, self.min_interval, self.clock = show, min_interval, clock
        self.last_shown: float | None = None

    def __call__(self, done: int, total: int) -> None:
        """``(0, 0)``: no merge reported yet (a job says so while it counts): the first phase's line."""
        now = self.clock()
        if done < total and self.last_shown is not None and now - self.last_shown < self.min_interval:
            return
        self.last_shown = now
        self.show(*(merge_progress(done, total) if total else (0.0, STARTING)))
