"""Presentation mode, for a projector: asked for by ``?present=1`` in any page's address (or the sidebar's toggle),
it collapses the sidebar and sets every page's type larger, so that the back of the room can read it.

>>> wants_presentation({"present": "1"}), wants_presentation({"present": "yes"}), wants_presentation({})
(True, False, False)
"""

from __future__ import annotations

from collections.abc import Mapping

PRESENT_PARAM = "present"  # in every page's address while presenting
# Larger type everywhere (Streamlit sizes its text and spacing in rem), and the page's top margin, kept for a
# toolbar a room never uses, given to the page: the top bar, which lay over it (a Class teacher's Reveal sat two
# thirds under it), is cut to that margin's height, so that its buttons (the sidebar's ») sit above the page's first
# row, and lets clicks through to the page but for its buttons. It keeps its background, so that a page scrolled
# under it is hidden there rather than overprinted by the » ("Fi»st step of the animation"). A number box too narrow
# for six digits in the larger type (Train's Merges at 853 px) gives its − and + buttons' room to the digits:
# Streamlit hides them by the box's width in its own type only
_PRESENTATION_CSS = (
    "<style>html{font-size:18px}"
    '[data-testid="stMainBlockContainer"]{padding-top:2rem}'
    '[data-testid="stHeader"]{height:2rem;min-height:0}'
    '[data-testid="stHeader"],[data-testid="stHeader"] *{pointer-events:none}'
    '[data-testid="stHeader"] button{pointer-events:auto}'
    '[data-testid="stNumberInput"]{container-type:inline-size}'
    '@container (max-width:11rem){[data-testid="stNumberInputStepDown"],[data-testid="stNumberInputStepUp"]'
    "{display:none}}</style>"
)


def presentation_css() -> str:
    """The style every page gets while presenting (a constant: nothing from an address reaches it).

    >>> presentation_css().startswith("<style>html{font-size:18px}")
    True
    """
    return _PRESENTATION_CSS


def wants_presentation(params: Mapping[str, str]) -> bool:
    """Whether an address asks for presentation mode (``present=1``; anything else is the usual page)."""
    return params.get(PRESENT_PARAM) == "1"


def presentation_params(presenting: bool) -> dict[str, str]:
    """What a page's address says of presentation mode: nothing unless it is on.

    >>> presentation_params(True), presentation_params(False)
    ({'present': '1'}, {})
    """
    return {PRESENT_PARAM: "1"} if presenting else {}
