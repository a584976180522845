"""The text of model files: JSON read with a clear error, .xz unpacked within a cap, files written so a
failure loses nothing.

>>> read_json('{"a": 1}')
{'a': 1}
"""

from __future__ import annotations

import json
import lzma
import os
from pathlib import Path

XZ_MAX_BYTES = 64 * 2**20  # the most a .xz file may unpack to (Gemma 3's tokenizer.json is 33 MB)


class ExportError(ValueError):
    """This configuration has no exact equivalent in the target format."""


def read_json(text: str):
    """Parse JSON text; anything that is not JSON is a ValueError saying so.

    >>> read_json("[" * 100_000)
    Traceback (most recent call last):
    ...
    ValueError: not valid JSON: it is nested too deeply
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON: {error}") from None
    except RecursionError:
        raise ValueError("not valid JSON: it is nested too deeply") from None


MAX_JSON_DEPTH = 127  # levels of objects and lists that HF tokenizers reads (serde_json's limit: 128 is refused)


def check_depth(document: dict | list, skip: tuple = ()) -> None:
    """Refuse a document nested more than ``MAX_JSON_DEPTH`` levels deep: deeper parts would exhaust the stack of
    the code that reads them. ``skip`` holds values not walked (by identity): large fields that another check keeps
    flat, such as a vocabulary of numbers or a list of merges.

    >>> check_depth({"a": [[{"b": 1}]]})
    >>> deep = {}
    >>> for _ in range(200):
    ...     deep = {"type": "Sequence", "normalizers": [deep]}
    >>> check_depth(deep)
    Traceback (most recent call last):
    ...
    ValueError: the file is nested 128 levels deep or more: HF tokenizers reads at most 127
    """
    skipped = {id(value) for value in skip}
    depth, level = 0, [document]
    while level:
        depth += 1
        if depth > MAX_JSON_DEPTH:
            raise ValueError(
                f"the file is nested {depth} levels deep or more: HF tokenizers reads at most {MAX_JSON_DEPTH}"
            )
        below = []
        for value in level:
            for child in value.values() if isinstance(value, dict) else value:
                if isinstance(child, (dict, list)) and id(child) not in skipped:
                    below.append(child)
        level = below


def write_text_atomically(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it over ``path``: a failed
    or interrupted write leaves an existing file as it was and no half-written file behind."""
    target = Path(path)
    # Opened like any new file (mode "x"), so it gets the usual permissions, not a private 0600.
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def unpack_xz(name: str, data: bytes, limit: int = XZ_MAX_BYTES) -> tuple[str, bytes]:
    """A ``NAME.xz`` file (an upload, or a file the command line reads) unpacked, as (NAME, its bytes); any
    other file as it is.  Raises ``ValueError`` starting with the file name when the file is not xz, is
    cut short, or unpacks to more than ``limit`` bytes.

    >>> unpack_xz("tokenizer.json.xz", lzma.compress(b"{}"))
    ('tokenizer.json', b'{}')
    >>> unpack_xz("big.json.xz", lzma.compress(b"x" * 11), limit=10)
    Traceback (most recent call last):
    ...
    ValueError: big.json.xz: it unpacks to more than 10 bytes, more than this app reads from one file
    """
    if not name.lower().endswith(".xz"):
        return name, data
    unpacker = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    try:
        if not data.startswith(b"\xfd7zXZ\x00"):  # xz's magic bytes
            raise lzma.LZMAError
        unpacked = unpacker.decompress(data, max_length=limit + 1)
    except lzma.LZMAError:
        raise ValueError(f"{name}: this is not an xz file (make one with: xz -k tokenizer.json)") from None
    if len(unpacked) > limit:
        most = f"{limit // 2**20} MB" if limit >= 2**20 else f"{limit:,} bytes"
        raise ValueError(f"{name}: it unpacks to more than {most}, more than this app reads from one file")
    if not unpacker.eof:
        raise ValueError(f"{name}: the xz file ends too early (was the upload cut short?)")
    return name[:-3], unpacked
