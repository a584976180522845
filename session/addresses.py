"""A page's address, read safely: each query parameter a page knows is read by its kind (one of some names, a
whole number in a range, a list of names, a text up to a length); anything else is dropped with a warning, so a
malformed or hostile address gives the page's defaults, never an error. Every warning has one shape: the
parameter as given, then what to choose instead. The text typed on Encode and Compare
travels as ``input``, up to ``MAX_LINK_TEXT`` characters.

>>> warnings = []
>>> read_count({"step": "12"}, "step", 1, 100, warnings), read_names({"real": "gpt2,x"}, "real", ("gpt2",), warnings)
(12, None)
>>> warnings
['real=gpt2,x: choose from gpt2, each at most once, separated by commas']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlencode

TEXT_PARAM = "input"  # the text typed on Encode and Compare ("text" is a pasted corpus, the model's)
MAX_LINK_TEXT = 2_000  # characters of it an address carries; a longer text is said to stay out


def whole_number(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``, spaces around it dropped (ASCII digits only: int() takes
    other scripts' too, and "²" is a digit to isdigit() but not to int())."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and low <= int(text) <= high else None


def read_choice(params: Mapping[str, str], name: str, choices: Sequence[str], warnings: list[str]) -> str | None:
    """``params[name]`` if it is one of ``choices``; None if absent or not (then warned)."""
    if name not in params:
        return None
    if params[name] in choices:
        return params[name]
    warnings.append(f"{name}={params[name]}: choose one of {', '.join(choices)}")
    return None


def read_count(params: Mapping[str, str], name: str, low: int, high: int, warnings: list[str]) -> int | None:
    """``params[name]`` as a whole number from ``low`` to ``high`` (ASCII digits only)."""
    if name not in params:
        return None
    number = whole_number(params[name], low, high)
    if number is None:
        warnings.append(f"{name}={params[name]}: choose a whole number from {low:,} to {high:,}")
    return number


def read_counts(
    params: Mapping[str, str], name: str, low: int, high: int, lengths: range, warnings: list[str]
) -> list[int] | None:
    """``params[name]`` as comma-separated whole numbers from ``low`` to ``high``, as many as ``lengths`` allows.

    >>> read_counts({"sizes": "300,1000"}, "sizes", 1, 2_062, range(2, 5), [])
    [300, 1000]
    """
    if name not in params:
        return None
    items = params[name].split(",")
    numbers = [number for item in items if (number := whole_number(item, low, high)) is not None]
    if len(numbers) == len(items) and len(numbers) in lengths:
        return numbers
    warnings.append(
        f"{name}={params[name]}: choose {lengths.start} to {lengths.stop - 1} whole numbers from {low:,} to {high:,}, "
        "separated by commas"
    )
    return None


def read_names(params: Mapping[str, str], name: str, choices: Sequence[str], warnings: list[str]) -> list[str] | None:
    """``params[name]`` as a comma-separated list of ``choices`` (an empty list allowed), each once."""
    if name not in params:
        return None
    names = [item for item in params[name].split(",") if item]
    if all(item in choices for item in names) and len(set(names)) == len(names):
        return names
    warnings.append(f"{name}={params[name]}: choose from {', '.join(choices)}, each at most once, separated by commas")
    return None


def read_text(params: Mapping[str, str], name: str, max_chars: int, warnings: list[str]) -> str | None:
    """``params[name]`` if it is at most ``max_chars`` characters long (longer is no address this app wrote); an
    empty one is an empty box, as a box emptied by hand is.

    >>> read_text({"input": ""}, "input", 2_000, [])
    ''
    """
    if name not in params:
        return None
    if len(params[name]) <= max_chars:
        return params[name]
    warnings.append(f"{name}: choose a text of at most {max_chars:,} characters")
    return None


def read_switch(params: Mapping[str, str], name: str, words: tuple[str, str], warnings: list[str]) -> bool | None:
    """``params[name]`` as off or on, written as ``words`` (``("0", "1")``, ``("own", "glued")``).

    >>> warnings = []
    >>> read_switch({"marker": "glued"}, "marker", ("own", "glued"), warnings)
    True
    >>> read_switch({"space": "yes"}, "space", ("0", "1"), warnings)
    >>> warnings
    ['space=yes: choose 0 or 1']
    """
    if name not in params:
        return None
    if params[name] in words:
        return params[name] == words[1]
    warnings.append(f"{name}={params[name]}: choose {words[0]} or {words[1]}")
    return None


def text_params(text: str) -> tuple[dict[str, str], str]:
    """The typed text as an address parameter, or nothing and why (too long for a link, never cut).

    >>> text_params("hi"), text_params("x" * 2_001)[1]  # doctest: +NORMALIZE_WHITESPACE
    (({'input': 'hi'}, ''), 'Your text (2,001 characters) is longer than a link carries (2,000): the link opens the
    page with its example text.')
    """
    if len(text) > MAX_LINK_TEXT:
        return {}, (
            f"Your text ({len(text):,} characters) is longer than a link carries ({MAX_LINK_TEXT:,}): "
            "the link opens the page with its example text."
        )
    return ({TEXT_PARAM: text} if text else {}), ""


def page_link(current_url: str, params: dict[str, str]) -> str:
    """The address of the page at ``current_url`` (its own query left out) with ``params``.

    >>> page_link("http://10.0.0.7:8501/Merges?tab=race", {"preset": "banana", "token": "a b"})
    'http://10.0.0.7:8501/Merges?preset=banana&token=a+b'
    """
    base = current_url.split("?", 1)[0].split("#", 1)[0]
    return f"{base}?{urlencode(params)}" if params else base
