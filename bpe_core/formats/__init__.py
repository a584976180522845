"""Tokenizer files in and out: our own model JSON, HF's ``tokenizer.json``, GPT-2's ``vocab.json`` + ``merges.txt``.

One module per format; :func:`load_any` tells them apart.

>>> load_any({"notes.json": "[1, 2]"})
Traceback (most recent call last):
...
ValueError: notes.json: neither a BPE Explorer model nor an HF tokenizer.json
"""

from __future__ import annotations

from ..tokenizer import Tokenizer
from .files import ExportError, read_json, write_text_atomically
from .gpt2_files import check_gpt2_exportable, from_gpt2_files, read_merges_txt, to_gpt2_files
from .hf_json import check_exportable, from_hf_json, to_hf_json
from .model_json import (
    FORMAT_NAME,
    check_model_json_exportable,
    load_model,
    model_from_dict,
    model_from_json,
    model_to_dict,
    model_to_json,
    save_model,
)

__all__ = [
    "ExportError",
    "FORMAT_NAME",
    "check_exportable",
    "check_gpt2_exportable",
    "check_model_json_exportable",
    "from_gpt2_files",
    "from_hf_json",
    "load_any",
    "load_model",
    "model_from_dict",
    "model_from_json",
    "model_to_dict",
    "model_to_json",
    "read_json",
    "read_merges_txt",
    "save_model",
    "to_gpt2_files",
    "to_hf_json",
    "write_text_atomically",
]


def load_any(files: dict[str, str]) -> Tokenizer:
    """Load from uploaded or read files ``{file name: text}``: our JSON, a tokenizer.json, or vocab.json + merges.txt.

    Every failure is a ValueError that starts with the file name(s).

    >>> load_any({"notes.json": "[1, 2]"})
    Traceback (most recent call last):
    ...
    ValueError: notes.json: neither a BPE Explorer model nor an HF tokenizer.json
    """
    names = sorted(files)
    try:
        return _load_named(files, names)
    except ValueError as error:
        raise ValueError(f"{', '.join(names)}: {error}") from None


def _load_named(files: dict[str, str], names: list[str]) -> Tokenizer:
    merges_name = next((n for n in names if n.endswith((".txt", ".bpe"))), None)
    json_names = [n for n in names if n.endswith(".json")]
    if merges_name and len(json_names) == 1:
        return from_gpt2_files(files[json_names[0]], files[merges_name], name=json_names[0])
    if len(names) != 1:
        raise ValueError("give one model file (.json), or a vocab.json with its merges.txt")
    if merges_name:
        raise ValueError("a .txt or .bpe file is read as a merges list, which needs its vocab.json beside it")
    data = read_json(files[names[0]])
    if isinstance(data, dict) and data.get("format") == FORMAT_NAME:
        return model_from_dict(data)
    if isinstance(data, dict) and "model" in data:
        return from_hf_json(data, name=names[0])
    raise ValueError("neither a BPE Explorer model nor an HF tokenizer.json")
