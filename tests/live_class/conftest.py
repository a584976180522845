"""Each live-class test runs on both stores: SQLite (the embedded default) and Redis (replicas)."""

from __future__ import annotations

import pytest
import redis

from live_class.choose import open_store


@pytest.fixture(params=["sqlite", "redis"])
def store_address(request, tmp_path):
    """An address for a fresh, empty store of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/classes.sqlite3"
    url = request.getfixturevalue("redis_url")
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture
def store(store_address):
    return open_store(store_address)
