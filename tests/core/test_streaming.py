"""Streaming encode: the ids of a text fed in chunks equal the ids of the whole text."""

import itertools
import tracemalloc
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st
from support.awkward_text import fragments

from bpe_core import Config, load_gpt2, streaming, train

# the awkward fragments with "b", "12" and special tokens, whole and cut, for chunks to split
special_fragments = fragments("b", "12", "<s>", "<s", ">", "> x", "<|a b|>", "x<|a", " b|>", "<|a", "|>")
chunked_text = st.lists(st.lists(special_fragments, max_size=6).map("".join), max_size=12)
configs = st.sampled_from(
    [
        Config(split="gpt2", units="bytes", special_tokens=("<s>", "<|a b|>")),
        Config(split="gpt4", units="bytes", special_tokens=("<|a b|>",)),
        Config(split="whitespace", end_of_word="</w>"),
        Config(split="gpt2", unknown="byte_fallback", special_tokens=("<s>",)),
        Config(split="none", units="bytes"),
    ]
)


@settings(max_examples=300, deadline=None)
@given(config=configs, chunks=chunked_text, training=st.lists(special_fragments, max_size=30).map("".join))
def test_chunks_encode_like_the_whole_text(config, chunks, training):
    tok = train(training, config, merges=20)
    with mock.patch.object(streaming, "_STREAM_CHUNK", 1):  # look for a cut after every chunk
        assert list(tok.encode_iterable(chunks)) == tok.encode("".join(chunks))
        assert list(tok.encode_iterable(chunks, special=False)) == tok.encode("".join(chunks), special=False)


def test_gpt2_streams_lines_like_the_whole_text():
    lines = ["Hello world's  end!\n", "  indented\n", "\n", "日本語のテキスト\n", "last line without newline"] * 5000
    assert list(load_gpt2().encode_iterable(lines)) == load_gpt2().encode("".join(lines))


def _peak_while_streaming(tok, line_count: int) -> int:
    # few distinct pieces: the piece caches (within the process budget of bpe_core.piece_cache) stay small
    lines = (f"line {number % 97} of a long file, said plainly.\n" for number in range(line_count))
    tracemalloc.start()
    try:
        for _ in tok.encode_iterable(lines):
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_input():
    tok = train("line of a long file, said plainly. 0123456789", Config(split="gpt2", units="bytes"), merges=40)
    small, large = _peak_while_streaming(tok, 2_000), _peak_while_streaming(tok, 40_000)
    assert large < 2 * small + 100_000  # twenty times the input, about the same peak
    assert list(itertools.islice(tok.encode_iterable(iter(["a b"] * 3)), 2)) == tok.encode("a ba ba b")[:2]
