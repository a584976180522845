"""The reference libraries, imported by the test that compares with one: where a library is not installed, that
test skips and says which (the engine's own tests run with only the engine's dependencies: regex, jinja2)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest


def hf_tokenizers() -> ModuleType:
    """HF's ``tokenizers``: its ``Tokenizer``, ``models``, ``pre_tokenizers``, ``decoders`` ..."""
    return pytest.importorskip("tokenizers")


def hf_merges(tokenizer: Any) -> list[tuple[str, ...]]:
    """An HF ``Tokenizer``'s merges, each as a pair (either spelling of a tokenizer.json's merges)."""
    merges = json.loads(tokenizer.to_str())["model"]["merges"]
    return [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in merges]


def hf_byte_level_trained_on_file(path: Path, vocab_size: int) -> Any:
    """HF's own way of training from a file: ``Tokenizer.train([path])`` reads it line by line."""
    hf = hf_tokenizers()
    reference = hf.Tokenizer(hf.models.BPE())
    reference.pre_tokenizer = hf.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = hf.trainers.BpeTrainer(
        vocab_size=vocab_size,
        show_progress=False,
        special_tokens=[],
        initial_alphabet=hf.pre_tokenizers.ByteLevel.alphabet(),
    )
    reference.train([str(path)], trainer=trainer)
    return reference
