"""The worked examples in the engine's docstrings are run, so they stay true."""

import doctest
import importlib
import pkgutil

import pytest

import bpe_core
import viz

MODULES = ["bpe_core", "bench.naive"] + [
    info.name for info in pkgutil.iter_modules(bpe_core.__path__, "bpe_core.") if info.name != "bpe_core.__main__"
]
# the pure builders (the Streamlit-facing modules have no examples to run)
VIZ_MODULES = [
    info.name for info in pkgutil.iter_modules(viz.__path__, "viz.") if info.name not in ("viz.state", "viz.model_io")
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    if name not in ("bpe_core.cli",):  # the command line documents shell usage instead
        assert result.attempted > 0, f"{name} has no worked example"


@pytest.mark.parametrize("name", VIZ_MODULES)
def test_builder_docstring_examples(name):
    assert doctest.testmod(importlib.import_module(name)).failed == 0
