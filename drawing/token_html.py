"""Escaped HTML for tokenized text: coloured token boxes, whitespace glyphs, details on hover, click or focus.

Pure builders (no Streamlit): data in, an HTML string out, every piece of text
escaped by ``drawing.escape``. The Encode, Merges and Compare pages pass the string to ``st.html``.

>>> from bpe_core import load_gpt2
>>> tok = load_gpt2()
>>> html_text = render_tokens(tok.encode_with_spans("Hi 😀"), "Hi 😀", byte_level=True)
>>> "F0 9F" in html_text and "\ufffd" not in html_text
True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bpe_core import Token
from bpe_core.units import BYTE_TOKENS
from drawing.escape import attribute, html_text, scroll_box
from drawing.readable import WHITESPACE_GLYPHS
from drawing.token_popover import DETAILS_ATTRIBUTE, popover_css, tap_details_css, token_details

DEFAULT_MAX_CHARS = 20_000

# Light backgrounds; each kind has its own colours so neighbours of different kinds
# differ, and >= 2 colours per kind so neighbours of the same kind alternate.
PALETTES: dict[str, tuple[str, ...]] = {
    "normal": ("#fde2a7", "#c9ecc4", "#c7dcf7", "#f6c9de", "#d9d0f5", "#c4ecea"),
    "byte": ("#e8e3d3", "#d8e2cf"),
    "unknown": ("#ff9c9c", "#ffc4c4"),
    "special": ("#b9a4f2", "#d6c9fb"),
}

_BYTE_TOKEN_NAMES = frozenset(BYTE_TOKENS)  # <0x00> ... <0xFF>: a byte-fallback token shows its name
# The faded glyphs (a word-end marker, whitespace, whitespace in no token): greyer than the text, yet 4.5:1 (WCAG AA)
# on white and on every box they sit in (normal and byte boxes; specials and unknowns show their name only).
FADED = "#585b65"
CUT_NOTE = "the pre-tokenizer cut the text here: no merge crosses this line"

_STYLE_TEMPLATE = """<style>
.bpe-tv{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:15px;line-height:2.05;
  color:#1f2430;overflow-wrap:anywhere}
.bpe-tv .bpe-scroll{max-height:460px;overflow-y:auto;padding:6px 8px;border:1px solid #e3e5ea;border-radius:6px;
  background:#fff}
.bpe-tv .tok{display:inline-block;max-width:100%;padding:0 3px;margin:1px 1px;border:1px solid rgba(40,40,60,.35);
  border-radius:3px;line-height:1.55;white-space:pre;color:#1f2430;vertical-align:middle}
.bpe-tv .tok:hover,.bpe-tv .tok:focus{outline:2px solid #2b59c3;outline-offset:0}
.bpe-tv .k-unknown{border:2px solid #c62828;color:#8e0000;font-weight:600}
.bpe-tv .k-special{border:2px solid #5e35b1;color:#311b92;font-weight:600}
.bpe-tv .k-byte{border:1px dashed #6d6d6d}
.bpe-tv .hit{box-shadow:inset 0 -3px 0 #2e7d32}
.bpe-tv span.tok.fmt{background-image:repeating-linear-gradient(135deg,rgba(31,36,48,.17) 0 2px,transparent 2px 6px)}
.bpe-tv span.tok.tool{background-image:repeating-linear-gradient(0deg,rgba(21,101,192,.2) 0 2px,transparent 2px 5px);
  border-bottom:2px solid #1565c0}
.bpe-tv .cut{display:inline-block;width:0;height:1.5em;border-left:2px solid #d0473c;margin:0 2px;
  vertical-align:middle}
.bpe-tv .marker,.bpe-tv i,.bpe-tv .gap{color:{faded}}
.bpe-tv .hex{font-size:.8em;color:#444a57;letter-spacing:-.02em}
.bpe-tv i{font-style:normal}
.bpe-tv .gap{padding:0 2px;vertical-align:middle}
.bpe-tv .char-group{display:inline-block;padding:0 2px;margin:0 2px;border:2px dashed #6f7687;border-radius:6px;
  vertical-align:middle;line-height:1.55;white-space:nowrap}
.bpe-tv .char-group .char{font-size:.85em;color:#4a5060;padding:0 2px 0 3px}
.bpe-tv .note{font-family:sans-serif;font-size:13px;color:#6b7080;margin:0 0 4px 0}
.bpe-tv .step-row{display:flex;gap:10px;align-items:center;border-bottom:1px solid #eef0f3;padding:2px 0}
.bpe-tv .step-label{flex:0 0 21em;font-family:sans-serif;font-size:13px;color:#3b4050;line-height:1.3}
.bpe-tv .step-label .sym{font-family:ui-monospace,Menlo,Consolas,monospace;background:#f1f2f5;
  padding:0 3px;border-radius:3px;color:#1f2430}
.bpe-tv .new{border:2px solid #1b5e20;box-shadow:0 0 0 1px #1b5e20 inset;font-weight:700}
.bpe-tv .legend{font-family:sans-serif;font-size:13px;color:#3b4050;line-height:2.2}
.bpe-tv .legend .item{margin-right:14px;white-space:nowrap}
@media (max-width:640px){.bpe-tv .legend .item{white-space:normal;display:block}
  .bpe-tv .step-row{flex-wrap:wrap;gap:2px 10px}.bpe-tv .step-label{flex:1 1 100%}}
{details}
{palette_rules}</style>"""


STYLE = (
    _STYLE_TEMPLATE.replace("{faded}", FADED)
    .replace(
        "{details}", tap_details_css(".bpe-tv .tok", DETAILS_ATTRIBUTE) + popover_css(".bpe-tv", ".tok[data-details]")
    )
    .replace(
        "{palette_rules}",
        "".join(
            f".bpe-tv .k-{kind}.c{shade}{{background:{colour}}}\n"
            for kind, colours in PALETTES.items()
            for shade, colour in enumerate(colours)
        ),
    )
)


def colour_class(kind: str, position: int) -> str:
    """The background class of the token at ``position``: neighbours get different ones.

    >>> colour_class("normal", 0), colour_class("normal", 1), colour_class("unknown", 2)
    ('c0', 'c1', 'c0')
    """
    return f"c{position % len(PALETTES.get(kind, PALETTES['normal']))}"


def show_whitespace(text: str) -> tuple[str, int]:
    """Escape ``text`` with visible whitespace; return it and how many newlines it held.

    >>> show_whitespace("a b\\n<")
    ('a<i>␣</i>b<i>↵</i>&lt;', 1)
    """
    parts = []
    for char in text:
        glyph = WHITESPACE_GLYPHS.get(char)
        parts.append(f"<i>{glyph}</i>" if glyph else html_text(char))
    return "".join(parts), text.count("\n")


def bytes_label(raw: bytes) -> str:
    """Bytes as readable HTML: whole UTF-8 characters as text, stray bytes of a character as hex.

    >>> bytes_label(" \\xf0\\x9f".encode("latin-1"))
    '<i>␣</i><span class="hex">F0 9F</span>'
    """
    parts: list[str] = []
    stray: list[str] = []  # hex of bytes that do not form a whole character, flushed as one run
    index = 0
    while index < len(raw):
        size = _utf8_length(raw[index])
        try:
            char = raw[index : index + size].decode("utf-8")
        except UnicodeDecodeError:
            stray.append(f"{raw[index]:02X}")
            index += 1
            continue
        if stray:
            parts.append(f'<span class="hex">{" ".join(stray)}</span>')
            stray = []
        parts.append(show_whitespace(char)[0])
        index += size
    if stray:
        parts.append(f'<span class="hex">{" ".join(stray)}</span>')
    return "".join(parts)


def _utf8_length(lead: int) -> int:
    """How many bytes a UTF-8 sequence starting with ``lead`` should have (1 for a bad lead)."""
    if lead >= 0xF0:
        return 4
    if lead >= 0xE0:
        return 3
    if lead >= 0xC0:
        return 2
    return 1


def token_label(token: Token, *, byte_level: bool, end_of_word: str | None = None) -> str:
    """The escaped text inside a token's box.

    Specials show their name, pieces of a character show hex bytes, byte-level tokens show the
    text their bytes spell, character tokens show the vocabulary string (marker greyed).

    >>> token_label(Token(5, "lo</w>", 0, 2, b"lo"), byte_level=False, end_of_word="</w>")
    'lo<span class="marker">&lt;/w&gt;</span>'
    """
    if token.kind in ("special", "unknown"):
        return html_text(token.token)
    if token.kind == "byte" and token.token in _BYTE_TOKEN_NAMES:
        return html_text(token.token)
    if token.partial or token.kind == "byte" or byte_level:
        return bytes_label(token.raw)
    label = token.token
    if end_of_word and label.endswith(end_of_word):
        body = show_whitespace(label[: -len(end_of_word)])[0]
        return f'{body}<span class="marker">{html_text(end_of_word)}</span>'
    return show_whitespace(label)[0]


@dataclass
class _Box:
    """One token box, ready to join: its HTML and the line breaks that follow it."""

    html: str
    breaks: int


def _token_box(
    token: Token,
    position: int,
    text: str,
    *,
    byte_level: bool,
    end_of_word: str | None,
    created_at: Mapping[int, int] | None,
    highlight_id: int | None,
    hits: Collection[int] = (),
    marked: Collection[int] = (),
    tool_marked: Collection[int] = (),
) -> _Box:
    hit = position in hits
    details = attribute(token_details(token, text, created_at=created_at, hit=hit, byte_level=byte_level))
    label = token_label(token, byte_level=byte_level, end_of_word=end_of_word)
    # A newline inside the token breaks the line after the box, not inside it.
    breaks = 0 if (token.partial or token.kind in ("special", "unknown")) else token.raw.count(b"\n")
    new = (
        (" new" if token.id == highlight_id else "")
        + (" hit" if hit else "")
        + (" fmt" if position in marked else "")
        + (" tool" if position in tool_marked else "")
    )
    classes = f"tok k-{token.kind} {colour_class(token.kind, position)}{new}"
    # tabindex: a click, a tap or Tab focuses the box, and its details show (drawing.token_popover)
    return _Box(f'<span class="{classes}" {DETAILS_ATTRIBUTE}="{details}" tabindex="0">{label}</span>', breaks)


def _gap_html(gap: str) -> str:
    """Text no token covers (whitespace dropped by the split), greyed, newlines kept."""
    glyphs, newlines = show_whitespace(gap)
    title = attribute(f"{gap!r}: not in any token (the pre-tokenizer drops it)")
    return f'<span class="gap" title="{title}">{glyphs}</span>' + "<br>" * newlines


def _partial_runs(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """(first, last + 1) index ranges of neighbouring partial tokens that share a character."""
    runs: list[tuple[int, int]] = []
    index = 0
    while index < len(tokens):
        if not tokens[index].partial:
            index += 1
            continue
        first, end = index, tokens[index].end
        index += 1
        while index < len(tokens) and tokens[index].partial and tokens[index].start < end:
            end = max(end, tokens[index].end)
            index += 1
        runs.append((first, index))
    return runs


def _token_run(tokens: Sequence[Token], text: str, upto: int, box_options: dict, cuts: Collection[int] = ()) -> str:
    """The boxes of ``tokens`` over ``text``, with the gaps between them up to character ``upto``, and a
    red line before the first token starting at each of ``cuts`` (the pre-tokenizer's cuts)."""
    grouped = dict(_partial_runs(tokens))
    parts: list[str] = []
    covered_to = 0
    index = 0
    cut_left = set(cuts)
    while index < len(tokens):
        token = tokens[index]
        if token.start > covered_to:
            parts.append(_gap_html(text[covered_to : token.start]))
        if token.start in cut_left:
            cut_left.discard(token.start)
            parts.append(f'<span class="cut" title="{attribute(CUT_NOTE)}"></span>')
        if index in grouped:
            last = grouped[index]
            members = tokens[index:last]
            boxes = [_token_box(member, index + offset, text, **box_options) for offset, member in enumerate(members)]
            start, end = members[0].start, max(member.end for member in members)
            character = show_whitespace(text[start:end])[0]
            title = attribute(f"{len(members)} tokens together spell {text[start:end]!r}")
            parts.append(
                f'<span class="char-group" title="{title}">{"".join(box.html for box in boxes)}'
                f'<span class="char">={character}</span></span>'
            )
            parts.append("<br>" * text.count("\n", start, end))
            covered_to = max(covered_to, end)
            index = last
            continue
        box = _token_box(token, index, text, **box_options)
        parts.append(box.html + "<br>" * box.breaks)
        covered_to = max(covered_to, token.end)
        index += 1
    if covered_to < upto:
        parts.append(_gap_html(text[covered_to:upto]))
    return "".join(parts)


def render_tokens(
    tokens: Sequence[Token],
    text: str,
    *,
    byte_level: bool = False,
    end_of_word: str | None = None,
    created_at: Mapping[int, int] | None = None,
    highlight_id: int | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    cuts: Collection[int] = (),
    hits: Collection[int] = (),
    marked: Collection[int] = (),
    tool_marked: Collection[int] = (),
) -> str:
    """HTML showing ``text`` cut into ``tokens``: one coloured, bordered, hoverable box per token.

    ``tokens`` come from ``Tokenizer.encode_with_spans(text)``. ``byte_level`` shows byte-level
    tokens as the text they spell; ``end_of_word`` greys a word-end marker; ``created_at``
    (id -> 0-based merge rank) adds the merge step to each hover; tokens whose id is
    ``highlight_id`` get the thick outline of a token just made; a red line stands before the tokens
    starting at ``cuts``, and the tokens at positions ``hits`` are marked as whole-word hits (both from
    ``drawing.pipeline_view``); the tokens at positions ``marked`` are striped (a chat format's own, written around
    the messages: ``pages.encode.views.conversation``), those at ``tool_marked`` striped across and underlined (a tool's
    definition). Only tokens starting in the first ``max_chars`` characters are
    drawn, and a note says so.

    >>> from bpe_core import Config, train
    >>> tok = train("banana_bandana_", Config(split="none"), merges=6)
    >>> out = render_tokens(tok.encode_with_spans("bandana_"), "bandana_")
    >>> out.count('class="tok ')  # ban | d | ana_
    3
    """
    shown = [token for token in tokens if token.start < max_chars]
    complete = len(shown) == len(tokens)
    note = (
        ""
        if complete
        else (
            f'<p class="note">Showing the tokens of the first {max_chars:,} of {len(text):,} characters '
            f"({len(shown):,} of {len(tokens):,} tokens).</p>"
        )
    )
    box_options = dict(
        byte_level=byte_level,
        end_of_word=end_of_word,
        created_at=created_at,
        highlight_id=highlight_id,
        hits=hits,
        marked=marked,
        tool_marked=tool_marked,
    )
    run = _token_run(shown, text, len(text) if complete else max_chars, box_options, cuts)
    box = scroll_box("Text cut into tokens")
    return f'{STYLE}<div class="bpe-tv">{note}<div class="bpe-scroll" {box}>{run}</div></div>'


def render_lines(
    lines: Sequence[str],
    lines_tokens: Sequence[Sequence[Token]],
    *,
    byte_level: bool = False,
    end_of_word: str | None = None,
    created_at: Mapping[int, int] | None = None,
    highlight_id: int | None = None,
) -> str:
    """Several short texts cut into tokens, one row each, with the boxes of ``render_tokens``.

    >>> from bpe_core import Config, train
    >>> tok = train("banana_bandana_", Config(split="none"), merges=1)
    >>> lines = ["ban", "an"]
    >>> out = render_lines(lines, [tok.encode_with_spans(line) for line in lines], highlight_id=tok.vocab["an"])
    >>> out.count('class="tok '), out.count(' new"')  # b | an, then an (made by step 1)
    (3, 2)
    """
    box_options = dict(byte_level=byte_level, end_of_word=end_of_word, created_at=created_at, highlight_id=highlight_id)
    rows = "".join(
        f'<div class="line">{_token_run(tokens, line, len(line), box_options)}</div>'
        for line, tokens in zip(lines, lines_tokens)
    )
    return (
        f'{STYLE}<div class="bpe-tv"><div class="bpe-scroll" {scroll_box("Lines cut into tokens")}>{rows}</div></div>'
    )
