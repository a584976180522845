"""One field of a tokenizer file checked: a wrong value is refused in one sentence that names the field.

Ids follow HF tokenizers, which reads every id as an unsigned 32-bit number (``u32``): a whole
number from 0 to 4294967295; a vocabulary must also give each token its own id.

>>> checked_vocab({"a": 0, "b": 1}, "model.vocab")
{'a': 0, 'b': 1}
>>> checked_vocab({"a": -5, "b": 1}, "model.vocab")
Traceback (most recent call last):
...
ValueError: model.vocab["a"]: id -5 is not a whole number from 0 to 4294967295
"""

from __future__ import annotations

import json
from typing import overload

MAX_ID = 2**32 - 1  # HF tokenizers' ids are u32


def shown(value) -> str:
    """A value as the file spells it (JSON), cut short when long.

    >>> shown("0"), shown(1.5), shown(True), shown(None), shown("x" * 80)[-5:]
    ('"0"', '1.5', 'true', 'null', 'xx...')
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    except RecursionError:  # nested deeper than the stack: its type says enough
        text = f"a {type(value).__name__} nested too deeply to show"
    return text if len(text) <= 60 else text[:57] + "..."


def entry(field: str, key: str | int) -> str:
    """The name of one entry of a field: ``model.vocab["a"]``, ``model.merges[3]``.

    >>> entry("model.vocab", "a"), entry("added_tokens", 0)
    ('model.vocab["a"]', 'added_tokens[0]')
    """
    return f"{field}[{shown(key) if isinstance(key, str) else key}]"


def checked_id(value, field: str) -> int:
    """An id: a whole number from 0 to 4294967295 (``true`` and ``4.0`` are not, as in HF).

    >>> checked_id(7, "added_tokens[0].id")
    7
    >>> checked_id(4.0, "added_tokens[0].id")
    Traceback (most recent call last):
    ...
    ValueError: added_tokens[0].id: id 4.0 is not a whole number from 0 to 4294967295
    """
    if type(value) is not int or not 0 <= value <= MAX_ID:
        raise ValueError(f"{field}: id {shown(value)} is not a whole number from 0 to {MAX_ID}")
    return value


def checked_vocab(vocab, field: str) -> dict[str, int]:
    """A vocabulary ``{token: id}``: an object whose ids are whole numbers from 0 to 4294967295, each
    given to one token only.  Checked in bulk (C-level maps: Gemma 3 has 262,144 tokens), and the
    first bad entry named.

    >>> checked_vocab({"a": 0, "b": 0}, "vocab.json")
    Traceback (most recent call last):
    ...
    ValueError: vocab.json: "a" and "b" share the id 0; each token needs its own id
    >>> checked_vocab([["a", 0]], "model.vocab")
    Traceback (most recent call last):
    ...
    ValueError: model.vocab: must be an object mapping each token to its id, not a list
    """
    if not isinstance(vocab, dict):
        kind = {list: "a list", str: "a string", type(None): "null"}.get(type(vocab), type(vocab).__name__)
        raise ValueError(f"{field}: must be an object mapping each token to its id, not {kind}")
    ids = vocab.values()
    if ids and (set(map(type, ids)) != {int} or min(ids) < 0 or max(ids) > MAX_ID):
        for token, index in vocab.items():
            checked_id(index, entry(field, token))
    if len(set(ids)) != len(vocab):
        owner: dict[int, str] = {}
        for token, index in vocab.items():
            if index in owner:
                tokens = f"{shown(owner[index])} and {shown(token)}"
                raise ValueError(f"{field}: {tokens} share the id {index}; each token needs its own id")
            owner[index] = token
    return vocab


def checked_text(value, field: str, *, optional: bool = False) -> str | None:
    """A string (or null, when the field is ``optional``).

    >>> checked_text(None, "model.unk_token", optional=True) is None
    True
    >>> checked_text(5, "model.unk_token", optional=True)
    Traceback (most recent call last):
    ...
    ValueError: model.unk_token: 5 is not a string
    """
    if isinstance(value, str) or (optional and value is None):
        return value
    raise ValueError(f"{field}: {shown(value)} is not a string")


@overload
def checked_flag(value: object, field: str) -> bool: ...
@overload
def checked_flag(value: object, field: str, *, optional: bool) -> bool | None: ...


def checked_flag(value, field: str, *, optional: bool = False) -> bool | None:
    """``true`` or ``false`` (or null, when the field is ``optional``); ``1`` and ``"yes"`` are not, as in HF.

    >>> checked_flag(1, "model.byte_fallback", optional=True)
    Traceback (most recent call last):
    ...
    ValueError: model.byte_fallback: 1 is not true or false
    """
    if type(value) is bool or (optional and value is None):
        return value
    raise ValueError(f"{field}: {shown(value)} is not true or false")
