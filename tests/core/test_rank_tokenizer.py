"""A rank file's tokenizer (bpe_core/rank_tokenizer.py): it joins by rank until something asks for
its merges, then spells the full model out once, for every thread, and says why when it cannot."""

import copy
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bpe_core import Config
from bpe_core.bytelevel import bytes_to_display
from bpe_core.rank_tokenizer import RankTokenizer

RANKS = {bytes([byte]): byte for byte in range(256)} | {b"ab": 256, b"abc": 257}
MERGES = [("a", "b"), ("ab", "c")]


def spelled_out(merges=MERGES) -> dict:
    return {"vocab": {bytes_to_display(token): rank for token, rank in RANKS.items()}, "merges": merges}


def tiny(full_model=spelled_out) -> RankTokenizer:
    return RankTokenizer(RANKS, config=Config(split="gpt2", units="bytes"), name="tiny", full_model=full_model)


def test_it_is_spelled_out_once_for_threads_that_ask_at_once():
    built = []

    def slow_full_model():  # slow enough that every thread asks while it runs
        built.append(threading.get_ident())
        time.sleep(0.05)
        return spelled_out()

    tok = tiny(slow_full_model)
    start = threading.Barrier(8)

    def read_model(index):
        start.wait()
        if index % 2:  # half of them encode meanwhile, by rank or by the merges: the same ids
            return tok.encode("abcab", special=False)
        return tok.merges, tok.created_at, tok.tokenize("abc")

    with ThreadPoolExecutor(8) as pool:
        seen = list(pool.map(read_model, range(8)))
    assert seen == [(MERGES, {256: 0, 257: 1}, ["abc"]), [257, 256]] * 4
    assert len(built) == 1
    assert getattr(tok, "no_such_thing", None) is None and len(built) == 1  # built once, even for a wrong name


def test_encoding_probes_and_copies_spell_nothing_out():
    built = []
    tok = tiny(lambda: built.append(1) or spelled_out())
    assert getattr(tok, "__deepcopy_hook__", None) is None and getattr(tok, "_repr_html_", None) is None
    copied = copy.deepcopy(tok)
    assert tok.encode("xabc", special=False) == copied.encode("xabc", special=False) == [ord("x"), 257]
    assert built == []
    assert copied.tokenize("abc") == ["abc"] and built == [1]  # the copy spells its own out when asked


def test_a_copy_starts_with_empty_caches_and_keeps_the_model_spelled_out():
    built = []
    tok = tiny(lambda: built.append(1) or spelled_out())
    assert tok.tokenize("abab") == ["ab", "ab"] and built == [1]
    copied = copy.copy(tok)
    assert len(copied._cache) == 0 and copied.merges == MERGES and built == [1]


def test_a_model_that_cannot_be_spelled_out_says_why_every_time():
    tok = tiny(lambda: spelled_out([("a", "b"), ("zz", "abc")]))
    assert tok.encode("abc", special=False) == [257]  # joining by rank needs no merges
    for _ in range(2):
        with pytest.raises(ValueError, match="names 'zz', which is not in the vocabulary"):
            _ = tok.merges


def test_the_pairs_it_remembers_are_bounded(monkeypatch):
    monkeypatch.setattr("bpe_core.rank_tokenizer._PAIRS_KEPT", 2)
    tok = tiny()
    assert [tok.encode(text, special=False) for text in ("xabcy", "zab", "qcab")] == [
        [ord("x"), 257, ord("y")],
        [ord("z"), 256],
        [ord("q"), ord("c"), 256],
    ]
    assert len(tok._joins) <= 2
