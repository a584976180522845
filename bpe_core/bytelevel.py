"""GPT-2's byte-to-unicode table: every byte gets a printable stand-in character.

Byte-level BPE works on the 256 byte values, but a merge list and a vocabulary
are easier to read (and to store as JSON text) when each byte is one visible
character.  GPT-2 keeps the printable Latin-1 bytes as themselves and moves the
other 68 (control characters, space, 0x7F-0xA0, soft hyphen) to U+0100 and up,
in byte order.  So a space (0x20) shows as ``Ġ`` (U+0120) and a newline as ``Ċ``.

>>> BYTE_TO_CHAR[ord(" ")], BYTE_TO_CHAR[ord("\\n")], BYTE_TO_CHAR[ord("a")]
('Ġ', 'Ċ', 'a')
>>> bytes_to_display("é ".encode("utf-8"))
'Ã©Ġ'
>>> symbols_to_bytes("Ã©Ġ").decode("utf-8")
'é '
"""

from __future__ import annotations


def _build_table() -> list[str]:
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    kept = set(printable)
    table = [""] * 256
    shifted = 0
    for byte in range(256):
        if byte in kept:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(256 + shifted)
            shifted += 1
    return table


BYTE_TO_CHAR: list[str] = _build_table()
CHAR_TO_BYTE: dict[str, int] = {char: byte for byte, char in enumerate(BYTE_TO_CHAR)}
# The 256 stand-ins in code-point order: the order GPT-2 and HF number them in.
ALPHABET: list[str] = sorted(BYTE_TO_CHAR)


# Latin-1 decodes byte b to code point b; this table then moves each to its stand-in, at C speed.
_LATIN1_TO_STAND_IN = {byte: char for byte, char in enumerate(BYTE_TO_CHAR)}


def bytes_to_display(data: bytes) -> str:
    """Raw bytes as one string of stand-in characters (``b" a"`` -> ``"Ġa"``)."""
    return data.decode("latin-1").translate(_LATIN1_TO_STAND_IN)


def symbols_to_bytes(symbols: str) -> bytes:
    """Inverse of the table; raises KeyError on a character that is not a stand-in."""
    return bytes(CHAR_TO_BYTE[char] for char in symbols)
