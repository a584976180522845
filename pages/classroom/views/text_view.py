"""The text a pair question is about, drawn under the question on the projector and on every phone, and what the
reveal says: each offered pair's count, the winner's, and the rule that broke a tie, with the room's votes beside.
Symbols come from a corpus and names from students: every one is escaped here.

Each offered pair has a letter (A, B, ... in the choices' order) and a colour; where the pair occurs in a word, its
letter sits between its two symbols. The symbol the step before made is outlined.

>>> from live_class.records import Question, ShownWord, StepText
>>> text = StepText((ShownWord(("l", "o", "w", "</w>"), 5, (0, 1, -1)),), more=0, counts=(6, 6), tied=6,
...                 tie_break="first")
>>> question = Question(1, "pair", "Step 1", ("l + o", "o + w"), "l + o", text=text)
>>> print(reveal_sentence(question))
l + o merges: it occurs 6 times in the text. 6 pairs occur 6 times, the most: the first pair to occur in the text wins.
"""

from __future__ import annotations

import string

from drawing.describe import plural, times
from drawing.escape import html_text
from live_class.bidi import isolated
from live_class.records import Question, ShownWord, StepText
from pages.classroom.views.split_view import SPLIT_STYLE

# The tie-break rules of ``bpe_core.config.TIE_BREAKS`` in words (``bpe_core.textbook._break_tie`` is the rule).
TIE_RULES = {
    "first": "the first pair to occur in the text wins",
    "hf": "the pair with the smallest ids wins, the left symbol's first (base symbols are numbered in "
    "alphabetical order, merged ones as they are made), as in HF tokenizers",
    "lex": "the pair that comes last in alphabetical order wins, the left symbol compared first (a byte-level "
    "model compares bytes)",
}
MARK_COLOURS = ("#1f5fa8", "#b3261e", "#6a3d9a", "#00695c", "#7a5200", "#37474f")  # white on each: 4.5:1 or more
# the summary's tooltip: why "," or a line break shows as a piece of its own
_PIECES_SAID = (
    "The model's pre-tokenizer first cuts the text into pieces that merges never cross: words, and signs such as "
    "a comma or a line break on their own."
)
FOLD_OVER = 6  # words: a phone shows more than this folded, so that the choices stay on its first screen

_STYLE = (
    """<style>
.bpe-text summary{cursor:pointer;font-weight:600;color:#1f2335}
.bpe-key,.bpe-more{color:#3d4152;font-size:.9rem;margin:.2rem 0}
.bpe-words{display:flex;flex-wrap:wrap;gap:.3rem .9rem;margin:.3rem 0}
.bpe-word{display:inline-flex;align-items:center;flex-wrap:wrap;gap:.15rem;overflow-wrap:anywhere}
.bpe-word i,.bpe-key i{font:1rem ui-monospace,Menlo,Consolas,monospace;background:#eef1f6;
 border:1px solid #c9cedb;border-radius:.25rem;padding:0 .25rem;color:#1f2335}
i.bpe-made{border:2px solid #1f2335}
.bpe-word b,.bpe-key b,.bpe-tally b{color:#fff;border-radius:.6rem;padding:0 .3rem;font-size:.75rem}
.bpe-word small{color:#3d4152;margin-left:.2rem}
.bpe-tally{border-collapse:collapse}
.bpe-tally td,.bpe-tally th{padding:.15rem .6rem;border-bottom:1px solid #e3e6ee;text-align:left}
.bpe-tally td.bpe-n{text-align:right;font-variant-numeric:tabular-nums}
.bpe-tally tr.bpe-won td{font-weight:700;color:#1a7f37}
"""
    + "".join(f".bpe-m{index}{{background:{colour}}}" for index, colour in enumerate(MARK_COLOURS))
    + "</style>"
)


def style_html() -> str:
    """The style sheet of the text, the reveal and a word to split: a page draws it once, outside the screen that
    asks again every second, so that a poll does not carry it (a kilobyte a student a second, each)."""
    return _STYLE + SPLIT_STYLE


def _letter(index: int) -> str:
    return string.ascii_uppercase[index]


def _mark(index: int) -> str:
    return f'<b class="bpe-m{index % len(MARK_COLOURS)}">{_letter(index)}</b>'


def choice_label(question: Question, index: int) -> str:
    """A choice as its button reads: after its letter when the question shows its text, so that a student finds the
    pair in the words (escape it where it is shown).

    >>> from live_class.records import StepText
    >>> text = StepText((), more=0, counts=(4, 3), tied=1, tie_break="first")
    >>> question = Question(1, "pair", "Step 1", ("a + n", "n + a"), "a + n", text=text)
    >>> choice_label(question, 1), choice_label(question.replace(text=None), 1)
    ('B · n + a', 'n + a')
    """
    choice = question.choices[index]
    return f"{_letter(index)} · {choice}" if question.text is not None else choice


def _word_html(word: ShownWord, made: str) -> str:
    """One word: its symbols in boxes, an offered pair's letter between its two symbols, its count after."""
    parts = []
    for position, symbol in enumerate(word.symbols):
        outlined = ' class="bpe-made"' if made and symbol == made else ""
        parts.append(f"<i{outlined}>{html_text(symbol)}</i>")
        if position < len(word.marks) and word.marks[position] >= 0:
            parts.append(_mark(word.marks[position]))
    if word.clipped:
        parts.append("<small>…</small>")
    return f'<span class="bpe-word">{"".join(parts)}<small>×{word.count:,}</small></span>'


