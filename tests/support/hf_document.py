"""A tokenizer.json as HF writes one: every top-level field, empty unless given (tests build their cases on it)."""

from __future__ import annotations


def tokenizer_document(model: dict, /, **fields) -> dict:
    """A whole tokenizer.json around ``model``, with each top-level field in ``fields`` set as given (``model`` too)."""
    empty = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": None,
        "post_processor": None,
        "decoder": None,
    }
    return {**empty, "model": model, **fields}
