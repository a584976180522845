"""A student's name: as the class shows it, and the key that tells whether two names would look the same.

Two names clash when their keys are equal: each is put in Unicode's compatibility form (NFKC: "Ａｄａ" is "Ada"),
stripped of the characters that draw nothing (default-ignorable and format characters: U+034F, variation
selectors, zero-width spaces), case folded, and reduced to its confusable skeleton (Unicode TR39: Cyrillic "а" is
Latin "a", "rn" is "m"). The skeleton's table is Unicode's own ``confusables.txt``, shipped in ``data/`` (xz).

>>> name_key("Ada") == name_key("ada") == name_key("Аda") == name_key("Ａｄａ") == name_key("Ada\\u034f")
True
>>> name_key("Ada") == name_key("Adam"), name_key("Sam") == name_key("Sarn")
(False, True)
"""

from __future__ import annotations

import functools
import lzma
import unicodedata
from pathlib import Path

CONFUSABLES = Path(__file__).resolve().parent / "data" / "confusables.txt.xz"  # Unicode 17.0.0, with its notice

# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt): drawn as nothing wherever they stand
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip


def draws_nothing(character: str) -> bool:
    """A default-ignorable character, or any other format or control character (category Cf, Cc).

    >>> draws_nothing("\\u200d"), draws_nothing("\\ufe0f"), draws_nothing("\\n"), draws_nothing("a")
    (True, True, True, False)
    """
    point = ord(character)
    if any(low <= point <= high for low, high in _DEFAULT_IGNORABLE):
        return True
    return unicodedata.category(character) in ("Cf", "Cc")


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character and the prototype it looks like (``confusables.txt``: source ; target ; type)."""
    table: dict[str, str] = {}
    for line in lzma.decompress(CONFUSABLES.read_bytes()).decode("utf-8").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            source, target = fields[0].strip(), fields[1].split()
            table[chr(int(source, 16))] = "".join(chr(int(point, 16)) for point in target)
    return table


def skeleton(text: str) -> str:
    """TR39's skeleton: decomposed, each character replaced by its prototype, decomposed again.

    >>> skeleton("раураl") == skeleton("paypal")  # Cyrillic р, а, у
    True
    """
    table = prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


def name_key(name: str) -> str:
    """What two names are compared by (see the module's docstring)."""
    visible = "".join(ch for ch in unicodedata.normalize("NFKC", name) if not draws_nothing(ch))
    return skeleton(visible.casefold())
