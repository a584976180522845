r"""Reading a part's JSON spec, and the errors when it cannot be read.

A ``tokenizer.json`` names each swappable part by its ``"type"`` and options.  A type this
engine does not implement raises :class:`UnsupportedPart`; a spec with a missing or
mistyped key raises a plain ``ValueError`` naming the part and the key (never a bare
``KeyError`` or ``TypeError``).  :class:`Spec` reads options with those checks, and takes
as required the keys HF itself requires.

The ``pattern`` option of Replace and Split is a regex written for Oniguruma, the engine
HF runs.  :meth:`Spec.pattern` compiles it with the ``regex`` module, rewriting the few
constructs whose meaning differs there, and :func:`match_segments` cuts a text at its
matches the way HF does, with the onig crate's rule for empty matches.  Checked against
HF on every character: ``\s``, ``\w``, ``\h``, POSIX brackets, ``\p{..}`` and the
contractions group ``(?i:'s|'t|...)``; on sample texts: ``\b``, ``^``, ``$``, ``\Z`` and
empty matches.  Not translated: inside a scoped
``(?i:...)`` the ``regex`` module folds case one character at a time (Oniguruma also
matches "ß" to "ss"), and under ``(?i)`` it folds ``\p{Lu}``-style classes (Oniguruma
does not); a nested class, ``&&``, or ``\W`` or ``\H`` inside a class raises UnsupportedPart.

>>> spec = Spec("normalizer", {"type": "Replace", "pattern": {"String": " "}, "content": "_"})
>>> spec.text("content")
'_'
>>> match_segments(spec.pattern(), "a b")
[(0, 1, False), (1, 2, True), (2, 3, False)]
>>> Spec("decoder", {"type": "CTC"}).unsupported()
UnsupportedPart("decoder 'CTC' is not supported here")
>>> Spec("normalizer", {"type": "Prepend"}).text("prepend")
Traceback (most recent call last):
ValueError: normalizer 'Prepend' is malformed: missing key 'prepend'
"""

from __future__ import annotations

from typing import Any

import regex


class UnsupportedPart(ValueError):
    """A part (or an option of one) that HF knows and this engine does not implement."""


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
            raise self.error(f"'pattern' must be {{\"String\": ...}} or {{\"Regex\": ...}}, not {pattern!r}")
        [(variant, source)] = pattern.items()
        if not isinstance(source, str):
            raise self.error(f"the pattern must be a string, not {source!r}")
        if variant == "String":
            return regex.compile(regex.escape(source))
        try:
            return regex.compile(_from_oniguruma(source), regex.MULTILINE | regex.FULLCASE)
        except _Untranslatable as construct:
            raise self.unsupported(f"the Oniguruma construct {construct} in {source!r}") from None
        except regex.error as error:
            raise self.error(f"the regex {source!r} does not compile: {error}") from None


class _Untranslatable(Exception):
    """An Oniguruma construct with no equivalent in the ``regex`` module's V0 syntax."""


# Oniguruma's \w in a class (and [[:word:]]) is the regex module's \w without the two joiners
# (U+200C, U+200D); alone, \w (and \W, \b, \B) also takes the Latin-1 ² ³ ¹ ¼ ½ ¾.
_WORD_IN_CLASS = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}"
_WORD = _WORD_IN_CLASS + r"\xb2\xb3\xb9\xbc-\xbe"
_HEX = "0-9A-Fa-f"  # Oniguruma's \h is a hex digit; the regex module's is horizontal space
_OUTSIDE_CLASS = {
    "w": f"[{_WORD}]",
    "W": f"[^{_WORD}]",
    "h": f"[{_HEX}]",
    "H": f"[^{_HEX}]",
    "b": f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))",
    "B": f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))",
    "Z": r"(?=\n?\Z)",  # Ruby's \Z also matches before a final newline
    "z": r"\Z",
}
_INSIDE_CLASS = {"w": _WORD_IN_CLASS, "h": _HEX}
# POSIX brackets whose Oniguruma (Unicode) meaning differs from the regex module's.
_POSIX = {"punct": r"\p{P}\p{S}", "digit": r"\d", "alnum": r"\p{Alphabetic}\d", "word": _WORD_IN_CLASS}
_INLINE_FLAGS = regex.compile(r"\(\?[imx]*(?:-[imx]*)?[:)]")
_POSIX_BRACKET = regex.compile(r"\[:(\^?)([a-z]+):\]")
_HEX_BRACES = regex.compile(r"\\x\{([0-9A-Fa-f]+)\}")


