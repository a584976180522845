"""The published tokenizers as a server keeps them: each record says what it holds once read, and the engine keeps
what it reads wherever it is told (a server's budget), reading a released one again."""

from __future__ import annotations

import pytest

from bpe_core import pretrained
from bpe_core.footprint import model_bytes


def test_every_published_tokenizer_records_its_memory():
    assert all(published.held_mb > 0 for published in pretrained.PUBLISHED.values())
    assert pretrained.held_bytes("gemma3") > pretrained.held_bytes("llama3") > pretrained.held_bytes("cl100k_base")


def test_a_record_is_within_a_tenth_of_what_the_tokenizer_holds():
    """GPT-4's, read afresh and measured by footprint (every record: python -m bench.published_memory)."""
    model = pretrained._read_published(pretrained.PUBLISHED["cl100k_base"])
    assert model_bytes(model) == pytest.approx(pretrained.held_bytes("cl100k_base"), rel=0.1)


class Forgetful:
    """A cache that keeps nothing and counts its reads, as a store that released every tokenizer at once."""

    def __init__(self):
        self.reads = []

    def get_or_make(self, name, make):
        self.reads.append(name)
        return make()


def test_the_engine_keeps_published_tokenizers_where_it_is_told(monkeypatch):
    kept = pretrained._kept
    assert pretrained.load_pretrained("cl100k_base") is pretrained.load_pretrained("cl100k_base")  # kept by default
    forgetful = Forgetful()
    monkeypatch.setattr(pretrained, "_kept", kept)  # put back after the test
    pretrained.keep_published_in(forgetful)
    first, second = pretrained.load_pretrained("cl100k_base"), pretrained.load_pretrained("cl100k_base")
    assert first is not second and first.encode("Hello, world!") == second.encode("Hello, world!") == [
        9906,
        11,
        1917,
        0,
    ]
    assert forgetful.reads == ["cl100k_base", "cl100k_base"]
    assert pretrained.load_pretrained("gpt2") is pretrained.load_gpt2()  # GPT-2 is kept apart, as sessions hold it
    with pytest.raises(ValueError, match="no published tokenizer is called 'gpt5'"):
        pretrained.load_pretrained("gpt5")
    assert forgetful.reads == ["cl100k_base", "cl100k_base"]
