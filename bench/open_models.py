"""The open models' tokenizers beside HF tokenizers, as whole processes.

    python -m bench.open_models [--repeat N]      (also run by make bench)

For each model: loading it (start-up included) and encoding 1 MB of English (the KJV) read from
standard input, ``python -m bpe_core encode NAME --ids-only`` against a Python process that
reads the same xz-compressed tokenizer.json into HF tokenizers and encodes the same text
(``add_special_tokens=False``).  Load alone is the same with an empty input.  The table keeps
the fastest of ``--repeat`` interleaved runs and its peak memory (max RSS).  Targets (issue 19):
Llama 3 within 1.5x of HF, Gemma 3 (its whole text is one sequence) within 2x.
"""

from __future__ import annotations

import argparse
import gzip
import tempfile
from pathlib import Path

from bench.whole_process import DATA, PYTHON, fastest
from bpe_core.pretrained import DATA as SHIPPED  # the engine's data folder (DATA is the benchmarks')
from bpe_core.pretrained import OPEN_MODELS

HF_ENCODE = (
    "import lzma, sys; from tokenizers import Tokenizer; "
    "tok = Tokenizer.from_str(lzma.open(sys.argv[1]).read().decode('utf-8')); "
    "print(len(tok.encode(sys.stdin.read(), add_special_tokens=False).ids))"
)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.open_models")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("names", nargs="*", default=list(OPEN_MODELS), help="models to measure (all by default)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        english, empty = Path(folder) / "english.txt", Path(folder) / "empty.txt"
        english.write_text(
            gzip.decompress((DATA / "kjv.txt.gz").read_bytes()).decode("utf-8")[:1_000_000], encoding="utf-8"
        )
        empty.write_text("", encoding="utf-8")
        print("| model | what | HF | ours | ratio |\n|---|---|---|---|---|")
        for name in args.names:
            packed = SHIPPED / "open" / f"{name}.tokenizer.json.xz"
            commands = {
                "hf": [PYTHON, "-c", HF_ENCODE, str(packed)],
                "ours": [PYTHON, "-m", "bpe_core", "encode", name, "--ids-only"],
            }
            for what, stdin in (("load", empty), ("load + encode 1 MB English", english)):
                timing = fastest(commands, args.repeat, stdin=stdin)
                (hf_wall, hf_peak), (our_wall, our_peak) = timing["hf"], timing["ours"]
                print(
                    f"| {OPEN_MODELS[name]} | {what} | {hf_wall:.2f} s, {hf_peak:.0f} MB | "
                    f"{our_wall:.2f} s, {our_peak:.0f} MB | {our_wall / hf_wall:.2f} |"
                )


if __name__ == "__main__":
    main()
