"""Token markers keep WCAG AA contrast (4.5:1) on every box colour they can sit on, read from the CSS we ship."""

from __future__ import annotations

import re

import pytest
from support.wcag import contrast

from drawing.token_html import PALETTES, STYLE


def test_the_contrast_formula_gives_the_published_ratios():
    assert round(contrast("#000000", "#ffffff"), 2) == 21.0
    assert round(contrast("#767676", "#ffffff"), 2) == 4.54  # the lightest grey that passes, as WebAIM's checker
    assert round(contrast("rgb(31, 35, 53)", "rgb(255, 255, 255)", 0.6), 1) == 4.2  # the old caption: axe's #797b86
    assert round(contrast("rgba(0, 0, 0, 0.6)", "#ffffff"), 2) == 5.74  # #666666 once blended


def css_colour(selector: str) -> str:
    """The text colour the last rule naming exactly ``selector`` (alone or in a list) gives it in ``STYLE``."""
    colours = [
        colour
        for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", STYLE)
        if selector in (part.strip() for part in selectors.split(","))
        for colour in re.findall(r"(?<![\w-])color:(#[0-9a-f]{6})", body)
    ]
    assert colours, f"no colour for {selector}"
    return colours[-1]


# Where the faded glyphs sit: on white (the scroll box, the legend) and in normal and byte boxes (specials and
# unknowns show their name only)
BACKGROUNDS = ("#ffffff", *PALETTES["normal"], *PALETTES["byte"])


@pytest.mark.parametrize("selector", [".bpe-tv .marker", ".bpe-tv i", ".bpe-tv .gap"])
def test_faded_token_glyphs_keep_aa_contrast_on_every_box(selector):
    colour = css_colour(selector)
    ratios = {background: round(contrast(colour, background), 2) for background in BACKGROUNDS}
    assert min(ratios.values()) >= 4.5, f"{selector} {colour}: {ratios}"
    assert contrast("#1f2430", colour) >= 1.8  # still greyer than the tokens' text: visibly secondary
