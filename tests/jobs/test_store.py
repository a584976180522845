"""The byte-budgeted store: the least recently used values released first until a new one fits, pinned ones never,
a value too big refused in words with the store left as it was, one make for callers asking at once, and its count
of bytes true under threads, one owner's values beyond its share released before anyone else's. Each expected release
is worked out by hand from the sizes and the order of use."""

from __future__ import annotations

import random
import threading

import pytest

from jobs.store import FOR_OWNER, FOR_ROOM, ByteStore, TooBig

MB = 2**20
TIMEOUT = 10  # seconds: reached only when a test fails


def held(store: ByteStore, keys) -> list[str]:
    return [key for key in keys if key in store]


def test_the_least_recently_used_go_first_until_the_new_one_fits():
    store = ByteStore(100)
    for key in ("a", "b", "c"):
        store.put(key, key.upper(), size=20)
    assert store.get("a") == "A"  # b is now the least recently used, then c, then a
    store.put("d", "D", size=70)  # 130 bytes: b goes (110), then c (90)
    assert held(store, "abcd") == ["a", "d"] and store.held_bytes == 90


def test_a_pinned_value_is_never_released_and_counts_against_the_ceiling():
    store = ByteStore(100)
    store.put("default", "the default model", size=50, pinned=True)
    store.put("a", "A", size=40)
    store.put("b", "B", size=40)  # 130: a goes, though the pinned one is older and unused
    assert held(store, ["default", "a", "b"]) == ["default", "b"]
    assert (store.held_bytes, store.pinned_bytes) == (90, 50)


def test_a_value_bigger_than_the_room_left_by_pinned_ones_is_refused_in_words_and_nothing_is_released():
    store = ByteStore(100 * MB, what="uploaded tokenizers", setting="BPE_UPLOAD_MEMORY_MB")
    store.put("default", "the default model", size=40 * MB, pinned=True)
    store.put("a", "A", size=30 * MB)
    with pytest.raises(TooBig) as refused:
        store.put("big", "B", size=61 * MB)
    assert str(refused.value) == (
        "it takes about 61 MB, more than the 60 MB this server can hold for uploaded tokenizers (the server's "
        "BPE_UPLOAD_MEMORY_MB sets it)"
    )
    assert isinstance(refused.value, ValueError) and (refused.value.size, refused.value.room) == (61 * MB, 60 * MB)
    assert held(store, ["default", "a", "big"]) == ["default", "a"] and store.held_bytes == 70 * MB


def test_a_pinned_value_is_taken_even_beyond_the_ceiling():
    store = ByteStore(100)
    store.put("a", "A", size=60)
    store.put("default", "the default model", size=120, pinned=True)
    assert held(store, ["a", "default"]) == ["default"] and store.held_bytes == 120


def test_a_value_put_again_is_counted_once_at_its_new_size():
    store = ByteStore(100, size_of=len)
    store.put("a", "x" * 60)
    store.put("b", "y" * 30)
    store.put("a", "z" * 50)  # 50 + 30: nothing released
    assert (store.get("a"), store.get("b"), store.held_bytes) == ("z" * 50, "y" * 30, 80)
    store.discard("a")
    assert (len(store), store.held_bytes) == (1, 30)


def test_a_value_without_a_size_in_a_store_that_cannot_measure_is_refused():
    with pytest.raises(ValueError, match="give the value's size in bytes"):
        ByteStore(100).put("a", "A")


def test_callers_asking_for_the_same_value_at_once_wait_for_one_make():
    store, made, making, release = ByteStore(100, size_of=len), [], threading.Event(), threading.Event()

    def make() -> str:
        made.append(threading.current_thread().name)
        making.set()
        release.wait(TIMEOUT)
        return "model"

    results: list[str] = []
    first = threading.Thread(target=lambda: results.append(store.get_or_make("k", make)))
    first.start()
    assert making.wait(TIMEOUT)
    second = threading.Thread(target=lambda: results.append(store.get_or_make("k", make)))
    second.start()
    release.set()
    for thread in (first, second):
        thread.join(TIMEOUT)
    assert results == ["model", "model"] and len(made) == 1 and store.held_bytes == 5


