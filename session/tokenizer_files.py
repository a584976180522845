"""Reading uploaded tokenizer files: pure, and run as a job (``load_measured``, in a worker process of its own).

The pages' uploader (``session.model_io``) sends the files' bytes to a job; the job reads them with
:func:`load_uploaded` and says how much memory the model took, so that the server's store of uploads
(``session.upload_store``) can keep all of them within its ceiling.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import sys
from collections.abc import Callable
from typing import Any, TypeVar, overload

from bpe_core import Tokenizer
from bpe_core.formats import load_any
from bpe_core.formats.files import unpack_xz
from session.text_files import decode_text_file

T = TypeVar("T")


def _lone_file_hint(name: str, text: str) -> str | None:
    """What is missing when half of a GPT-2 pair is uploaded alone, else None.

    >>> _lone_file_hint("merges.txt", "#version: 0.2")
    'this is a merges list: upload it together with its vocab.json (select both files)'
    >>> _lone_file_hint("vocab.json", '{"a": 0, "b": 1}')
    'this looks like a GPT-2 vocab.json: upload it together with its merges.txt (select both files)'
    >>> _lone_file_hint("tokenizer.json", '{"model": {}}') is None
    True
    """
    if name.endswith((".txt", ".bpe")):
        return "this is a merges list: upload it together with its vocab.json (select both files)"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: absurdly nested arrays
        return None  # load_any explains broken JSON itself
    if isinstance(data, dict) and data and all(type(value) is int for value in data.values()):
        return "this looks like a GPT-2 vocab.json: upload it together with its merges.txt (select both files)"
    return None


def load_uploaded(files: dict[str, bytes]) -> Tokenizer:
    """The tokenizer in uploaded files ``{file name: bytes}``.

    Accepts a model saved here, an HF ``tokenizer.json`` (BPE, also xz-compressed: ``unpack_xz``) or a
    ``vocab.json`` + ``merges.txt`` pair. Raises ``ValueError`` whose message starts with the
    file name(s) and says what is wrong (not UTF-8, not BPE, half a pair, ...).

    >>> load_uploaded({"m.txt": b"\\xff"})  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    ValueError: m.txt: this is not UTF-8 text (byte 0xFF at position 0 is not valid UTF-8; Latin-1 or Windows-1252
    perhaps?), please save it as UTF-8
    """
    if not files:
        raise ValueError("no file was given")
    files = dict(unpack_xz(name, data) for name, data in files.items())
    texts = {}
    for name, data in files.items():
        try:
            texts[name] = decode_text_file(data)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
    names = ", ".join(sorted(texts))
    hint = _lone_file_hint(*next(iter(texts.items()))) if len(texts) == 1 else None
    if hint:
        raise ValueError(f"{names}: {hint}")
    return load_any(texts)  # its errors start with the file names


@overload
def load_added(added: dict[str, bytes], earlier: dict[str, bytes]) -> tuple[Tokenizer, list[str]]: ...


@overload
def load_added(
    added: dict[str, bytes], earlier: dict[str, bytes], load: Callable[[dict[str, bytes]], T]
) -> tuple[T, list[str]]: ...


def load_added(
    added: dict[str, bytes], earlier: dict[str, bytes], load: Callable[[dict[str, bytes]], Any] = load_uploaded
) -> tuple[Any, list[str]]:
    """Load the files just ``added`` to an uploader that already held ``earlier`` ones; returns what
    ``load(files)`` gave (by default the tokenizer) and the names of the files it came from.

    The added files alone come first (a new tokenizer.json replaces the one loaded before); when they
    are only part of a set (a merges.txt whose vocab.json came earlier), they are tried with the earlier
    files. Raises the added files' own ``ValueError`` when neither works.

    >>> from bpe_core import Config, train
    >>> from bpe_core.formats import to_gpt2_files
    >>> vocab, merges = to_gpt2_files(train("aaab", Config(split="gpt2", units="bytes"), merges=1))
    >>> load_added({"merges.txt": merges.encode()}, {"vocab.json": vocab.encode()})[1]
    ['merges.txt', 'vocab.json']
    """
    try:
        return load(added), sorted(added)
    except ValueError as error:
        if not earlier:
            raise
        together = {**earlier, **added}
        try:
            return load(together), sorted(together)
        except ValueError:
            raise error from None


def load_measured(files: dict[str, bytes]) -> tuple[Tokenizer, int]:
    """The tokenizer in ``files`` (:func:`load_uploaded`) and the bytes of memory it holds: this process's resident
    memory after the load, collected, less before it. Run as a job: in a worker of its own nothing else allocates
    meanwhile, and the parser's passing peak (up to twice as much) is not counted, only what the model keeps.

    >>> from bpe_core import Config, train
    >>> from bpe_core.formats import model_to_json
    >>> model, size = load_measured({"m.json": model_to_json(train("banana", Config(), merges=2)).encode()})
    >>> model.merges, size >= 0
    ([('a', 'n'), ('b', 'an')], True)
    """
    gc.collect()
    before = _resident_bytes()
    model = load_uploaded(files)
    gc.collect()
    return model, max(_resident_bytes() - before, 0)


def _resident_bytes() -> int:
    """This process's resident memory now (Linux's /proc); elsewhere its peak so far, which overstates a growth."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)
