"""WCAG 2's contrast ratio, written from its definition (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio), for the
tests of our text colours: CSS colours in, the ratio out (AA asks 4.5:1 of normal text, 3:1 of large text)."""

from __future__ import annotations

import re


def channels(css: str) -> tuple[float, float, float, float]:
    """Red, green, blue (0-255) and alpha of ``#rrggbb``, ``rgb(r, g, b)`` or ``rgba(r, g, b, a)``."""
    if css.startswith("#"):
        return (*(float(int(css[i : i + 2], 16)) for i in (1, 3, 5)), 1.0)
    red, green, blue, alpha = [*map(float, re.findall(r"[\d.]+", css)), 1.0][:4]
    return red, green, blue, alpha


def relative_luminance(red: float, green: float, blue: float) -> float:
    linear = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in (red, green, blue))
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(text: str, background: str, opacity: float = 1.0) -> float:
    """The contrast ratio of ``text`` drawn over an opaque ``background``; the text's alpha and ``opacity`` (of the
    boxes between) blend it into the background first, as the eye sees it."""
    *fg, alpha = channels(text)
    bg = channels(background)[:3]
    alpha *= opacity
    shown = [alpha * f + (1 - alpha) * b for f, b in zip(fg, bg)]
    light, dark = sorted((relative_luminance(*shown), relative_luminance(*bg)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
