"""A word's split as a class question keeps it: the places between its characters where a new token starts (place 3
of "lowest" is between "low" and "est"), kept as text ("3,5"; "" for none), read back from a student's taps among
the places the question offers (between two letters, never inside one), written out for a screen, and scored: a
point for every place right, one off for every place where no token starts (never below zero), so that cutting
everywhere earns nothing.

>>> read_places(" 5, 3 ", "lowest", offered=range(1, 6)), written("lowest", "3,5")
('3,5', 'low · es · t')
>>> place_points("3,5", "3"), place_points("3,5", "3,5"), place_points("3", "1,2,3,4,5")
(1, 2, 0)
"""

from __future__ import annotations

from collections.abc import Iterable

from live_class.rules import ClassProblem

SEPARATOR = " · "  # between the parts of a word as a screen writes its split
_PLACE_DIGITS = 4  # a place is shorter than this; int() of a longer text of digits is slow, or refused past 4,300


def places_text(places: Iterable[int]) -> str:
    """Places as a question keeps them: ascending, each once, separated by commas.

    >>> places_text([10, 2, 8, 2])
    '2,8,10'
    """
    return ",".join(str(place) for place in sorted(set(places)))


def places_of(kept: str) -> set[int]:
    """The places ``places_text`` wrote."""
    return {int(place) for place in kept.split(",") if place}


def read_places(typed: str, word: str, offered: Iterable[int]) -> str:
    """A student's places, as kept (``places_text``); ``ClassProblem`` for anything but places ``offered``.

    >>> read_places("", "low", offered=(1, 2))
    ''
    >>> read_places("2", "low", offered=(1,))
    Traceback (most recent call last):
    ...
    live_class.rules.ClassProblem: Cut "low" between its letters, where the question offers.
    """
    places, allowed = [place.strip() for place in typed.split(",") if place.strip()], set(offered)
    if not all(place.isdecimal() and len(place) <= _PLACE_DIGITS and int(place) in allowed for place in places):
        raise ClassProblem(f'Cut "{word}" between its letters, where the question offers.')
    return places_text(int(place) for place in places)


def written(word: str, kept: str) -> str:
    """``word`` cut at the places ``kept``, its parts separated by ``SEPARATOR``.

    >>> written("unbelievably", "10,2,8"), written("lowest", "")
    ('un · believ · ab · ly', 'lowest (not cut)')
    """
    ends = [0, *sorted(places_of(kept)), len(word)]
    if len(ends) == 2:
        return f"{word} (not cut)"
    return SEPARATOR.join(word[start:end] for start, end in zip(ends, ends[1:]))


def right_and_wrong(answer: str, vote: str) -> tuple[int, int]:
    """How many of a student's places a token starts at, and how many it does not.

    >>> right_and_wrong("2,8,10", "2,3,10")
    (2, 1)
    """
    right, chosen = places_of(answer), places_of(vote)
    return len(chosen & right), len(chosen - right)


def place_points(answer: str, vote: str) -> int:
    """A student's points for one split: the places right, less the places where no token starts, at least 0."""
    right, wrong = right_and_wrong(answer, vote)
    return max(0, right - wrong)
