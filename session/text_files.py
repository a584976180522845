"""The text of a file a user uploads (a corpus, a tokenizer file): UTF-8, or a message saying what it is instead.

>>> decode_text_file("héllo".encode())
'héllo'
"""

from __future__ import annotations

import codecs


def decode_text_file(data: bytes) -> str:
    """The text of an uploaded file, which must be UTF-8 (a leading BOM is dropped).

    Raises ``ValueError`` saying what the data looks like instead (UTF-16/32, binary, another encoding).

    >>> decode_text_file(codecs.BOM_UTF8 + "héllo".encode())
    'héllo'
    """
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise ValueError("this is UTF-16 or UTF-32 text; please save it as UTF-8 and upload it again")
    if b"\x00" in data:
        raise ValueError("this looks like a binary file (it contains NUL bytes), not UTF-8 text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"this is not UTF-8 text (byte 0x{data[error.start]:02X} at position {error.start} "
            "is not valid UTF-8; Latin-1 or Windows-1252 perhaps?), please save it as UTF-8"
        ) from None
    return text.removeprefix("\ufeff")
