"""Unit tests for pages/train/views/corpus_files.py: uploaded files read as UTF-8 and line by line, and corpus sizes."""

from __future__ import annotations

import codecs

import pytest

from bpe_core import Config
from pages.train.views.corpus_files import (
    PREVIEW_CHARS,
    corpus_stats,
    preview,
    preview_html,
    read_uploads,
    training_input,
)
from session.text_files import decode_text_file


def test_utf8_bom_is_stripped():
    assert decode_text_file(codecs.BOM_UTF8 + "naïve".encode()) == "naïve"


@pytest.mark.parametrize(
    "data, expected",
    [
        ("café".encode("latin-1"), "not UTF-8 text (byte 0xE9 at position 3"),
        ("hello".encode("utf-16"), "UTF-16 or UTF-32"),
        ("hello".encode("utf-16-le"), "binary file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
    ],
)
def test_non_utf8_data_is_rejected_with_a_reason(data, expected):
    with pytest.raises(ValueError, match=expected.replace("(", r"\(")):
        decode_text_file(data)


def test_read_uploads_keeps_good_files_and_names_bad_ones():
    texts, names, errors = read_uploads(
        [("a.txt", b"one"), ("latin.txt", "é".encode("latin-1")), ("b.txt", codecs.BOM_UTF8 + b"two"), ("c.txt", b"")]
    )
    assert texts == ["one", "two"] and names == ["a.txt", "b.txt"]
    assert errors == [
        "latin.txt: this is not UTF-8 text (byte 0xE9 at position 0 is not valid UTF-8; Latin-1 or Windows-1252 "
        "perhaps?), please save it as UTF-8",
        "c.txt: the file is empty",
    ]


def test_training_input_is_every_files_lines_each_ending_in_its_newline():
    # HF tokenizers' trainer reads each file line by line: a line keeps its "\n", a last line without one stays so,
    # and only "\n" ends a line (a "\r" stays inside it)
    assert training_input(["a b\n\nc", "d\r\ne\n"]) == ["a b\n", "\n", "c", "d\r\n", "e\n"]
    assert training_input([]) == []


def test_corpus_stats_count_characters_bytes_words_and_pieces():
    text = "low low lower\nnaïve"
    stats = corpus_stats(text, Config())
    assert (stats.chars, stats.bytes, stats.words) == (19, 20, 4)
    assert stats.unique_pieces == 3  # low, lower, naïve
    assert corpus_stats("banana banana", Config(split="none")).unique_pieces == 1


def test_corpus_stats_of_lines_add_up():
    stats = corpus_stats(["low low\n", "lower"], Config(split="gpt2"))
    # gpt2 pieces: "low", " low", "\n" in the first line; "lower" in the second
    assert (stats.chars, stats.bytes, stats.words, stats.unique_pieces) == (13, 13, 3, 4)


def test_a_preview_shows_600_characters_whole_and_cuts_a_longer_text():
    assert PREVIEW_CHARS == 600
    assert preview("x" * 600) == "x" * 600
    assert preview("x" * 601) == "x" * 600 + " …"


def test_the_preview_block_is_escaped_keeps_its_spaces_and_scrolls():
    start = "  <b>low</b> & :smile:\n\tlower"  # 29 characters
    block = preview_html(start + "x" * 600)
    body = block[block.index(">") + 1 : block.rindex("</pre>")]
    # The text as the preview cuts it (600 characters and " …"), its HTML characters escaped, nothing else changed.
    assert body == "  &lt;b&gt;low&lt;/b&gt; &amp; :smile:\n\tlower" + "x" * 571 + " …"
    assert block.startswith('<pre class="bpe-corpus-preview"')
    style_at = block.index("style='") + 7
    style = block[style_at : block.index("'", style_at)]
    assert "white-space:pre-wrap" in style and "max-height:180px" in style and "overflow-y:auto" in style
    # it scrolls, so Tab reaches it (the keyboard then scrolls it) and a screen reader names it
    assert block[: block.index(">")].endswith(' tabindex="0" role="region" aria-label="Corpus preview"')


def test_a_sessions_corpus_upload_holds_at_most_20_mb_in_all():
    """Four files of 9.9 MB each (each under Streamlit's 10 MB): two fit in 20 MB, the next two are left out."""
    file = b"a" * int(9.9 * 2**20)
    texts, names, errors = read_uploads([(f"part{number}.txt", file) for number in range(1, 5)])
    assert names == ["part1.txt", "part2.txt"] and len(texts) == 2
    assert errors == [
        f"part{number}.txt: with the files before it, the corpus would pass 20 MB, the most it may hold"
        for number in (3, 4)
    ]
