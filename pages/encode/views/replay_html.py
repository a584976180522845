"""Rows of symbol boxes replaying how one piece is encoded, merge by merge (the Encode page's "Why this split?").

>>> from bpe_core import Config, train
>>> tok = train("banana_bandana_", Config(split="none"), merges=6)
>>> render_explain(tok.explain("an"), tok.merges).count('class="step-row"')  # a n, then an
2
"""

from __future__ import annotations

from collections.abc import Sequence

from drawing.describe import plural
from drawing.escape import attribute, html_text
from drawing.readable import WHITESPACE_GLYPHS, token_text
from drawing.token_html import STYLE, colour_class, show_whitespace

GLYPHS = set(WHITESPACE_GLYPHS.values())  # what token_text writes for whitespace, drawn faded as the boxes draw it


def render_explain(
    history: Sequence[tuple[int | None, Sequence[str]]],
    merges: Sequence[tuple[str, str]],
    *,
    counts: Sequence[int | None] | None = None,
    byte_level: bool = False,
) -> str:
    """Rows of symbol boxes replaying one piece's encoding (``Tokenizer.explain`` output).

    Each row after the first names the training step whose merge changed the piece, and
    outlines the symbols that merge produced. ``counts[step - 1]`` (if given) is the pair's
    count at training time. ``byte_level``: the symbols are GPT-2's byte alphabet, written as the text their bytes
    spell (``␣un``, not ``Ġun``), as the piece's name above them and the token boxes write it.

    >>> from bpe_core import Config, train
    >>> tok = train("banana_bandana_", Config(split="none"), merges=6)
    >>> out = render_explain(tok.explain("ban"), tok.merges)
    >>> "step 2" in out and '<code class="sym">an</code>' in out
    True
    """
    rows: list[str] = []
    for step, symbols in history:
        if step is None:
            label = "base symbols"
            made = None
        else:
            left, right = merges[step - 1]
            made = left + right
            count = counts[step - 1] if counts is not None and step - 1 < len(counts) else None
            seen = f" (pair seen {plural(count, 'time')})" if count is not None else ""
            left_code, right_code, made_code = (_code(symbol, byte_level) for symbol in (left, right, made))
            label = f"step {step}: {left_code} + {right_code} → {made_code}{seen}"
        boxes = []
        for position, symbol in enumerate(symbols):
            new = " new" if symbol == made else ""
            boxes.append(
                f'<span class="tok k-normal {colour_class("normal", position)}{new}" '
                f'title="{attribute(_spelling(symbol, byte_level))}">{symbol_html(symbol, byte_level)}</span>'
            )
        rows.append(f'<div class="step-row"><span class="step-label">{label}</span><span>{"".join(boxes)}</span></div>')
    return f'{STYLE}<div class="bpe-tv">{"".join(rows)}</div>'


def symbol_html(symbol: str, byte_level: bool) -> str:
    """A symbol escaped, whitespace as the token boxes' glyphs; a byte-level one as the text its bytes spell (a byte
    that is only part of a character as ``\\xNN``).

    >>> symbol_html("Ġun", byte_level=True), symbol_html("Ġun", byte_level=False), symbol_html("Ã", byte_level=True)
    ('<i>␣</i>un', 'Ġun', '\\\\xc3')
    """
    if not byte_level:
        return show_whitespace(symbol)[0]
    return "".join(f"<i>{char}</i>" if char in GLYPHS else html_text(char) for char in token_text(symbol, True))


def _spelling(symbol: str, byte_level: bool) -> str:
    """A box's tooltip: the symbol as the vocabulary spells it, named as such where the box writes it otherwise."""
    return f"in the vocabulary: {symbol}" if byte_level else repr(symbol)


def _code(symbol: str, byte_level: bool) -> str:
    """A symbol inside a step label: monospace, escaped, whitespace visible."""
    return f'<code class="sym">{symbol_html(symbol, byte_level)}</code>'
