"""Mutation testing: ``make mutants`` (``python -m bench.mutants [NAME_GLOB ...]``).

Runs mutmut (configured in ``setup.cfg``) over the engine and the pure view builders with
the non-browser tests, then prints the score, how long it took, and every surviving mutant
that ``tests/EQUIVALENT_MUTANTS.md`` does not explain.  The survivors are also written to
``mutants-survivors.txt``.  Exit status 1 when an unexplained survivor is left.

    python -m bench.mutants                    # everything (slow: an hour or more on 2 cores)
    python -m bench.mutants "bpe_core.train*"  # one module's mutants
    python -m bench.mutants --sample 400       # a seeded sample of one-operator mutants (the README's score)
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import io
import random
import re
import subprocess
import sys
import time
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = ROOT / "tests" / "EQUIVALENT_MUTANTS.md"
SURVIVORS = ROOT / "mutants-survivors.txt"
MUTMUT = [sys.executable, "-m", "mutmut"]
NOT_KILLED = ("survived", "timeout", "suspicious", "no tests", "segfault")
# The class of one-operator mutants: comparisons, boolean operators, "not", min/max,
# small constants and arithmetic; mutmut also rewrites string literals and drops arguments.
DEFAULT_SEED = 18  # the sample the README reports
GENERATING_RUN = "bpe_core.textbook.x_merge__mutmut_1"
OPERATOR_WORDS = {"and", "or", "not", "is", "in", "True", "False", "min", "max", "break", "continue", "return"}


def explained() -> set[str]:
    """Mutant names listed in the equivalent-mutants file.

    A list item names mutants in backquotes before a colon, the first in full and the next ones
    in full or shortened: ``x_other__mutmut_4`` (same module) or ``_12`` (same function); a later
    part of the item after "; " may name more the same way.
    """
    names: set[str] = set()
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        if not line.startswith("- `"):
            continue
        previous = ""
        for part in line[2:].split("; "):
            listed, colon, _ = part.partition("`:")
            if not colon:
                continue
            for name in re.findall(r"`([^`]+)`", listed + "`"):
                previous = expand_name(name, previous)
                names.add(previous)
    return names


def expand_name(name: str, previous: str) -> str:
    """A listed mutant name in full, given the full name listed before it.

    >>> expand_name("_12", "viz.a.x_f__mutmut_3"), expand_name("x_g__mutmut_4", "viz.a.x_f__mutmut_3")
    ('viz.a.x_f__mutmut_12', 'viz.a.x_g__mutmut_4')
    """
    if re.fullmatch(r"_+(?:mutmut_)?\d+", name):
        return f"{previous.rpartition('__mutmut_')[0]}__mutmut_{name.rpartition('_')[2]}"
    if name.startswith("x") and "." not in name:
        return f"{previous.rpartition('.')[0]}.{name}"
    return name


def mutant_kinds(root: Path) -> dict[str, str]:
    """Each mutant's kind, ``operator`` or ``other``, from the tokens in which it differs from its original."""
    kinds: dict[str, str] = {}
    for path in (root / "mutants").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if "__mutmut_orig" not in source:
            continue
        module = ".".join(path.relative_to(root / "mutants").with_suffix("").parts)
        lines = source.splitlines(keepends=True)  # sliced per function: ast.get_source_segment re-splits each time
        functions = {
            node.name: "".join(lines[node.lineno - 1 : node.end_lineno]).strip()
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and "__mutmut_" in node.name
        }
        originals: dict[str, list[tuple[int, str]]] = {}  # each function's tokens, read once for all its mutants
        for name, text in functions.items():
            base, _, number = name.rpartition("__mutmut_")
            if number == "orig" or f"{base}__mutmut_orig" not in functions:
                continue
            if base not in originals:
                originals[base] = _tokens(functions[f"{base}__mutmut_orig"])
            changed = _changed_tokens(originals[base], _tokens(text))
            operator = changed and all(
                kind in (tokenize.OP, tokenize.NUMBER) or string in OPERATOR_WORDS for kind, string in changed
            )
            kinds[f"{module}.{name}"] = "operator" if operator else "other"
    return kinds


