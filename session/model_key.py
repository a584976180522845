"""One key for "this model", for every cache of work on a model: a page's cached function takes the model itself
and Streamlit hashes it by ``model_key`` (``st.cache_data(..., hash_funcs=MODEL_HASH)``), so no key is threaded
beside the model. A published tokenizer is keyed by its name; any other model by a hash of what it does and what
its training counted, computed once per model object for the whole server (weakly: a store may release it).

>>> from bpe_core import Config, train
>>> from bpe_core.pretrained import load_pretrained
>>> model_key(load_pretrained("cl100k_base"))
'published cl100k_base'
>>> banana = train("banana", Config(split="none"), merges=2)
>>> model_key(banana) == model_key(train("banana", Config(split="none"), merges=2)), len(model_key(banana))
(True, 64)
"""

from __future__ import annotations

import hashlib
import json
import weakref
from collections.abc import Callable
from typing import Any

from bpe_core import Tokenizer
from bpe_core.pipeline.tokenizer import PipelineTokenizer
from bpe_core.pretrained import published_name
from bpe_core.rank_tokenizer import AnyTokenizer, RankTokenizer

_KEYS: weakref.WeakKeyDictionary[AnyTokenizer, str] = weakref.WeakKeyDictionary()  # a model -> its fingerprint


def model_key(model: AnyTokenizer) -> str:
    """``model``'s key: ``published <name>`` for a published tokenizer, else its ``model_fingerprint``."""
    if (name := published_name(model)) is not None:
        return f"published {name}"
    if (key := _KEYS.get(model)) is None:
        key = _KEYS[model] = model_fingerprint(model)
    return key


def model_fingerprint(model: AnyTokenizer) -> str:
    """A stable hash of what a model does (name, configuration, vocabulary, merges) and of the counts its training
    saw at each step, which the pages draw (a race, a count curve) though encoding ignores them."""
    counts = [step.count for step in model.steps]
    payload = json.dumps([model.name, model.config.to_dict(), sorted(model.vocab.items()), model.merges, counts])
    return hashlib.sha256(payload.encode("ascii")).hexdigest()


# Streamlit matches a hash function by the argument's exact class: every class a model can be
MODEL_HASH: dict[str | type, Callable[[Any], str]] = {
    model_class: model_key for model_class in (Tokenizer, PipelineTokenizer, RankTokenizer)
}
