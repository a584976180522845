"""One text in many languages: the preamble of the Universal Declaration of Human Rights in 58 languages and 27
scripts (``data/udhr/``, with its source and terms in the README there), read once on first use.  The same content
in each language, so that what a tokenizer spends on each can be compared (``bpe_core.premium``).

Languages are keyed by their ISO 639-3 code, as the data keys them: English is ``eng``.

>>> english = bundled_language(ENGLISH)
>>> english.name, english.script
('English', 'Latin')
>>> english.text[:47]
'Whereas recognition of the inherent dignity and'
>>> len(bundled_texts()), len({language.script for language in bundled_languages()})
(58, 27)
>>> bundled_texts(["hin", "eng"]).keys()
dict_keys(['hin', 'eng'])
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

PREAMBLES = Path(__file__).parent / "data" / "udhr" / "preambles.json"
ENGLISH = "eng"  # the reference language unless another is chosen
# To be named wherever the texts are shown (the UN's terms; data/udhr/README.md)
SOURCE = (
    "The preamble of the Universal Declaration of Human Rights, from the Unicode Consortium's \u201cUDHR in "
    "Unicode\u201d collection (translations gathered by the UN Office of the High Commissioner for Human Rights)"
)


@dataclass(frozen=True)
class Language:
    """One bundled language: its code, its name and script in English, the Declaration's title and its preamble."""

    code: str  # ISO 639-3
    name: str
    script: str
    title: str
    text: str  # the preamble: the text that is measured


@functools.cache
def bundled_languages() -> tuple[Language, ...]:
    """Every bundled language, in the data file's order (English first, then by script)."""
    records = json.loads(PREAMBLES.read_text(encoding="utf-8"))
    return tuple(
        Language(code, record["language"], record["script"], record["title"], record["preamble"])
        for code, record in records.items()
    )


def bundled_language(code: str) -> Language:
    """The bundled language of that code; an unknown code is a ValueError naming the codes there are.

    >>> bundled_language("klingon")
    Traceback (most recent call last):
    ...
    ValueError: no bundled text is in the language 'klingon': the codes are eng, spa, fra, ... (ISO 639-3)
    """
    for language in bundled_languages():
        if language.code == code:
            return language
    codes = [language.code for language in bundled_languages()]
    raise ValueError(
        f"no bundled text is in the language {code!r}: the codes are {', '.join(codes[:3])}, ... (ISO 639-3)"
    )


def bundled_texts(codes: Iterable[str] | None = None) -> dict[str, str]:
    """The preambles by language code (a new dict each call, so a caller may change it): every language in the
    data's order, or those of ``codes`` in their order."""
    if codes is None:
        return {language.code: language.text for language in bundled_languages()}
    return {code: bundled_language(code).text for code in codes}
