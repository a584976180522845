"""Unit tests for pages/train/views/progress.py: what the Train page shows while a model trains."""

from __future__ import annotations

from bpe_core import Config, train
from pages.train.views.progress import MIN_INTERVAL, ThinnedProgress, merge_progress


class Clock:
    """A clock read from a list of times, one per report."""

    def __init__(self, times):
        self.times = iter(times)

    def __call__(self) -> float:
        return next(self.times)


def thinned(times, reports) -> list[str]:
    shown: list[str] = []
    report = ThinnedProgress(lambda value, text: shown.append(text), clock=Clock(times))
    for done, total in reports:
        report(done, total)
    return shown


def test_reports_closer_than_the_interval_are_skipped_but_never_the_first_or_the_last():
    # 1 at 0.0 (the first); 2 and 3 within 0.2 s of it; 4 at 0.2 (0.2 after 1); 5 at 0.39 (0.19 after 4);
    # 6 at 0.5 (0.3 after 4); 10 of 10 at 0.51, the last, always shown
    times = [0.0, 0.05, 0.19, 0.2, 0.39, 0.5, 0.51]
    reports = [(1, 10), (2, 10), (3, 10), (4, 10), (5, 10), (6, 10), (10, 10)]
    assert MIN_INTERVAL == 0.2
    assert thinned(times, reports) == [
        "Merging: 1 of 10 merges",
        "Merging: 4 of 10 merges",
        "Merging: 6 of 10 merges",
        "Merging: 10 of 10 merges",
    ]


def test_a_slow_training_shows_every_report():
    times = [0.0, 0.3, 0.6, 0.9]
    assert thinned(times, [(20, 2000), (40, 2000), (60, 2000), (80, 2000)]) == [
        "Merging: 20 of 2,000 merges",
        "Merging: 40 of 2,000 merges",
        "Merging: 60 of 2,000 merges",
        "Merging: 80 of 2,000 merges",
    ]


def test_the_bar_value_is_the_share_of_merges_made_and_never_passes_the_end():
    assert merge_progress(500, 2000) == (0.25, "Merging: 500 of 2,000 merges")
    assert merge_progress(2000, 2000) == (1.0, "Merging: 2,000 of 2,000 merges")
    # By vocabulary size a merge that makes a token again adds none, so the merges can outrun the estimate.
    assert merge_progress(12, 10) == (1.0, "Merging: 12 of 10 merges")


def test_the_trainer_drives_it_through_its_progress_callback():
    # "low lower" as two words: "l o" and "o w" occur twice, "l o" first; then "lo w" twice; then "low e" and
    # "e r" once each, "low e" first. Fewer than 100 merges: each is reported; the clock stands still, so only
    # the first report and the last one reach the bar.
    shown: list[tuple[float, str]] = []
    report = ThinnedProgress(lambda value, text: shown.append((value, text)), clock=lambda: 5.0)
    tok = train("low lower", Config(), merges=3, progress=report)
    assert tok.merges == [("l", "o"), ("lo", "w"), ("low", "e")]
    assert shown == [(1 / 3, "Merging: 1 of 3 merges"), (1.0, "Merging: 3 of 3 merges")]
