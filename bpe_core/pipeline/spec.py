"""Reading a part's JSON spec, and the errors when it cannot be read.

A ``tokenizer.json`` names each swappable part by its ``"type"`` and options.  A type HF
knows and this engine does not implement raises :class:`UnsupportedPart`; a type HF does not
know, a missing or mistyped key, raises a plain ``ValueError`` in one sentence that names the
field's path in the file (never a bare ``KeyError`` or ``TypeError``).  :class:`Spec` reads
options with those checks, and takes as required the keys HF itself requires; its ``pattern``
is compiled as Oniguruma reads it (:mod:`bpe_core.pipeline.oniguruma`).

>>> spec = Spec("normalizer", {"type": "Replace", "pattern": {"String": " "}, "content": "_"})
>>> spec.text("content")
'_'
>>> spec.pattern().findall("a b c")  # a String pattern is matched literally
[' ', ' ']
>>> Spec("decoder", {"type": "CTC"}).unsupported()
UnsupportedPart("decoder 'CTC' is not supported here")
>>> Spec("normalizer.normalizers[1]", {"type": "Prepend"}).text("prepend")
Traceback (most recent call last):
ValueError: normalizer.normalizers[1].prepend is missing
>>> Spec("pre_tokenizer", {"type": "Splitter"})
Traceback (most recent call last):
ValueError: pre_tokenizer.type: "Splitter" is not a pre_tokenizer type HF tokenizers knows
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from ..formats.fields import checked_id, shown
from .oniguruma import Untranslatable, compile_oniguruma

# The types HF tokenizers 0.23 reads for each part (the rest it refuses).
HF_TYPES = {
    "normalizer": {"BertNormalizer", "Strip", "StripAccents", "NFC", "NFD", "NFKC", "NFKD", "Sequence"}
    | {"Lowercase", "Nmt", "Precompiled", "Replace", "Prepend", "ByteLevel"},
    "pre_tokenizer": {"BertPreTokenizer", "ByteLevel", "CharDelimiterSplit", "Digits", "FixedLength", "Metaspace"}
    | {"Punctuation", "Sequence", "Split", "UnicodeScripts", "Whitespace", "WhitespaceSplit"},
    "decoder": {"BPEDecoder", "ByteFallback", "ByteLevel", "CTC", "Fuse", "Metaspace", "Replace", "Sequence"}
    | {"Strip", "WordPiece"},
    "post_processor": {"BertProcessing", "ByteLevel", "RobertaProcessing", "Sequence", "TemplateProcessing"},
}
MAX_COUNT = 2**64 - 1  # HF's counts are usize


class UnsupportedPart(ValueError):
    """A part (or an option of one) that HF knows and this engine does not implement."""


def in_order(steps: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    """One step that runs ``steps`` one after the other: a Sequence part (normalizers, decoders,
    post-processors; pre-tokenizers pass one more argument and chain their own)."""

    def run(value):
        for step in steps:
            value = step(value)
        return value

    return run


_REQUIRED: Any = object()  # marks an option HF requires (no default)
_JSON_NAMES = {bool: "true or false", str: "a string", int: "a whole number", list: "a list", dict: "an object"}


class Spec:
    """One part's JSON object at ``path`` in the file (``pre_tokenizer.pretokenizers[1]``), read with
    errors that name the field.  The part is the path's first name."""

    def __init__(self, path: str, raw: Any, *, typed: bool = True) -> None:
        """``typed=False`` reads an object inside a part (a template's piece), which has no type."""
        self.path = path
        role = path.split(".")[0].split("[")[0]
        if not isinstance(raw, dict):
            raise ValueError(f"{path}: {shown(raw)} is not an object" + ' with a "type"' * typed)
        if not typed:
            self.raw, self.type = raw, ""
            return
        if "type" not in raw:
            raise ValueError(f"{path}.type is missing")
        if not isinstance(raw["type"], str):
            raise ValueError(f"{path}.type: {shown(raw['type'])} is not a string")
        if raw["type"] not in HF_TYPES.get(role, (raw["type"],)):
            raise ValueError(f"{path}.type: {shown(raw['type'])} is not a {role} type HF tokenizers knows")
        self.raw = raw
        self.type = raw["type"]

    def error(self, key: str, problem: str) -> ValueError:
        return ValueError(f"{self.path}.{key}: {problem}")

    def unsupported(self, detail: str = "") -> UnsupportedPart:
        if detail:
            return UnsupportedPart(f"{self.path} {self.type!r}: {detail} is not supported here")
        return UnsupportedPart(f"{self.path} {self.type!r} is not supported here")

    def _get(self, key: str, expected: type, default: Any) -> Any:
        if key not in self.raw:
            if default is _REQUIRED:
                raise ValueError(f"{self.path}.{key} is missing")
            return default
        value = self.raw[key]
        # JSON true is a Python int too: a flag is not a count, nor the reverse.
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise self.error(key, f"{shown(value)} is not {_JSON_NAMES[expected]}")
        return value

    def flag(self, key: str, default: Any = _REQUIRED) -> bool:
        return self._get(key, bool, default)

    def text(self, key: str, default: Any = _REQUIRED) -> str:
        return self._get(key, str, default)

    def char(self, key: str) -> str:
        """An option HF reads as one Rust ``char``: exactly one code point."""
        value = self.text(key)
        if len(value) != 1:
            raise self.error(key, f"{shown(value)} is not one character")
        return value

    def count(self, key: str, top: int = MAX_COUNT) -> int:
        """A whole number from 0 to ``top`` (HF's usize, or u32 for an id)."""
        value = self._get(key, int, _REQUIRED)
        if not 0 <= value <= top:
            raise self.error(key, f"{value} is not a whole number from 0 to {top}")
        return value

    def id(self, key: str) -> tuple[str, int]:
        """A ``[token, id]`` pair, as BERT's post-processor names its ``cls`` and ``sep``."""
        value = self._get(key, list, _REQUIRED)
        if len(value) != 2 or not isinstance(value[0], str):
            raise self.error(key, f"{shown(value)} is not a [token, id] pair")
        return value[0], checked_id(value[1], f"{self.path}.{key}[1]")

    def choice(self, key: str, options: tuple[str, ...], default: Any = _REQUIRED) -> str:
        value = self.text(key, default)
        if value not in options:
            raise self.error(key, f"{shown(value)} is not one of {', '.join(options)}")
        return value

    def array(self, key: str) -> list:
        return self._get(key, list, _REQUIRED)

    def mapping(self, key: str) -> dict:
        return self._get(key, dict, _REQUIRED)

    def steps(self, key: str) -> list[Spec]:
        """The steps of a Sequence, each read at its own path (``normalizer.normalizers[2]``)."""
        return [Spec(f"{self.path}.{key}[{index}]", part) for index, part in enumerate(self._get(key, list, _REQUIRED))]

    def prepend_scheme(self) -> str:
        """Metaspace's ``prepend_scheme`` as HF reads it: "always" unless given; the legacy
        ``add_prefix_space: false`` means "never" and contradicts any other declared scheme."""
        scheme = self.choice("prepend_scheme", ("always", "never", "first"), "always")
        if self.flag("add_prefix_space", True) is False:
            if scheme != "never":
                raise self.error("add_prefix_space", f"false contradicts prepend_scheme {shown(scheme)}")
        return scheme

    def pattern(self) -> regex.Pattern[str]:
        """The ``pattern`` option, ``{"String": s}`` (matched literally) or ``{"Regex": r}``."""
        pattern = self._get("pattern", dict, _REQUIRED)
        if len(pattern) != 1 or not {"String", "Regex"} >= pattern.keys():
            raise self.error("pattern", f'{shown(pattern)} is not {{"String": ...}} or {{"Regex": ...}}')
        [(variant, source)] = pattern.items()
        if not isinstance(source, str):
            raise self.error(f"pattern.{variant}", f"{shown(source)} is not a string")
        if variant == "String":
            return regex.compile(regex.escape(source))
        try:
            return compile_oniguruma(source)
        except Untranslatable as construct:
            raise self.unsupported(f"the Oniguruma construct {construct} in {source!r}") from None
        except regex.error as error:
            raise self.error("pattern.Regex", f"{shown(source)} does not compile ({error})") from None
