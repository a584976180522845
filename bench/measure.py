"""What the benchmarks measure of a process and how they report it, with the standard library alone (``make
classroom`` imports it without the tests' Playwright): memory and CPU time of a process (Linux), the load average,
percentiles and a table of action times.

>>> percentile([3.0, 1.0, 2.0, 4.0], 0.5), percentile([3.0, 1.0, 2.0, 4.0], 0.95)
(2.0, 4.0)
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol


class Timed(Protocol):
    """A session of a load test: the seconds each action took, by the action's name."""

    times: dict[str, float]


def rss_mib(pid: int) -> float:
    """Resident memory of a process, in MiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


def action_table(sessions: Sequence[Timed], columns: tuple[str, ...] = ("p50", "p95", "max")) -> str:
    names = list(dict.fromkeys(name for session in sessions for name in session.times))
    rows = [f"| action | n | {' | '.join(f'{c} (s)' for c in columns)} |", "|---|---:|" + "---:|" * len(columns)]
    for name in names:
        values = [session.times[name] for session in sessions if name in session.times]
        stats = {
            "p50": percentile(values, 0.5),
            "p95": percentile(values, 0.95),
            "max": max(values),
            "median": statistics.median(values),
        }
        rows.append(f"| {name} | {len(values)} | " + " | ".join(f"{stats[c]:.2f}" for c in columns) + " |")
    return "\n".join(rows)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, in seconds (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])
