"""Counting a corpus's pieces: one process against Dask workers, as whole processes.

    python -m bench.counting [--copies N] [--repeat N]      (also run by make bench)

The corpus is the KJV (4.4 MB) written ``--copies`` times into one file, counted with GPT-2's split
line by line in 16 MiB blocks: ``count --workers 0`` (blocks one after another in one process, no
Dask), then Dask with 1 and 2 local workers. Peak memory is the largest single process's (max RSS).
"""

from __future__ import annotations

import argparse
import gzip
import tempfile
from pathlib import Path

from bench.whole_process import DATA, PYTHON, fastest


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.counting")
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        corpus, table = Path(folder) / "corpus.txt", Path(folder) / "counts.tsv"
        corpus.write_bytes(gzip.decompress((DATA / "kjv.txt.gz").read_bytes()) * args.copies)
        megabytes = corpus.stat().st_size / 1e6
        count = [PYTHON, "-m", "bpe_core", "count", str(corpus), "--split", "gpt2", "--lines", "-o", str(table)]
        timing = fastest(
            {f"{workers} worker(s)": [*count, "--workers", str(workers)] for workers in (0, 1, 2)}, args.repeat
        )
        single = timing["0 worker(s)"][0]
        print(f"\n## Counting {megabytes:.0f} MB (KJV x {args.copies}), GPT-2 split, line by line\n")
        print("| count | seconds | MB/s | vs one process | peak MB |\n|---|---|---|---|---|")
        for name, (seconds, peak) in timing.items():
            label = "one process, no Dask" if name.startswith("0 ") else f"Dask, {name}"
            print(f"| {label} | {seconds:.1f} | {megabytes / seconds:.1f} | {single / seconds:.2f}x | {peak:.0f} |")


if __name__ == "__main__":
    main()
