"""Reading a part's JSON spec, and the errors when it cannot be read.

A ``tokenizer.json`` names each swappable part by its ``"type"`` and options.  A type this
engine does not implement raises :class:`UnsupportedPart`; a spec with a missing or
mistyped key raises a plain ``ValueError`` naming the part and the key (never a bare
``KeyError`` or ``TypeError``).  :class:`Spec` reads options with those checks, and takes
as required the keys HF itself requires; its ``pattern`` is compiled as Oniguruma reads it
(:mod:`bpe_core.pipeline.oniguruma`).

>>> spec = Spec("normalizer", {"type": "Replace", "pattern": {"String": " "}, "content": "_"})
>>> spec.text("content")
'_'
>>> spec.pattern().findall("a b c")  # a String pattern is matched literally
[' ', ' ']
>>> Spec("decoder", {"type": "CTC"}).unsupported()
UnsupportedPart("decoder 'CTC' is not supported here")
>>> Spec("normalizer", {"type": "Prepend"}).text("prepend")
Traceback (most recent call last):
ValueError: normalizer 'Prepend' is malformed: missing key 'prepend'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from .oniguruma import Untranslatable, compile_oniguruma


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


def unsupported(kind: str, spec: Any) -> UnsupportedPart:
    """The error for a ``kind`` part ("normalizer", "pre_tokenizer", ...) of an unknown type."""
    name = spec.get("type") if isinstance(spec, dict) else spec
    return UnsupportedPart(f"{kind} {name!r} is not supported here")


_REQUIRED: Any = object()  # marks an option HF requires (no default)
_JSON_NAMES = {bool: "true or false", str: "a string", int: "an integer", list: "a list", dict: "an object"}


class Spec:
    """One part's JSON object, read with errors that name the part."""

    def __init__(self, kind: str, raw: Any) -> None:
        if not isinstance(raw, dict):
            raise ValueError(f"a {kind} spec must be a JSON object, not {raw!r}")
        if not isinstance(raw.get("type"), str):
            raise ValueError(f"a {kind} spec needs a string 'type': {raw!r}")
        self.kind = kind
        self.raw = raw
        self.type: str = raw["type"]

    def error(self, problem: str) -> ValueError:
        return ValueError(f"{self.kind} {self.type!r} is malformed: {problem}")

    def unsupported(self, detail: str = "") -> UnsupportedPart:
        if detail:
            return UnsupportedPart(f"{self.kind} {self.type!r}: {detail} is not supported here")
        return unsupported(self.kind, self.raw)

    def _get(self, key: str, expected: type, default: Any) -> Any:
        if key not in self.raw:
            if default is _REQUIRED:
                raise self.error(f"missing key {key!r}")
            return default
        value = self.raw[key]
        # JSON true is a Python int too: a flag is not a count, nor the reverse.
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise self.error(f"{key!r} must be {_JSON_NAMES[expected]}, not {value!r}")
        return value

    def flag(self, key: str, default: Any = _REQUIRED) -> bool:
        return self._get(key, bool, default)

    def text(self, key: str, default: Any = _REQUIRED) -> str:
        return self._get(key, str, default)

    def char(self, key: str) -> str:
        """An option HF reads as one Rust ``char``: exactly one code point."""
        value = self.text(key)
        if len(value) != 1:
            raise self.error(f"{key!r} must be exactly one character, not {value!r}")
        return value

    def count(self, key: str) -> int:
        value = self._get(key, int, _REQUIRED)
        if value < 0:
            raise self.error(f"{key!r} must not be negative, not {value}")
        return value

    def choice(self, key: str, options: tuple[str, ...], default: Any = _REQUIRED) -> str:
        value = self.text(key, default)
        if value not in options:
            raise self.error(f"{key!r} must be one of {', '.join(options)}, not {value!r}")
        return value

    def parts(self, key: str) -> list[Any]:
        """The sub-specs of a Sequence (each one is checked when it is built)."""
        return self._get(key, list, _REQUIRED)

    def prepend_scheme(self) -> str:
        """Metaspace's ``prepend_scheme`` as HF reads it: "always" unless given; the legacy
        ``add_prefix_space: false`` means "never" and contradicts any other declared scheme."""
        scheme = self.choice("prepend_scheme", ("always", "never", "first"), "always")
        if self.flag("add_prefix_space", True) is False:
            if scheme != "never":
                raise self.error("add_prefix_space false contradicts prepend_scheme " + repr(scheme))
        return scheme

    def pattern(self) -> regex.Pattern[str]:
        """The ``pattern`` option, ``{"String": s}`` (matched literally) or ``{"Regex": r}``."""
        pattern = self._get("pattern", dict, _REQUIRED)
        if len(pattern) != 1 or not {"String", "Regex"} >= pattern.keys():
            raise self.error(f'\'pattern\' must be {{"String": ...}} or {{"Regex": ...}}, not {pattern!r}')
        [(variant, source)] = pattern.items()
        if not isinstance(source, str):
            raise self.error(f"the pattern must be a string, not {source!r}")
        if variant == "String":
            return regex.compile(regex.escape(source))
        try:
            return compile_oniguruma(source)
        except Untranslatable as construct:
            raise self.unsupported(f"the Oniguruma construct {construct} in {source!r}") from None
        except regex.error as error:
            raise self.error(f"the regex {source!r} does not compile: {error}") from None
