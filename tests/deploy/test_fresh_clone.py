"""What a fresh clone needs (issue 49): ``make classroom`` and ``make class`` import nothing of the tests' own
requirements (Playwright and the rest of requirements-test.txt), and ``.dockerignore`` keeps what a working copy
gathers (a local class store, the virtualenv, caches, test output) out of the image while every file the
Dockerfile copies is sent."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys

import pytest
from support.deploy import DOCKERFILE, copied_into_workdir
from support.paths import REPO_ROOT

# What `make classroom` (python -m bench.classroom serve) and `make class` (deploy/serve_class.py) import
MAKE_TARGETS = (
    "import bench.classroom.__main__, bench.classroom.cluster, bench.classroom.hostile\n"
    "import importlib.util\n"
    "spec = importlib.util.spec_from_file_location('serve_class', 'deploy/serve_class.py')\n"
    "spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
)


def _name(requirement: str) -> str:
    """A requirement's distribution name, normalized (PEP 503)."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement.strip()).group()).lower()


def _listed(path) -> set[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return {_name(line) for line in lines if line and not line.startswith("-")}


def _with_dependencies(names: set[str]) -> set[str]:
    """The distributions ``names`` install, theirs included (extras left out)."""
    found, waiting = set(), list(names)
    while waiting:
        name = waiting.pop()
        if name in found:
            continue
        found.add(name)
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        waiting += [_name(requirement) for requirement in requires if "extra ==" not in requirement]
    return found


def modules_of_the_tests_only() -> list[str]:
    """The top-level modules of distributions that requirements-test.txt adds and requirements.txt does not bring."""
    runtime = _with_dependencies(_listed(REPO_ROOT / "requirements.txt"))
    test_only = _with_dependencies(_listed(REPO_ROOT / "requirements-test.txt")) - runtime
    return sorted(
        module
        for module, distributions in importlib.metadata.packages_distributions().items()
        if any(_name(distribution) in test_only for distribution in distributions) and module.isidentifier()
    )


def run_without(modules: list[str], code: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter at the project's root, where importing any of ``modules`` fails as if it
    were not installed."""
    blocker = (
        "import sys, importlib.abc\n"
        f"BLOCKED = {set(modules)!r}\n"
        "class NotInstalled(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, NotInstalled())\n"
    )
    return subprocess.run(
        [sys.executable, "-c", blocker + code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120
    )


def test_the_test_requirements_are_found_and_playwright_is_among_them():
    modules = modules_of_the_tests_only()
    assert {"playwright", "pytest", "hypothesis", "tiktoken", "transformers"} <= set(modules)
    assert not {"streamlit", "redis", "segno", "websockets", "regex"} & set(modules)  # the app's, and Streamlit's


def test_make_classroom_and_make_class_import_without_the_tests_requirements():
    modules = modules_of_the_tests_only()
    blocked = run_without(modules, "import playwright")
    assert "No module named 'playwright'" in blocked.stderr  # the blocker bites, as on a fresh clone
    helpers = run_without(modules, "sys.path.insert(0, 'tests')\nimport support.browser")
    assert "No module named 'playwright'" in helpers.stderr  # what cluster.py used to import
    made = run_without(modules, MAKE_TARGETS + "print('imported')")
    assert made.returncode == 0, made.stderr[-3000:]
    assert made.stdout.strip() == "imported"


# -- .dockerignore ---------------------------------------------------------------------------------------------------


def dockerignore_patterns() -> list[str]:
    lines = (line.strip() for line in (REPO_ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def _pattern_regex(pattern: str) -> re.Pattern:
    """Docker's reading of one pattern (Go's filepath.Match, with ``**`` for any number of folders), which matches
    a path or any folder above it."""
    text, parts = pattern.strip("/"), []
    index = 0
    while index < len(text):
        if text.startswith("**/", index):
            parts.append("(?:.*/)?")
            index += 3
        elif text.startswith("**", index):
            parts.append(".*")
            index += 2
        else:
            parts.append({"*": "[^/]*", "?": "[^/]"}.get(text[index], re.escape(text[index])))
            index += 1
    return re.compile("".join(parts) + "(?:/.*)?")


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether a build leaves ``path`` out: the last pattern that matches decides, ``!`` taking it back in."""
    verdict = False
    for pattern in patterns:
        keep = pattern.startswith("!")
        if _pattern_regex(pattern.removeprefix("!")).fullmatch(path):
            verdict = not keep
    return verdict


@pytest.mark.parametrize(
    ("patterns", "path", "left_out"),
    [  # the examples of Docker's documentation of .dockerignore, worked by hand
        (["*/temp*"], "somedir/temporary.txt", True),
        (["*/temp*"], "temporary.txt", False),
        (["*/*/temp*"], "somedir/subdir/temporary.txt", True),
        (["temp?"], "tempa", True),
        (["temp?"], "tempab", False),
        (["**/*.go"], "main.go", True),
        (["**/*.go"], "a/b/main.go", True),
        (["*.md", "!README.md"], "README.md", False),
        (["*.md", "!README.md"], "CHANGES.md", True),
        (["data/live"], "data/live/classes.sqlite3", True),
    ],
)
def test_the_reading_of_a_pattern_is_dockers(patterns, path, left_out):
    assert ignored(path, patterns) is left_out


@pytest.mark.parametrize(
    "path",
    [
        "data/live/classes.sqlite3",
        "data/live/redis/appendonly.aof",
        ".venv/bin/python",
        ".git/HEAD",
        "bpe_core/__pycache__/trainer.cpython-311.pyc",
        "viz/classroom/__pycache__/state.cpython-311.pyc",
        ".pytest_cache/v/cache/nodeids",
        ".ruff_cache/CACHEDIR.TAG",
        ".hypothesis/examples/x",
        "tests/screenshots/test_class.png",
        "bench/results/run.json",
        "mutants/bpe_core/trainer.py",
    ],
)
def test_a_working_copys_own_files_stay_out_of_the_image(path):
    assert ignored(path, dockerignore_patterns())


def test_every_file_the_dockerfile_copies_is_sent():
    patterns = dockerignore_patterns()
    sources = [source for source, _ in copied_into_workdir(DOCKERFILE)]
    listed = subprocess.run(["git", "ls-files", "--", *sources], cwd=REPO_ROOT, capture_output=True, text=True)
    sent = listed.stdout.splitlines()
    assert len(sent) > 50 and "app.py" in sent and "live_class/data/confusables.txt.xz" in sent
    assert [path for path in sent if ignored(path, patterns)] == []
    assert not ignored("requirements.txt", patterns) and not ignored("deploy/streamlit/config.toml", patterns)
