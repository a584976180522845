"""The engine's tests run with only the engine's dependencies: ``pytest tests/core`` in a virtualenv holding regex,
jinja2, pytest and hypothesis.  What the engine's tests, tests/conftest.py and the helpers they import import when
they are imported is one of those, the standard library, the engine, or a file of this repository checked the same
way; a reference library (tokenizers, tiktoken, transformers ...), Streamlit, Plotly or Playwright is imported
inside the test or fixture that needs it, with ``pytest.importorskip`` where the test should skip without it.
The engine's own imports are tests/test_layers.py's to check."""

from __future__ import annotations

import ast
import configparser
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
ENGINE_TEST_DEPENDENCIES = set(sys.stdlib_module_names) | {"regex", "jinja2", "pytest", "_pytest", "hypothesis"}
CHECKED_BY_TEST_LAYERS = {"bpe_core"}


def import_roots(root: Path = REPO_ROOT) -> list[Path]:
    """The folders a test's ``import x`` is looked up in: pytest.ini's ``pythonpath``."""
    config = configparser.ConfigParser()
    config.read(root / "pytest.ini", encoding="utf-8")
    return [root / folder for folder in config["pytest"]["pythonpath"].split()]


def imports_on_load(path: Path) -> list[str]:
    """The modules a file imports when it is imported: its import statements outside functions (inside an ``if``,
    ``try``, ``with`` or a class body too, which run on import)."""
    found: list[str] = []
    pending = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append(node.module)
        elif isinstance(node, ast.If | ast.Try | ast.With | ast.ClassDef):
            pending += [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)]
            pending += [statement for handler in getattr(node, "handlers", []) for statement in handler.body]
    return found


def local_files(module: str, roots: list[Path]) -> list[Path]:
    """The files of this repository that importing ``module`` runs (its packages' ``__init__.py`` too); none for
    a module from elsewhere."""
    parts = module.split(".")
    for root in roots:
        target = root.joinpath(*parts)
        module_file = next(
            (file for file in (target.with_suffix(".py"), target / "__init__.py") if file.is_file()), None
        )
        if module_file is not None:
            packages = [root.joinpath(*parts[:depth], "__init__.py") for depth in range(1, len(parts))]
            return [module_file, *(package for package in packages if package.is_file())]
    return []


def foreign_imports(starts: list[Path], roots: list[Path]) -> list[str]:
    """``"<file>: <module>"`` for every import, on load, of something outside the engine's dependencies, following
    this repository's own modules from ``starts`` (found beside the importing file, then in ``roots``)."""
    seen, pending, foreign = set(), list(starts), []
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        for module in imports_on_load(path):
            top = module.partition(".")[0]
            if top in ENGINE_TEST_DEPENDENCIES or top in CHECKED_BY_TEST_LAYERS:
                continue
            files = local_files(module, [path.parent, *roots])  # pytest puts a test's own folder first
            if not files:
                foreign.append(f"{path.relative_to(roots[0])}: {module}")
            pending += files
    return sorted(foreign)


def test_the_engines_tests_import_only_the_engines_dependencies():
    starts = [REPO_ROOT / "tests" / "conftest.py", *sorted((REPO_ROOT / "tests" / "core").rglob("*.py"))]
    assert foreign_imports(starts, import_roots()) == []


def test_an_import_on_load_is_found_through_a_helper_and_one_inside_a_function_is_not(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = . helpers\n", encoding="utf-8")
    (tmp_path / "helpers").mkdir()
    (tmp_path / "helpers" / "drawing.py").write_text("try:\n    import plotly\nexcept ImportError:\n    pass\n")
    (tmp_path / "test_x.py").write_text(
        "import json\nimport pytest\nimport drawing\nfrom bpe_core import train\n\n"
        "def test_page():\n    import streamlit\n\nclass TestBrowser:\n    from playwright.sync_api import Page\n"
    )
    assert foreign_imports([tmp_path / "test_x.py"], import_roots(tmp_path)) == [
        "helpers/drawing.py: plotly",
        "test_x.py: playwright.sync_api",
    ]
