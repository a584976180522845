"""Our own model file: configuration, vocabulary, merges and the whole training trace, as JSON.

>>> from bpe_core import Config, train
>>> tok = train("banana_bandana_", Config(split="none"), merges=6)
>>> model_from_json(model_to_json(tok)).steps == tok.steps
True
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..config import Config
from ..tokenizer import Tokenizer
from ..trace import Step
from .fields import checked_text, checked_vocab, entry, shown
from .files import ExportError, read_json, write_text_atomically

FORMAT_NAME = "bpe-explorer"
FORMAT_VERSION = 2  # 1 stored one object per step; 2 stores the trace column by column, the race optional


def model_to_dict(tok: Tokenizer, *, race: bool = True) -> dict:
    """Everything about the model as JSON-ready data.  The trace is stored column by column; the
    race of each step (its best pairs, as ids) only when ``race`` is asked for, since it is most
    of the size of a long training's file.

    >>> from bpe_core import Config, train
    >>> data = model_to_dict(train("aab", Config(split="none"), merges=1))
    >>> data["vocab"], data["merges"], data["base_size"]  # <unk> comes first, so a is 1 and b is 2
    ({'<unk>': 0, 'a': 1, 'b': 2, 'aa': 3}, [['a', 'a']], 3)
    >>> data["trace"]
    {'counts': [1], 'tied': [2], 'top': [[[1, 1, 1], [1, 2, 1]]]}
    """
    check_model_json_exportable(tok)
    data: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "name": tok.name,
        "config": tok.config.to_dict(),
        "vocab": tok.vocab,
        "merges": [list(pair) for pair in tok.merges],
        "stop": {"reason": tok.stop_reason, "message": tok.stop_message},
        "warnings": tok.warnings,
        "base_size": tok.base_size,
        "corpus_tokens": tok.corpus_tokens,
    }
    if tok.has_counts:
        vocab = tok.vocab
        data["trace"] = {"counts": [step.count for step in tok.steps], "tied": [step.tied for step in tok.steps]}
        if race:
            data["trace"]["top"] = [
                [[vocab[left], vocab[right], count] for left, right, count in step.top] for step in tok.steps
            ]
    return data


def check_model_json_exportable(tok: Tokenizer) -> None:
    """Raise :class:`ExportError` when our model file cannot hold ``tok``."""
    if tok.runs_pipeline:
        raise ExportError(
            f"{tok.name or 'this tokenizer'} runs the parts of an HF tokenizer.json (normalizer, "
            "pre-tokenizer, decoder), which our model file does not hold: keep it as tokenizer.json"
        )


def model_to_json(tok: Tokenizer, *, race: bool = True) -> str:
    return json.dumps(model_to_dict(tok, race=race), ensure_ascii=False, separators=(",", ":"))


def model_from_dict(data: dict) -> Tokenizer:
    """The model saved by :func:`model_to_dict`; a ValueError says what is wrong with the data."""
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise ValueError(f'not a {FORMAT_NAME} model file (no "format": "{FORMAT_NAME}" field)')
    if data.get("version") not in (1, FORMAT_VERSION):
        raise ValueError(
            f"model file version {data.get('version')!r} is not supported (this is version {FORMAT_VERSION})"
        )
    try:
        fields = _checked_fields(data)
        counts = _trace_columns(data, len(fields["merges"]))
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"the model file is incomplete or malformed ({type(error).__name__}: {error})") from None
    tok = Tokenizer(steps=None, **fields)
    if counts:
        tok.steps = _steps(tok, counts)
    return tok


def _checked_fields(data: dict) -> dict:
    """The ``Tokenizer``'s fields read from the file but its steps, each checked in the file's order."""
    try:
        config = Config.from_dict(data["config"])
    except ValueError as error:
        raise ValueError(f"config: {error}") from None
    vocab = checked_vocab(data["vocab"], "vocab")
    merges = data["merges"]
    if not isinstance(merges, list):
        raise ValueError(f"merges: must be a list of merges, not {shown(merges)}")
    merges = [_checked_merge(pair, number) for number, pair in enumerate(merges)]
    stop = data.get("stop", {})
    if not isinstance(stop, dict):
        raise ValueError(f"stop: {shown(stop)} is not an object")
    reason, message = (checked_text(stop.get(field, ""), f"stop.{field}") for field in ("reason", "message"))
    warnings = data.get("warnings", [])
    if not isinstance(warnings, list):
        raise ValueError(f"warnings: must be a list of texts, not {shown(warnings)}")
    for number, warning in enumerate(warnings):
        checked_text(warning, entry("warnings", number))
    name = checked_text(data.get("name", ""), "name")
    base_size, corpus_tokens = data.get("base_size"), data.get("corpus_tokens")
    if corpus_tokens is not None and (type(corpus_tokens) is not int or corpus_tokens < 0):
        raise ValueError(f"corpus_tokens: {shown(corpus_tokens)} is not a whole number of at least 0")
    if base_size is not None and (type(base_size) is not int or not 0 <= base_size <= len(vocab)):
        raise ValueError(f"base_size: {shown(base_size)} is not a whole number from 0 to the vocabulary size")
    return dict(
        config=config,
        vocab=vocab,
        merges=merges,
        stop_reason=reason,
        stop_message=message,
        name=name,
        warnings=warnings,
        base_size=base_size,
        corpus_tokens=corpus_tokens,
    )


def _steps(tok: Tokenizer, counts: list[tuple[int | None, int, list[tuple]]]) -> list[Step]:
    """One ``Step`` per merge from the trace's columns, its race named by the model's tokens."""
    try:
        names, vocab = tok.id_to_token, tok.vocab
        return [
            Step(
                rank + 1,
                left,
                right,
                left + right,
                vocab[left + right],
                count=count,
                tied=tied,
                top=tuple((names[a], names[b], c) for a, b, c in top),
            )
            for rank, ((left, right), (count, tied, top)) in enumerate(zip(tok.merges, counts))
        ]
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"the model file's trace names unknown ids ({type(error).__name__}: {error})") from None


def _trace_columns(data: dict, merges: int) -> list[tuple[int | None, int, list[tuple]]]:
    """``(count, tied, race)`` per step from either version of the file (empty: no counts)."""
    if data["version"] == 1:
        steps = data.get("steps") or []
        rows = [(step["count"], step["tied"], step["top"]) for step in steps]
    else:
        trace = data.get("trace") or {"counts": [], "tied": []}
        races = trace.get("top") or [[] for _ in trace["counts"]]
        if not len(trace["counts"]) == len(trace["tied"]) == len(races):
            raise ValueError("trace: its counts, ties and races differ in length")
        rows = list(zip(trace["counts"], trace["tied"], races))
    if rows and len(rows) != merges:
        raise ValueError("the file has a different number of steps and merges")
    for count, tied, _ in rows:
        if (count is not None and type(count) is not int) or type(tied) is not int:
            raise ValueError(f"trace: a count or tie must be a whole number, not {count!r} / {tied!r}")
    return [(count, tied, [tuple(item) for item in race]) for count, tied, race in rows]


def _checked_merge(pair, number: int) -> tuple[str, str]:
    if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair)):
        raise ValueError(f"{entry('merges', number)}: {shown(pair)} is not a list of two texts")
    return pair[0], pair[1]


def model_from_json(text: str) -> Tokenizer:
    return model_from_dict(read_json(text))


def save_model(tok: Tokenizer, path: str | os.PathLike, *, race: bool = True) -> None:
    write_text_atomically(path, model_to_json(tok, race=race))


def load_model(path: str | os.PathLike) -> Tokenizer:
    return model_from_json(Path(path).read_text(encoding="utf-8"))
