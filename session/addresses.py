"""A page's address, read safely: each query parameter a page knows is read by its kind (one of some names, a
whole number in a range, a list of names, a text up to a length); anything else is dropped with a warning, so a
malformed or hostile address gives the page's defaults, never an error. The text typed on Encode and Compare
travels as ``input``, up to ``MAX_LINK_TEXT`` characters.

>>> warnings = []
>>> read_count({"step": "12"}, "step", 1, 100, warnings), read_names({"real": "gpt2,x"}, "real", ("gpt2",), warnings)
(12, None)
>>> warnings
['real=gpt2,x: x is not one of gpt2']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlencode

TEXT_PARAM = "input"  # the text typed on Encode and Compare ("text" is a pasted corpus, the model's)
MAX_LINK_TEXT = 2_000  # characters of it an address carries; a longer text is said to stay out


def whole_number(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high`` (ASCII digits only: int() takes other scripts' too)."""
    return int(text) if text.isascii() and text.isdigit() and low <= int(text) <= high else None


def read_choice(params: Mapping[str, str], name: str, choices: Sequence[str], warnings: list[str]) -> str | None:
    """``params[name]`` if it is one of ``choices``; None if absent or not (then warned)."""
    if name not in params:
        return None
    if params[name] in choices:
        return params[name]
    warnings.append(f"{name}={params[name]}: no such {name}")
    return None


def read_count(params: Mapping[str, str], name: str, low: int, high: int, warnings: list[str]) -> int | None:
    """``params[name]`` as a whole number from ``low`` to ``high`` (ASCII digits only)."""
    if name not in params:
        return None
    number = whole_number(params[name], low, high)
    if number is None:
        warnings.append(f"{name}={params[name]}: not a whole number from {low:,} to {high:,}")
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
    numbers = [whole_number(item, low, high) for item in params[name].split(",")]
    if len(numbers) in lengths and None not in numbers:
        return numbers
    warnings.append(
        f"{name}={params[name]}: not {lengths.start}-{lengths.stop - 1} whole numbers from {low:,} to {high:,}"
    )
    return None


def read_names(params: Mapping[str, str], name: str, choices: Sequence[str], warnings: list[str]) -> list[str] | None:
    """``params[name]`` as a comma-separated list of ``choices`` (an empty list allowed), each once."""
    if name not in params:
        return None
    names = [item for item in params[name].split(",") if item]
    wrong = next((item for item in names if item not in choices), None)
    if wrong is not None or len(set(names)) != len(names):
        problem = f"{wrong} is not one of {', '.join(choices)}" if wrong is not None else "a name twice"
        warnings.append(f"{name}={params[name]}: {problem}")
        return None
    return names


def read_text(params: Mapping[str, str], name: str, max_chars: int, warnings: list[str]) -> str | None:
    """``params[name]`` if it is 1 to ``max_chars`` characters long (longer is no address this app wrote)."""
    if name not in params:
        return None
    if 0 < len(params[name]) <= max_chars:
        return params[name]
    warnings.append(f"{name}: not 1 to {max_chars:,} characters")
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
