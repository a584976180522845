"""The Merges page's address: the tab, the step, the token whose tree is drawn and the tokenizer shown, as query
parameters beside the model's own (``viz.train.links``), and back.

A malformed or hostile value is never an error: it is dropped, the page keeps its default, and a warning says so.

>>> merges_params("tree", 12, "banana_", "model")
{'tab': 'tree', 'step': '12', 'token': 'banana_'}
>>> link = read_merges_params({"tab": "race", "step": "x"}, tabs=("steps", "race"), tokenizers=("model", "gpt2"))
>>> link.tab, link.step, link.warnings
('race', None, ['step=x: not a whole number from 1'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

PARAMS = ("tab", "step", "token", "tokenizer")  # the Merges page's own query parameters
MAX_TOKEN_CHARS = 200  # a token longer than this is no merged token of any tokenizer shown here


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
    link = MergesLink()
    if "tab" in params:
        if params["tab"] in tabs:
            link.tab = params["tab"]
        else:
            link.warnings.append(f"tab={params['tab']}: no such tab")
    if "step" in params:
        text = params["step"]
        if text.isascii() and text.isdigit() and int(text) >= 1:
            link.step = int(text)
        else:
            link.warnings.append(f"step={text}: not a whole number from 1")
    if "token" in params:
        if 0 < len(params["token"]) <= MAX_TOKEN_CHARS:
            link.token = params["token"]
        else:
            link.warnings.append(f"token: not a token (1 to {MAX_TOKEN_CHARS} characters)")
    if "tokenizer" in params:
        if params["tokenizer"] in tokenizers:
            link.tokenizer = params["tokenizer"]
        else:
            link.warnings.append(f"tokenizer={params['tokenizer']}: no such tokenizer")
    return link
