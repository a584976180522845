"""A split question ("How will our model split this word?") as the screens draw it: the word's letters in a row with a
mark at each place between two of them. On a phone, the student's own cuts, and after the reveal which were right;
on the projector, how many students cut at each place, and after the reveal where our model starts its tokens. The
word is the teacher's: every letter is escaped here. The style sheet (``SPLIT_STYLE``) is drawn once by the page
(``text_view.style_html``), not with every poll.

>>> html = split_html("a<b", (1, 2), chosen={1}, answer={2})
>>> body = html[html.index('<div class="bpe-split"') :]
>>> "<i>&lt;</i>" in body, body.count('"bpe-wrong">✗'), body.count('"bpe-missed">')
(True, 1, 1)
"""

from __future__ import annotations

from collections import Counter

from drawing.describe import plural
from drawing.escape import html_text
from live_class import cuts
from live_class.kinds import offered_places
from live_class.records import Question

_LETTER = "clamp(1.3rem,5vw,2.2rem)"  # the word's letters: large on a projector, a phone's width for 20 of them
SPLIT_STYLE = f"""<style>
.bpe-split{{display:flex;flex-wrap:wrap;align-items:flex-end;row-gap:.4rem;margin:.4rem 0 .2rem}}
.bpe-split i{{font:600 {_LETTER}/1.2 ui-monospace,Menlo,Consolas,monospace;font-style:normal;color:#1f2335;
 padding:0 .1rem}}
.bpe-split span{{display:inline-flex;flex-direction:column;align-items:center;min-width:1rem;
 font:700 .95rem/1.2 system-ui,sans-serif;color:#3d4152;font-variant-numeric:tabular-nums}}
.bpe-split span::after{{content:"";box-sizing:border-box;width:.25rem;height:calc(1.2 * {_LETTER});border-radius:.1rem}}
.bpe-split span.bpe-cut::after{{background:#1f5fa8}}
.bpe-split span.bpe-right::after{{background:#1a7f37}}
.bpe-split span.bpe-missed::after{{width:0;border-left:3px dashed #1a7f37;border-radius:0}}
.bpe-split span.bpe-wrong::after{{background:#b3261e}}
.bpe-split span.bpe-right{{color:#1a7f37}}
.bpe-split span.bpe-wrong{{color:#b3261e}}
.bpe-split-key{{color:#3d4152;font-size:.85rem;margin:0 0 .4rem}}
</style>"""
_SIGNS = {"bpe-right": "✓", "bpe-wrong": "✗", "bpe-missed": ""}


LABEL_REACH = 4  # letters a place's label shows on either side of it: a long word's 19 labels stay apart


def place_labels(word: str, offered: tuple[int, ...]) -> dict[int, str]:
    """Each place as a student taps it: the word with a bar there, or for a word of more than twice ``LABEL_REACH``
    letters (graphemes: the places ``offered``) that many on either side and "…" for the rest; two labels that would
    read alike (a word that repeats itself) say after them how many letters come before the bar. Escape them where
    they are shown.

    >>> place_labels("lowest", (1, 2, 3, 4, 5))[1]
    'l|owest'
    >>> [place_labels("unbelievably", tuple(range(1, 12)))[place] for place in (2, 6, 10)]
    ['un|beli…', '…beli|evab…', '…evab|ly']
    >>> [place_labels("hahahahahaha", tuple(range(1, 12)))[place] for place in (4, 5, 6, 7)]
    ['haha|haha…', '…ahah|ahah… (5)', '…haha|haha…', '…ahah|ahah… (7)']
    """
    ends = [0, *offered, len(word)]
    if len(ends) - 1 <= 2 * LABEL_REACH:
        return {place: f"{word[:place]}|{word[place:]}" for place in offered}
    labels = {}
    for at, place in enumerate(offered, start=1):
        start, end = ends[max(0, at - LABEL_REACH)], ends[min(len(ends) - 1, at + LABEL_REACH)]
        labels[place] = f"{'…' if start else ''}{word[start:place]}|{word[place:end]}{'…' if end < len(word) else ''}"
    alike = Counter(labels.values())
    return {
        place: f"{label} ({at})" if alike[label] > 1 else label
        for at, (place, label) in enumerate(labels.items(), start=1)
    }