def _tokens(function_source: str) -> list[tuple[int, str]]:
    """A function's tokens after its name (which differs between a mutant and its original)."""
    return [(token.type, token.string) for token in tokenize.generate_tokens(io.StringIO(function_source).readline)][2:]


def _changed_tokens(before: list[tuple[int, str]], after: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The tokens in which two token lists differ: the differing middle of each, in order."""
    start = next((index for index, pair in enumerate(zip(before, after)) if pair[0] != pair[1]), len(after))
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    return before[start : len(before) - end] + after[start : len(after) - end]


def statuses() -> dict[str, str]:
    """Every generated mutant's status from mutmut ("killed", "survived", ..., "not checked")."""
    listing = subprocess.run(
        [*MUTMUT, "results", "--all", "true"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    return dict(line.strip().rsplit(": ", 1) for line in listing.splitlines() if ": " in line)


def generate_mutants() -> dict[str, str]:
    """Every mutant's kind. mutmut only generates mutants as part of a run, so this runs the single mutant
    ``GENERATING_RUN`` (which also records which tests cover which function)."""
    subprocess.run([*MUTMUT, "run", GENERATING_RUN], cwd=ROOT, check=True)
    return mutant_kinds(ROOT)


def sampled_operator_mutants(kinds: dict[str, str], size: int, seed: int) -> list[str]:
    """A seeded sample of ``size`` one-operator mutants."""
    operators = sorted(name for name, kind in kinds.items() if kind == "operator")
    return sorted(random.Random(seed).sample(operators, min(size, len(operators))))


def report(status: dict[str, str], kinds: dict[str, str], minutes: float) -> int:
    """Print the score over ``status`` (the mutants of this run), the one-operator score and the survivors that
    the equivalent-mutants file does not explain; write the survivors to ``SURVIVORS``. Returns the exit status."""
    checked = {name: found for name, found in status.items() if found != "not checked"}
    # A mutant that loops for ever is caught by the time limit: it was found out, like a killed one.
    survivors = sorted(name for name, found in checked.items() if found in NOT_KILLED and found != "timeout")
    SURVIVORS.write_text("".join(f"{name}: {status[name]}\n" for name in survivors), encoding="utf-8")
    known = explained()
    unexplained = [name for name in survivors if name not in known]
    found = len(checked) - len(survivors)
    print(
        f"mutants: {found}/{len(checked)} killed ({found / max(len(checked), 1):.1%}), {len(survivors)} survived "
        f"({len(survivors) - len(unexplained)} listed as equivalent), {minutes:.0f} min"
    )
    operators = [name for name in checked if kinds.get(name) == "operator"]
    alive = [name for name in operators if name in survivors]
    print(
        f"one-operator mutants (comparison, boolean, not, min/max, constants, arithmetic): "
        f"{len(operators) - len(alive)}/{len(operators)} killed "
        f"({(len(operators) - len(alive)) / max(len(operators), 1):.1%}), "
        f"{len([name for name in alive if name in known])} of the {len(alive)} survivors listed as equivalent"
    )
    for name in unexplained:
        print(f"  unexplained: {name}: {status[name]}")
    print(f"survivors written to {SURVIVORS.name}")
    return 1 if unexplained else 0


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("patterns", nargs="*", help="mutant name globs (default: every mutant)")
    parser.add_argument("--sample", type=int, metavar="N", help="a seeded sample of N one-operator mutants")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    options = parser.parse_args(arguments)
    started = time.monotonic()
    kinds = generate_mutants() if options.sample else {}
    patterns = sampled_operator_mutants(kinds, options.sample, options.seed) if options.sample else options.patterns
    subprocess.run([*MUTMUT, "run", *patterns], cwd=ROOT, check=False)
    status = {
        name: found
        for name, found in statuses().items()
        if not patterns or any(fnmatch.fnmatch(name, pattern) for pattern in patterns)
    }
    return report(status, kinds or mutant_kinds(ROOT), (time.monotonic() - started) / 60)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
