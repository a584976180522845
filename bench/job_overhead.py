"""Training as a job (``jobs.run_job``: a worker process, its budget, the result sent back) beside training in the
page's own process, interleaved: what the job runner costs a click.

    python -m bench.job_overhead [--repeat N]

Rows: the default model (the KJV sample, words and ``</w>``, 2,000 merges), a textbook corpus ("low lower newest
widest", 10 merges) and the heaviest recipe the form allows (the sample as raw bytes with no split, 100,000 merges
asked: it stops at the cap on the vocabulary's text). Each row gives the median and the spread (fastest-slowest) of
N runs each way, alternating, and the job's overhead as a ratio and in seconds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from bpe_core import Config, train
from jobs import Budget, Slots, run_job

SAMPLE = (Path(__file__).resolve().parents[1] / "data" / "kjv_sample.txt").read_text(encoding="utf-8")
CASES = {
    "default model (sample, 2,000 merges)": (SAMPLE, Config(split="whitespace", end_of_word="</w>"), 2_000),
    "textbook (low lower newest widest, 10)": ("low lower newest widest", Config(), 10),
    "heaviest (sample, raw bytes, 100,000)": (SAMPLE, Config(units="bytes", split="none", end_of_word=""), 100_000),
}


def seconds(function, *args, **kwargs) -> float:
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start


def main(repeat: int) -> None:
    budget, slots = Budget(memory_mb=4096, seconds=600), Slots(1)
    run_job(abs, 0, budget=budget, slots=slots)  # a worker kept ready, as on a server that has run one job
    print("| training | in the page: median (spread) | as a job: median (spread) | job / page | job - page |")
    print("|---|---|---|---|---|")
    for label, (text, config, merges) in CASES.items():
        page, job = [], []
        for _ in range(repeat):
            page.append(seconds(train, text, config, merges=merges))
            job.append(seconds(run_job, train, text, config, merges=merges, budget=budget, slots=slots))
        in_page, as_job = statistics.median(page), statistics.median(job)
        print(
            f"| {label} | {in_page:.3f} s ({min(page):.3f}-{max(page):.3f}) | {as_job:.3f} s "
            f"({min(job):.3f}-{max(job):.3f}) | {as_job / in_page:.2f}x | {as_job - in_page:+.3f} s |",
            flush=True,
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    main(parser.parse_args().repeat)