def test_a_make_that_fails_stores_nothing_and_the_next_caller_makes_again():
    store = ByteStore(100, size_of=len)

    def fails() -> str:
        raise ValueError("training failed")

    with pytest.raises(ValueError, match="training failed"):
        store.get_or_make("k", fails)
    assert "k" not in store and store.get_or_make("k", lambda: "abc") == "abc"
    with pytest.raises(TooBig):
        store.get_or_make("huge", lambda: "x" * 101)
    assert "huge" not in store and store.held_bytes == 3


def test_its_count_of_bytes_stays_true_under_threads():
    store = ByteStore(1000)
    store.put("default", 0, size=100, pinned=True)

    def use(seed: int) -> None:
        chance = random.Random(seed)
        for _ in range(2000):
            key = chance.randrange(40)
            if chance.random() < 0.5:
                store.put(key, key, size=chance.randrange(1, 300))
            else:
                store.get(key)

    threads = [threading.Thread(target=use, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    sizes = {key: store._held[key].size for key in list(store._held)}
    assert store.held_bytes == sum(sizes.values()) <= 1000 and "default" in store


class Asker:
    """Who asks the store: the visitor a test says is at the keyboard."""

    def __init__(self, name: str | None):
        self.name = name

    def __call__(self) -> str | None:
        return self.name


def test_an_owner_beyond_its_share_makes_room_with_its_own_least_recently_used_never_another_s():
    asker = Asker("bob")
    store = ByteStore(50, per_owner=2, owner_of=asker)
    store.put("b1", "B1", size=10)  # bob's, the oldest of all
    asker.name = "alice"
    store.put("default", "the default model", size=10, pinned=True)  # pinned: nobody's share
    for key in ("a1", "a2", "a3"):
        store.put(key, key.upper(), size=10)
    assert held(store, ["b1", "default", "a1", "a2", "a3"]) == ["b1", "default", "a1", "a2", "a3"]  # 50: room
    store.put("a4", "A4", size=10)  # 60: alice holds 4, 2 beyond her share; a1, her least recently used, goes
    assert held(store, ["b1", "a1", "a2", "a3", "a4"]) == ["b1", "a2", "a3", "a4"] and store.held_bytes == 50
    assert (store.released_why("a1"), store.released_why("b1"), store.released_why("a2")) == (FOR_OWNER, None, None)
    assert store.get("a2") == "A2"  # used: a3 is now her least recently used
    store.put("a5", "A5", size=10)
    assert held(store, ["b1", "a2", "a3", "a4", "a5"]) == ["b1", "a2", "a4", "a5"]


def test_a_value_asked_for_by_another_owner_counts_in_its_share_from_then_on():
    asker = Asker("alice")
    store = ByteStore(30, per_owner=1, owner_of=asker)
    store.put("shared", "S", size=10)
    store.put("a1", "A1", size=10)
    asker.name = "bob"
    assert store.get("shared") == "S"  # the class's model: bob's now
    store.put("b1", "B1", size=10)  # 30: room
    asker.name = "alice"
    store.put("a2", "A2", size=10)  # 40: alice holds a1 and a2, one beyond her share: a1 goes, not the older "shared"
    assert held(store, ["shared", "a1", "a2", "b1"]) == ["shared", "a2", "b1"]
    asker.name = "bob"
    store.put("b2", "B2", size=10)  # 40: bob holds "shared", b1 and b2: "shared", his least recently used, goes
    assert held(store, ["shared", "a2", "b1", "b2"]) == ["a2", "b1", "b2"]
    assert store.released_why("shared") == FOR_OWNER


def test_nobody_in_particular_has_no_share_and_the_ceiling_says_why_it_released():
    store = ByteStore(30, per_owner=1)  # owner_of: None, a browser on the server's own machine
    for key in ("a", "b", "c"):
        store.put(key, key.upper(), size=10)
    assert held(store, "abc") == ["a", "b", "c"]
    store.put("d", "D", size=10)  # 40 bytes: a goes, the least recently used, for room
    assert held(store, "abcd") == ["b", "c", "d"] and store.released_why("a") == FOR_ROOM
    store.put("a", "A", size=10)  # put again: held, so no reason; b goes for it
    assert store.released_why("a") is None and store.released_why("b") == FOR_ROOM
