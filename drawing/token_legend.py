"""The legend under token boxes: one line saying what each style of box means, its unusual items only when present.

>>> from bpe_core import Token
>>> "never seen in training" in render_legend([Token(0, "<unk>", 0, 1, "é".encode(), "unknown")], "é")
True
"""

from __future__ import annotations

from collections.abc import Sequence

from bpe_core import Token
from drawing.escape import html_text
from drawing.notation import WHITESPACE_NAMES, spelling_marks
from drawing.readable import WHITESPACE_GLYPHS
from drawing.token_html import STYLE

# What the thick outline of ``render_tokens``'s ``highlight_id`` means: one wording on Start's key and Merges' step view
NEWEST_TOKEN_OUTLINE = "the token made by the last merge has a thick green outline"


def render_legend(
    tokens: Sequence[Token],
    text: str,
    *,
    cuts: bool = False,
    hits: bool = False,
    chat_format: bool = False,
    tools: bool = False,
    highlight_id: int | None = None,
) -> str:
    """A one-line legend of the styles used for ``tokens``; unusual items appear only when present
    (``cuts`` and ``hits``: when ``render_tokens`` was given some; ``chat_format``: when it striped a chat
    format's tokens; ``tools``: when it striped a tool's definition; ``highlight_id``: when a token of that id, which
    ``render_tokens`` outlined as the last merge's, is among ``tokens``).

    >>> render_legend([], "").count('class="item"')  # the boxes, always
    1
    >>> print(render_legend([], "a b\\n").split('class="item"')[2].split("</span>")[0])
    ><i>␣</i> a space, <i>↵</i> a newline
    """
    kinds = {token.kind for token in tokens}

    def sample(kind: str, label: str, shade: int = 0) -> str:
        return f'<span class="tok k-{kind} c{shade}">{label}</span>'

    items = [
        sample("normal", "to")
        + sample("normal", "ken", shade=1)
        + " one box per token (hover, click or tap for details)"
    ]
    drawn = [f"<i>{WHITESPACE_GLYPHS[char]}</i> {name}" for char, name in WHITESPACE_NAMES.items() if char in text]
    if drawn:  # only the glyphs this text makes the boxes draw
        items.append(", ".join(drawn))
    for mark, meaning in spelling_marks(token.token for token in tokens if token.kind == "normal"):
        marked = '<span class="marker">' + html_text(mark) + "</span>"
        items.append(f"{sample('normal', marked)} {meaning}")
    if _has_gaps(tokens, text):
        items.append(f'<span class="gap">{WHITESPACE_GLYPHS[" "]}</span> whitespace in no token (the split drops it)')
    if any(token.partial for token in tokens):
        items.append(
            '<span class="char-group">'
            + sample("normal", '<span class="hex">F0 9F</span>')
            + sample("normal", '<span class="hex">98 80</span>', shade=1)
            + '<span class="char">=…</span></span> tokens holding parts of one character (hex bytes)'
        )
    if "unknown" in kinds:
        items.append(sample("unknown", "&lt;unk&gt;") + " character never seen in training")
    if "byte" in kinds:
        items.append(sample("byte", "&lt;0xE2&gt;") + " byte fallback: a character not in the vocabulary, as its bytes")
    if "special" in kinds:
        items.append(sample("special", "special") + " special token")
    if highlight_id is not None and any(token.id == highlight_id for token in tokens):
        items.append(f'<span class="tok k-normal c0 new">th</span> {NEWEST_TOKEN_OUTLINE}')
    items += _drawn_marks(cuts=cuts, hits=hits, chat_format=chat_format, tools=tools)
    body = "".join(f'<span class="item">{item}</span>' for item in items)
    return f'{STYLE}<div class="bpe-tv"><div class="legend">{body}</div></div>'


def _drawn_marks(*, cuts: bool, hits: bool, chat_format: bool, tools: bool) -> list[str]:
    """The key's items for the marks ``render_tokens`` was asked to draw (a cut, a whole-word hit, stripes)."""
    marks = {
        '<span class="cut"></span> the pre-tokenizer cut here (no merge crosses it)': cuts,
        '<span class="tok k-normal c0 hit"><i>␣</i>world</span> whole-word hit (ignore_merges): taken whole': hits,
        '<span class="tok k-normal c0 fmt">user</span> striped: written by the chat format, not by a message': (
            chat_format
        ),
        '<span class="tok k-normal c1 tool">"name"</span> striped across: a tool\'s definition': tools,
    }
    return [item for item, drawn in marks.items() if drawn]


def _has_gaps(tokens: Sequence[Token], text: str) -> bool:
    """Whether some character of ``text`` lies in no token."""
    covered_to = 0
    for token in tokens:
        if token.start > covered_to:
            return True
        covered_to = max(covered_to, token.end)
    return covered_to < len(text)
