"""One way to show a token's invisible characters, on every page."""

import pytest

from drawing.readable import readable_symbol


@pytest.mark.parametrize(
    "token, shown",
    [
        ("a b", "a␣b"),
        ("\n\t\r", "↵→←"),
        ("\x00\x01\x7f", "\\x00\\x01\\x7f"),
        ("\u00a0\u200b\u2028", "\\xa0\\u200b\\u2028"),  # no-break space, zero width space, line separator
        ("ĠhelloĊ</w>", "ĠhelloĊ</w>"),  # byte-level and marker tokens are visible already
        ("日本😀", "日本😀"),
    ],
)
def test_invisible_characters_get_stand_ins_or_escapes(token, shown):
    assert readable_symbol(token) == shown
