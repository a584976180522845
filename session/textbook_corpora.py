"""The textbook corpora, each with the settings its textbook trains it with: the Train form's first choices and the
Learn page's examples.

>>> CORPUS_PRESETS["banana_bandana"].settings.merges, CORPUS_PRESETS["sample"].text is None
(6, True)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from bpe_core.language_mix import mix_copies, mixed_corpus
from bpe_core.languages import ENGLISH, bundled_languages
from session.training_settings import TrainSettings

# The textbook examples start from plain settings (words split at whitespace, characters, no marker, ties to the
# pair seen first), then change what they need: spelled out, as the page's defaults are byte-level.
_PLAIN = TrainSettings(split="whitespace", units="chars", end_of_word="", tie_break="first")


@dataclass(frozen=True)
class LanguageMix:
    """A corpus mixed from the bundled preambles (``bpe_core.language_mix``): each language's weight by its code
    (None: every language alike), in about ``characters`` characters.

    >>> ALIKE.copies()["hin"], ENGLISH_90.copies()["eng"], ENGLISH_90.copies()["hin"]  # 1,992 characters a copy
    (1, 452, 1)
    """

    weights: tuple[tuple[str, float], ...] | None
    characters: int

    def copies(self) -> dict[str, int]:
        """How many copies of each language's text the corpus holds."""
        return mix_copies(None if self.weights is None else dict(self.weights), self.characters)

    def text(self) -> str:
        return _mixed_text(self)


@functools.lru_cache(maxsize=2)
def _mixed_text(mix: LanguageMix) -> str:
    """The corpus of ``mix``, made once (a million characters for English 90%)."""
    return mixed_corpus(None if mix.weights is None else dict(mix.weights), mix.characters)


_OTHERS = [language.code for language in bundled_languages() if language.code != ENGLISH]
ALIKE = LanguageMix(None, 100_000)  # about one preamble each
# English 90%, the rest shared: a million characters, for each other language to keep one whole copy
ENGLISH_90 = LanguageMix(((ENGLISH, 0.9), *((code, 0.1 / len(_OTHERS)) for code in _OTHERS)), 1_000_000)


@dataclass(frozen=True)
class CorpusPreset:
    """A built-in corpus. ``text`` None means the shipped sample (read by the page), or ``mix``'s text;
    ``settings`` None means "keep whatever settings are chosen"."""

    label: str
    text: str | None
    settings: TrainSettings | None = None
    mix: LanguageMix | None = None


CORPUS_PRESETS: dict[str, CorpusPreset] = {
    "documents": CorpusPreset(
        "Textbook: four “document” sentences",
        "This is the first document.\nThis document is the second document.\n"
        "And this is the third one.\nIs this the first document?",
        replace(_PLAIN, end_of_word="</w>", merges=15),
    ),
    "low": CorpusPreset(
        "Textbook: low lower newest widest",
        "low lower newest widest low low low low newest newest newest newest",
        replace(_PLAIN, end_of_word="_", stop_by="vocab_size", vocab_size=50, min_frequency=2),
    ),
    "banana": CorpusPreset(
        "Textbook: banana banana", "banana banana", replace(_PLAIN, split="none", space_marker=True, merges=10)
    ),
    "banana_bandana": CorpusPreset(
        "Textbook: banana_bandana_", "banana_bandana_", replace(_PLAIN, split="none", merges=6)
    ),
    "hello": CorpusPreset(
        "Textbook: hello world lines", "hello world\nhello there\nworld peace\nhi there", replace(_PLAIN, merges=100)
    ),
    "sample": CorpusPreset("Real text: King James Bible", None),
    "languages": CorpusPreset("Real text: one text in 58 languages, alike", None, mix=ALIKE),
    "english90": CorpusPreset("Real text: one text in 58 languages, 90% English", None, mix=ENGLISH_90),
}