def _kind_of_pieces(text: StepText) -> str:
    """What the text's pieces are called: "words", or "words and signs" when the pre-tokenizer cut punctuation or a
    line break out as pieces of their own (a piece with no letter nor digit), so that "," is never called a word."""
    signs = any(not any(ch.isalnum() for ch in "".join(word.symbols)) for word in text.words)
    return "words and signs" if signs else "words"


def _summary(text: StepText) -> str:
    """
    >>> sign = ShownWord((",",), 9, ())
    >>> _summary(StepText((sign,), more=4, counts=(), tied=1, tie_break="first"))
    'The text so far: its 1 most frequent words and signs of 5'
    """
    shown, kind = len(text.words), _kind_of_pieces(text)
    if text.more:
        return f"The text so far: its {shown} most frequent {kind} of {shown + text.more:,}"
    counted = plural(shown, "word") if kind == "words" else f"{shown} {kind}"
    return f"The text so far: {counted}" + (", each with its count" if shown > 1 else "")


def _more(text: StepText) -> str:
    kind = _kind_of_pieces(text)
    more = plural(text.more, "more word") if kind == "words" else f"{text.more:,} more {kind}"
    return f'<div class="bpe-more">… and {more}</div>'


def text_html(question: Question, *, folded: bool = False) -> str:
    """The question's text (``Question.text``) under it: the key of the offered pairs, the words, "… and N more";
    ``folded`` (a phone, and more than ``FOLD_OVER`` words) closes it under its summary. Empty without a text.

    >>> from live_class.records import StepText, ShownWord
    >>> text = StepText((ShownWord(("<b>", "x"), 2, (0,)),), more=3, counts=(2,), tied=1, tie_break="first")
    >>> body = text_html(Question(1, "pair", "Step 1", ("<b> + x",), "<b> + x", text=text))
    >>> "<i>&lt;b&gt;</i><b" in body, "… and 3 more words" in body, "<details class=\\"bpe-text\\" open>" in body
    (True, True, True)
    """
    text = question.text
    if text is None:
        return ""
    key = " · ".join(f"{_mark(index)} {html_text(choice)}" for index, choice in enumerate(question.choices))
    made = ""
    if text.made:
        made = f' · <i class="bpe-made">{html_text(text.made)}</i> outlined: the symbol the last step made'
    words = "".join(_word_html(word, text.made) for word in text.words)
    more = _more(text) if text.more else ""
    opened = "" if folded and len(text.words) > FOLD_OVER else " open"
    return (
        f'<details class="bpe-text"{opened}><summary title="{_PIECES_SAID}">{html_text(_summary(text))}</summary>'
        f'<div class="bpe-key">Pairs offered: {key}{made}</div><div class="bpe-words">{words}</div>{more}</details>'
    )


def written_texts(question: Question) -> list[str]:
    """Every token text the question shows (its choices and its words' symbols), for the key of glyphs under it.

    >>> from live_class.records import StepText, ShownWord
    >>> text = StepText((ShownWord(("a", "</w>"), 1, (-1,)),), more=0, counts=(1,), tied=1, tie_break="first")
    >>> written_texts(Question(1, "pair", "Step 1", ("a + b",), "a + b", text=text))
    ['a + b', 'a', '</w>']
    """
    words = question.text.words if question.text is not None else ()
    return [*question.choices, *(symbol for word in words for symbol in word.symbols)]


def reveal_sentence(question: Question) -> str:
    """Why the answer merges, in plain words (escape it where it is shown): its count, and the tie and its rule.
    Empty for a question without a text (as ``reveal_html``).

    >>> from live_class.records import StepText
    >>> text = StepText((), more=0, counts=(4, 3), tied=1, tie_break="first")
    >>> reveal_sentence(Question(1, "pair", "Step 1", ("a + n", "n + a"), "a + n", text=text))
    'a + n merges: it occurs 4 times in the text, more than any other pair.'
    """
    text = question.text
    if text is None:
        return ""
    count = text.counts[question.choices.index(question.answer)]
    said = f"{isolated(question.answer)} merges: it occurs {times(count)} in the text"
    if text.tied <= 1:
        return f"{said}, more than any other pair."
    rule = TIE_RULES.get(text.tie_break, "the model's own rule breaks the tie")
    return f"{said}. {text.tied} pairs occur {times(count)}, the most: {rule}."


def reveal_html(question: Question, tally: list[tuple[str, int]]) -> str:
    """The reveal: its sentence, then every offered pair with its letter, its count in the text and its votes, the
    answer's row marked. Empty for a question without a text.

    >>> from live_class.records import StepText
    >>> text = StepText((), more=0, counts=(4, 3), tied=1, tie_break="first")
    >>> question = Question(1, "pair", "Step 1", ("a + n", "<i>"), "a + n", text=text)
    >>> body = reveal_html(question, [("a + n", 2), ("<i>", 0)])
    >>> '<tr class="bpe-won"><td>' in body, "&lt;i&gt;</td><td class=\\"bpe-n\\">3</td>" in body
    (True, True)
    """
    text = question.text
    if text is None:
        return ""
    votes = dict(tally)
    rows = []
    for index, (choice, count) in enumerate(zip(question.choices, text.counts)):
        won = choice == question.answer
        row, tick = (' class="bpe-won"', " ✓") if won else ("", "")
        rows.append(
            f"<tr{row}><td>{_mark(index)} {html_text(choice)}{tick}</td>"
            f'<td class="bpe-n">{count:,}</td><td class="bpe-n">{votes.get(choice, 0)}</td></tr>'
        )
    head = "<tr><th>Pair</th><th>In the text</th><th>Votes</th></tr>"
    return (
        f'<p class="bpe-reveal">{html_text(reveal_sentence(question))}</p>'
        f'<table class="bpe-tally">{head}{"".join(rows)}</table>'
    )
