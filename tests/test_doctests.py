"""The worked examples in the docstrings of the engine, what pages share and the pages' views are run, so they
stay true."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import bpe_core
import drawing
import jobs
import live_class
import session

MODULES = ["bpe_core"] + [
    info.name for info in pkgutil.walk_packages(bpe_core.__path__, "bpe_core.") if info.name != "bpe_core.__main__"
]
REPO_ROOT = Path(__file__).resolve().parent.parent
PAGE_TOP_WITH_EXAMPLES = {"state", "live_text", "step_keys", "class_cookies"}  # a page's modules below its script
VIZ_MODULES = [
    info.name
    for package in (drawing, session)
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
]
VIZ_MODULES += [
    ".".join(path.relative_to(REPO_ROOT).with_suffix("").parts)
    for path in sorted((REPO_ROOT / "pages").glob("*/*.py")) + sorted((REPO_ROOT / "pages").glob("*/views/*.py"))
    if path.stem != "__init__" and (path.parent.name == "views" or path.stem in PAGE_TOP_WITH_EXAMPLES)
]
VIZ_MODULES += [info.name for info in pkgutil.walk_packages(live_class.__path__, "live_class.")]
VIZ_MODULES += [info.name for info in pkgutil.walk_packages(jobs.__path__, "jobs.")]
VIZ_MODULES += ["bench.classroom.hostile", "bench.classroom.hostile_files", "bench.classroom.server_memory"]
VIZ_MODULES += ["bench.servers", "bench.measure"]
# Session keys and caches need a running app
NO_EXAMPLES = {
    "session.state",
    "pages.train.state",
    "pages.merges.state",
    "pages.encode.state",
    "pages.compare.state",
    "pages.classroom.state",
    "pages.start.state",
    "session.share_link",  # widgets: need a running app too
    "session.result_scroll",
    "pages.merges.step_keys",
    "pages.classroom.class_cookies",
    "live_class.store",  # an interface: its two implementations carry the examples
    "jobs.worker",  # a process's main: the runner's examples run it
}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    if name not in ("bpe_core.cli",):  # the command line documents shell usage instead
        assert result.attempted > 0, f"{name} has no worked example"


@pytest.mark.parametrize("name", VIZ_MODULES)
def test_view_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    if name not in NO_EXAMPLES:
        assert result.attempted > 0, f"{name} has no worked example"
