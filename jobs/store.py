"""What a server holds for its visitors (trained models, loaded tokenizers, caches), within a budget in bytes.

A :class:`ByteStore` maps keys to values, each counted at a size in bytes: the caller's, or its ``size_of``'s
measure. Putting a value in first releases the least recently used ones until it fits; a value put ``pinned``
(the default model every session starts with) is never released. With ``per_owner``, an owner (a visitor: whoever
``owner_of()`` names when a value is put or asked for) that holds more values than that makes room with its own
first, its least recently used, so that one visitor's many tabs cannot push out the others' values. The store
remembers why it released a value (``released_why``), for the session that comes back for it. Thread-safe: one
store serves every session of a server process. It lives beside the job runner (standard library only, below every
page) because it is the other half of sharing one server fairly: the runner bounds what a job takes while it runs,
the store what its results take while they are kept.

>>> store = ByteStore(100, what="trained models")
>>> store.put("default", "model 0", size=30, pinned=True)
>>> store.put("a", "model A", size=40); store.put("b", "model B", size=30)
>>> store.get("a")  # used: "b" is now the least recently used
'model A'
>>> store.put("c", "model C", size=30)  # 130 bytes: "b" is released
>>> store.get("b") is None, store.held_bytes, len(store), store.released_why("b")
(True, 100, 3, 'room')
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

MB = 2**20
FOR_ROOM, FOR_OWNER = "room", "owner"  # why a value was released: room for a new one, or its owner held too many
_REASONS_KEPT = 1024  # the released keys whose reason the store remembers, the most recent


def in_megabytes(size: int) -> str:
    """A size in bytes, in words.

    >>> in_megabytes(310 * 2**20), in_megabytes(3 * 2**20 // 2), in_megabytes(2048)
    ('310 MB', '1.5 MB', '0.002 MB')
    """
    if size >= 10 * MB:
        return f"{size / MB:,.0f} MB"
    return f"{size / MB:.1f} MB" if size >= MB // 10 else f"{size / MB:.3f} MB"


class TooBig(ValueError):
    """A value bigger than all the room its store can make for it; the message says so in words a page can show
    (after the value's name). ``size`` and ``room`` are in bytes."""

    def __init__(self, size: int, room: int, what: str, setting: str):
        where = f" (the server's {setting} sets it)" if setting else ""
        super().__init__(
            f"it takes about {in_megabytes(size)}, more than the {in_megabytes(room)} this server can hold for "
            f"{what}{where}"
        )
        self.size, self.room = size, room


@dataclass
class _Held:
    value: Any
    size: int
    pinned: bool
    owner: Hashable | None = None  # who put it or asked for it last (None: nobody in particular, never counted)


class ByteStore:
    """Values by key, at most ``ceiling_bytes`` together, the least recently used released first; pinned ones never.

    ``size_of(value)`` measures a value put without a size. ``what`` names what it holds and ``setting`` the
    environment variable that sets its ceiling, for the refusal of a value too big (:class:`TooBig`). Pinned values
    count against the ceiling too and are always taken: the others share what is left. ``owner_of()`` names who
    puts or asks (its value's owner from then on; None: nobody in particular), and ``per_owner`` how many unpinned
    values an owner but None may hold before its own are the first released to make room.
    """

    def __init__(
        self,
        ceiling_bytes: int,
        *,
        size_of: Callable[[Any], int] | None = None,
        what: str = "these values together",
        setting: str = "",
        per_owner: int | None = None,
        owner_of: Callable[[], Hashable | None] = lambda: None,
    ):
        self.ceiling_bytes = ceiling_bytes
        self.size_of = size_of
        self.what, self.setting = what, setting
        self.per_owner, self.owner_of = per_owner, owner_of
        self._held: OrderedDict[Hashable, _Held] = OrderedDict()  # least recently used first
        self._held_bytes = 0
        self._released: OrderedDict[Hashable, str] = OrderedDict()  # key -> why it was released, the latest last
        self._lock = threading.Lock()
        self._making: dict[Hashable, threading.Lock] = {}  # key -> held while one caller makes its value

    @property
    def held_bytes(self) -> int:
        """The sizes of the values held, added up (pinned ones included)."""
        return self._held_bytes

    @property
    def pinned_bytes(self) -> int:
        with self._lock:
            return sum(held.size for held in self._held.values() if held.pinned)

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._held

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The value under ``key`` (now the most recently used, and its asker's), or ``default`` if it was never put
        or was released."""
        owner = self.owner_of()
        with self._lock:
            held = self._held.get(key)
            if held is None:
                return default
            self._held.move_to_end(key)
            held.owner = owner
            return held.value

    def released_why(self, key: Hashable) -> str | None:
        """Why the value under ``key`` was last released: ``FOR_ROOM`` (the ceiling, for newer values) or
        ``FOR_OWNER`` (its owner held ``per_owner`` newer ones); None if it is held, or was not released lately."""
        with self._lock:
            return None if key in self._held else self._released.get(key)

    def put(self, key: Hashable, value: Any, *, size: int | None = None, pinned: bool = False) -> None:
        """Hold ``value`` under ``key`` (in place of what it held), counted at ``size`` bytes (else ``size_of``'s
        measure), releasing unpinned values until it fits: first its owner's least recently used beyond
        ``per_owner``, then the least recently used of all. An unpinned value bigger than the ceiling less the pinned
        values is refused (:class:`TooBig`), and the store is left as it was."""
        owner = self.owner_of()
        if size is None:
            if self.size_of is None:
                raise ValueError("give the value's size in bytes: this store has no size_of to measure it")
            size = self.size_of(value)
        with self._lock:
            replaced = self._held.get(key)
            if not pinned:
                room = self.ceiling_bytes - sum(
                    held.size for other, held in self._held.items() if held.pinned and other != key
                )
                if size > room:
                    raise TooBig(size, max(room, 0), self.what, self.setting)
            if replaced is not None:
                self._forget(key)
            self._held[key] = _Held(value, size, pinned, owner)
            self._held_bytes += size
            self._release_beyond_ceiling(owner)

    def discard(self, key: Hashable) -> None:
        """Release the value under ``key``, pinned or not, if there is one."""
        with self._lock:
            if key in self._held:
                self._forget(key)

    def get_or_make(
        self, key: Hashable, make: Callable[[], Any], *, pinned: bool = False, size: int | None = None
    ) -> Any:
        """The value under ``key``, else ``make()``'s, put (counted at ``size`` bytes, else measured by ``size_of``).

        Callers asking for the same key at once wait for one ``make()`` instead of each making it (a class pressing
        Train on the same text trains once). An exception from ``make()``, or a :class:`TooBig`, reaches its caller
        and stores nothing.

        >>> store = ByteStore(10, size_of=len)
        >>> store.get_or_make("a", lambda: "abc"), store.get_or_make("a", lambda: "xyz"), store.held_bytes
        ('abc', 'abc', 3)
        """
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        try:
            with making:
                value = self.get(key, _MISSING)
                if value is _MISSING:
                    value = make()
                    self.put(key, value, size=size, pinned=pinned)
                return value
        finally:
            with self._lock:
                if not making.locked():
                    self._making.pop(key, None)

    def _forget(self, key: Hashable, why: str | None = None) -> None:
        """(With the lock held.) ``why``: the reason to remember for a value released to make room."""
        self._held_bytes -= self._held.pop(key).size
        if why is not None:
            self._released[key] = why
            self._released.move_to_end(key)
            if len(self._released) > _REASONS_KEPT:
                self._released.popitem(last=False)

    def _release_beyond_ceiling(self, owner: Hashable | None) -> None:
        """While the store holds more than its ceiling, release ``owner``'s least recently used unpinned values
        beyond its share, then the least recently used unpinned values of all (with the lock held)."""
        unpinned = [key for key, held in self._held.items() if not held.pinned]
        surplus = []
        if owner is not None and self.per_owner is not None:
            own = [key for key in unpinned if self._held[key].owner == owner]
            surplus = own[: max(len(own) - self.per_owner, 0)]
        for key, why in [*((key, FOR_OWNER) for key in surplus), *((key, FOR_ROOM) for key in unpinned)]:
            if self._held_bytes <= self.ceiling_bytes:
                return
            if key in self._held:
                self._forget(key, why)


_MISSING = object()  # a value never put: None may be a value
