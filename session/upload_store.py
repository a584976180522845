"""Tokenizers loaded from uploaded files, held once per content for all sessions, within a memory ceiling.

A session never holds an uploaded model itself: it holds an :class:`UploadHandle` (the files' digest and their
names), and asks the store for the model on each run. The store counts the live handles of each model by weak
references, and releases a model when its last handle is garbage-collected: the session loaded another model, or
Streamlit dropped the session (``server.disconnectedSessionTTL``, 120 s after its tab closed). Within
``BPE_UPLOAD_MEMORY_MB`` (1,024 by default), loading one more model first releases the least recently used ones;
a session whose model was released is told so and gets the default model (``session.state``).

>>> store = UploadStore(ceiling_bytes=100)
>>> handle = store.get_or_load("k", "m.json", lambda: ("model", 60))
>>> store.model(handle), store.held_bytes
('model', 60)
>>> del handle  # its last handle gone: the model is released
>>> len(store)
0
"""

from __future__ import annotations

import hashlib
import os
import threading
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from jobs.budget import positive_setting

MEMORY_ENV = "BPE_UPLOAD_MEMORY_MB"
MB = 2**20


def upload_memory_mb(environ: Mapping[str, str] = os.environ) -> int:
    """The most memory all uploaded models of this server process may hold together (``BPE_UPLOAD_MEMORY_MB``).

    >>> upload_memory_mb({}), upload_memory_mb({MEMORY_ENV: "256"})
    (1024, 256)
    >>> upload_memory_mb({MEMORY_ENV: "lots"})
    Traceback (most recent call last):
    ...
    ValueError: BPE_UPLOAD_MEMORY_MB=lots: not a whole number of megabytes above 0
    """
    return positive_setting(environ, MEMORY_ENV, 1024, int, "whole number of megabytes")


def files_key(files: Mapping[str, bytes]) -> str:
    """Names uploaded files by their bytes and the kind each name gives them (its suffixes: ``.json``,
    ``.txt.xz``: how the files are read), in any order: the same bytes are one upload whatever they are called.

    >>> files_key({"a.json": b"1", "b.txt": b"2"}) == files_key({"merges.txt": b"2", "vocab.json": b"1"})
    True
    >>> files_key({"a.json": b"1"}) == files_key({"a.txt": b"1"})  # read as another kind of file
    False
    """
    parts = sorted((_kind(name), data) for name, data in files.items())
    digest = hashlib.sha256()
    for kind, data in parts:
        for part in (kind.encode("utf-8", errors="surrogatepass"), data):
            digest.update(len(part).to_bytes(8, "big"))  # lengths first: no two sets of files read the same
            digest.update(part)
    return digest.hexdigest()


def _kind(name: str) -> str:
    """What a file's name says of how it is read: its last two suffixes, in lower case (``tokenizer.json.xz``:
    ``.json.xz``)."""
    return "".join(PurePosixPath(name.lower()).suffixes[-2:])


@dataclass(frozen=True, eq=False)
class UploadHandle:
    """What a session holds of an uploaded model: its store key and the files' names, for messages."""

    key: str
    label: str


@dataclass
class _Held:
    model: Any
    size: int  # bytes, as estimated by whoever loaded it
    owner: str | None = None  # the visitor whose upload loaded it (their address; None: this machine)


class UploadStore:
    """Uploaded models by :func:`files_key`, at most ``ceiling_bytes`` together, each kept while a handle lives.

    Thread-safe. A handle's end may come at any moment (the garbage collector runs in whatever thread allocates,
    even inside this store's own lock), so it is queued and settled by whichever thread can take the lock.
    """

    def __init__(self, ceiling_bytes: int):
        self.ceiling_bytes = ceiling_bytes
        self._held: OrderedDict[str, _Held] = OrderedDict()  # least recently used first
        self._handles: dict[str, int] = {}  # key -> live handles
        self._gone: deque[str] = deque()  # keys of handles collected, not yet counted
        self._lock = threading.Lock()
        self._loading: dict[str, threading.Lock] = {}  # key -> held while one caller loads it

    def get_or_load(
        self, key: str, label: str, load: Callable[[], tuple[Any, int]], owner: str | None = None
    ) -> UploadHandle:
        """A new handle on the model stored under ``key``, else on ``load()``'s ``(model, its size in bytes)``,
        loaded for the visitor ``owner``.

        Callers asking for the same key at the same time wait for one ``load()``. A model bigger than the whole
        ceiling is refused (a ``ValueError`` starting with ``label``); else the least recently used models are
        released until it fits, the owner's own first: one visitor's uploads never push out another's while they
        hold any of their own. An exception from ``load()`` reaches its caller and stores nothing."""
        with self._lock:
            loading = self._loading.setdefault(key, threading.Lock())
        try:
            with loading:
                with self._lock:
                    if key in self._held:
                        self._held.move_to_end(key)
                        return self._new_handle(key, label)
                model, size = load()
                with self._lock:
                    self._make_room(label, size, owner)
                    self._held[key] = _Held(model, size, owner)
                    return self._new_handle(key, label)
        finally:
            with self._lock:
                if not loading.locked():
                    self._loading.pop(key, None)
            self._settle()

    def model(self, handle: UploadHandle) -> Any | None:
        """The model ``handle`` stands for, or None if it was released to make room for others."""
        with self._lock:
            held = self._held.get(handle.key)
            if held is not None:
                self._held.move_to_end(handle.key)
        self._settle()
        return None if held is None else held.model

    @property
    def held_bytes(self) -> int:
        """The sizes of the models held, added up."""
        with self._lock:
            return self._held_bytes()

    def _held_bytes(self) -> int:
        return sum(held.size for held in self._held.values())

    def __len__(self) -> int:
        return len(self._held)

    def _make_room(self, label: str, size: int, owner: str | None) -> None:
        """Release the least recently used models until ``size`` more bytes fit, ``owner``'s own first (called with
        the lock held)."""
        if size > self.ceiling_bytes:
            raise ValueError(
                f"{label}: it takes about {size / MB:,.0f} MB once loaded, more than this server holds for all "
                f"uploaded tokenizers together ({self.ceiling_bytes / MB:,.0f} MB; the server's {MEMORY_ENV} sets it)"
            )
        own = [key for key, held in self._held.items() if held.owner == owner]
        others = [key for key in self._held if key not in set(own)]
        for key in own + others:  # each least recently used first
            if self._held_bytes() + size <= self.ceiling_bytes:
                return
            del self._held[key]

    def _new_handle(self, key: str, label: str) -> UploadHandle:
        handle = UploadHandle(key, label)
        self._handles[key] = self._handles.get(key, 0) + 1
        weakref.finalize(handle, self._handle_gone, key)
        return handle

    def _handle_gone(self, key: str) -> None:
        self._gone.append(key)
        self._settle()

    def _settle(self) -> None:
        """Count the handles collected; a model whose last handle went is released. Never waits for the lock: a
        thread holding it settles when it is done (every public method ends here)."""
        while self._gone and self._lock.acquire(blocking=False):
            try:
                while self._gone:
                    key = self._gone.popleft()
                    self._handles[key] -= 1
                    if not self._handles[key]:
                        del self._handles[key]
                        self._held.pop(key, None)
            finally:
                self._lock.release()
