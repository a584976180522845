"""The text of model files: JSON read with a clear error, files written so a failure loses nothing.

>>> read_json('{"a": 1}')
{'a': 1}
"""

from __future__ import annotations

import json
import os
from pathlib import Path


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
