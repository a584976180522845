"""The trained models all sessions share, counted in bytes, and the key that names one training run."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bpe_core.footprint import model_bytes
from bpe_core.piece_cache import DEFAULT_BUDGET_MB
from bpe_core.pretrained import held_bytes
from drawing.describe import text_digest
from jobs.budget import positive_setting
from jobs.store import ByteStore
from session.training_settings import TrainSettings


def corpus_key(corpus: str | list[str]) -> str:
    r"""Names a corpus as training reads it: one text, or the lines of files (which train differently).

    >>> corpus_key("a\nb") == corpus_key(["a\n", "b"])
    False
    """
    if isinstance(corpus, str):
        return "text:" + text_digest(corpus)
    return "lines:" + text_digest(json.dumps(corpus))


def training_key(corpus: str | list[str], settings: TrainSettings) -> str:
    """Names one training run: the same corpus and settings give the same model."""
    return f"{corpus_key(corpus)}:{json.dumps(settings.as_dict(), sort_keys=True)}"


MEMORY_ENV = "BPE_MODEL_MEMORY_MB"


def model_memory_mb(environ: Mapping[str, str] = os.environ) -> int:
    """The most memory the trained models of this server process may hold together (``BPE_MODEL_MEMORY_MB``).

    >>> model_memory_mb({}), model_memory_mb({MEMORY_ENV: "256"})
    (512, 256)
    """
    return positive_setting(environ, MEMORY_ENV, 512, int, "whole number of megabytes")


PUBLISHED_MEMORY_ENV = "BPE_PUBLISHED_MEMORY_MB"


def published_memory_mb(environ: Mapping[str, str] = os.environ) -> int:
    """The most memory the published tokenizers read by this server process may hold together
    (``BPE_PUBLISHED_MEMORY_MB``; GPT-2's, the default model's neighbour, is kept apart).

    >>> published_memory_mb({}), published_memory_mb({PUBLISHED_MEMORY_ENV: "300"})
    (1024, 300)
    """
    return positive_setting(environ, PUBLISHED_MEMORY_ENV, 1024, int, "whole number of megabytes")


PIECE_CACHE_ENV = "BPE_PIECE_CACHE_MB"


def piece_cache_mb(environ: Mapping[str, str] = os.environ) -> int:
    """The most memory the piece caches of all tokenizers of this server process may hold together
    (``BPE_PIECE_CACHE_MB``; ``bpe_core.piece_cache``): each word a model has cut, kept to cut it again at once.

    >>> piece_cache_mb({}), piece_cache_mb({PIECE_CACHE_ENV: "16"})
    (64, 16)
    """
    return positive_setting(environ, PIECE_CACHE_ENV, DEFAULT_BUDGET_MB, int, "whole number of megabytes")


class PublishedStore(ByteStore):
    """The published tokenizers a server has read, by name, at most ``ceiling_bytes`` together by each one's size
    as measured once (``bpe_core.pretrained.held_bytes``): the least recently used is released, and read again when
    next asked. The engine keeps them here once ``bpe_core.pretrained.keep_published_in`` is given the store.

    >>> store = PublishedStore(200 * 2**20)
    >>> store.get_or_make("cl100k_base", lambda: "GPT-4's model"), store.held_bytes == held_bytes("cl100k_base")
    ("GPT-4's model", True)
    """

    def __init__(self, ceiling_bytes: int):
        super().__init__(ceiling_bytes, what="published tokenizers", setting=PUBLISHED_MEMORY_ENV)

    def get_or_make(self, key, make, *, pinned=False, size=None):
        return super().get_or_make(key, make, pinned=pinned, size=held_bytes(key) if size is None else size)


PER_VISITOR_ENV = "BPE_MODELS_PER_VISITOR"


def models_per_visitor(environ: Mapping[str, str] = os.environ) -> int:
    """How many trained models the tabs of one visitor may hold in this server process (``BPE_MODELS_PER_VISITOR``)
    before its own are the first released to make room: its least recently used, before any other visitor's.

    >>> models_per_visitor({}), models_per_visitor({PER_VISITOR_ENV: "2"})
    (4, 2)
    """
    return positive_setting(environ, PER_VISITOR_ENV, 4, int, "whole number")


class ModelStore(ByteStore):
    """Trained models shared by all sessions, by training key, at most ``ceiling_bytes`` together as
    ``bpe_core.footprint.model_bytes`` counts them; the least recently used released first, the default model pinned.
    A model belongs to the visitor (``visitor()``: None for nobody in particular) who trained it or asked for it
    last, and a visitor holding more than ``per_visitor`` makes room with its own first. Sessions hold a
    :class:`TrainedHandle`, never the model, so a released model's memory is free at once.

    >>> from bpe_core import Config, train
    >>> store = ModelStore(ceiling_bytes=10 * 2**20)
    >>> model = store.get_or_make("banana", lambda: train("banana_bandana_", Config(split="none"), merges=2))
    >>> store.get("banana") is model, 0 < store.held_bytes < 2**20
    (True, True)
    """

    def __init__(
        self, ceiling_bytes: int, per_visitor: int | None = None, visitor: Callable[[], str | None] = lambda: None
    ):
        super().__init__(
            ceiling_bytes,
            size_of=model_bytes,
            what="trained models",
            setting=MEMORY_ENV,
            per_owner=per_visitor,
            owner_of=visitor,
        )


@dataclass(frozen=True)
class TrainedHandle:
    """What a session holds of a trained model: its key in the model store and what trains it again if the store
    released it (its training text and settings, which the session holds anyway as its corpus)."""

    key: str
    training_text: str | list[str] = field(repr=False, compare=False)
    settings: TrainSettings = field(compare=False)
