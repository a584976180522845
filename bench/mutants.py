"""Mutation testing: ``make mutants`` (``python -m bench.mutants [NAME_GLOB ...]``).

Runs mutmut (configured in ``setup.cfg``) over the engine and the pure view builders with
the non-browser tests, then prints the score, how long it took, and every surviving mutant
that ``tests/EQUIVALENT_MUTANTS.md`` does not explain.  The survivors are also written to
``mutants-survivors.txt``.  Exit status 1 when an unexplained survivor is left.

    python -m bench.mutants                    # everything (slow: an hour or more on 2 cores)
    python -m bench.mutants "bpe_core.train*"  # one module's mutants
"""

from __future__ import annotations

import ast
import io
import json
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
OPERATOR_WORDS = {"and", "or", "not", "is", "in", "True", "False", "min", "max", "break", "continue", "return"}


def explained() -> set[str]:
    """Mutant names listed in the equivalent-mutants file (each in backquotes at a line's start)."""
    return set(re.findall(r"^- `([^`]+)`", EQUIVALENT.read_text(encoding="utf-8"), re.MULTILINE))


def mutant_kinds(root: Path) -> dict[str, str]:
    """Each mutant's kind, ``operator`` or ``other``, from the tokens in which it differs from its original."""
    kinds: dict[str, str] = {}
    for path in (root / "mutants").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if "__mutmut_orig" not in source:
            continue
        module = ".".join(path.relative_to(root / "mutants").with_suffix("").parts)
        functions = {node.name: ast.get_source_segment(source, node) for node in ast.walk(ast.parse(source))
                     if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and "__mutmut_" in node.name}
        for name, text in functions.items():
            base, _, number = name.rpartition("__mutmut_")
            if number == "orig" or f"{base}__mutmut_orig" not in functions:
                continue
            changed = _changed_tokens(functions[f"{base}__mutmut_orig"], text)
            operator = changed and all(kind in (tokenize.OP, tokenize.NUMBER) or string in OPERATOR_WORDS
                                       for kind, string in changed)
            kinds[f"{module}.{name}"] = "operator" if operator else "other"
    return kinds


def _changed_tokens(original: str, mutant: str) -> list[tuple[int, str]]:
    """The tokens of ``mutant`` (after its name) that differ from ``original``'s, in order."""
    def tokens(text: str) -> list[tuple[int, str]]:
        return [(token.type, token.string) for token in tokenize.generate_tokens(io.StringIO(text).readline)][2:]

    before, after = tokens(original), tokens(mutant)
    start = next((index for index, pair in enumerate(zip(before, after)) if pair[0] != pair[1]), len(after))
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    return before[start : len(before) - end] + after[start : len(after) - end]


def main(patterns: list[str]) -> int:
    started = time.monotonic()
    subprocess.run([*MUTMUT, "run", *patterns], cwd=ROOT, check=False)
    minutes = (time.monotonic() - started) / 60
    subprocess.run([*MUTMUT, "export-cicd-stats"], cwd=ROOT, check=True, capture_output=True)
    stats = json.loads((ROOT / "mutants" / "mutmut-cicd-stats.json").read_text(encoding="utf-8"))
    results = subprocess.run([*MUTMUT, "results"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    survivors = [line.strip() for line in results.splitlines() if line.strip().endswith(NOT_KILLED)]
    # A mutant that loops for ever is caught by the time limit: it was found out, like a killed one.
    timeouts = [line for line in survivors if line.endswith("timeout")]
    survivors = [line for line in survivors if not line.endswith("timeout")]
    SURVIVORS.write_text("".join(f"{line}\n" for line in survivors), encoding="utf-8")
    checked = stats["killed"] + stats["survived"] + stats["timeout"] + stats["suspicious"] + stats["segfault"]
    found = stats["killed"] + len(timeouts)
    known = explained()
    unexplained = [line for line in survivors if line.split(":")[0] not in known]
    score = found / checked if checked else 0.0
    print(f"mutants: {found}/{checked} killed ({score:.1%}), {len(survivors)} survived "
          f"({len(survivors) - len(unexplained)} listed as equivalent), {minutes:.0f} min")
    kinds = mutant_kinds(ROOT)
    statuses = dict(line.strip().rsplit(": ", 1) for line in subprocess.run(
        [*MUTMUT, "results", "--all", "true"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.splitlines()
        if ": " in line)
    operators = [name for name, status in statuses.items() if kinds.get(name) == "operator" and status != "not checked"]
    alive = [name for name in operators if statuses[name] in ("survived", "no tests", "suspicious")]
    listed = [name for name in alive if name in known]
    print(f"one-operator mutants (comparison, boolean, not, min/max, constants, arithmetic): "
          f"{len(operators) - len(alive)}/{len(operators)} killed ({(len(operators) - len(alive)) / max(len(operators), 1):.1%}), "
          f"{len(listed)} of the {len(alive)} survivors listed as equivalent")
    for line in unexplained:
        print(f"  unexplained: {line}")
    print(f"survivors written to {SURVIVORS.name}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
