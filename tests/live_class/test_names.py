"""Names that cannot impersonate: what draws nothing, checked against the regex module's Unicode properties, and the
confusable skeleton against cases written by hand from Unicode's table."""

from __future__ import annotations

import unicodedata

import pytest
import regex

from live_class.names import draws_nothing, name_key, prototypes, skeleton

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
    ],
)
def test_names_clash_when_they_look_the_same(one, other, clash):
    assert (name_key(one) == name_key(other)) is clash


def test_a_skeleton_is_decomposed():
    assert skeleton("é") == "e\u0301"
