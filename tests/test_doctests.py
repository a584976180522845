"""The worked examples in the engine's docstrings are run, so they stay true."""

import doctest
import importlib
import pkgutil

import pytest

import bpe_core

MODULES = ["bpe_core", "bench.naive"] + [
    info.name for info in pkgutil.iter_modules(bpe_core.__path__, "bpe_core.") if info.name != "bpe_core.__main__"
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    if name not in ("bpe_core.cli",):  # the command line documents shell usage instead
        assert result.attempted > 0, f"{name} has no worked example"
