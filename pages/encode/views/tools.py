"""Pure helpers for the Encode / Decode page: name the tokenizers, parse typed ids, explain a lossy round trip.

>>> parse_ids("[15496, 11 0]")
[15496, 11, 0]
>>> describe_round_trip("a  b\\nc", "a b c")
['whitespace: runs of spaces/newlines became single spaces']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bpe_core import Token
from bpe_core.config import UNK_TOKEN
from bpe_core.pipeline.tokenizer import PipelineTokenizer
from bpe_core.pretokenize import special_segments, split_text
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.card_table import card_table_html
from drawing.describe import config_terms, describe_config, model_size, plural
from drawing.escape import markdown
from drawing.pipeline_view import pipeline_parts, pipeline_terms, why_pieces
from drawing.published import prefix_title
from drawing.readable import readable_symbol

MAX_NAMED_CHARACTERS = 12  # unknown characters listed by name before "..."

_ID_SEPARATORS = re.compile(r"[\s,;]+")
_WHITESPACE_RUN = re.compile(r"\s+")


def describe_tokenizer(tok: AnyTokenizer, title: str) -> str:
    """The chosen tokenizer in one Markdown line: its title and size, then its configuration.

    ``title`` is the model's title, already escaped for Markdown.

    >>> from bpe_core import Config, train
    >>> banana = train("banana", Config(split="none"), merges=2)
    >>> print(describe_tokenizer(banana, "Trained model"))  # doctest: +NORMALIZE_WHITESPACE
    Trained model: a vocabulary of 6 tokens, 2 of them made by merges; no split · built from characters · equal
    counts\\: the pair seen first wins.
    """
    if tok.stop_reason == "prefix":
        size = (
            f"{prefix_title(title, named=bool(tok.name))}: {markdown(tok.stop_message)}, "
            f"a vocabulary of {plural(len(tok.vocab), 'token')}"
        )
    else:
        size = f"{title}: {model_size(tok)}"
    # a pipeline's Config says little
    how = pipeline_parts(tok) if isinstance(tok, PipelineTokenizer) else describe_config(tok.config)
    return f"{size}; {markdown(how)}."


def tokenizer_terms(tok: AnyTokenizer) -> str:
    """How the tokenizer works in its own terms, for the tooltip of ``describe_tokenizer``'s plain words: a
    tokenizer.json's parts as the file names them, else the training settings as the Train form names them.

    >>> from bpe_core import Config, train
    >>> tokenizer_terms(train("banana", Config(split="none"), merges=2))
    "In the settings' own names: Pre-tokenization: none · Units: chars (characters) · Tie-break: first (first seen)"
    """
    if isinstance(tok, PipelineTokenizer):
        return f"In the file's own names: {pipeline_terms(tok)}"
    return f"In the settings' own names: {config_terms(tok.config)}"


def parse_ids(text: str) -> list[int]:
    """Token ids typed as ``1, 2 3`` or pasted as a list ``[1, 2, 3]``.

    Raises ``ValueError`` naming the first item that is not a whole number >= 0.

    >>> parse_ids("")
    []
    >>> parse_ids("12, x")
    Traceback (most recent call last):
    ...
    ValueError: item 2, 'x', is not a token id: ids are whole numbers such as 15496
    """
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    ids: list[int] = []
    for position, item in enumerate((part for part in _ID_SEPARATORS.split(body) if part), start=1):
        if re.fullmatch(r"-[0-9]+", item):
            raise ValueError(f"item {position}, {item}, is negative: token ids start at 0")
        if not re.fullmatch(r"\+?[0-9]+", item):  # ASCII digits only: int() would accept "١٢"
            raise ValueError(f"item {position}, {item!r}, is not a token id: ids are whole numbers such as 15496")
        ids.append(int(item))
    return ids


def describe_round_trip(original: str, decoded: str) -> list[str]:
    """Short sentences saying what ``decoded`` (= decode(encode(original))) lost; [] if nothing.

    Knows the two ways the engine loses text: whitespace (the whitespace split keeps
    words only) and characters never seen in training (``<unk>``). Anything else is
    reported as the first place where the texts differ.

    >>> describe_round_trip("café", "caf<unk>")
    ["characters never seen in training became <unk>: 'é'"]
    """
    if original == decoded:
        return []
    notes: list[str] = []
    whitespace_note = _whitespace_change(original, decoded)
    if whitespace_note:
        notes.append(whitespace_note)
    lost, mismatch_at = _unknown_characters("".join(original.split()), "".join(decoded.split()))
    if lost:
        named = ", ".join(repr(char) for char in lost[:MAX_NAMED_CHARACTERS])
        more = f" and {len(lost) - MAX_NAMED_CHARACTERS} more" if len(lost) > MAX_NAMED_CHARACTERS else ""
        notes.append(f"characters never seen in training became {UNK_TOKEN}: {named}{more}")
    if mismatch_at is not None or not notes:
        notes.append(_first_difference(original, decoded))
    return notes


def _whitespace_change(original: str, decoded: str) -> str:
    """A sentence about how the whitespace changed, or "" if it did not."""
    before = _WHITESPACE_RUN.findall(original.strip())
    after = _WHITESPACE_RUN.findall(decoded.strip())
    edges_lost = original != original.strip() and decoded == decoded.strip()
    if before == after and not edges_lost:
        return ""
    if before and not after:
        return "whitespace: all spaces and newlines were dropped, so the words run together"
    if after and all(run == " " for run in after):
        return "whitespace: runs of spaces/newlines became single spaces"
    if before == after:
        return "whitespace: spaces/newlines at the start or end were dropped"
    return "whitespace: spaces/newlines changed"


def _unknown_characters(original: str, decoded: str) -> tuple[list[str], int | None]:
    """Walk both texts together; return the characters that became ``<unk>`` (unique, in order)
    and the index in ``original`` where the texts differ some other way (None if they don't)."""
    lost: dict[str, None] = {}
    i = j = 0
    while i < len(original) and j < len(decoded):
        if original[i] == decoded[j]:
            i, j = i + 1, j + 1
        elif decoded.startswith(UNK_TOKEN, j):
            lost.setdefault(original[i])
            i, j = i + 1, j + len(UNK_TOKEN)
        else:
            return list(lost), i
    return list(lost), (None if i == len(original) and j == len(decoded) else i)


def _first_difference(original: str, decoded: str) -> str:
    index = next((k for k, (a, b) in enumerate(zip(original, decoded)) if a != b), min(len(original), len(decoded)))
    return (
        f"other: the texts first differ at character {index}: "
        f"{original[index : index + 12]!r} became {decoded[index : index + 12]!r}"
    )


def merged_pieces(text: str, split: str, specials: tuple[str, ...]) -> list[str]:
    """The pre-tokenizer's pieces of ``text`` outside the ``specials`` matched in it: a special token
    is one token that no merge makes, so it has no merges to replay.

    >>> merged_pieces("hi<|endoftext|>yo", "gpt2", ("<|endoftext|>",))
    ['hi', 'yo']
    """
    return [
        piece
        for start, end, is_special in special_segments(text, specials)
        if not is_special
        for piece in split_text(text[start:end], split)
    ]


def replay_choices(tok: AnyTokenizer, text: str, special: bool, limit: int = 200) -> dict[str, str]:
    """The pieces of ``text`` "Why this split?" can replay, as {piece as ``tok.explain`` takes it: its label}.

    >>> from bpe_core import load_gpt2
    >>> replay_choices(load_gpt2(), "hi  yo<|endoftext|>", special=True)
    {'hi': 'hi', ' yo': '␣yo'}
    """
    if isinstance(tok, PipelineTokenizer):
        return why_pieces(tok, text, special, limit)
    specials = tok.config.special_tokens if special else ()
    return {
        piece: readable_symbol(piece)
        for piece in unique_pieces(merged_pieces(text, tok.config.split, specials), limit=limit)
    }


def replay_caption(tok: AnyTokenizer) -> str:
    """What "Why this split?" offers: the pre-tokenizer's pieces, or for a model without one (its whole
    text is one piece) the parts that piece falls into where no merge can cross.

    >>> from bpe_core.pretrained import load_pretrained
    >>> replay_caption(load_pretrained("llama2")).startswith("This model has no pre-tokenizer")
    True
    """
    if isinstance(tok, PipelineTokenizer) and not tok.parts.get("pre_tokenizer"):
        what = (
            "This model has no pre-tokenizer: its whole text is one piece, which falls into parts "
            "wherever no merge can join the two sides."
        )
    else:
        what = "The pre-tokenizer cuts the text into pieces; merges never cross a piece."
    return what + " Pick one to replay its merges in training order (green outline: what that step made)."


def unique_pieces(pieces: Iterable[str], limit: int = 200) -> list[str]:
    """The first ``limit`` distinct non-blank pieces, in order of appearance.

    >>> unique_pieces(["the", " ", "cat", "the"])
    ['the', 'cat']
    """
    seen: dict[str, None] = {}
    for piece in pieces:
        if piece.strip() and piece not in seen:
            seen[piece] = None
            if len(seen) >= limit:
                break
    return list(seen)


def token_rows(tokens: Sequence[Token], text: str) -> list[dict]:
    """One row per token for a table: position, id, token, text, bytes (hex), span, kind.

    >>> token_rows([Token(7, "ab", 0, 2, b"ab")], "ab")
    [{'position': 0, 'id': 7, 'token': 'ab', 'text': 'ab', 'bytes (hex)': '61 62', 'span': '0–2', 'kind': 'normal'}]
    """
    return [
        {
            "position": position,
            "id": token.id,
            "token": readable_symbol(token.token),  # a space or a newline shows as the boxes show it
            "text": readable_symbol(text[token.start : token.end]),
            "bytes (hex)": token.raw.hex(" ").upper(),
            "span": f"{token.start}–{token.end}",
            "kind": token.kind + (" (part of a character)" if token.partial else ""),
        }
        for position, token in enumerate(tokens)
    ]


TABLE_ROWS = 500  # the token table's rows drawn at a time: a whole book's table would be megabytes of HTML


def table_pages(count: int, size: int = TABLE_ROWS) -> dict[int, str]:
    """A table of ``count`` rows in pages of ``size``: each page's first row (0-based), and how a choice names it.

    >>> table_pages(1200, 500)
    {0: 'tokens 1–500 of 1,200', 500: 'tokens 501–1,000 of 1,200', 1000: 'tokens 1,001–1,200 of 1,200'}
    """
    return {first: f"tokens {first + 1:,}–{min(first + size, count):,} of {count:,}" for first in range(0, count, size)}


def token_table_html(rows: list[dict]) -> str:
    """``token_rows`` as a table that scrolls down in its own box; a card per token on a phone."""
    return card_table_html(rows, "Token table", numeric={"position", "id", "span"}, name="bpe-tt", tall=True)
