"""Normalizers: the first step of an HF tokenizer, a function from text to text.

:func:`build_normalizer` takes the object a ``tokenizer.json`` holds under
``"normalizer"`` and returns a function that does to a text what HF tokenizers 0.23 does
(``None`` for no normalizer).  Types: NFC, NFD, NFKC, NFKD, Lowercase, Strip, Prepend,
Replace and Sequence; any other raises :class:`UnsupportedPart`.

>>> llama2 = build_normalizer({"type": "Sequence", "normalizers": [
...     {"type": "Prepend", "prepend": "▁"},
...     {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]})
>>> llama2("Hello world")
'▁Hello▁world'
>>> llama2("")  # Prepend leaves an empty text empty
''
>>> build_normalizer({"type": "NFKC"})("ﬁ①")
'fi1'

Where HF's Unicode data differs from Python's (``unicodedata`` is Unicode 14.0 here):

* HF normalizes with the tables of unicode-normalization-alignments 0.1.12, which are
  Unicode 9.0.  Characters added since that normalization touches (㋿, ꟲ, Dives Akuru
  vowel signs, ...) pass through HF unchanged, so they pass through here unchanged too.
* HF lowercases with Rust's ``char::to_lowercase``, which knows a newer Unicode than
  Python: case pairs added after Python's Unicode version are lowercased by HF only.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from typing import Literal, cast

import regex

from .oniguruma import replace_matches
from .spec import Spec, in_order

Normalizer = Callable[[str], str]
NormalForm = Literal["NFC", "NFD", "NFKC", "NFKD"]

# Characters Unicode added after 9.0 that normalization touches in Unicode 14.0 (they have a
# decomposition, a combining class or a composition); HF's 9.0 tables treat each of them as
# an unknown character: a starter that never decomposes or composes.  Found by running every
# such character through HF's NFD, NFKD and NFC.
_NEWER_THAN_HF_TABLES = regex.compile(
    "(["
    "\u07fd\u0898-\u089f\u08ca-\u08d3\u09fe\u0c3c\u0d3b-\u0d3c\u0eba\u1715\u1abf-\u1ace"
    "\u1df6-\u1dfa\u32ff\ua7f2-\ua7f4\ua82c\uab69"
    "\U00010781-\U00010785\U00010787-\U000107b0\U000107b2-\U000107ba\U00010d24-\U00010d27"
    "\U00010eab-\U00010eac\U00010f46-\U00010f50\U00010f82-\U00010f85\U00011070\U0001133b"
    "\U0001145e\U00011839-\U0001183a\U00011930\U00011935\U00011938\U0001193d-\U0001193e"
    "\U00011943\U000119e0\U00011a34\U00011a47\U00011a99\U00011d42\U00011d44-\U00011d45"
    "\U00011d97\U00016ff0-\U00016ff1\U0001e130-\U0001e136\U0001e2ae\U0001e2ec-\U0001e2ef"
    "\U0001f16c\U0001fbf0-\U0001fbf9"
    "])"
)

# Rust's char::is_whitespace: Unicode White_Space (str.strip() would also take U+001C..U+001F).
WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def unicode_normalize(form: NormalForm, text: str) -> str:
    """``unicodedata.normalize`` as HF's Unicode 9.0 tables do it.

    Each character of ``_NEWER_THAN_HF_TABLES`` is an unknown starter there: nothing
    reorders or composes across it, so the text between two of them normalizes on its own.

    >>> unicode_normalize("NFKC", "㍿ ㋿"), unicodedata.normalize("NFKC", "㋿")
    ('株式会社 ㋿', '令和')
    """
    if not _NEWER_THAN_HF_TABLES.search(text):
        return unicodedata.normalize(form, text)
    # split() with a group alternates: normalizable text, kept character, normalizable text, ...
    parts = _NEWER_THAN_HF_TABLES.split(text)
    return "".join(part if index % 2 else unicodedata.normalize(form, part) for index, part in enumerate(parts))


def lowercase(text: str) -> str:
    """Each character's own lowercase: Python's ``str.lower`` turns a word-final capital
    sigma into ς, Rust's ``char::to_lowercase`` (HF's) always into σ.

    >>> lowercase("ΟΔΟΣ İ"), "ΟΔΟΣ".lower()
    ('οδοσ i̇', 'οδος')
    """
    return text.replace("Σ", "σ").lower()


def _strip(left: bool, right: bool) -> Normalizer:
    if left and right:
        return lambda text: text.strip(WHITE_SPACE)
    if left:
        return lambda text: text.lstrip(WHITE_SPACE)
    if right:
        return lambda text: text.rstrip(WHITE_SPACE)
    return _identity


def _identity(text: str) -> str:
    return text


def _prepend(prefix: str) -> Normalizer:
    return lambda text: prefix + text if text else text


def _replace(spec: Spec) -> Normalizer:
    return functools.partial(replace_matches, spec.pattern(), spec.text("content"), field=f"{spec.path}.pattern")


def _sequence(spec: Spec) -> Normalizer:
    return in_order([_build(step) for step in spec.steps("normalizers")])


def _build(spec: Spec) -> Normalizer:
    if spec.type in ("NFC", "NFD", "NFKC", "NFKD"):
        return functools.partial(unicode_normalize, cast(NormalForm, spec.type))
    if spec.type == "Lowercase":
        return lowercase
    if spec.type == "Strip":
        return _strip(spec.flag("strip_left"), spec.flag("strip_right"))
    if spec.type == "Prepend":
        return _prepend(spec.text("prepend"))
    if spec.type == "Replace":
        return _replace(spec)
    if spec.type == "Sequence":
        return _sequence(spec)
    raise spec.unsupported()


def build_normalizer(spec: dict | None) -> Normalizer | None:
    """The normalizer ``spec`` describes, or None when there is none (``null`` in the JSON)."""
    if spec is None:
        return None
    return _build(Spec("normalizer", spec))


__all__ = ["WHITE_SPACE", "Normalizer", "build_normalizer", "lowercase", "unicode_normalize"]
