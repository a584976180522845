"""Whole processes side by side with HF tokenizers: what a user of the command line waits for.

    python -m bench.whole_process [--repeat N]      (also run by make bench)

Rows: train and save from a file (``train --lines`` against HF's ``Tokenizer.train([file])`` and
``save``), the model file's size, loading a model and encoding one sentence, and streaming a
1 MB and a 100 MB file through ``encode --ids-only``.  Each command runs ``--repeat`` times,
interleaved with its reference; the table keeps the fastest run and its peak memory (max RSS).
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
PYTHON = sys.executable
# HF's byte-level trainer as our command line says it: GPT-2's split, bytes, HF's tie-break, a file read by lines
HF_BYTE_LEVEL = "--split gpt2 --units bytes --tie-break hf --lines --vocab-size 16000".split()
SENTENCE = "In the beginning God created the heaven and the earth."
HF_ENCODE = (
    "import sys; from tokenizers import Tokenizer; print(Tokenizer.from_file(sys.argv[1]).encode(sys.argv[2]).ids)"
)


def run(command: list[str], stdin: Path | None = None) -> tuple[float, float]:
    """Wall seconds and peak MB of one process (its own resource usage, from wait4), reading ``stdin``."""
    with open(stdin or os.devnull, "rb") as source:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {process.stderr.read().decode()[-500:]}")
    return wall, usage.ru_maxrss / 1024


def fastest(commands: dict[str, list[str]], repeat: int, stdin: Path | None = None) -> dict[str, tuple[float, float]]:
    """Each command ``repeat`` times, interleaved so that a slow spell of the machine hits all."""
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            runs[name].append(run(command, stdin))
    return {name: min(results) for name, results in runs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.whole_process")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        corpora = {
            "KJV (4.4 MB)": work / "kjv.txt",
            "Chinese poems (0.1 MB)": DATA / "zh_poems.txt",
            "Chinese Song ci (2 MB)": work / "zh_songci.txt",
        }
        for packed, corpus in (
            ("kjv.txt.gz", corpora["KJV (4.4 MB)"]),
            ("zh_songci.txt.gz", corpora["Chinese Song ci (2 MB)"]),
        ):
            corpus.write_bytes(gzip.decompress((DATA / packed).read_bytes()))
        rows = ["| whole process | HF | ours | ratio |", "|---|---|---|---|"]
        for name, corpus in corpora.items():
            ours_model, hf_model = work / f"{corpus.stem}.json", work / f"{corpus.stem}-tokenizer.json"
            timing = fastest(
                {
                    "hf": [PYTHON, "-m", "bench.hf_train", str(corpus), "16000", str(hf_model)],
                    "ours": [PYTHON, "-m", "bpe_core", "train", str(corpus), *HF_BYTE_LEVEL, "-o", str(ours_model)],
                },
                args.repeat,
            )
            rows.append(_row(f"{name}: train 16k and save", timing))
            hf_size, ours_size = hf_model.stat().st_size / 1e6, ours_model.stat().st_size / 1e6
            rows.append(f"| {name}: model file MB | {hf_size:.2f} | {ours_size:.2f} | {ours_size / hf_size:.2f} |")
        kjv_model, kjv_hf = work / "kjv.json", work / "kjv-tokenizer.json"
        rows.append(
            _row(
                "load the KJV 16k model, encode a sentence",
                fastest(
                    {
                        "hf": [PYTHON, "-c", HF_ENCODE, str(kjv_hf), SENTENCE],
                        "ours": [PYTHON, "-m", "bpe_core", "encode", str(kjv_model), SENTENCE],
                    },
                    args.repeat,
                ),
            )
        )
        samples = {megabytes: work / f"{megabytes}mb.txt" for megabytes in (1, 100)}
        for megabytes, sample in samples.items():
            _write_sample(corpora["KJV (4.4 MB)"], sample, megabytes)
        for megabytes, sample in samples.items():
            wall, peak = fastest(
                {"ours": [PYTHON, "-m", "bpe_core", "encode", str(kjv_model), "-i", str(sample), "--ids-only"]},
                1 if megabytes > 1 else args.repeat,
            )["ours"]
            rows.append(
                f"| stream {megabytes} MB through `encode --ids-only` | – | {megabytes / wall:.1f} MB/s, "
                f"{peak:.0f} MB peak | – |"
            )
            print(rows[-1], file=sys.stderr, flush=True)
    print("\n".join(rows))


def _write_sample(source: Path, sample: Path, megabytes: int) -> None:
    """``megabytes`` of the source text repeated, written without holding it all in this process
    (a child process starts with its parent's memory counted, until it runs its own program)."""
    text = source.read_text(encoding="utf-8")
    with open(sample, "w", encoding="utf-8") as stream:
        left = megabytes * 1_000_000
        while left > 0:
            stream.write(text[:left])
            left -= len(text)


def _row(label: str, timing: dict[str, tuple[float, float]]) -> str:
    (hf_wall, hf_peak), (ours_wall, ours_peak) = timing["hf"], timing["ours"]
    row = (
        f"| {label} | {hf_wall:.2f} s, {hf_peak:.0f} MB | {ours_wall:.2f} s, {ours_peak:.0f} MB "
        f"| {ours_wall / hf_wall:.2f} |"
    )
    print(row, file=sys.stderr, flush=True)
    return row


if __name__ == "__main__":
    main()
