"""Which class store a server uses: ``BPE_CLASS_STORE=redis://host:port/0`` for replicas that share Redis, or the
embedded SQLite file (one file under ``data/live/``, shared by the processes of one machine).

>>> from live_class.records import ClassRecord
>>> store = open_store("sqlite:///:memory:")
>>> store.create_class(ClassRecord("ABCDE", "hash", 0.0)), store.create_class(ClassRecord("ABCDE", "other", 0.0))
(True, False)
"""

from __future__ import annotations

import os
from pathlib import Path

from live_class.redis_store import RedisClassStore
from live_class.sqlite_store import SqliteClassStore
from live_class.store import ClassStore

STORE_ENV = "BPE_CLASS_STORE"  # redis://..., sqlite:///path, or unset: the SQLite file below
DEFAULT_SQLITE = Path(__file__).resolve().parents[1] / "data" / "live" / "classes.sqlite3"


def open_store(address: str | None = None) -> ClassStore:
    """The store an address names (``STORE_ENV`` if None): ``redis://...``, ``sqlite:///path`` or empty for the
    default SQLite file. Anything else is a ``ValueError`` that says what is accepted."""
    address = os.environ.get(STORE_ENV, "") if address is None else address
    if address.startswith(("redis://", "rediss://", "unix://")):
        return RedisClassStore(address)
    if address.startswith("sqlite:///"):
        return SqliteClassStore(address.removeprefix("sqlite:///"))
    if not address:
        return SqliteClassStore(str(DEFAULT_SQLITE))
    raise ValueError(f"{STORE_ENV} must be redis://host:port/db or sqlite:///path, not {address[:80]!r}")
