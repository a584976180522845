"""A word's split as a class question keeps it: the places between its characters where a new token starts (place 3
of "lowest" is between "low" and "est"), kept as text ("3,5"; "" for none), read back from a student's taps, written
out for a screen, and scored: a point for every place right, one off for every place where no token starts (never
below zero), so that cutting everywhere earns nothing.

>>> read_places(" 5, 3 ", "lowest"), written("lowest", "3,5")
('3,5', 'low · es · t')
>>> place_points("3,5", "3"), place_points("3,5", "3,5"), place_points("3", "1,2,3,4,5")
(1, 2, 0)
"""

from __future__ import annotations

from collections.abc import Iterable

from live_class.rules import ClassProblem

SEPARATOR = " · "  # between the parts of a word as a screen writes its split


def places_text(places: Iterable[int]) -> str:
    """Places as a question keeps them: ascending, each once, separated by commas.

    >>> places_text([5, 3, 3])
    '3,5'
    """
    return ",".join(str(place) for place in sorted(set(places)))


def places_of(kept: str) -> set[int]:
    """The places ``places_text`` wrote."""
    return {int(place) for place in kept.split(",") if place}


def read_places(typed: str, word: str) -> str:
    """A student's places, as kept (``places_text``); ``ClassProblem`` for anything but whole numbers between the
    word's first and last character.

    >>> read_places("", "low")
    ''
    >>> read_places("0", "low")
    Traceback (most recent call last):
    ...
    live_class.rules.ClassProblem: Cut "low" between its letters: at places 1 to 2.
    """
    places = [place.strip() for place in typed.split(",") if place.strip()]
    if not all(place.isdecimal() and len(place) <= 4 and 0 < int(place) < len(word) for place in places):
        raise ClassProblem(f'Cut "{word}" between its letters: at places 1 to {len(word) - 1}.')
    return places_text(int(place) for place in places)


def written(word: str, kept: str) -> str:
    """``word`` cut at the places ``kept``, its parts separated by ``SEPARATOR``.

    >>> written("lowest", "")
    'lowest'
    """
    ends = [0, *sorted(places_of(kept)), len(word)]
    return SEPARATOR.join(word[start:end] for start, end in zip(ends, ends[1:]))


def place_points(answer: str, vote: str) -> int:
    """A student's points for one split: the places right, less the places where no token starts, at least 0."""
    right, chosen = places_of(answer), places_of(vote)
    return max(0, len(chosen & right) - len(chosen - right))
