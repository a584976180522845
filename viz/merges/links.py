"""The Merges page's address: the tab, the step, the token whose tree is drawn and the tokenizer shown, as query
parameters beside the model's own (``viz.train.links``), and back.

A malformed or hostile value is never an error: it is dropped, the page keeps its default, and a warning says so.

>>> merges_params("tree", 12, "banana_", "model")
{'tab': 'tree', 'step': '12', 'token': 'banana_'}
>>> link = read_merges_params({"tab": "race", "step": "x"}, tabs=("steps", "race"), tokenizers=("model", "gpt2"))
>>> link.tab, link.step, link.warnings
('race', None, ['step=x: not a whole number from 1 to 1,000,000'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from viz.addresses import read_choice, read_count, read_text

MAX_TOKEN_CHARS = 200  # a token longer than this is no merged token of any tokenizer shown here
MAX_STEP = 1_000_000  # as many merges as training makes at most (bpe_core.train.MAX_SIZE)


def merges_params(tab: str, step: int | None, token: str | None, tokenizer: str) -> dict[str, str]:
    """The page's state as query parameters; the defaults (the session's model, no token) are left out.

    >>> merges_params("steps", 1, None, "cl100k_base")
    {'tab': 'steps', 'step': '1', 'tokenizer': 'cl100k_base'}
    """
    params = {"tab": tab}
    if step is not None:
        params["step"] = str(step)
    if token:
        params["token"] = token
    if tokenizer != "model":
        params["tokenizer"] = tokenizer
    return params


@dataclass
class MergesLink:
    """What an address asks of the Merges page: None where it asks nothing (or nonsense, then warned)."""

    tab: str | None = None
    step: int | None = None
    token: str | None = None
    tokenizer: str | None = None
    warnings: list[str] = field(default_factory=list)


def read_merges_params(params: Mapping[str, str], tabs: Sequence[str], tokenizers: Sequence[str]) -> MergesLink:
    """Read the page's parameters back: ``tabs`` and ``tokenizers`` are the names the page knows.

    >>> read_merges_params({"tokenizer": "<b>", "token": "an"}, ("steps",), ("model",)).warnings
    ['tokenizer=<b>: no such tokenizer']
    """
    warnings: list[str] = []
    return MergesLink(
        tab=read_choice(params, "tab", tabs, warnings),
        step=read_count(params, "step", 1, MAX_STEP, warnings),
        token=read_text(params, "token", MAX_TOKEN_CHARS, warnings),
        tokenizer=read_choice(params, "tokenizer", tokenizers, warnings),
        warnings=warnings,
    )
