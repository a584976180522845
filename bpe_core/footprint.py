"""How much memory a model holds, in bytes: what a server counts against its budget when it keeps one.

:func:`model_bytes` walks the model's own data (its vocabulary and the table of ids to tokens, its merges and the
tables that index them, its trace, its encoders and the cache of pieces it has encoded) and adds up each object's
size once, as ``sys.getsizeof`` gives it. What the model shares with the rest of the process is left out: classes,
modules, functions of a module, compiled patterns, and the objects Python makes once for everyone (small integers,
one-character strings, None). It agrees with tracemalloc's count of what dropping the model frees within a few per
cent (tests/core/test_footprint.py). The cache of pieces grows as the model encodes new text, within the budget all
caches of the process share (``bpe_core.piece_cache``): measure again after use to count it.
"""

from __future__ import annotations

import enum
import functools
import re
import sys
import types
import weakref
from collections.abc import Iterable

import regex

# Objects made per model but holding nothing else
_LEAVES = (str, bytes, bytearray, int, float, complex, range)
# What a model refers to but shares with the whole process (a weak reference owns nothing either)
_SHARED: tuple[type, ...] = (
    type,
    types.ModuleType,
    types.CodeType,
    types.BuiltinFunctionType,
    enum.Enum,
    re.Pattern,
    regex.Pattern,
)
_SHARED += (bool, weakref.ReferenceType)
_CONTAINERS = {dict, list, tuple, set, frozenset}


def model_bytes(model: object) -> int:
    """About how many bytes of memory ``model`` (a :class:`~bpe_core.tokenizer.Tokenizer`, or any object) holds:
    each object it reaches counted once, shared ones left out (see the module's docstring). Never builds what a
    model makes on first use (a rank file's merges).

    >>> from bpe_core import Config, train
    >>> model = train("low lower lowest newer newest", Config(), merges=6)
    >>> model_bytes(model) > model_bytes(model.prefix(2)) > 0
    True
    >>> word = "newest" * 10  # counted once, however often it is held
    >>> model_bytes([word, word]) == sys.getsizeof([word, word]) + sys.getsizeof(word)
    True
    """
    seen: set[int] = set()
    total, waiting = 0, [model]
    while waiting:
        item = waiting.pop()
        if id(item) in seen or _shared(item):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        waiting.extend(_parts(item))
    return total


def _shared(item: object) -> bool:
    """Whether ``item`` belongs to the whole process rather than to the model that refers to it."""
    if item is None or isinstance(item, _SHARED):
        return True
    if isinstance(item, types.FunctionType):
        return item.__closure__ is None  # a module's function; a closure was made for its model
    if isinstance(item, int):
        return -5 <= item <= 256  # made once by Python
    if isinstance(item, str | bytes | tuple):  # made once too: empty ones, one byte, one character of Latin-1
        return not item or (len(item) == 1 and (isinstance(item, bytes) or (isinstance(item, str) and item <= "\xff")))
    return False


def _parts(item: object) -> Iterable[object]:
    """The objects ``item`` holds. Containers are copied first (in C, at once): another thread may be adding to a
    model's cache meanwhile."""
    if isinstance(item, _LEAVES):
        return ()
    if isinstance(item, dict | list | tuple | set | frozenset):
        held = item.copy() if isinstance(item, dict) else tuple(item)
        contents = [*held, *held.values()] if isinstance(held, dict) else held
        if type(item) in _CONTAINERS:
            return contents
        return [*contents, *_attributes(item)]  # a subclass's own attributes too (a cache's compute function)
    if isinstance(item, types.FunctionType):
        return [*(item.__closure__ or ()), *(item.__defaults__ or ())]
    if isinstance(item, types.CellType):
        return [item.cell_contents] if _has_contents(item) else []
    if isinstance(item, types.MethodType):
        return [item.__self__]
    if isinstance(item, functools.partial):
        return [item.func, item.args, item.keywords]
    return _attributes(item)


def _has_contents(cell: types.CellType) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (an empty cell raises)
    except ValueError:
        return False
    return True


def _attributes(item: object) -> list[object]:
    """An object's attribute dictionary and slots, read without its ``__getattr__`` (which may build things)."""
    names = ["__dict__"]
    for klass in type(item).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else slots
    found = []
    for name in names:
        try:
            found.append(object.__getattribute__(item, name))
        except AttributeError:  # no attribute dictionary, or a slot never set
            continue
    return found
