"""The token premium of four published tokenizers over the 58 bundled texts, once the tokenizers are loaded.

    python -m bench.premium [--repeat N]      (also run by make bench)

Compare's four tokenizers by default (GPT-2, GPT-4, GPT-4o, Llama 3), loaded before the clock starts.  Each run
times ``premium_rows`` on a fresh copy of each (``copy.copy`` leaves out a tokenizer's piece cache and whatever it
builds on first use, and a new object has no counts cached): the first view of the premium by a server that has
just loaded them, the worst case.  Then the same call again, the counts cached: the view drawn again.  The runs are
interleaved (each run times every tokenizer in turn), so that a slow spell of the shared machine hits them all;
the table gives the median and the range.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time

from bpe_core.languages import bundled_texts
from bpe_core.premium import premium_rows
from bpe_core.pretrained import PUBLISHED, load_pretrained

NAMES = ("gpt2", "cl100k_base", "o200k_base", "llama3")  # pages/compare/views/real_tokenizers.py's DEFAULT_REAL


def timed_premium(tokenizer, texts: dict[str, str]) -> float:
    start = time.perf_counter()
    premium_rows(tokenizer, texts)
    return time.perf_counter() - start


def one_run(loaded: dict, texts: dict[str, str]) -> dict[str, tuple[float, float]]:
    """Each tokenizer's (first, cached) seconds for the premium of ``texts``, on a fresh copy."""
    seconds = {}
    for name, tokenizer in loaded.items():
        fresh = copy.copy(tokenizer)
        first = timed_premium(fresh, texts)
        seconds[name] = (first, timed_premium(fresh, texts))
    return seconds


def spread(seconds: list[float]) -> str:
    """The median and the range, in milliseconds."""
    return f"{statistics.median(seconds) * 1000:,.1f} ms ({min(seconds) * 1000:,.1f}-{max(seconds) * 1000:,.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.premium")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    texts = bundled_texts()
    loaded = {name: load_pretrained(name) for name in NAMES}
    runs = [one_run(loaded, texts) for _ in range(args.repeat)]
    print(f"The premium over {len(texts)} texts ({sum(map(len, texts.values())):,} characters), {args.repeat} runs")
    print("\n| tokenizer | first view: median (range) | counts cached |\n|---|---|---|")
    for name in NAMES:
        firsts, cached = ([run[name][which] for run in runs] for which in (0, 1))
        print(f"| {PUBLISHED[name].title} | {spread(firsts)} | {spread(cached)} |")
    totals = [[sum(run[name][which] for name in NAMES) for run in runs] for which in (0, 1)]
    print(f"| all four | {spread(totals[0])} | {spread(totals[1])} |")


if __name__ == "__main__":
    main()
