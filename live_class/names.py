"""A student's name: as the class shows it, and the keys that tell whether two names would look the same.

A name, as typed and in Unicode's compatibility form (NFKC: "Ａｄａ" is "Ada"), is stripped of the characters that
draw nothing (default-ignorable and format characters: U+034F, variation selectors, zero-width spaces). Each gets
two keys, case folded and reduced to its confusable skeleton (Unicode TR39: Cyrillic "а" is Latin "a", "rn" is "m")
until neither changes it: one folded first, one skeletonized first. Folding first alone would hide a capital
lookalike whose small letter is no lookalike (Cyrillic "В" folds to "в", which the table does not take for "b");
the skeleton first alone would part "Ian" from "ian" (the table takes a capital "I" for "l"). Two names clash when
they share a key. The skeleton's table is Unicode's own ``confusables.txt``, shipped in ``data/`` (xz).

>>> names_clash("Ada", "ada"), names_clash("Ada", "Аda"), names_clash("Ada", "Ａｄａ"), names_clash("Ada", "Ada\\u034f")
(True, True, True, True)
>>> names_clash("Bob", "Вob"), names_clash("Max", "Μax"), names_clash("Ian", "ian"), names_clash("Ian", "lan")
(True, True, True, True)
>>> names_clash("Ada", "Adam"), names_clash("Sam", "Sarn"), names_clash("ian", "lan")
(False, True, False)
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


_SETTLING_ROUNDS = 4  # folding and the skeleton settle within three rounds on every code point (tests/live_class)


def _settled(text: str) -> str:
    """Case folded and skeletonized again and again until neither changes it.

    >>> _settled("Ᏼob")  # Cherokee Ᏼ folds to itself, and its prototype is a capital B
    'bob'
    """
    for _ in range(_SETTLING_ROUNDS):
        folded = skeleton(text.casefold())
        if folded == text:
            break
        text = folded
    return text


def name_keys(name: str) -> tuple[str, ...]:
    """What a name is compared by (see the module's docstring): its keys folded first and skeletonized first, of
    the name as typed and in its compatibility form (which can hide a lookalike: NFKC turns the lunate sigma "ϲ",
    the table's lookalike of "c", into "ς"), each once.

    >>> name_keys("Bob"), name_keys("Вob"), name_keys("Ian")
    (('bob',), ('ʙob', 'bob'), ('ian', 'lan'))
    """
    keys: dict[str, None] = {}
    for form in (unicodedata.normalize("NFKC", name), name):
        visible = "".join(ch for ch in form if not draws_nothing(ch))
        keys.update(dict.fromkeys((_settled(visible), _settled(skeleton(visible)))))
    return tuple(keys)


def names_clash(one: str, other: str) -> bool:
    """Whether two names share a key: the one would pass for the other."""
    return not set(name_keys(one)).isdisjoint(name_keys(other))