def _place_class(place: int, chosen: set[int], answer: set[int] | None) -> str:
    if answer is None:
        return "bpe-cut" if place in chosen else ""
    if place in answer:
        return "bpe-right" if place in chosen else "bpe-missed"
    return "bpe-wrong" if place in chosen else ""


def split_html(
    word: str, offered: tuple[int, ...], chosen: set[int], answer: set[int] | None, counts: dict[int, int] | None = None
) -> str:
    """The word cut at every place ``offered``, each place marked, then what the marks mean: ``chosen`` (a
    student's cuts; the projector passes the places any student chose) before the reveal; after it (``answer``:
    our model's places) each chosen place right or wrong and the places missed; ``counts``, the projector's, writes
    how many students cut at each place over it. A word of a right-to-left script reads from the right.

    >>> html = split_html("low", (1, 2), chosen={2}, answer=None, counts={2: 3})
    >>> html[html.index("<i>") : html.index("</div>")]
    '<i>l</i><span class=""></span><i>o</i><span class="bpe-cut">3</span><i>w</i>'
    """
    ends = [0, *offered, len(word)]
    parts = [f"<i>{html_text(word[: ends[1]])}</i>"]
    for place, end in zip(offered, ends[2:]):
        marked = _place_class(place, chosen, answer)
        above = str(counts.get(place, "")) if counts is not None else _SIGNS.get(marked, "")
        parts.append(f'<span class="{marked}">{above}</span><i>{html_text(word[place:end])}</i>')
    key = _key(counts is not None, answer is not None)
    return f'<div class="bpe-split" dir="auto">{"".join(parts)}</div><p class="bpe-split-key">{key}</p>'


def _key(projector: bool, revealed: bool) -> str:
    """What the marks mean, on the screen that shows them.

    >>> _key(projector=False, revealed=True)
    'Green: where our model starts a token (✓ you cut there; dashed: you did not). ✗: no token starts there.'
    """
    if projector:
        counted = "Over each place: how many students cut there."
        return f"{counted} Green: where our model starts a token; red: where it does not." if revealed else counted
    if revealed:
        return "Green: where our model starts a token (✓ you cut there; dashed: you did not). ✗: no token starts there."
    return "Blue: your cuts."


def _shown_answer(question: Question) -> set[int] | None:
    """Our model's places once revealed; None before, so that no screen gives them away."""
    return cuts.places_of(question.answer) if question.revealed else None


def student_split_html(question: Question, mine: str | None) -> str:
    """A phone's word: the student's cuts (``mine``, as kept; None before their first tap), and after the reveal
    which were right."""
    offered = tuple(offered_places(question))
    return split_html(question.prompt, offered, cuts.places_of(mine or ""), _shown_answer(question))


def room_split_html(question: Question, votes: dict[str, str]) -> str:
    """The projector's word: how many students cut at each place, and after the reveal where our model cuts."""
    counts = place_counts(votes)
    return split_html(question.prompt, tuple(offered_places(question)), set(counts), _shown_answer(question), counts)


def place_counts(votes: dict[str, str]) -> dict[int, int]:
    """How many students cut at each place.

    >>> place_counts({"s1": "1,3", "s2": "3", "s3": ""})
    {1: 1, 3: 2}
    """
    return dict(sorted(Counter(place for places in votes.values() for place in cuts.places_of(places)).items()))


def my_split_result(answer: str, mine: str | None) -> str:
    """What a student's phone says after the reveal, beside the word (escape it where it is shown).

    >>> my_split_result("3", "1,3")
    '1 place right, 1 where no token starts: 0 points.'
    >>> my_split_result("2,4", None)
    'You did not cut it: 0 points.'
    """
    if mine is None:
        return "You did not cut it: 0 points."
    right, wrong = cuts.right_and_wrong(answer, mine)
    said = f"{plural(right, 'place')} right, {wrong} where no token starts"
    return f"{said}: {plural(cuts.place_points(answer, mine), 'point')}."


def room_split_result(answer: str, votes: dict[str, str]) -> str:
    """What the projector says after the reveal: how many students cut the word exactly as our model does.

    >>> room_split_result("3", {"s1": "3", "s2": "1,3"}), room_split_result("3", {})
    ('Cut exactly right: 1 of 2 students.', 'Nobody cut it.')
    """
    if not votes:
        return "Nobody cut it."
    exact = sum(places == answer for places in votes.values())
    return f"Cut exactly right: {exact} of {plural(len(votes), 'student')}."
