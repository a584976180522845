"""What a trained model learned, for the Train page's result: merge tables, chips, longest tokens, compression."""

from __future__ import annotations

import heapq
from typing import TypedDict

from bpe_core import Tokenizer
from drawing import escape
from drawing.describe import plural
from drawing.notation import token_glyph_legend
from drawing.readable import token_text

FIRST_AND_LAST = 5  # merges the result lists from each end of the merge list


def merge_label(left: str, right: str, byte_level: bool = False) -> str:
    """``a n → an``: one merge, readable; a byte-level model's tokens as the text they spell (``token_text``).

    >>> merge_label("Ġ", "Ġ", byte_level=True), merge_label("a", "n")
    ('␣ ␣ → ␣␣', 'a n → an')
    """
    return f"{token_text(left, byte_level)} {token_text(right, byte_level)} → {token_text(left + right, byte_level)}"


def tie_label(tied: int) -> str:
    """How many pairs shared the winning count (0 means the model has no counts)."""
    if tied == 0:
        return "unknown"
    return "" if tied == 1 else f"{tied}-way tie"


def merge_table(model: Tokenizer) -> dict[str, list]:
    """Columns for the merge table: step, pair, new token, count, tie (column-wise, for a dataframe)."""
    steps, byte_level = model.steps, model.byte_level
    return {
        "step": [step.step for step in steps],
        "pair": [f"{token_text(step.left, byte_level)} {token_text(step.right, byte_level)}" for step in steps],
        "new token": [token_text(step.new_token, byte_level) for step in steps],
        "count": [step.count for step in steps],
        "tie": [tie_label(step.tied) for step in steps],
    }


def first_and_last_merges(model: Tokenizer, n: int = FIRST_AND_LAST) -> tuple[list[str], list[str]]:
    """The first ``n`` and last ``n`` merges as ``a n → an`` labels (no overlap for short runs); only those are
    labelled, as the page draws this on every visit and a loaded model has 50,000 merges or more."""
    byte_level = model.byte_level
    first, last = _first_and_last(model.merges, n)
    return [merge_label(*merge, byte_level) for merge in first], [merge_label(*merge, byte_level) for merge in last]


