"""The textbook corpora, each with the settings its textbook trains it with: the Train form's first choices and the
Learn page's examples.

>>> CORPUS_PRESETS["banana_bandana"].settings.merges, CORPUS_PRESETS["sample"].text is None
(6, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from session.training_settings import TrainSettings

# The textbook examples start from plain settings (words split at whitespace, characters, no marker, ties to the
# pair seen first), then change what they need: spelled out, as the page's defaults are byte-level.
_PLAIN = TrainSettings(split="whitespace", units="chars", end_of_word="", tie_break="first")


@dataclass(frozen=True)
class CorpusPreset:
    """A built-in corpus. ``text`` None means the shipped sample (read by the page);
    ``settings`` None means "keep whatever settings are chosen"."""

    label: str
    text: str | None
    settings: TrainSettings | None = None


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
}
