"""The aligned view of where tokenizers disagree, as escaped HTML: the text once, cut into stretches at the places
where every tokenizer cuts; under each stretch, one row per tokenizer with its pieces there. A stretch that they cut
differently is marked, and a click, Tab or tap on it shows each tokenizer's tokens there (the token boxes' popover,
``drawing.token_popover``). On a phone only the chosen tokenizer's row is shown under the text.

>>> from pages.compare.views.disagreement import line_up
>>> html = aligned_html("ab", ["A", "B"], line_up(2, [[Piece(0, 2, (5,), ("ab",))], [Piece(0, 1, (1,), ("a",)),
...     Piece(1, 2, (2,), ("b",))]]), phone_row=1)
>>> html.count('class="st differs"'), html.count('class="rw r1 chosen"')
(1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from drawing.escape import attribute, html_text, scroll_box
from drawing.token_html import FADED, show_whitespace
from drawing.token_popover import DETAILS_ATTRIBUTE, popover_css, tap_details_css
from pages.compare.views.disagreement import Piece, Stretch

# One colour a row (a tokenizer), told apart by hue and by order; each dark enough for 3:1 as a border on white
ROW_COLOURS = ("#1565c0", "#c62828", "#2e7d32", "#6a1b9a")
_PHONE = "(max-width:640px)"

_STYLE = """<style>
.bpe-al{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:15px;color:#1f2430;
  display:flex;flex-wrap:wrap;gap:6px 2px;align-items:flex-start;max-height:520px;overflow-y:auto;padding:6px 8px;
  border:1px solid #e3e5ea;border-radius:6px;background:#fff}
.bpe-al .st{display:inline-flex;flex-direction:column;gap:2px;padding:2px;border-radius:4px}
.bpe-al .st.differs{background:#fff3c4;outline:1px dashed #8a6d00}
.bpe-al .st.differs:focus,.bpe-al .st.differs:hover{outline:2px solid #2b59c3}
.bpe-al .tx{white-space:pre;font-weight:600;padding:0 2px}
.bpe-al .rw{display:flex;gap:1px;min-height:1.2em}
.bpe-al .pc{white-space:pre;padding:0 2px;font-size:13px;border-bottom:3px solid;background:#f5f6f8}
.bpe-al .gap{white-space:pre;padding:0 2px;font-size:13px;color:{faded}}
.bpe-al i{font-style:normal;color:{faded}}
{row_colours}
@media {phone}{.bpe-al .rw:not(.chosen),.bpe-al-key{display:none}}
{details}
</style>"""


def _style() -> str:
    colours = "\n".join(f".bpe-al .r{index} .pc{{border-color:{colour}}}" for index, colour in enumerate(ROW_COLOURS))
    details = tap_details_css(".bpe-al .st", DETAILS_ATTRIBUTE) + popover_css(".bpe-al", ".st[data-details]")
    return (
        _STYLE.replace("{faded}", FADED)
        .replace("{row_colours}", colours)
        .replace("{phone}", _PHONE)
        .replace("{details}", details)
    )


def wide_screen_hides(key: str) -> str:
    """The style that hides the element of widget or container ``key`` (a constant of ours) on a screen wider than
    a phone: the choice of the one row a phone shows.

    >>> wide_screen_hides("compare_box")
    '<style>@media (min-width:641px){.st-key-compare_box{display:none}}</style>'
    """
    return f"<style>@media (min-width:641px){{.st-key-{key}{{display:none}}}}</style>"


def row_key(titles: Sequence[str]) -> str:
    """Which row is which: each title in its row's colour, in the order of the rows (escaped HTML); not on a phone,
    which shows one row, named by the choice above it.

    >>> row_key(["GPT-2"])  # doctest: +ELLIPSIS
    '<div class="bpe-al-key" ...>Rows under the text: <span ...border-bottom:3px solid #1565c0">GPT-2</span></div>'
    """
    items = "".join(
        f'<span style="margin-right:14px;padding:0 3px;border-bottom:3px solid {ROW_COLOURS[index]}">'
        f"{html_text(title)}</span>"
        for index, title in enumerate(titles)
    )
    key_style = "font-family:sans-serif;font-size:14px;line-height:2"
    return f'<div class="bpe-al-key" style="{key_style}">Rows under the text: {items}</div>'


def stretch_details(text: str, titles: Sequence[str], stretch: Stretch) -> str:
    """What tapping a stretch says: its text, then each tokenizer's tokens and ids there (plain text).

    >>> print(stretch_details("ab", ["A", "B"], Stretch(0, 2, ((Piece(0, 2, (5,), ("ab",)),), ()), True)))
    text 'ab'
    A: 'ab' (5)
    B: nothing (it drops this text)
    """
    lines = [f"text {text[stretch.start : stretch.end]!r}"]
    for title, pieces in zip(titles, stretch.pieces):
        tokens = [(label, token_id) for piece in pieces for label, token_id in zip(piece.labels, piece.ids)]
        said = " ".join(f"{label!r} ({token_id})" for label, token_id in tokens) or "nothing (it drops this text)"
        lines.append(f"{title}: {said}")
    return "\n".join(lines)


def _row_html(text: str, pieces: Sequence[Piece], start: int, end: int) -> str:
    """One tokenizer's pieces from ``start`` to ``end``; text no piece covers shown faded."""
    parts, at = [], start
    for piece in pieces:
        if piece.start > at:
            parts.append(f'<span class="gap">{show_whitespace(text[at : piece.start])[0]}</span>')
        parts.append(f'<span class="pc">{show_whitespace(text[piece.start : piece.end])[0] or "&nbsp;"}</span>')
        at = max(at, piece.end)
    if end > at:
        parts.append(f'<span class="gap">{show_whitespace(text[at:end])[0]}</span>')
    return "".join(parts)


def aligned_html(text: str, titles: Sequence[str], stretches: Sequence[Stretch], phone_row: int = 0) -> str:
    """The stretches of ``text`` with each tokenizer's row under them (``titles`` in row order); on a phone only
    row ``phone_row`` is shown."""
    columns = []
    for stretch in stretches:
        rows = "".join(
            f'<span class="rw r{index}{" chosen" if index == phone_row else ""}">'
            f"{_row_html(text, pieces, stretch.start, stretch.end)}</span>"
            for index, pieces in enumerate(stretch.pieces)
        )
        words = show_whitespace(text[stretch.start : stretch.end])[0]
        marks = (
            f' tabindex="0" {DETAILS_ATTRIBUTE}="{attribute(stretch_details(text, titles, stretch))}"'
            if stretch.differs
            else ""
        )
        kind = "st differs" if stretch.differs else "st"
        columns.append(f'<span class="{kind}"{marks}><span class="tx">{words}</span>{rows}</span>')
    box = scroll_box("Where the tokenizers cut differently")
    return f'{_style()}<div class="bpe-al" {box}>{"".join(columns)}</div>'
