"""GPT-4 and GPT-4o encoding beside tiktoken: in-process MB/s, and whole processes.

    python -m bench.tiktoken_speed [--repeat N]      (also run by make bench)

In-process: the first 1 MB of the KJV (English) and the Chinese poems (0.1 MB), encoded as one
text, ours (``load_pretrained(name).encode``, its piece cache empty) against tiktoken's
``encode_ordinary``; the fastest of ``--repeat`` runs. Whole process: loading the tokenizer and encoding 1 MB of English
read from standard input, ``python -m bpe_core encode cl100k_base --ids-only`` against a Python
process that loads tiktoken and does the same, both including Python's start-up.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import tempfile
import time
from functools import partial
from pathlib import Path

from bench.tiktoken_offline import offline_tiktoken
from bench.whole_process import DATA, PYTHON, fastest
from bpe_core.pretrained import load_pretrained

NAMES = ("cl100k_base", "o200k_base")
WARM_UP = "Warm-up: 12 words, some punctuation, a digit or two (3.14) and don't."
TIKTOKEN_ENCODE = (
    "import sys; from bench.tiktoken_offline import offline_tiktoken; from pathlib import Path; "
    "enc = offline_tiktoken(Path(sys.argv[1])).get_encoding(sys.argv[2]); "
    "print(len(enc.encode_ordinary(sys.stdin.read())))"
)


def best_seconds(make_encode, text: str, repeat: int) -> float:
    """The fastest of ``repeat`` encodings of ``text``, each by a fresh encoder from ``make_encode()``
    warmed up on another text: our piece cache must not remember the pieces of the text being timed."""
    times = []
    for _ in range(repeat):
        encode = make_encode()
        encode(WARM_UP)  # first-use costs (regex compilation) are not encoding speed
        start = time.perf_counter()
        encode(text)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.tiktoken_speed")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    english = gzip.decompress((DATA / "kjv.txt.gz").read_bytes()).decode("utf-8")[:1_000_000]
    texts = {"English (KJV, 1 MB)": english, "Chinese (poems, 0.1 MB)": (DATA / "zh_poems.txt").read_text("utf-8")}
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder) / "cache"
        cache.mkdir()
        # Whole processes first: a child's peak memory counts its parent's until it runs its own program.
        sample = Path(folder) / "english.txt"
        sample.write_text(english, encoding="utf-8")
        print("| whole process, 1 MB English from standard input | tiktoken | ours | ratio |\n|---|---|---|---|")
        for name in NAMES:
            timing = fastest(
                {
                    "tiktoken": [PYTHON, "-c", TIKTOKEN_ENCODE, str(cache), name],
                    "ours": [PYTHON, "-m", "bpe_core", "encode", name, "--ids-only"],
                },
                args.repeat,
                stdin=sample,
            )
            (their_wall, their_peak), (our_wall, our_peak) = timing["tiktoken"], timing["ours"]
            print(
                f"| {name}: load and encode | {their_wall:.2f} s, {their_peak:.0f} MB | {our_wall:.2f} s, "
                f"{our_peak:.0f} MB | {our_wall / their_wall:.2f} |"
            )
        tiktoken = offline_tiktoken(cache)
        print("\n| encoding | text | tiktoken MB/s | ours MB/s | ours / tiktoken |\n|---|---|---|---|---|")
        for name in NAMES:
            ours, theirs = load_pretrained(name), tiktoken.get_encoding(name)
            for label, text in texts.items():
                megabytes = len(text.encode("utf-8")) / 1e6
                reference = megabytes / best_seconds(lambda encoder=theirs: encoder.encode_ordinary, text, args.repeat)
                # A copy of a Tokenizer starts with an empty piece cache.
                mine = megabytes / best_seconds(
                    lambda model=ours: partial(copy.copy(model).encode, special=False), text, args.repeat
                )
                print(f"| {name} | {label} | {reference:.1f} | {mine:.1f} | {mine / reference:.2f} |")


if __name__ == "__main__":
    main()
