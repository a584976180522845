"""The trained models all sessions share, and the key that names one training run."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from bpe_core import Tokenizer
from drawing.describe import text_digest
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


class ModelStore:
    """A thread-safe least-recently-used map from training key to model, at most ``capacity`` long.

    >>> store = ModelStore(capacity=1)
    >>> store.put("a", 1); store.put("b", 2)
    >>> store.get("a") is None, store.get("b")
    (True, 2)
    """

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._models: OrderedDict[str, Tokenizer] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[str, threading.Lock] = {}  # key -> held while one caller makes that model

    def get_or_make(self, key: str, make):
        """The model stored under ``key``, else ``make()``'s result, stored.

        Callers asking for the same key at the same time wait for one ``make()`` instead of each
        training (a class pressing Train on the sample together trains it once). An exception from
        ``make()`` reaches its caller and stores nothing.

        >>> store = ModelStore(capacity=2)
        >>> store.get_or_make("a", lambda: 1), store.get_or_make("a", lambda: 2)
        (1, 1)
        """
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        with making:
            model = self.get(key)
            if model is None:
                model = make()
                self.put(key, model)
        with self._lock:
            if not making.locked():
                self._making.pop(key, None)
        return model

    def get(self, key: str):
        with self._lock:
            if key not in self._models:
                return None
            self._models.move_to_end(key)
            return self._models[key]

    def put(self, key: str, model) -> None:
        with self._lock:
            self._models[key] = model
            self._models.move_to_end(key)
            while len(self._models) > self.capacity:
                self._models.popitem(last=False)

    def __len__(self) -> int:
        return len(self._models)
