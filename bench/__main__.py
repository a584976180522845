"""Train and encode side by side with HF tokenizers, in one run; print a Markdown table.

    make bench            # or: .venv/bin/python -m bench [--quick]

Every measurement runs in a fresh subprocess so that peak memory (max RSS,
interpreter and imports included) belongs to that run alone.  Configuration:
GPT-2 regex, byte-level, the corpus fed line by line, vocabulary sizes 1k/4k/16k.
HF uses its default threads.  Each measurement runs ``--repeat`` times (5),
interleaved with the others, and the table shows the fastest run.  The naive recount trainer is timed on its first
merges and extrapolated linearly (labelled as such: a recount costs about the
same at every step).
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
CORPORA = {
    "KJV Bible (English, 4.4 MB)": DATA / "kjv.txt.gz",
    "Tang and Song poems (Chinese, 0.1 MB)": DATA / "zh_poems.txt",
    "Song ci (Chinese, 2 MB)": DATA / "zh_songci.txt.gz",
}
SIZES = (1000, 4000, 16000)
NAIVE_MERGES = 5


def read_lines(path: Path) -> list[str]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return handle.read().splitlines(keepends=True)


# -- one measurement, in its own process ------------------------------------------------


def measure(kind: str, corpus: str, size: int) -> dict:
    lines = read_lines(Path(corpus))
    data_mb = sum(len(line.encode("utf-8")) for line in lines) / 1e6
    result: dict = {"mb": data_mb}
    if kind.startswith("ours"):
        from bpe_core import Config, train

        config = Config(split="gpt2", units="bytes", tie_break=kind.split("-")[1])
        start = time.perf_counter()
        tok = train(lines, config, vocab_size=size)
        result["train_s"] = time.perf_counter() - start
        result["merges"] = len(tok.merges)
        text = "".join(lines)
        tok.encode(text[:1000])  # build the regex before timing
        start = time.perf_counter()
        tok.encode(text)
        result["encode_mb_s"] = data_mb / (time.perf_counter() - start)
    elif kind == "hf":
        from tokenizers import Tokenizer, models, pre_tokenizers, trainers

        tokenizer = Tokenizer(models.BPE())
        tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
        trainer = trainers.BpeTrainer(
            vocab_size=size, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
        )
        start = time.perf_counter()
        tokenizer.train_from_iterator(lines, trainer=trainer)
        result["train_s"] = time.perf_counter() - start
        result["merges"] = tokenizer.get_vocab_size() - 256
        start = time.perf_counter()
        tokenizer.encode_batch(lines)
        result["encode_mb_s"] = data_mb / (time.perf_counter() - start)
    elif kind == "naive":
        from bpe_core import Config
        from bpe_core.textbook import train_merges

        start = time.perf_counter()
        train_merges(lines, Config(split="gpt2", units="bytes"), merges=NAIVE_MERGES)
        per_merge = (time.perf_counter() - start) / NAIVE_MERGES
        result["train_s"] = per_merge * (size - 256)
        result["merges"] = size - 256
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def run_one(kind: str, corpus: Path, size: int) -> dict:
    completed = subprocess.run(
        [sys.executable, "-m", "bench", "--one", kind, str(corpus), str(size)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return json.loads(completed.stdout)


def best_of(runs: list[dict]) -> dict:
    """The fastest of repeated runs: noise on a shared machine only ever adds time."""
    return {
        "train_s": min(run["train_s"] for run in runs),
        "encode_mb_s": max(run["encode_mb_s"] for run in runs),
        "peak_mb": min(run["peak_mb"] for run in runs),
        "merges": runs[0]["merges"],
    }


# -- the table ---------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--one", nargs=3, metavar=("KIND", "CORPUS", "SIZE"), help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="1k and 4k only, skip the naive trainer")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each measurement, interleaved (default 5)")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one[0], args.one[1], int(args.one[2]))))
        return

    sizes = SIZES[:2] if args.quick else SIZES
    rows = [
        "| corpus | vocab | HF train s | ours `hf` s (ratio) | ours `first` s (ratio) | naive s, extrapolated (ratio) "
        "| encode MB/s HF / ours | peak MB HF / ours |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, path in CORPORA.items():
        for size in sizes:
            runs: dict[str, list[dict]] = {"hf": [], "ours-hf": [], "ours-first": []}
            for _ in range(args.repeat):
                for kind, done in runs.items():  # interleaved, so that a slow spell hits all three
                    done.append(run_one(kind, path, size))
            hf, ours_hf, ours_first = (best_of(runs[kind]) for kind in ("hf", "ours-hf", "ours-first"))
            naive = None if args.quick or size != sizes[-1] else run_one("naive", path, size)
            merges = f"{ours_hf['merges']}" + ("" if ours_hf["merges"] == size - 256 else " (all pairs used)")
            naive_cell = "–" if naive is None else f"{naive['train_s']:.0f} ({naive['train_s'] / hf['train_s']:.0f}x)"
            rows.append(
                f"| {name} | {size} ({merges} merges) | {hf['train_s']:.2f} "
                f"| {ours_hf['train_s']:.2f} ({ours_hf['train_s'] / hf['train_s']:.2f}x) "
                f"| {ours_first['train_s']:.2f} ({ours_first['train_s'] / hf['train_s']:.2f}x) "
                f"| {naive_cell} "
                f"| {hf['encode_mb_s']:.1f} / {ours_hf['encode_mb_s']:.1f} "
                f"| {hf['peak_mb']:.0f} / {ours_hf['peak_mb']:.0f} |"
            )
            print(rows[-1], file=sys.stderr, flush=True)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
