"""A token's details, and the CSS that shows them: a popover beside the token on a desktop, a bar on a phone.

Pure builders (no Streamlit). ``token_details`` is the plain text; ``drawing.token_html`` puts it, escaped, in the
box's ``data-details`` attribute, and the CSS here shows that attribute as the box's ``::after``: with a mouse,
a styled popover under the token while it is hovered or focused (a click, or Tab from the keyboard); on a touch
screen, a bar at the bottom of the screen while the tapped box has focus. No script: the same words on both.

>>> print(token_details(Token(7, "ab", 0, 2, b"ab"), "ab", created_at={7: 0}))
id 7 · token 'ab'
text 'ab'
bytes 61 62
made by merge step 1
>>> "content:attr(data-details);position:fixed" in popover_css(".bpe-tv", ".tok")
True
"""

from __future__ import annotations

from collections.abc import Mapping

from bpe_core import Token
from drawing.readable import token_text

DETAILS_ATTRIBUTE = "data-details"  # a token box's details, shown by the CSS below (not a title: no native tooltip)
HIT_NOTE = "whole-word hit (ignore_merges): this piece is already a token, so the model took it whole without merging"

KIND_NOTES = {
    "unknown": "unknown: this character never appeared in the training text, so it became <unk>",
    "byte": "byte fallback: a character never seen in training, spelled as its raw bytes",
    "special": "special token: never split and never merged",
}


def token_details(
    token: Token, text: str, *, created_at: Mapping[int, int] | None = None, hit: bool = False, byte_level: bool = False
) -> str:
    """What a token's popover (and a phone's tap bar) says, as plain text: escape it before it goes in an attribute.

    ``created_at`` (id -> 0-based merge rank) adds the merge that made it; ``hit`` marks a whole-word hit. The token
    is written as its box writes it (``byte_level``: the text its bytes spell), a byte-level model's own spelling
    named beside it:

    >>> token_details(Token(1782, "Ġlove", 1, 6, b" love"), "I love", byte_level=True).split("\\n")[0]
    "id 1782 · token '␣love' (GPT-2's byte alphabet writes it 'Ġlove': Ġ is a space)"

    >>> print(token_details(Token(0, "<unk>", 0, 1, "é".encode(), "unknown"), "é"))
    id 0 · token '<unk>'
    text 'é'
    bytes C3 A9
    special token
    unknown: this character never appeared in the training text, so it became <unk>
    """
    covered = text[token.start : token.end]
    lines = [
        f"id {token.id} · token {_token_written(token, byte_level)}",
        f"text {covered!r}" + (" (the whole character this token is part of)" if token.partial else ""),
        f"bytes {token.raw.hex(' ').upper() or '(none: a marker covers no text)'}",
    ]
    if token.kind in ("special", "unknown"):
        lines.append("special token")
    elif created_at is not None and token.id in created_at:
        lines.append(f"made by merge step {created_at[token.id] + 1}")
    elif created_at is not None:
        lines.append("base symbol (not made by a merge)")
    if token.kind in KIND_NOTES:
        lines.append(KIND_NOTES[token.kind])
    if token.partial:
        lines.append(
            "partial: holds only part of a multi-byte character; its neighbours in the dashed box hold the rest"
        )
    if hit:
        lines.append(HIT_NOTE)
    return "\n".join(lines)


def _token_written(token: Token, byte_level: bool) -> str:
    """The token as its box writes it, quoted; a byte-level model's own spelling beside it when that differs (a
    special token, ``<unk>`` or a fallback byte by its name)."""
    if token.kind in ("special", "unknown", "byte"):
        return repr(token.token)
    written = token_text(token.token, byte_level)
    if not byte_level or written == token.token:
        return f"'{written}'"
    space = ": Ġ is a space" if "Ġ" in token.token else ""
    return f"'{written}' (GPT-2's byte alphabet writes it '{token.token}'{space})"


_BAR = (
    "position:fixed;left:8px;right:8px;bottom:8px;z-index:1000;padding:8px 10px;border-radius:8px;background:#1f2430;"
    "color:#fff;font-size:13px;font-weight:400;line-height:1.45;white-space:pre-wrap;overflow-wrap:anywhere;"
    "box-shadow:0 2px 10px rgba(0,0,0,.3)"
)


def tap_details_css(selector: str, attribute: str = "title") -> str:
    """On a touch screen (no hover), a tapped ``selector`` (focused: give it tabindex) shows its ``attribute`` in a
    bar at the bottom of the screen.

    >>> tap_details_css(".x", DETAILS_ATTRIBUTE)[:70]
    '@media (hover:none),(pointer:coarse){.x:focus::after{content:attr(data'
    """
    return "@media (hover:none),(pointer:coarse){" + selector + f":focus::after{{content:attr({attribute});{_BAR}}}}}"


# The popover: fixed, so the token area's own scrolling never clips it. Where anchor positioning is known it sits
# under its token (above it, or to its left, when the window has no room); elsewhere a fixed box with no offsets
# stays where the box would be drawn, just under the token's text.
_POPOVER = (
    "content:attr(" + DETAILS_ATTRIBUTE + ");position:fixed;z-index:1000;display:block;width:max-content;"
    "max-width:min(32em,calc(100vw - 24px));margin-top:6px;padding:8px 12px;border-radius:8px;background:#1f2430;"
    "color:#fff;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1rem;font-weight:400;"
    "line-height:1.5;text-align:left;letter-spacing:normal;white-space:pre-wrap;overflow-wrap:anywhere;"
    "box-shadow:0 4px 16px rgba(0,0,0,.35);pointer-events:none"
)
_ANCHORED = (
    "position-anchor:--bpe-token;top:auto;left:auto;position-area:bottom span-right;margin:6px 0;"
    "position-try-fallbacks:flip-block,flip-inline,flip-block flip-inline"
)


def popover_css(area: str, item: str) -> str:
    """With a mouse, an ``item`` of ``area`` shows its details in a popover while hovered, or while focused when no
    other item is hovered (a click or Tab focuses it: give it tabindex="0").

    >>> popover_css(".a", ".t")[:90]
    '@media (hover:hover) and (pointer:fine){.a .t:hover::after,.a:not(:has(.t:hover)) .t:focus'
    """
    shown = f"{area} {item}:hover::after,{area}:not(:has({item}:hover)) {item}:focus::after"
    return (
        "@media (hover:hover) and (pointer:fine){" + shown + "{" + _POPOVER + "}"
        "@supports (anchor-name:--a) and (anchor-scope:--a){"
        f"{area} {item}{{anchor-name:--bpe-token;anchor-scope:--bpe-token}}" + shown + "{" + _ANCHORED + "}}}"
    )
