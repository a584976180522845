"""The Encode page's address: the tokenizer (and a prefix's merges), the text typed and the sections open, as
query parameters beside the model's own, and back (``viz.addresses`` reads them safely).

>>> params, note = encode_params("prefix", 40, "low lower", ["why"], example="Hello")
>>> params, note
({'tokenizer': 'prefix', 'prefix': '40', 'input': 'low lower', 'open': 'why'}, '')
>>> read_encode_params(params, ("model", "prefix")).open_sections
['why']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from viz.addresses import MAX_LINK_TEXT, TEXT_PARAM, read_choice, read_count, read_names, read_text, text_params

SECTIONS = ("ids", "why", "decode", "table")  # the folded sections, by their names in the address
MAX_PREFIX = 1_000_000  # merges a prefix keeps at most (bpe_core.train.MAX_SIZE)


def encode_params(
    tokenizer: str, prefix: int | None, text: str, open_sections: Sequence[str], example: str
) -> tuple[dict[str, str], str]:
    """The page's state as query parameters (the defaults left out), and what the address cannot carry.

    >>> encode_params("model", None, "Hello", [], example="Hello")
    ({}, '')
    """
    params = {"tokenizer": tokenizer} if tokenizer != "model" else {}
    if tokenizer == "prefix" and prefix is not None:
        params["prefix"] = str(prefix)
    text_part, note = text_params(text) if text != example else ({}, "")
    params.update(text_part)
    if open_sections:
        params["open"] = ",".join(open_sections)
    return params, note


@dataclass
class EncodeLink:
    """What an address asks of the Encode page: None where it asks nothing (or nonsense, then warned)."""

    tokenizer: str | None = None
    prefix: int | None = None
    text: str | None = None
    open_sections: list[str] | None = None
    warnings: list[str] = field(default_factory=list)


def read_encode_params(params: Mapping[str, str], tokenizers: Sequence[str]) -> EncodeLink:
    """Read the page's parameters back; ``tokenizers`` are the names the Tokenizer choice offers.

    >>> read_encode_params({"open": "why,<b>"}, ("model",)).warnings
    ['open=why,<b>: <b> is not one of ids, why, decode, table']
    """
    warnings: list[str] = []
    return EncodeLink(
        tokenizer=read_choice(params, "tokenizer", tokenizers, warnings),
        prefix=read_count(params, "prefix", 0, MAX_PREFIX, warnings),
        text=read_text(params, TEXT_PARAM, MAX_LINK_TEXT, warnings),
        open_sections=read_names(params, "open", SECTIONS, warnings),
        warnings=warnings,
    )