def _from_oniguruma(source: str) -> str:
    r"""Rewrite a pattern in Oniguruma's Ruby syntax for the ``regex`` module (which then runs
    with MULTILINE, since Ruby's ``^`` and ``$`` always match at line ends).

    >>> _from_oniguruma(r"(?m:.)\h[[:punct:]\w]")
    '(?s:.)[0-9A-Fa-f][\\p{P}\\p{S}\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}]'
    """
    out: list[str] = []
    position, inside_class = 0, False
    while position < len(source):
        char = source[position]
        if char == "\\" and position + 1 < len(source):
            braces = _HEX_BRACES.match(source, position)
            if braces:
                out.append(f"\\U{int(braces.group(1), 16):08x}")
                position = braces.end()
                continue
            letter = source[position + 1]
            if inside_class and letter in "WH":
                raise _Untranslatable("\\" + letter + " inside a character class")
            table = _INSIDE_CLASS if inside_class else _OUTSIDE_CLASS
            out.append(table.get(letter, source[position : position + 2]))
            position += 2
        elif inside_class and char == "[":
            posix = _POSIX_BRACKET.match(source, position)
            if not posix or posix.group(1):
                raise _Untranslatable("a nested or negated character class")
            out.append(_POSIX.get(posix.group(2), posix.group()))
            position = posix.end()
        elif inside_class and source.startswith("&&", position):
            raise _Untranslatable("a class intersection (&&)")
        elif not inside_class and (flags := _INLINE_FLAGS.match(source, position)):
            out.append(flags.group().replace("m", "s"))  # Ruby's m is "dot matches newline"
            position = flags.end()
        else:
            if char == "[" or (char == "]" and inside_class):
                inside_class = char == "["
            out.append(char)
            position += 1
    return "".join(out)


def oniguruma_matches(pattern: regex.Pattern[str], text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each match, as the Rust onig crate's iterator (HF's) reports them.

    Both engines agree until an empty match.  Then onig drops any empty match that ends where
    the previous match ended and searches again one character later, so no match starts at
    an empty match (Python's iterator lets a non-empty one start there).

    >>> oniguruma_matches(regex.compile("x*"), "xab"), oniguruma_matches(regex.compile("|a"), "a")
    ([(0, 1), (2, 2), (3, 3)], [(0, 0), (1, 1)])
    """
    spans: list[tuple[int, int]] = []
    for match in pattern.finditer(text):
        if match.start() == match.end():
            return _empty_aware_matches(pattern, text)
        spans.append(match.span())
    return spans


def _empty_aware_matches(pattern: regex.Pattern[str], text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    position, previous_end = 0, -1
    while position <= len(text):
        match = pattern.search(text, position)
        if match is None:
            break
        start, end = match.span()
        if start == end == previous_end:
            position += 1
            continue
        spans.append((start, end))
        position = previous_end = end
    return spans


def match_segments(pattern: regex.Pattern[str], text: str) -> list[tuple[int, int, bool]]:
    """``text`` cut into ``(start, end, is_match)`` segments, in order, as HF cuts it
    for Split and Replace (an empty text is one empty non-match)."""
    if not text:
        return [(0, 0, False)]
    segments: list[tuple[int, int, bool]] = []
    previous = 0
    for start, end in oniguruma_matches(pattern, text):
        if start > previous:
            segments.append((previous, start, False))
        segments.append((start, end, True))
        previous = end
    if previous < len(text):
        segments.append((previous, len(text), False))
    return segments


def replace_matches(pattern: regex.Pattern[str], content: str, text: str) -> str:
    """``text`` with every match replaced by ``content`` taken literally (no group references).

    >>> replace_matches(regex.compile("b*"), "X", "abc")
    'XaXcX'
    """
    return "".join(content if is_match else text[start:end] for start, end, is_match in match_segments(pattern, text))
