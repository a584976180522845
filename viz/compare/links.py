"""The Compare page's address: the tab, the vocabulary sizes, the text typed and the published tokenizers chosen,
as query parameters beside the model's own, and back (``viz.addresses`` reads them safely).

>>> params, note = compare_params("real", [300, 1000], "Hi", ["gpt2"], example="Hello", default_real=("gpt2",))
>>> params, note
({'tab': 'real', 'sizes': '300,1000', 'input': 'Hi'}, '')
>>> link = read_compare_params(params, ("curves", "real"), (6, 2_062), ("gpt2", "llama3"))
>>> link.tab, link.sizes, link.text, link.real
('real', [300, 1000], 'Hi', None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from viz.addresses import MAX_LINK_TEXT, TEXT_PARAM, read_choice, read_counts, read_names, read_text, text_params

SIZE_COUNTS = range(2, 5)  # two to four sizes are compared


def compare_params(
    tab: str, sizes: Sequence[int], text: str, real: Sequence[str], example: str, default_real: Sequence[str]
) -> tuple[dict[str, str], str]:
    """The page's state as query parameters (the defaults left out), and what the address cannot carry."""
    params = {"tab": tab}
    if len(sizes) in SIZE_COUNTS:
        params["sizes"] = ",".join(map(str, sizes))
    text_part, note = text_params(text) if text != example else ({}, "")
    params.update(text_part)
    if list(real) != list(default_real):
        params["real"] = ",".join(real)
    return params, note


@dataclass
class CompareLink:
    """What an address asks of the Compare page: None where it asks nothing (or nonsense, then warned)."""

    tab: str | None = None
    sizes: list[int] | None = None
    text: str | None = None
    real: list[str] | None = None
    warnings: list[str] = field(default_factory=list)


def read_compare_params(
    params: Mapping[str, str], tabs: Sequence[str], size_range: tuple[int, int], published: Sequence[str]
) -> CompareLink:
    """Read the page's parameters back: ``size_range`` is the model's smallest and largest vocabulary.

    >>> read_compare_params({"sizes": "5,99999"}, ("curves",), (6, 2_062), ()).warnings
    ['sizes=5,99999: not 2-4 whole numbers from 6 to 2,062']
    """
    warnings: list[str] = []
    return CompareLink(
        tab=read_choice(params, "tab", tabs, warnings),
        sizes=read_counts(params, "sizes", *size_range, SIZE_COUNTS, warnings),
        text=read_text(params, TEXT_PARAM, MAX_LINK_TEXT, warnings),
        real=read_names(params, "real", published, warnings),
        warnings=warnings,
    )
