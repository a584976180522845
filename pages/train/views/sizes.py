"""How big a model a corpus choice starts with. A textbook corpus brings its own settings; its small sizes (a
vocabulary of 50, min frequency 2) do not follow the user to a real corpus, where they would train nothing. Your own
pasted text stops once the best pair occurs fewer than twice, so a paragraph is not memorised word by word.

>>> from pages.train.views.form import PASTE
>>> low = sizes_for_corpus("sample", "low", DEFAULT_SETTINGS)
>>> (low.stop_by, low.vocab_size, low.min_frequency)
('vocab_size', 50, 2)
>>> size_changes(low, sizes_for_corpus("low", PASTE, low))
'Sizes for this corpus: vocabulary size 50 → 2,000 merges.'
"""

from __future__ import annotations

from dataclasses import replace

from pages.train.views.form import CORPUS_PRESETS, PASTE
from session.training_settings import DEFAULT_SETTINGS, TrainSettings

PASTE_MIN_FREQUENCY = 2  # your own text: a pair seen once is not merged
PASTE_SIZE_NOTE = (
    "For your own text, training stops once the best pair occurs fewer than twice (min frequency 2), so a word "
    "seen once stays in pieces instead of becoming a token. Min frequency 1 merges everything."
)
_SIZE_FIELDS = ("stop_by", "merges", "vocab_size", "min_frequency")


def _textbook(source: str) -> TrainSettings | None:
    preset = CORPUS_PRESETS.get(source)
    return preset.settings if preset else None


def sizes_for_corpus(previous: str, source: str, settings: TrainSettings) -> TrainSettings:
    """The form's settings after the corpus changes from ``previous`` to ``source``: a textbook's own settings; the
    default sizes when leaving a textbook for a real corpus (the other settings are kept); min frequency 2 for your
    own pasted text.

    >>> sizes_for_corpus("low", "sample", replace(DEFAULT_SETTINGS, vocab_size=50, min_frequency=2)) == DEFAULT_SETTINGS
    True
    """
    textbook = _textbook(source)
    if textbook is not None:
        return textbook
    if _textbook(previous) is not None:
        settings = replace(settings, **{name: getattr(DEFAULT_SETTINGS, name) for name in _SIZE_FIELDS})
    if source == PASTE:
        settings = replace(settings, min_frequency=PASTE_MIN_FREQUENCY)
    return settings


def _size(settings: TrainSettings) -> str:
    """
    >>> _size(DEFAULT_SETTINGS), _size(replace(DEFAULT_SETTINGS, stop_by="vocab_size", vocab_size=50))
    ('2,000 merges', 'vocabulary size 50')
    """
    if settings.stop_by == "vocab_size":
        return f"vocabulary size {settings.vocab_size:,}"
    return f"{settings.merges:,} merges"


def size_changes(before: TrainSettings, after: TrainSettings) -> str:
    """The sizes a corpus change moved, in one sentence ("" when none did).

    >>> size_changes(DEFAULT_SETTINGS, replace(DEFAULT_SETTINGS, min_frequency=2))
    'Sizes for this corpus: min frequency 1 → 2.'
    """
    changed = []
    if _size(before) != _size(after):
        changed.append(f"{_size(before)} → {_size(after)}")
    if before.min_frequency != after.min_frequency:
        changed.append(f"min frequency {before.min_frequency:,} → {after.min_frequency:,}")
    return f"Sizes for this corpus: {', '.join(changed)}." if changed else ""
