r"""Corpus files and facts for the Train page: uploaded files read as UTF-8, split into lines, and measured.

>>> corpus_stats(training_input(["low low\nlower"]), Config())
CorpusStats(chars=13, bytes=13, words=3, unique_pieces=2)
"""

from __future__ import annotations

from dataclasses import dataclass

from bpe_core import Config, count_pieces
from bpe_core.pretokenize import lines
from drawing.describe import plural
from drawing.escape import html_text, scroll_box
from session.text_files import decode_text_file

PREVIEW_CHARS = 600  # how much of a long corpus the preview shows
MAX_CORPUS_BYTES = 20 * 2**20  # a session's uploaded corpus, all files together (each file: 10 MB, Streamlit's cap)


def read_uploads(
    files: list[tuple[str, bytes]], most_bytes: int = MAX_CORPUS_BYTES
) -> tuple[list[str], list[str], list[str]]:
    r"""The texts of the readable files, their names, and one error message per file left out: unreadable, or past
    ``most_bytes`` with the files before it.

    >>> texts, names, errors = read_uploads([("a.txt", b"one"), ("b.txt", b"\xff"), ("c.txt", b"two"), ("d.txt", b"")])
    >>> texts, names, errors[1]
    (['one', 'two'], ['a.txt', 'c.txt'], 'd.txt: the file is empty')
    >>> read_uploads([("a.txt", b"one"), ("b.txt", b"three"), ("c.txt", b"two")], most_bytes=6)[1:]
    (['a.txt', 'c.txt'], ['b.txt: with the files before it, the corpus would pass 6 bytes, the most it may hold'])
    """
    texts, names, errors, taken = [], [], [], 0
    for name, data in files:
        if taken + len(data) > most_bytes:
            most = f"{most_bytes / 2**20:g} MB" if most_bytes >= 2**20 else plural(most_bytes, "byte")
            errors.append(f"{name}: with the files before it, the corpus would pass {most}, the most it may hold")
            continue
        taken += len(data)
        try:
            text = decode_text_file(data)
        except ValueError as error:
            errors.append(f"{name}: {error}")
            continue
        if text:
            texts.append(text)
            names.append(name)
        else:
            errors.append(f"{name}: the file is empty")
    return texts, names, errors


LINES_NOTE = "Uploaded files are read line by line, as HF tokenizers does: no token crosses a line end."


def training_input(texts: list[str]) -> list[str]:
    r"""Uploaded files as the trainer reads them: every file's lines, each with its ``\n``, as HF tokenizers
    reads files for training (so no piece crosses a line end, nor a file end).

    >>> training_input(["one two\nthree", "four\n"])
    ['one two\n', 'three', 'four\n']
    """
    return [line for text in texts for line in lines(text)]


@dataclass(frozen=True)
class CorpusStats:
    chars: int
    bytes: int
    words: int
    unique_pieces: int


def corpus_stats(corpus: str | list[str], config: Config) -> CorpusStats:
    """Size of a corpus (one text, or the lines of files); ``unique_pieces`` counts distinct pre-tokenized pieces.

    >>> corpus_stats("low low lower", Config())
    CorpusStats(chars=13, bytes=13, words=3, unique_pieces=2)
    """
    texts = [corpus] if isinstance(corpus, str) else corpus
    return CorpusStats(
        chars=sum(len(text) for text in texts),
        bytes=sum(len(text.encode("utf-8", errors="surrogatepass")) for text in texts),
        words=sum(len(text.split()) for text in texts),
        unique_pieces=len(count_pieces(corpus, config)),
    )


def describe_stats(stats: CorpusStats, split: str) -> str:
    """The corpus size line under the corpus.

    >>> describe_stats(CorpusStats(chars=13, bytes=13, words=3, unique_pieces=1), "whitespace")
    '13 characters · 13 bytes (UTF-8) · 3 words · 1 unique piece (split: whitespace)'
    """
    return (
        f"{plural(stats.chars, 'character')} · {plural(stats.bytes, 'byte')} (UTF-8) · "
        f"{plural(stats.words, 'word')} · {plural(stats.unique_pieces, 'unique piece')} (split: {split})"
    )


def preview(text: str) -> str:
    """The start of a long corpus, marked as cut with …; a short one whole.

    >>> preview("abc"), len(preview("x" * 1000))
    ('abc', 602)
    """
    return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + " …"


# A code block's look; a long preview scrolls inside it.
_PREVIEW_STYLE = (
    "margin:0;max-height:180px;overflow-y:auto;padding:.75rem 1rem;border-radius:.5rem;"
    "background:#f3f5fb;white-space:pre-wrap;overflow-wrap:anywhere;"
    'font:.875rem/1.6 "Source Code Pro",ui-monospace,monospace'
)


def preview_html(text: str) -> str:
    """The corpus preview (:func:`preview`) as an HTML block of its own: it drew faster than ``st.code``.
    Spaces and line ends are kept; the text is escaped.

    >>> preview_html("<b>a  b</b>").endswith('>&lt;b&gt;a  b&lt;/b&gt;</pre>')
    True
    """
    box = scroll_box("Corpus preview")
    return f"<pre class=\"bpe-corpus-preview\" style='{_PREVIEW_STYLE}' {box}>{html_text(preview(text))}</pre>"