def _first_and_last(merges: list[tuple[str, str]], n: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The first ``n`` merges and the last ``n`` of the rest."""
    return merges[:n], merges[max(n, len(merges) - n) :]


def longest_tokens(model: Tokenizer, n: int = 12) -> list[str]:
    """The ``n`` longest tokens that merges made, longest first (ties: made first)."""
    longest = heapq.nlargest(
        n, model.created_at.items(), key=lambda made: (len(model.id_to_token[made[0]]), -made[1])
    )  # (token id, step)
    return [model.id_to_token[token_id] for token_id, _ in longest]


_RESULT_STYLE = """<style>
.bpe-result{color:#1f2335;line-height:1.5}
.bpe-result .stats{display:flex;flex-wrap:wrap;gap:.6rem 2rem;margin-bottom:.8rem}
.bpe-result .stat{flex:1 1 9rem;min-width:0}
.bpe-result .label{font-size:.875rem}
.bpe-result .value{font-size:2rem;line-height:1.25}
.bpe-result .note,.bpe-result .legend{font-size:.8rem;color:#62677a}
.bpe-result .lists{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(18rem,100%),1fr));gap:.3rem 2rem}
.bpe-result .head{font-weight:600;margin:.4rem 0 .2rem}
.bpe-result .chip{display:inline-block;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;
  vertical-align:bottom;margin:0 .3em .3em 0;padding:.05em .4em;border-radius:.25rem;background:#f0f2f6;
  font-family:"Source Code Pro",ui-monospace,monospace;font-size:.85em}
</style>"""


def chips_html(texts: list[str]) -> str:
    """Texts as escaped chips for ``st.html``; a chip longer than its column is cut with … (its title holds
    all of it).

    >>> chips_html(['<b title="x">'])
    '<span class="chip" title="&lt;b title=&quot;x&quot;&gt;">&lt;b title=&quot;x&quot;&gt;</span>'
    """
    return " ".join(
        f'<span class="chip" title="{escape.attribute(text)}">{escape.html_text(text)}</span>' for text in texts
    )


def result_html(model: Tokenizer, ratio: Compression | None) -> str:
    """The result in one ``st.html`` block: the four metrics (each note shown, for phones), the first and last
    merges, the longest tokens and what their glyphs mean (none of the lists when nothing was merged).

    >>> from bpe_core import Config, train
    >>> block = result_html(train("low lower", Config(), merges=2), None)
    >>> [block.count(part) for part in ('class="stat"', "First merges", 'class="chip"')]
    [4, 1, 4]
    """
    stats = "".join(
        f'<div class="stat"><div class="label">{escape.html_text(label)}</div>'
        f'<div class="value">{escape.html_text(value)}</div>'
        + (f'<div class="note">{escape.html_text(note)}</div>' if note else "")
        + "</div>"
        for label, value, note in result_metrics(model, ratio)
    )
    parts = [_RESULT_STYLE, '<div class="bpe-result">', f'<div class="stats">{stats}</div>']
    if model.merges:
        first, last = first_and_last_merges(model)
        lists = [("First merges", first)]
        if last:
            lists.append((f"Last merges (from step {len(model.merges) - len(last) + 1:,})", last))
        parts.append(
            '<div class="lists">'
            + "".join(f'<div><div class="head">{head}</div>{chips_html(chips)}</div>' for head, chips in lists)
            + "</div>"
        )
        longest = longest_tokens(model)
        byte_level = model.byte_level
        parts.append(
            f'<div class="head">Longest tokens</div>{chips_html([token_text(t, byte_level) for t in longest])}'
        )
        listed = [merge for end in _first_and_last(model.merges, FIRST_AND_LAST) for merge in end]  # as labelled
        shown = [part for merge in listed for part in (*merge, "".join(merge))] + longest
        if legend := token_glyph_legend(shown, model.config):
            parts.append(f'<div class="legend">{escape.html_text(legend)}</div>')
    return "".join(parts) + "</div>"


def stop_kind(model: Tokenizer) -> str:
    """How the result tells why training stopped: ``"done"``, it made what was asked; ``"normal"``, it stopped early
    for a reason of the corpus or the settings, which is information, not a fault (no pair is left to merge, the best
    pair fell below the minimum frequency); ``"warning"``, it stopped at the cap on the vocabulary's text, or the
    vocabulary size asked for was no bigger than the base alphabet (then nothing was merged).

    >>> from bpe_core import Config, train
    >>> stop_kind(train("hello", Config(), merges=2)), stop_kind(train("hello", Config(), merges=9))
    ('done', 'normal')
    >>> stop_kind(train("hello", Config(), vocab_size=2))
    'warning'
    """
    if model.stop_reason == "vocab_size":
        return "done" if model.merges else "warning"
    if model.stop_reason in ("no_pairs", "min_frequency"):
        return "normal"
    return "warning" if model.stop_reason == "vocab_text" else "done"


class Compression(TypedDict):
    """How well a model compresses a text (``compression``)."""

    tokens: int
    tokens_per_word: float
    chars_per_token: float


def compression(n_tokens: int, text: str) -> Compression:
    """How well a model compresses ``text`` encoded into ``n_tokens`` tokens.

    >>> compression(4, "low lower")
    {'tokens': 4, 'tokens_per_word': 2.0, 'chars_per_token': 2.25}
    """
    words = len(text.split())
    return {
        "tokens": n_tokens,
        "tokens_per_word": n_tokens / words if words else 0.0,
        "chars_per_token": len(text) / n_tokens if n_tokens else 0.0,
    }


def as_sentence(text: str) -> str:
    """An engine message (``stopped after 6 merges``) as a sentence for an alert.

    >>> as_sentence("stopped after 6 merges")
    'Stopped after 6 merges.'
    """
    return text[:1].upper() + text[1:] + "."


def result_metrics(model: Tokenizer, ratio: Compression | None) -> list[tuple[str, str, str | None]]:
    """The result's four metrics as (label, value, help); ``ratio`` is ``compression`` on the corpus, None
    when the model has no corpus (it was loaded).

    >>> from bpe_core import Config, train
    >>> model = train("low lower", Config(), merges=2)  # <unk>, l o w e r, lo, low
    >>> [value for _, value, _ in result_metrics(model, compression(4, "low lower"))]
    ['8', '2', '2.00', '2.25']
    >>> result_metrics(model, None)[3]
    ('Characters per token', '—', 'No corpus to measure on: this model was loaded.')
    """
    sizes: list[tuple[str, str, str | None]] = [
        ("Vocabulary size", f"{model.vocab_size:,}", None),
        ("Merges made", f"{len(model.merges):,}", None),
    ]
    if ratio is None:
        loaded = "No corpus to measure on: this model was loaded."
        return sizes + [("Tokens per word", "—", loaded), ("Characters per token", "—", loaded)]
    return sizes + [
        (
            "Tokens per word",
            f"{ratio['tokens_per_word']:.2f}",
            f"{plural(ratio['tokens'], 'token')} for the corpus's words (fewer = better compression)",
        ),
        (
            "Characters per token",
            f"{ratio['chars_per_token']:.2f}",
            "Corpus characters divided by tokens (more = better compression)",
        ),
    ]
