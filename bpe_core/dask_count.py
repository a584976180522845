"""Counting a corpus too big for one process: its blocks (``bpe_core.blocks``) as tasks on Dask workers.

This is the core's one use of a package beyond the standard library and a regex engine: Dask
schedules the blocks on local worker processes or on a cluster's workers, each worker counts its
blocks with the same code as one process does, and the tables are added up here in file order, so
the result equals counting in one process, piece order included.  Only ``python -m bpe_core
count`` imports this module.  On a cluster every worker must see the files at the same path.

>>> from bpe_core.config import Config
>>> import tempfile, pathlib
>>> corpus = pathlib.Path(tempfile.mkdtemp()) / "corpus.txt"
>>> _ = corpus.write_text("low lower low")
>>> count_on_dask([str(corpus)], Config(), lines=False, block_bytes=4, workers=1)
(Counter({'low': 2, 'lower': 1}), 0)
"""

from __future__ import annotations

import contextlib
from collections import Counter

from dask.distributed import Client, LocalCluster

from .blocks import add_up, count_block, plan_blocks
from .config import Config

MAX_WORKERS = 64  # local worker processes


def count_on_dask(
    paths: list[str], config: Config, *, lines: bool, block_bytes: int, workers: int = 2, scheduler: str | None = None
) -> tuple[Counter[str], int]:
    """The pieces of the files with their counts (order of first appearance) and the special tokens cut out,
    counted on ``workers`` local processes, or on the cluster whose scheduler is at ``scheduler``."""
    blocks = plan_blocks(paths, config, lines=lines, block_bytes=block_bytes)
    with _client(workers, scheduler) as client:
        futures = client.map(count_block, blocks, config=config, lines=lines, pure=False)
        # Added up in block order as each arrives; a finished block's table is dropped once added.
        return add_up(_results_in_order(futures))


def _results_in_order(futures):
    for index, future in enumerate(futures):
        yield future.result()
        futures[index] = None  # releases the block's result on its worker


@contextlib.contextmanager
def _client(workers: int, scheduler: str | None):
    if scheduler:
        with Client(scheduler, timeout="30s") as client:
            yield client
        return
    if type(workers) is not int or not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be a whole number from 1 to {MAX_WORKERS}, not {workers!r}")
    # One thread per process: counting is pure Python, so threads would share one core.
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            yield client
