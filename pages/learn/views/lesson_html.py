"""What the Learn page shows of the text at a step: each distinct word cut into its symbols, with its count, as
escaped HTML (the text comes from a corpus).

>>> from pages.learn.views.lesson import lesson_moment
>>> html = words_html(lesson_moment("low", 2), highlight=("lo", "w"))  # after l + o: lo w _ ×5, lo w e r _ ×1, ...
>>> html.count('class="bpe-learn-word"'), html.count('class="sym hit"'), '<span class="sym hit">lo</span>' in html
(4, 4, True)
"""

from __future__ import annotations

from bpe_core.textbook import Pair
from drawing.escape import html_text
from pages.learn.views.lesson import LessonMoment, symbols_text

_STYLE = """<style>
.bpe-learn-words{display:flex;flex-wrap:wrap;gap:6px 14px;margin:4px 0 8px}
.bpe-learn-word{display:inline-flex;flex-wrap:wrap;align-items:center;gap:3px}
.bpe-learn-word .sym{font-family:monospace;font-size:15px;padding:1px 5px;border:1px solid #64748b;border-radius:4px;
  background:#f1f5f9;color:#111}
.bpe-learn-word .sym.hit{background:#fde68a;border-color:#92400e;font-weight:600}
.bpe-learn-word .count{font-size:14px;color:#334155;margin-left:2px}
</style>"""


def _symbol(symbol: str, hit: bool) -> str:
    return f'<span class="sym{" hit" if hit else ""}">{html_text(symbols_text((symbol,)))}</span>'


def _hits(word: tuple[str, ...], pair: Pair | None) -> set[int]:
    """The places of ``word`` that belong to an occurrence of ``pair`` (left to right, as a merge takes them)."""
    places: set[int] = set()
    index = 0
    while pair is not None and index < len(word) - 1:
        if word[index : index + 2] == pair:
            places |= {index, index + 1}
            index += 2
        else:
            index += 1
    return places


def words_html(moment: LessonMoment, highlight: Pair | None = None) -> str:
    """The text at ``moment``: each distinct word as boxed symbols, then ``×count``; the symbols of ``highlight``'s
    occurrences marked (bold, a darker border: not by colour alone)."""
    words = []
    for word, count in moment.words:
        hits = _hits(word, highlight)
        symbols = "".join(_symbol(symbol, index in hits) for index, symbol in enumerate(word))
        words.append(f'<span class="bpe-learn-word">{symbols}<span class="count">×{count:,}</span></span>')
    return f'{_STYLE}<div class="bpe-learn-words" aria-label="The text now">{"".join(words)}</div>'


def vocabulary_html(vocabulary: dict[str, int]) -> str:
    """The vocabulary so far as id = token chips, in id order, escaped.

    >>> html = vocabulary_html({"a": 1, "<unk>": 0})
    >>> html.index('0 =</span><span class="sym">&lt;unk&gt;') < html.index('1 =</span><span class="sym">a</span>')
    True
    """
    chips = "".join(
        f'<span class="bpe-learn-word"><span class="count">{index} =</span>{_symbol(token, False)}</span>'
        for token, index in sorted(vocabulary.items(), key=lambda item: item[1])
    )
    return f'{_STYLE}<div class="bpe-learn-words" aria-label="The vocabulary now">{chips}</div>'
