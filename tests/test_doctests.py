"""The worked examples in the engine's and the views' docstrings are run, so they stay true."""

import doctest
import importlib
import pkgutil

import pytest

import bpe_core
import jobs
import live_class
import viz

MODULES = ["bpe_core"] + [
    info.name for info in pkgutil.walk_packages(bpe_core.__path__, "bpe_core.") if info.name != "bpe_core.__main__"
]
VIZ_MODULES = [info.name for info in pkgutil.walk_packages(viz.__path__, "viz.") if not info.ispkg]
VIZ_MODULES += [info.name for info in pkgutil.walk_packages(live_class.__path__, "live_class.")]
VIZ_MODULES += [info.name for info in pkgutil.walk_packages(jobs.__path__, "jobs.")]
VIZ_MODULES += ["bench.classroom.hostile", "bench.classroom.hostile_files", "bench.classroom.server_memory"]
VIZ_MODULES += ["bench.servers", "bench.measure"]
# Session keys and caches need a running app
NO_EXAMPLES = {
    "viz.state",
    "viz.train.state",
    "viz.merges.state",
    "viz.encode.state",
    "viz.compare.state",
    "viz.classroom.state",
    "viz.share_link",  # widgets: need a running app too
    "viz.merges.step_keys",
    "viz.classroom.class_cookies",
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
