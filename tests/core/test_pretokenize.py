"""The pre-tokenizer against its references: HF tokenizers' pre-tokenizers and the published patterns
run by the ``regex`` module (which knows ``\\p{L}``).  The textbook oracle shares this part with the
fast engine, so it is checked here on its own."""

import regex
from hypothesis import given, settings
from hypothesis import strategies as st
from support.awkward_text import KNOWN, fragments
from support.reference_libraries import hf_tokenizers

from bpe_core.bytelevel import BYTE_TO_CHAR
from bpe_core.gpt_patterns import GPT2_FAST_ORDER, GPT2_PATTERN, GPT4_PATTERN, GPT4O_PATTERN, compiled_pattern
from bpe_core.pretokenize import split_spans, split_text

any_text = st.lists(KNOWN | fragments(), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=any_text, name=st.sampled_from(["gpt2", "gpt4", "gpt4o"]))
def test_the_gpt_patterns_cut_like_the_published_ones_in_the_regex_module(text, name):
    """For ASCII text this checks our stdlib copy; other text is cut by the regex module itself."""
    published = regex.compile({"gpt2": GPT2_PATTERN, "gpt4": GPT4_PATTERN, "gpt4o": GPT4O_PATTERN}[name])
    assert split_text(text, name) == published.findall(text)
    assert split_spans(text, name) == [match.span() for match in published.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(text=any_text)
def test_whitespace_split_cuts_where_hf_whitespace_split_does(text):
    """Unicode White_Space only: not the information separators U+001C-U+001F that str.split() takes."""
    reference = hf_tokenizers().pre_tokenizers.WhitespaceSplit().pre_tokenize_str(text)
    assert split_text(text, "whitespace") == [piece for piece, _ in reference]
    assert split_spans(text, "whitespace") == [span for _, span in reference]


@settings(max_examples=300, deadline=None)
@given(text=any_text)
def test_gpt2_pieces_as_bytes_equal_hf_byte_level(text):
    reference = hf_tokenizers().pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True).pre_tokenize_str(text)
    ours = ["".join(BYTE_TO_CHAR[byte] for byte in piece.encode("utf-8")) for piece in split_text(text, "gpt2")]
    assert ours == [piece for piece, _ in reference]


def test_no_split_keeps_the_whole_text_and_nothing_for_empty_text():
    assert split_text("a b\nc", "none") == ["a b\nc"]
    assert split_spans("a b\nc", "none") == [(0, 5)]
    assert split_text("", "none") == [] and split_spans("", "none") == []


ascii_text = st.text(st.characters(max_codepoint=127), max_size=60)


@settings(max_examples=400, deadline=None)
@given(text=ascii_text, name=st.sampled_from(["gpt2", "gpt4", "gpt4o"]))
def test_the_stdlib_copy_cuts_ascii_text_like_the_published_pattern(text, name):
    """Built afresh (not from the cache), so that the translation itself is what is checked; GPT-2's in the
    order the engine runs it."""
    published = regex.compile({"gpt2": GPT2_PATTERN, "gpt4": GPT4_PATTERN, "gpt4o": GPT4O_PATTERN}[name])
    source = {"gpt2": GPT2_FAST_ORDER, "gpt4": GPT4_PATTERN, "gpt4o": GPT4O_PATTERN}[name]
    assert compiled_pattern.__wrapped__(source, ascii_only=True).findall(text) == published.findall(text)
