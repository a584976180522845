"""Names that cannot impersonate: what draws nothing, checked against the regex module's Unicode properties, and the
confusable skeleton against cases written by hand from Unicode's table."""

from __future__ import annotations

import unicodedata

import pytest
import regex

from live_class.names import draws_nothing, name_keys, names_clash, prototypes, skeleton

DEFAULT_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


def test_every_default_ignorable_character_draws_nothing_and_so_do_only_format_and_control_ones():
    for point in range(0x110000):
        character = chr(point)
        if DEFAULT_IGNORABLE.match(character):
            assert draws_nothing(character), f"U+{point:04X}"
        elif draws_nothing(character):
            assert unicodedata.category(character) in ("Cf", "Cc"), f"U+{point:04X}"


@pytest.mark.parametrize(
    ("character", "prototype"),
    [("\u0410", "A"), ("\u0430", "a"), ("\u0440", "p"), ("0", "O"), ("1", "l"), ("I", "l"), ("m", "rn"), ("a", "a")],
)
def test_the_table_is_unicodes_own(character, prototype):
    assert prototypes().get(character, character) == prototype


def test_the_whole_table_is_read():
    assert len(prototypes()) > 6_000  # confusables.txt 17.0.0 lists 6,565 characters


@pytest.mark.parametrize(
    ("one", "other", "clash"),
    [
        ("Ada", "ada", True),
        ("Ada", "\u0410da", True),  # Cyrillic А
        ("Ada", "Ada\u034f", True),  # combining grapheme joiner
        ("Ada", "Ada\ufe0f", True),  # variation selector 16
        ("Ada", "\uff21\uff44\uff41", True),  # fullwidth
        ("Ada", "A\u200dda", True),  # zero-width joiner
        ("Sam", "Sarn", True),  # r n looks like m
        ("Ada", "Adam", False),
        ("Zoë", "Zoe", False),  # a diaeresis is seen
        ("Zoë", "Zoe\u0308", True),  # the same, decomposed
        ("Bob", "\u0412ob", True),  # Cyrillic В, which folds to в: no lookalike of b in the table
        ("Bob", "\u0392ob", True),  # Greek Β, which folds to β
        ("Bob", "\u13f4ob", True),  # Cherokee Ᏼ, which folds to itself and whose prototype is a capital B
        ("Max", "\u041cax", True),  # Cyrillic М
        ("Max", "\u039cax", True),  # Greek Μ
        ("Ian", "ian", True),  # the table takes a capital I for l: case alone still clashes
        ("Ian", "lan", True),  # and so does the lookalike
        ("ian", "lan", False),  # a small i is no l
    ],
)
def test_names_clash_when_they_look_the_same(one, other, clash):
    assert names_clash(one, other) is clash and names_clash(other, one) is clash


def test_a_skeleton_is_decomposed():
    assert skeleton("é") == "e\u0301"


def ascii_letter_lookalikes() -> list[tuple[str, str]]:
    """Every single code point of Unicode's table whose prototype is one ASCII letter, with that letter."""
    return [
        (source, prototype)
        for source, prototype in prototypes().items()
        if len(source) == 1 and len(prototype) == 1 and prototype.isascii() and prototype.isalpha()
    ]


def test_every_lookalike_of_an_ascii_letter_clashes_with_the_letter_in_front_and_inside_a_name():
    """In front, where a capital stands ("Вob" as "Bob"), and among small letters ("Moх" as "Mox"); and with the
    ASCII name in any case, as two ASCII names that differ only in case clash ("Вob" and "bob")."""
    lookalikes = ascii_letter_lookalikes()
    assert len(lookalikes) > 1_000  # 1,314 in confusables.txt 17.0.0
    missed = []
    for source, letter in lookalikes:
        for before, after in (("", "ob"), ("Mo", ""), ("Ma", "x")):
            imitated = before + letter + after
            for ascii_name in (imitated, imitated.lower(), imitated.upper()):
                if not names_clash(before + source + after, ascii_name):
                    missed.append((f"U+{ord(source):04X}", before + source + after, ascii_name))
    assert missed == []


def test_the_keys_settle_on_every_code_point():
    """``name_keys`` folds and skeletonizes a bounded number of times: enough for every single code point."""
    for point in range(0x110000):
        if unicodedata.category(chr(point)) in ("Cs", "Co", "Cn"):
            continue
        for key in name_keys(chr(point)):
            assert skeleton(key.casefold()) == key, f"U+{point:04X}"
