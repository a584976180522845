"""The house rules, checked on every run: the floors import only downwards, no import cycle, no function too long.

The floors, from the bottom: the engine (``bpe_core``: the standard library, ``regex``, and ``jinja2`` for chat
templates) and, beside it, the live class (``live_class``: the standard library and the ``redis`` client, nothing of
the app) and the job runner (``jobs``: the standard library only; its workers import the functions they run by
name). Above them what pages share, split by what it is: ``drawing`` (pure drawing helpers: data in, escaped HTML
or a figure out; no Streamlit) and ``session`` (the session and server side: state, stores, addresses, settings).
Then one folder per page, ``pages/<page>/``: its pure views in ``views/`` (no Streamlit, nothing of another page),
its script, sections and state at its top. A page reaches another page only through that page's ``state`` (its keys
and choices, to link to it) or Train's ``training`` (a run of training for the session). ``app.py`` routes.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from browser_helpers import REPO_ROOT

MAX_FUNCTION_LINES = 60  # a function fits a screen: its def line to its last, docstring included
PAGE_FOLDERS = ("start", "train", "merges", "encode", "compare", "learn", "classroom")  # pages/<page>/: one per page
SHARED_BY_A_PAGE = ("state", "training")  # what another page may import of a page's folder (top level only)
# Dask: the optional counter; jinja2: the chat templates of bpe_core/chat, rendered in its sandbox
ENGINE_MAY_IMPORT = set(sys.stdlib_module_names) | {"regex", "jinja2", "dask", "distributed"}
LIVE_CLASS_MAY_IMPORT = set(sys.stdlib_module_names) | {"redis"}
SHARED_STREAMLIT_MODULES = {
    "session.state",
    "session.model_io",
    "session.share_link",
    "session.result_scroll",
}  # the rest of session: none
APP_FOLDERS = ("bpe_core", "live_class", "jobs", "drawing", "session", "pages")


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
    """``engine``, ``live_class``, ``jobs``, ``drawing``, ``session``, ``pages.<page>`` (its script, sections, state),
    ``pages.<page>.views``, ``app`` (the router) or ``outside`` (a library)."""
    parts = module.split(".")
    if parts[0] == "bpe_core":
        return "engine"
    if parts[0] in ("live_class", "jobs", "drawing", "session", "app"):
        return parts[0]
    if parts[0] == "pages":
        if len(parts) == 1:
            return "pages"
        return ".".join(parts[:3]) if len(parts) > 2 and parts[2] == "views" else f"pages.{parts[1]}"
    return "outside"


def may_import(importer: str, imported: str) -> bool:
    """The layering rule for one import, given both modules' floors."""
    low, high = floor_of(importer), floor_of(imported)
    library = imported.split(".")[0]
    if high == "outside":
        allowed = {"engine": ENGINE_MAY_IMPORT, "live_class": LIVE_CLASS_MAY_IMPORT, "jobs": sys.stdlib_module_names}
        return low not in allowed or library in allowed[low]
    below = {
        "engine": {"engine"},
        "live_class": {"live_class"},
        "jobs": {"jobs"},
        "drawing": {"engine", "drawing"},
        "session": {"engine", "live_class", "jobs", "drawing", "session"},
    }
    if low in below:
        return high in below[low]
    if low == "app":
        return True
    page = ".".join(low.split(".")[:2])  # pages.<page>
    if high.startswith(page):  # its own folder: views never reach up into the page's script or sections
        return not (low.endswith(".views") and high == page)
    if high.startswith("pages."):  # another page: only its state or Train's run (its package, to name them)
        shared = imported == high or imported.split(".")[-1] in SHARED_BY_A_PAGE and len(imported.split(".")) == 3
        return not low.endswith(".views") and shared
    return high in below["session"]


def test_the_rule_itself():
    assert may_import("pages.merges.views.race", "drawing.escape")
    assert may_import("pages.merges.views.race", "pages.merges.views.labels")
    assert not may_import("pages.merges.views.race", "pages.merges.state")  # a view never reaches up into its page
    assert not may_import("pages.merges.views.race", "pages.train.views.form")  # nor into another page
    assert not may_import("pages.merges.tabs", "pages.train.views.form")  # a page into another's views
    assert may_import("pages.merges.tabs", "pages.encode.state") and may_import(
        "pages.compare.page", "pages.train.training"
    )
    assert not may_import("pages.merges.tabs", "pages.encode.header")  # another page's sections: never
    assert not may_import("session.state", "pages.train.views.form")  # what pages share never reaches into a page
    assert not may_import("drawing.escape", "session.state") and may_import("session.state", "drawing.escape")
    assert not may_import("bpe_core.tokenizer", "drawing.escape") and not may_import("bpe_core.train", "plotly")
    assert not may_import("drawing.escape", "pages.train.page") and may_import(
        "pages.train.page", "pages.train.views.form"
    )
    assert may_import("pages.classroom.state", "live_class.room") and may_import("live_class.store", "sqlite3")
    assert not may_import("live_class.room", "bpe_core.train") and not may_import("live_class.room", "streamlit")
    assert may_import("pages.train.state", "jobs.runner") and not may_import("jobs.runner", "bpe_core.train")
    assert may_import("app", "pages.train.training") and not may_import("drawing.escape", "pages")


@pytest.mark.parametrize("folder", APP_FOLDERS)
def test_imports_point_down(folder):
    wrong = [
        f"{module_name(path)} imports {imported}"
        for path in sources(folder)
        for imported in sorted(imported_modules(path))
        if imported.split(".")[0] != "__future__" and not may_import(module_name(path), imported)
    ]
    assert not wrong, "\n".join(wrong)


def test_only_state_modules_and_widgets_talk_to_streamlit():
    """Of what pages share, only the session's state, model files, share link, scroll to a result; no page's views."""
    shared = [*sources("session"), *sources("drawing"), *(REPO_ROOT / "pages").glob("*/views/*.py")]
    talking = {module_name(path) for path in shared if "streamlit" in imported_modules(path)}
    assert talking == SHARED_STREAMLIT_MODULES


def test_no_python_file_directly_in_pages():
    """Streamlit runs a ``pages/*.py`` as a page of its own: every page lives in a folder and is routed by app.py."""
    assert not list((REPO_ROOT / "pages").glob("*.py"))
    assert sorted(path.name for path in (REPO_ROOT / "pages").iterdir() if path.is_dir()) == sorted(PAGE_FOLDERS)


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


@pytest.mark.parametrize("folder", APP_FOLDERS)
def test_no_import_cycle(folder):
    assert cycle_in(import_graph(folder)) == []


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
    paths = [REPO_ROOT / "app.py"] + [path for folder in APP_FOLDERS for path in sources(folder)]
    long = [
        f"{path.relative_to(REPO_ROOT)}: {name} has {length} lines"
        for path in paths
        for name, length in function_lengths(path)
        if length > MAX_FUNCTION_LINES
    ]
    assert not long, f"split these by job (at most {MAX_FUNCTION_LINES} lines a function):\n" + "\n".join(long)
