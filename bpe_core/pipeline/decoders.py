r"""Decoders: from the token strings of some ids back to text, as HF tokenizers 0.23 does.

:func:`build_decoder` takes the object a ``tokenizer.json`` holds under ``"decoder"``
and returns a function from a list of token strings to the text.  HF decoders are a
chain: each step turns the list of strings into a new list (ByteLevel and Fuse make it a
single string), and the last list is concatenated.  Types: ByteLevel, Metaspace, Replace,
ByteFallback, Fuse, Strip, BPEDecoder and Sequence; any other raises
:class:`UnsupportedPart`.  With no decoder, HF joins the tokens with spaces.

>>> llama2 = build_decoder({"type": "Sequence", "decoders": [
...     {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
...     {"type": "ByteFallback"}, {"type": "Fuse"},
...     {"type": "Strip", "content": " ", "start": 1, "stop": 0}]})
>>> llama2(["▁Hello", "▁w", "orld", "<0xE2>", "<0x9C>", "<0x93>"])
'Hello world✓'
>>> llama2(["▁a", "<0xE2>", "<0x9C>"])  # bytes that are not UTF-8: one � per byte token
'a��'
>>> build_decoder({"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True})(["Hi", "Ġthere"])
'Hi there'
>>> build_decoder(None)(["Hi", "there"])
'Hi there'
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import regex

from ..bytelevel import BYTE_TO_CHAR, symbols_to_bytes
from .oniguruma import replace_matches
from .spec import Spec, in_order

Decoder = Callable[[list[str]], str]
_Step = Callable[[list[str]], list[str]]

_NOT_A_STAND_IN = regex.compile(f"[^{regex.escape(''.join(BYTE_TO_CHAR))}]")
# HF reads <0xNN> with Rust's u8::from_str_radix, which also takes a sign: "<0x+A>" is byte 10.
_BYTE_TOKEN = regex.compile(r"<0x([0-9A-Fa-f]{2}|\+[0-9A-Fa-f])>")


def _byte_level(tokens: list[str]) -> list[str]:
    """All tokens to one string: each token's stand-ins back to their bytes (a token with any
    other character keeps its own UTF-8 bytes), decoded like Rust's from_utf8_lossy."""
    joined = "".join(tokens)
    if not _NOT_A_STAND_IN.search(joined):
        data = symbols_to_bytes(joined)
    else:
        data = b"".join(
            token.encode("utf-8") if _NOT_A_STAND_IN.search(token) else symbols_to_bytes(token) for token in tokens
        )
    # Python's "replace" and Rust's lossy decoding agree: one U+FFFD per maximal invalid subpart.
    return [data.decode("utf-8", errors="replace")]


def _byte_fallback(tokens: list[str]) -> list[str]:
    """Runs of ``<0xNN>`` tokens become the text of their bytes, or, when those bytes are not
    valid UTF-8, one U+FFFD per token of the run (not Rust's lossy decoding)."""
    out: list[str] = []
    run = bytearray()

    def flush() -> None:
        if run:
            try:
                out.append(run.decode("utf-8"))
            except UnicodeDecodeError:
                out.extend("\ufffd" * len(run))
            run.clear()

    for token in tokens:
        match = _BYTE_TOKEN.fullmatch(token)
        if match:
            run.append(int(match.group(1), 16))
        else:
            flush()
            out.append(token)
    flush()
    return out


def _fuse(tokens: list[str]) -> list[str]:
    return ["".join(tokens)]


def _strip(content: str, start: int, stop: int) -> _Step:
    """Per token: drop up to ``start`` leading and ``stop`` trailing ``content`` characters.

    HF's Rust panics when the two cuts cross or when the trailing scan runs past the first
    character (a token made only of ``content``, shorter than ``stop``): a ValueError here.
    """

    def strip_token(token: str) -> str:
        head = len(token) - len(token.lstrip(content))
        tail = len(token) - len(token.rstrip(content))
        if (tail == len(token) and stop > len(token)) or min(head, start) > len(token) - min(tail, stop):
            raise ValueError(f"HF's Strip decoder fails on the token {token!r} (start={start}, stop={stop})")
        return token[min(head, start) : len(token) - min(tail, stop)]

    return lambda tokens: [strip_token(token) for token in tokens]


def _metaspace(spec: Spec) -> _Step:
    replacement = spec.char("replacement")
    spec.flag("split", True)
    # HF drops every replacement character of the first token (not only a leading one) unless
    # the pre-tokenizer never prepends one.
    drop_in_first = spec.prepend_scheme() != "never"

    def decode(tokens: list[str]) -> list[str]:
        return [
            token.replace(replacement, "" if index == 0 and drop_in_first else " ")
            for index, token in enumerate(tokens)
        ]

    return decode


def _bpe_suffix(suffix: str) -> _Step:
    """The end-of-word suffix becomes a space, except in the last token where it goes."""
    return lambda tokens: [
        token.replace(suffix, "" if index == len(tokens) - 1 else " ") for index, token in enumerate(tokens)
    ]


def _replace(spec: Spec) -> _Step:
    replace = functools.partial(replace_matches, spec.pattern(), spec.text("content"), field=f"{spec.path}.pattern")
    return lambda tokens: [replace(token) for token in tokens]


def _sequence(spec: Spec) -> _Step:
    return in_order([_build(step) for step in spec.steps("decoders")])


def _build(spec: Spec) -> _Step:
    kind = spec.type
    if kind == "ByteLevel":
        for key in ("add_prefix_space", "trim_offsets"):
            spec.flag(key)  # required by HF, though decoding does not use them
        spec.flag("use_regex", True)
        return _byte_level
    if kind == "Metaspace":
        return _metaspace(spec)
    if kind == "Replace":
        return _replace(spec)
    if kind == "ByteFallback":
        return _byte_fallback
    if kind == "Fuse":
        return _fuse
    if kind == "Strip":
        return _strip(spec.char("content"), spec.count("start"), spec.count("stop"))
    if kind == "BPEDecoder":
        return _bpe_suffix(spec.text("suffix"))
    if kind == "Sequence":
        return _sequence(spec)
    raise spec.unsupported()


def build_decoder(spec: dict | None) -> Decoder:
    """The decoder ``spec`` describes; with None, HF's own fallback (tokens joined by spaces)."""
    if spec is None:
        return " ".join
    step = _build(Spec("decoder", spec))
    return lambda tokens: "".join(step(list(tokens)))


__all__ = ["Decoder", "build_decoder"]
