"""Symbol units: what the base symbols of a piece are, characters or bytes.

This is the one swappable part that differs between character-level BPE (the
textbook's) and byte-level BPE (GPT-2's), like the pre-tokenizer, model and
decoder parts of HF tokenizers: how a piece becomes base symbols, which base
symbols a vocabulary starts with, what bytes a token stands for, and how
decoded symbols turn back into text.  ``units_for(config)`` picks the part.

>>> units_for(Config(end_of_word="_")).symbols("low")
['l', 'o', 'w', '_']
>>> units_for(Config(end_of_word="</w>", glue_marker=True)).symbols("low")
['l', 'o', 'w</w>']
>>> units_for(Config(units="bytes")).symbols(" é")
['Ġ', 'Ã', '©']
>>> units_for(Config(split="none", space_marker=True)).symbols("a b")
['a', 'Ġ', 'b']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from .bytelevel import ALPHABET, BYTE_TO_CHAR, bytes_to_display, symbols_to_bytes
from .config import SPACE_MARKER, UNK_TOKEN, Config

# A piece's base ids, and the input bytes behind each of them (0 for a marker).
BaseEncoder = Callable[[str], tuple[list[int], list[int]]]
BYTE_TOKENS = [f"<0x{byte:02X}>" for byte in range(256)]  # byte-fallback tokens, as HF and sentencepiece spell them
BYTE_TOKEN_VALUE = {token: byte for byte, token in enumerate(BYTE_TOKENS)}  # <0xE2> -> 0xE2


class ByteUnits:
    """Every piece is its UTF-8 bytes, each shown as GPT-2's stand-in character (``Ġ`` for a space).

    >>> ByteUnits().token_bytes("ĠÃ©"), ByteUnits().alphabet([])[:3]
    (b' \\xc3\\xa9', ['!', '"', '#'])
    """

    def symbols(self, piece: str) -> list[str]:
        return list(bytes_to_display(piece.encode("utf-8")))

    def alphabet(self, pieces: Iterable[str]) -> list[str]:
        """All 256 bytes, whatever the corpus: no text is ever unknown."""
        return list(ALPHABET)

    def token_bytes(self, token: str) -> bytes:
        return symbols_to_bytes(token)

    def is_byte_fallback(self, token: str) -> bool:
        return False

    # A vocabulary trained without the full byte alphabet (common in tokenizer.json files) lacks some
    # bytes: HF drops such a byte from the text, and so does this encoder.

    def base_encoder(self, vocab: dict[str, int], special_ids: dict[int, str]) -> BaseEncoder:
        """A dropped byte is counted with the symbol before it (the first one, at the start), so
        that the spans still cover the whole text.

        >>> ByteUnits().base_encoder({"a": 0, "b": 1}, {})("cabc")
        ([0, 1], [2, 2])
        """
        table = [vocab.get(BYTE_TO_CHAR[byte]) for byte in range(256)]

        def encode(piece: str) -> tuple[list[int], list[int]]:
            ids: list[int] = []
            lengths: list[int] = []
            dropped = 0  # before the first kept byte
            for byte in piece.encode("utf-8"):
                token_id = table[byte]
                if token_id is None:
                    if lengths:
                        lengths[-1] += 1
                    else:
                        dropped += 1
                    continue
                ids.append(token_id)
                lengths.append(1 + dropped)
                dropped = 0
            return ids, lengths

        return encode

    def ids_encoder(self, vocab: dict[str, int], special_ids: dict[int, str]) -> Callable[[str], list[int]]:
        """The piece's base ids alone (the encoder's hot path).

        >>> ByteUnits().ids_encoder({"a": 0, "b": 1}, {})("abc")  # no "c" in the vocabulary: dropped
        [0, 1]
        """
        table = [vocab.get(BYTE_TO_CHAR[byte]) for byte in range(256)]
        if None not in table:
            every_byte = cast(list[int], table)
            return lambda piece: [every_byte[byte] for byte in piece.encode("utf-8")]
        return lambda piece: [token_id for byte in piece.encode("utf-8") if (token_id := table[byte]) is not None]

    def restore(self, text: str, *, last: bool) -> str:
        return text


class CharUnits:
    """Every piece is its characters, with an end-of-word marker or a space marker if configured.

    >>> units = CharUnits(Config(end_of_word="</w>"))
    >>> units.restore("low</w>er</w>", last=True), units.token_bytes("<0xE2>")
    ('low er', b'\\xe2')
    """

    def __init__(self, config: Config):
        self.config = config
        self.marker = config.end_of_word
        self.byte_fallback = config.unknown == "byte_fallback"

    def symbols(self, piece: str) -> list[str]:
        symbols = list(piece.replace(" ", SPACE_MARKER) if self.config.space_marker else piece)
        if self.marker is not None and symbols:
            if self.config.glue_marker:
                symbols[-1] += self.marker
            else:
                symbols.append(self.marker)
        return symbols

    def sources(self, piece: str) -> list[str]:
        """The input character behind each base symbol; a marker of its own has none."""
        chars = list(piece)
        if self.marker and not self.config.glue_marker and chars:
            chars.append("")
        return chars

    def alphabet(self, pieces: Iterable[str]) -> list[str]:
        """The symbols the corpus holds, in code-point order, then the byte-fallback tokens.

        With a glued marker, as in HF's trainer: every character of the corpus, also one seen only at
        a word's end (so it is known inside a word later), then the characters that carry the marker.

        >>> CharUnits(Config(end_of_word="</w>", glue_marker=True)).alphabet(["ab", "ab"])
        ['a', 'b', 'b</w>']
        """
        seen = {symbol for piece in pieces for symbol in self.symbols(piece)}
        if self.marker and self.config.glue_marker:
            ends = {symbol for symbol in seen if symbol.endswith(self.marker) and symbol != self.marker}
            characters = (seen - ends) | {symbol[: -len(self.marker)] for symbol in ends}
            symbols = sorted(characters) + sorted(ends - characters)
        else:
            symbols = sorted(seen)
        if self.byte_fallback:
            symbols += [token for token in BYTE_TOKENS if token not in seen]
        return symbols

    def is_byte_fallback(self, token: str) -> bool:
        return token in BYTE_TOKEN_VALUE

    def token_bytes(self, token: str) -> bytes:
        """A byte-fallback token is its byte; any other token is its text (markers kept)."""
        if token in BYTE_TOKEN_VALUE:
            return bytes([BYTE_TOKEN_VALUE[token]])
        return token.encode("utf-8")

    def base_encoder(self, vocab: dict[str, int], special_ids: dict[int, str]) -> BaseEncoder:
        byte_ids = [vocab.get(token) for token in BYTE_TOKENS]
        unk = vocab.get(UNK_TOKEN)

        def encode(piece: str) -> tuple[list[int], list[int]]:
            ids: list[int] = []
            lengths: list[int] = []
            for symbol, char in zip(self.symbols(piece), self.sources(piece)):
                size = len(char.encode("utf-8"))
                token_id = vocab.get(symbol)
                if token_id is not None and token_id not in special_ids:
                    ids.append(token_id)
                    lengths.append(size)
                elif self.byte_fallback:
                    # HF falls back on the whole symbol, a glued end-of-word marker included.
                    data = symbol.encode("utf-8")
                    ids += [cast(int, byte_ids[byte]) for byte in data]  # a byte-fallback model holds every byte
                    lengths += [1] * size + [0] * (len(data) - size)
                else:
                    ids.append(cast(int, unk))  # reached only by a model with the unknown token (a special token)
                    lengths.append(size)
            return ids, lengths

        return encode

    def ids_encoder(self, vocab: dict[str, int], special_ids: dict[int, str]) -> Callable[[str], list[int]]:
        encode = self.base_encoder(vocab, special_ids)
        return lambda piece: encode(piece)[0]

    def restore(self, text: str, *, last: bool) -> str:
        """Markers back to spaces; the marker after the last word is dropped."""
        if self.marker:
            if last and text.endswith(self.marker):
                text = text[: -len(self.marker)]
            text = text.replace(self.marker, " ")
        return text.replace(SPACE_MARKER, " ") if self.config.space_marker else text


Units = ByteUnits | CharUnits


def units_for(config: Config) -> Units:
    """The symbol units a configuration asks for."""
    return ByteUnits() if config.byte_level else CharUnits(config)
