"""Rows of symbol boxes replaying how one piece is encoded, merge by merge (the Encode page's "Why this split?").

>>> from bpe_core import Config, train
>>> tok = train("banana_bandana_", Config(split="none"), merges=6)
>>> render_explain(tok.explain("an"), tok.merges).count('class="step-row"')  # a n, then an
2
"""

from __future__ import annotations

from collections.abc import Sequence

from drawing.describe import plural
from drawing.escape import attribute
from drawing.token_html import STYLE, colour_class, show_whitespace


def render_explain(
    history: Sequence[tuple[int | None, Sequence[str]]],
    merges: Sequence[tuple[str, str]],
    *,
    counts: Sequence[int | None] | None = None,
) -> str:
    """Rows of symbol boxes replaying one piece's encoding (``Tokenizer.explain`` output).

    Each row after the first names the training step whose merge changed the piece, and
    outlines the symbols that merge produced. ``counts[step - 1]`` (if given) is the pair's
    count at training time.

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
            label = f"step {step}: {_code(left)} + {_code(right)} → {_code(made)}{seen}"
        boxes = []
        for position, symbol in enumerate(symbols):
            new = " new" if symbol == made else ""
            boxes.append(
                f'<span class="tok k-normal {colour_class("normal", position)}{new}" '
                f'title="{attribute(repr(symbol))}">{show_whitespace(symbol)[0]}</span>'
            )
        rows.append(f'<div class="step-row"><span class="step-label">{label}</span><span>{"".join(boxes)}</span></div>')
    return f'{STYLE}<div class="bpe-tv">{"".join(rows)}</div>'


def _code(symbol: str) -> str:
    """A symbol inside a step label: monospace, escaped, whitespace visible."""
    return f'<code class="sym">{show_whitespace(symbol)[0]}</code>'
