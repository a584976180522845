"""How big a model a corpus choice starts with. A textbook corpus brings its own settings; its small sizes (a
vocabulary of 50, min frequency 2) do not follow the user to a real corpus, where they would train nothing. Your own
pasted text stops once the best pair occurs fewer than twice, so a paragraph is not memorised word by word.

>>> from pages.train.views.form import PASTE
>>> low = sizes_for_corpus("sample", "low", DEFAULT_SETTINGS)
>>> (low.stop_by, low.vocab_size, low.min_frequency)
('vocab_size', 50, 2)
>>> size_changes("low", PASTE, low, sizes_for_corpus("low", PASTE, low))  # doctest: +NORMALIZE_WHITESPACE
"Changed for this corpus: stop after 2,000 merges (was: stop at a vocabulary of 50 tokens). Why: a textbook's small
sizes would train almost nothing on a real corpus."
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


def _stop_words(settings: TrainSettings) -> str:
    """When training stops, in words.

    >>> _stop_words(DEFAULT_SETTINGS), _stop_words(replace(DEFAULT_SETTINGS, stop_by="vocab_size", vocab_size=50))
    ('stop after 2,000 merges', 'stop at a vocabulary of 50 tokens')
    """
    if settings.stop_by == "vocab_size":
        return f"stop at a vocabulary of {settings.vocab_size:,} tokens"
    return f"stop after {settings.merges:,} merges"


def _frequency_words(min_frequency: int) -> str:
    """Which pairs may merge, in words.

    >>> _frequency_words(1), _frequency_words(2)
    ('merge any pair, even one seen once', 'merge only pairs seen at least twice')
    >>> _frequency_words(3)
    'merge only pairs seen at least 3 times'
    """
    if min_frequency == 1:
        return "merge any pair, even one seen once"
    return f"merge only pairs seen at least {'twice' if min_frequency == 2 else f'{min_frequency:,} times'}"


def _reasons(previous: str, source: str, frequency_moved: bool) -> list[str]:
    """Why a corpus change from ``previous`` to ``source`` moved the sizes."""
    if _textbook(source) is not None:
        return ["they are the textbook example's own"]
    reasons = ["a textbook's small sizes would train almost nothing on a real corpus"] if _textbook(previous) else []
    if source == PASTE and frequency_moved:
        reasons.append("a word seen once in your own text should stay in pieces")
    return reasons


def size_changes(previous: str, source: str, before: TrainSettings, after: TrainSettings) -> str:
    """The sizes a corpus change from ``previous`` to ``source`` moved, and why, in plain words ("" when none did):
    a caption beside the settings, which the numbers in the boxes do not explain.

    >>> size_changes("sample", PASTE, DEFAULT_SETTINGS, replace(DEFAULT_SETTINGS, min_frequency=2))
    'Changed for this corpus: merge only pairs seen at least twice (was: merge any pair, even one seen once). Why: \
a word seen once in your own text should stay in pieces.'
    """
    changed = []
    if _stop_words(before) != _stop_words(after):
        changed.append(f"{_stop_words(after)} (was: {_stop_words(before)})")
    frequency_moved = before.min_frequency != after.min_frequency
    if frequency_moved:
        changed.append(f"{_frequency_words(after.min_frequency)} (was: {_frequency_words(before.min_frequency)})")
    if not changed:
        return ""
    why = "; ".join(_reasons(previous, source, frequency_moved))
    return f"Changed for this corpus: {'; '.join(changed)}." + (f" Why: {why}." if why else "")
