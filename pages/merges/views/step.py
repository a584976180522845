"""The Merges page's step view: the facts of one step, and the corpus lines it cuts.

>>> corpus_lines("a\\n\\nb")
['a', 'b']
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from bpe_core import Step, Token
from bpe_core.languages import bundled_languages
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.escape import html_text
from drawing.notation import written_glyph_legend
from drawing.readable import token_pair, token_text
from drawing.token_html import render_lines, show_whitespace
from pages.merges.views.labels import tie_break_rule


def corpus_lines(corpus: str, count: int = 3, max_chars: int = 160) -> list[str]:
    """The first ``count`` non-empty lines, each cut to ``max_chars`` characters. Three lines: five (600 boxes
    at the first step) made the page's visit a fifth slower.

    >>> corpus_lines("\\n a b \\n\\nc", count=5, max_chars=3)
    [' a ', 'c']
    """
    lines = [line for line in corpus.splitlines() if line.strip()]
    return [line[:max_chars] for line in lines[:count]]


def step_lines_html(
    tok: AnyTokenizer, step: Step, lines: Sequence[str], lines_tokens: Sequence[Sequence[Token]]
) -> str:
    """``lines`` as cut by the first ``step.step`` merges of ``tok``, the token made at that step outlined.

    >>> from bpe_core import Config, train
    >>> tok = train("banana_bandana_", Config(split="none"), merges=2)
    >>> html_text = step_lines_html(tok, tok.steps[1], ["ban"], [tok.encode_with_spans("ban")])
    >>> html_text.count('class="tok k-normal c0 new"')  # ban, made by step 2
    1
    """
    config = tok.config
    # The whole model's merge ranks hold for any prefix of it: a merge keeps its step.
    return render_lines(
        lines,
        lines_tokens,
        byte_level=tok.byte_level,
        end_of_word=config.end_of_word,
        created_at=tok.created_at,
        highlight_id=step.new_id,
    )


def step_glyph_legend(
    tok: AnyTokenizer, step: Step, lines: Sequence[str], lines_tokens: Sequence[Sequence[Token]]
) -> str:
    """The legend line for the step's card and the lines under it: the glyphs of the pair, of the tokens' boxes and of
    the whitespace no token covers (greyed ``␣`` between the boxes); plain text, escape it where it is shown.

    >>> from bpe_core import Config, train
    >>> tok = train("a b", Config(end_of_word="</w>"), merges=0)
    >>> step_glyph_legend(tok, Step(1, "a", "b", "ab", 1, 1, 1), ["a b"], [tok.encode_with_spans("a b")])
    'Key: ␣ a space · </w> the end of a word.'
    """
    byte_level = tok.byte_level
    texts = [token_text(step.left, byte_level), token_text(step.right, byte_level)]
    for line, tokens in zip(lines, lines_tokens):
        covered = {index for token in tokens for index in range(token.start, token.end)}
        texts.append(show_whitespace("".join(c for index, c in enumerate(line) if index not in covered))[0])
        texts.extend(token_text(token.token, byte_level) for token in tokens)
    return written_glyph_legend(texts, tok.config)


def step_card_html(step: Step, tie_break: str, byte_level: bool = False) -> str:
    """The facts of one step as a small escaped HTML card: pair, new token, count, ties. A byte-level model's
    tokens are written as the boxes under the card write them (``␣`` for a space, ``drawing.readable.token_text``).

    >>> "&lt;b&gt;" in step_card_html(Step(1, "<", "b>", "<b>", 9, 4, 2), "first")
    True
    """
    count = "n/a (no training counts)" if step.count is None else f"{step.count:,}"
    if step.tied == 0:
        ties = "unknown"
    elif step.tied == 1:
        ties = "none: a clear winner"
    else:
        ties = f"{step.tied} pairs shared the top count; {tie_break_rule(tie_break)}"
    facts = [
        ("Step", str(step.step)),
        ("Pair merged", token_pair(step.left, step.right, byte_level)),
        ("New token", f"{token_text(step.new_token, byte_level)}  (id {step.new_id})"),
        ("Count", count),
        ("Ties", ties),
    ]
    # Sizes in rem grow with presentation mode's type; a long value (the ties' rule, a long token) wraps inside the
    # page rather than running out of it
    cells = "".join(
        '<div style="padding:4px 14px 4px 0;max-width:100%;box-sizing:border-box">'
        f'<div style="font-size:0.75rem;opacity:0.7">{html_text(name)}</div>'
        '<div style="font-size:1.125rem;font-family:ui-monospace,Menlo,Consolas,monospace;'
        'white-space:pre-wrap;overflow-wrap:anywhere">'
        f"{html_text(value)}</div>"
        "</div>"
        for name, value in facts
    )
    return f'<div style="display:flex;flex-wrap:wrap;gap:6px 18px">{cells}</div>'


def language_names() -> dict[str, str]:
    """The bundled languages' names by code.

    >>> language_names()["mya"]
    'Burmese'
    """
    return {language.code: language.name for language in bundled_languages()}


def pair_languages_sentence(shares: Sequence[tuple[str, float]], names: Mapping[str, str], count: int) -> str:
    """Where a pair of a model trained on a mix of languages stood before its merge: ``shares`` are
    ``bpe_core.language_mix.main_languages``'s (code, share of its ``count`` occurrences), the most first; plain
    text, escape it where it is shown.

    >>> pair_languages_sentence([("eng", 0.963), ("mri", 0.0042)], {"eng": "English", "mri": "Maori"}, 23_472)
    'Before this merge the pair stood 23,472 times in the mix of languages: 96% in English, 0.4% in Maori.'
    >>> pair_languages_sentence([("tir", 1.0)], {"tir": "Tigrinya"}, 8)
    'Before this merge the pair stood 8 times in the mix of languages, all in Tigrinya.'
    """
    stood = f"Before this merge the pair stood {count:,} times in the mix of languages"
    if len(shares) == 1 and shares[0][1] == 1:
        return f"{stood}, all in {names[shares[0][0]]}."
    return f"{stood}: {', '.join(f'{_percent(share)} in {names[code]}' for code, share in shares)}."


def _percent(share: float) -> str:
    """A share as a percentage: whole from 1%, else to its first digit (so that a small share never reads 0%).

    >>> _percent(0.963), _percent(0.0042), _percent(0.000088), _percent(1e-8)
    ('96%', '0.4%', '0.009%', '0.000001%')
    """
    percent = share * 100
    if percent >= 1:
        return f"{percent:.0f}%"
    return f"{percent:.{max(1, -math.floor(math.log10(percent)))}f}%"
