"""How much memory a classroom's server holds: measured from /proc (the standard library only), and the most the
README promises it holds, worked out one way for both.

The promise (README, Limits): each replica holds its own base (the app, its sessions, its idle worker: measured)
plus ``BPE_JOBS_AT_ONCE`` job workers of ``BPE_JOB_MEMORY_MB`` each plus ``BPE_UPLOAD_MEMORY_MB`` of loaded
uploads, ``BPE_MODEL_MEMORY_MB`` of trained models, ``BPE_PUBLISHED_MEMORY_MB`` of published tokenizers (GPT-2's
32 MB in its base) and ``BPE_PIECE_CACHE_MB`` of the pieces all its tokenizers have cut; nginx and Redis hold a
little beside them.

>>> documented_total_mb(2, {})
10194
>>> documented_total_text(2, {})  # as the README writes it
'2 × (400 + 2 × 1,024 + 1,024 + 512 + 1,024 + 64) + 30 + 20 = 10,194 MB (10.0 GiB)'
>>> small_host = {"BPE_JOBS_AT_ONCE": "1", "BPE_JOB_MEMORY_MB": "768", "BPE_UPLOAD_MEMORY_MB": "256"}
>>> small_host |= {"BPE_MODEL_MEMORY_MB": "128", "BPE_PUBLISHED_MEMORY_MB": "256", "BPE_PIECE_CACHE_MB": "32"}
>>> documented_total_mb(1, small_host)
1890
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from jobs.budget import Budget, jobs_at_once
from session.model_store import model_memory_mb, piece_cache_mb, published_memory_mb
from session.upload_store import upload_memory_mb

# A replica's own base: measured 140-170 MB with half a class of 30 following it and its idle job worker
# (bench/classroom/hostile.py, 2026-11-27, when the visitor came), and 220-245 MB after a first page that imports
# plotly, plus 3 MB a session that takes the whole tour (bench/README.md): 400 MB holds 30 such sessions.
REPLICA_BASE_MB = 400
BALANCER_MB = 30  # nginx's master and its one worker: 14 MB measured
REDIS_MB = 20  # redis-server holding a class of 30: 12 MB measured
PROC = Path("/proc")


def documented_total_mb(replicas: int, environ: Mapping[str, str] = os.environ) -> int:
    """The most a classroom of ``replicas`` holds with the budgets ``environ`` sets, in MB (the README's formula)."""
    jobs = jobs_at_once(environ) * Budget.from_environment(environ).memory_mb
    stores = sum(_store_budgets(environ))
    return replicas * (REPLICA_BASE_MB + jobs + stores) + BALANCER_MB + REDIS_MB


def documented_total_text(replicas: int, environ: Mapping[str, str] = os.environ) -> str:
    """``documented_total_mb`` with its sum written out, as the README's Limits give it."""
    parts = (REPLICA_BASE_MB, jobs_at_once(environ), Budget.from_environment(environ).memory_mb)
    per_replica = "{:,} + {:,} × {:,} + {:,} + {:,} + {:,} + {:,}".format(*parts, *_store_budgets(environ))
    total = documented_total_mb(replicas, environ)
    return f"{replicas} × ({per_replica}) + {BALANCER_MB} + {REDIS_MB} = {total:,} MB ({gib(total)})"


def _store_budgets(environ: Mapping[str, str]) -> tuple[int, ...]:
    """What a replica holds for its visitors, in MB, in the README's order: uploads, trained models, published
    tokenizers, the piece caches."""
    return upload_memory_mb(environ), model_memory_mb(environ), published_memory_mb(environ), piece_cache_mb(environ)


def gib(megabytes: float) -> str:
    """
    >>> gib(6994)
    '6.8 GiB'
    """
    return f"{megabytes / 1024:.1f} GiB"


def _parents() -> dict[int, int]:
    """Every process's parent, from /proc/PID/stat (its 4th field, after the name in parentheses)."""
    parents = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # it ended meanwhile
                continue
            parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    return parents


def process_trees(roots: Iterable[int]) -> dict[int, set[int]]:
    """Each of ``roots`` with every process under it (a replica's job workers, nginx's worker), those running.

    >>> process_trees([os.getpid()])[os.getpid()] >= {os.getpid()}
    True
    """
    parents = _parents()
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    trees = {}
    for root in roots:
        tree, waiting = set(), [root] if root in parents else []
        while waiting:
            pid = waiting.pop()
            tree.add(pid)
            waiting += children.get(pid, [])
        trees[root] = tree
    return trees


def rss_mb(pid: int) -> float:
    """A process's resident memory in MB (0 once it has ended)."""
    try:
        status = (PROC / str(pid) / "status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0  # a zombie has no memory left


def listening_pid(name: str, port: int) -> int | None:
    """The process named ``name`` whose command line names ``port`` (redis-server shows ``127.0.0.1:PORT``)."""
    for entry in PROC.iterdir():
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        words = command.replace(":", " ").split()
        if entry.name.isdigit() and words and words[0].endswith(name) and str(port) in words:
            return int(entry.name)
    return None


class PeakMemory:
    """A thread that adds up the resident memory of the process trees under ``roots()`` every ``seconds`` and keeps
    the peak (MB, and each tree's share then); ``over_mb`` (when given) is a ceiling at which it calls ``on_over``
    once, so that a run whose server grows without bound can stop before it takes the machine."""

    def __init__(
        self,
        roots: Callable[[], Iterable[int]],
        seconds: float = 0.2,
        over_mb: float = float("inf"),
        on_over: Callable[[], None] = lambda: None,
    ):
        self.roots, self.seconds, self.over_mb, self.on_over = roots, seconds, over_mb, on_over
        self.peak_mb = 0.0
        self.peak_shares: dict[int, float] = {}  # root -> MB of its tree at the peak
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="peak-memory", daemon=True)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *_) -> None:
        self._stop.set()
        self._thread.join()

    def shares_mb(self) -> dict[int, float]:
        """Each root's tree's resident memory now, in MB."""
        return {root: sum(map(rss_mb, tree)) for root, tree in process_trees(self.roots()).items()}

    def _sample(self) -> None:
        told = False
        while not self._stop.is_set():
            shares = self.shares_mb()
            if sum(shares.values()) > self.peak_mb:
                self.peak_mb, self.peak_shares = sum(shares.values()), shares
            if self.peak_mb > self.over_mb and not told:
                told = True
                self.on_over()
            self._stop.wait(self.seconds)
