"""The house rules, checked on every run: the floors import only downwards, no import cycle, no file or function too
long.

The floors, from the bottom: the engine (``bpe_core``: the standard library, ``regex``, and ``jinja2`` for chat
templates) and, beside it, the live class (``live_class``: the standard library and the ``redis`` client, nothing of
the app) and the job runner (``jobs``: the standard library only; its workers import the functions they run by
name); the views (``viz``: what pages share at its top, one folder per page), the pages (``app.py`` and
``app_pages/``). A page's folder in ``viz`` may use the top of ``viz`` but not another page's folder, and the top of
``viz`` uses no page's folder. Only the state modules, ``model_io`` and the live text box talk to Streamlit.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from browser_helpers import REPO_ROOT

MAX_MODULE_LINES, MAX_PAGE_LINES = 400, 200
MAX_FUNCTION_LINES = 60  # a function fits a screen: its def line to its last, docstring included
PAGE_FOLDERS = ("train", "merges", "encode", "compare", "learn", "classroom")  # viz/<page>/: one per page
# Dask: the optional counter; jinja2: the chat templates of bpe_core/chat, rendered in its sandbox
ENGINE_MAY_IMPORT = set(sys.stdlib_module_names) | {"regex", "jinja2", "dask", "distributed"}
LIVE_CLASS_MAY_IMPORT = set(sys.stdlib_module_names) | {"redis"}
STREAMLIT_MODULES = {
    "viz.state",
    "viz.model_io",
    "viz.share_link",
    "viz.encode.live_text",
    "viz.merges.step_keys",
    "viz.classroom.class_cookies",
    *(f"viz.{page}.state" for page in PAGE_FOLDERS),
}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts).removesuffix(".__init__")


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, absolute, functions' imports included (``from . import x`` resolved)."""
    name, found = module_name(path), set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def sources(folder: str) -> list[Path]:
    return sorted((REPO_ROOT / folder).rglob("*.py"))


def floor_of(module: str) -> str:
    """``engine``, ``live_class``, ``jobs``, ``viz`` (its top), ``viz.<page>``, ``pages`` or ``outside`` (a library)."""
    parts = module.split(".")
    if parts[0] == "bpe_core":
        return "engine"
    if parts[0] in ("live_class", "jobs"):
        return parts[0]
    if parts[0] == "viz":
        return f"viz.{parts[1]}" if len(parts) > 1 and parts[1] in PAGE_FOLDERS else "viz"
    if parts[0] in ("app", "app_pages"):
        return "pages"
    return "outside"


def may_import(importer: str, imported: str) -> bool:
    """The layering rule for one import, given both modules' floors."""
    low, high = floor_of(importer), floor_of(imported)
    if low == "engine":
        return high == "engine" or (high == "outside" and imported.split(".")[0] in ENGINE_MAY_IMPORT)
    if low == "live_class":
        return high == "live_class" or (high == "outside" and imported.split(".")[0] in LIVE_CLASS_MAY_IMPORT)
    if low == "jobs":
        return high == "jobs" or (high == "outside" and imported.split(".")[0] in sys.stdlib_module_names)
    if high == "pages":
        return low == "pages"
    if low == "viz":
        return not high.startswith("viz.")  # the top of viz never reaches into a page's folder
    if low.startswith("viz."):
        return high in (
            "engine",
            "live_class",
            "jobs",
            "viz",
            "outside",
            low,
        )  # its own folder, the shared top, never another page's
    return True


def test_the_rule_itself():
    assert may_import("viz.merges.race", "viz.escape") and may_import("viz.merges.race", "viz.merges.labels")
    assert not may_import("viz.merges.race", "viz.train.form")  # a page's folder into another's
    assert not may_import("viz.state", "viz.train.form")  # the shared top into a page's folder
    assert not may_import("bpe_core.tokenizer", "viz.escape") and not may_import("bpe_core.train", "plotly")
    assert not may_import("viz.escape", "app_pages.train") and may_import("app_pages.train", "viz.train.form")
    assert may_import("viz.classroom.state", "live_class.room") and may_import("live_class.store", "sqlite3")
    assert not may_import("live_class.room", "bpe_core.train") and not may_import("live_class.room", "streamlit")
    assert may_import("viz.train.state", "jobs.runner") and not may_import("jobs.runner", "bpe_core.train")


@pytest.mark.parametrize("folder", ["bpe_core", "live_class", "jobs", "viz", "app_pages"])
def test_imports_point_down(folder):
    wrong = [
        f"{module_name(path)} imports {imported}"
        for path in sources(folder)
        for imported in sorted(imported_modules(path))
        if imported.split(".")[0] != "__future__" and not may_import(module_name(path), imported)
    ]
    assert not wrong, "\n".join(wrong)


def test_only_state_modules_and_widgets_talk_to_streamlit():
    talking = {module_name(path) for path in sources("viz") if "streamlit" in imported_modules(path)}
    assert talking == STREAMLIT_MODULES


def import_graph(folder: str) -> dict[str, set[str]]:
    modules = {module_name(path): path for path in sources(folder)}
    return {name: imported_modules(path) & set(modules) - {name} for name, path in modules.items()}


def cycle_in(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (a path that comes back to its start), or [] if there is none."""
    done, path = set(), []

    def visit(module: str) -> list[str]:
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return []
        path.append(module)
        for imported in sorted(graph[module]):
            if found := visit(imported):
                return found
        path.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        if found := visit(module):
            return found
    return []


def test_the_cycle_finder():
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


@pytest.mark.parametrize("folder", ["bpe_core", "live_class", "jobs", "viz"])
def test_no_import_cycle(folder):
    assert cycle_in(import_graph(folder)) == []


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_file_too_long():
    long = [
        f"{path.relative_to(REPO_ROOT)}: {line_count(path)} lines"
        for folder, limit in (
            ("bpe_core", MAX_MODULE_LINES),
            ("live_class", MAX_MODULE_LINES),
            ("jobs", MAX_MODULE_LINES),
            ("viz", MAX_MODULE_LINES),
            ("app_pages", MAX_PAGE_LINES),
        )
        for path in sources(folder)
        if line_count(path) > limit
    ]
    assert not long, "split these by job:\n" + "\n".join(long)


def function_lengths(path: Path) -> list[tuple[str, int]]:
    """Each function of ``path`` (methods and nested ones too) with its length in lines, from ``def`` to its end."""
    return [
        (node.name, node.end_lineno - node.lineno + 1)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def test_function_lengths_count_def_to_end(tmp_path):
    source = tmp_path / "example.py"
    source.write_text('def one():\n    """Doc."""\n\n    return 1\n\n\nclass A:\n    def two(self):\n        pass\n')
    assert function_lengths(source) == [("one", 4), ("two", 2)]


def test_no_function_too_long():
    paths = [REPO_ROOT / "app.py"] + [
        path for folder in ("bpe_core", "live_class", "viz", "app_pages") for path in sources(folder)
    ]
    long = [
        f"{path.relative_to(REPO_ROOT)}: {name} has {length} lines"
        for path in paths
        for name, length in function_lengths(path)
        if length > MAX_FUNCTION_LINES
    ]
    assert not long, f"split these by job (at most {MAX_FUNCTION_LINES} lines a function):\n" + "\n".join(long)
