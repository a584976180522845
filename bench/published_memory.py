"""Each published tokenizer's memory once read, as ``bpe_core.footprint.model_bytes`` counts it, beside the figure
its record in ``bpe_core.pretrained.PUBLISHED`` gives (``held_mb``, what a server's budget counts it at).

    python -m bench.published_memory

A server counts a published tokenizer by its record rather than by walking it (a walk of Gemma 3's takes longer
than its load): rerun this after changing a tokenizer's files, and put the new figures in the records.
"""

from __future__ import annotations

import gc

import bpe_core.pretrained as pretrained
from bpe_core.footprint import model_bytes


class _ReadEachTime:
    """A cache that keeps nothing, so that one tokenizer at a time is in memory."""

    def get_or_make(self, name, make):
        return make()


def main() -> None:
    pretrained.keep_published_in(_ReadEachTime())
    print("| name | measured MB | recorded MB |\n|---|---:|---:|")
    for name, published in pretrained.PUBLISHED.items():
        model = pretrained.load_pretrained(name)
        print(f"| {name} | {model_bytes(model) / 2**20:.1f} | {published.held_mb} |", flush=True)
        del model
        gc.collect()


if __name__ == "__main__":
    main()
