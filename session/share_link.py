"""The "Copy link" button every page shows: the page's address as it is now (the model, then the page's own
choices), to paste in another browser or send; a reload of the page comes back from the same address. And the one
warning a page gives for what its address asked that could not be taken."""

from __future__ import annotations

import streamlit as st

from drawing import escape
from session import state
from session.addresses import page_link
from session.presenting import presentation_params

CANNOT_TRAVEL = "This model cannot travel in a link (files, a long text or a loaded tokenizer): it opens the default."
LINK_LANGUAGE = "text"  # the address's code block: plain text, and told apart from the pages' own code blocks


def _model_params() -> tuple[dict[str, str], str]:
    """The session's model as query parameters (``pages.train.views.model_address``), and what a link cannot carry, if
    anything."""
    link = state.model_about().link
    if link is None:
        return {}, CANNOT_TRAVEL
    return dict(link), ""  # none for the default model


def show_address(page_params: dict[str, str] | None = None, page_missing: str = "") -> None:
    """Write the session's model and ``page_params`` into the address bar (a reload comes back to them) and offer
    them as a link to copy, saying what they cannot carry (the model's or the page's ``page_missing``)."""
    model_params, model_missing = _model_params()
    params = {**model_params, **(page_params or {}), **presentation_params(state.presenting())}
    missing = " ".join(filter(None, (model_missing, page_missing)))
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)
    with st.popover("Copy link", icon=":material/link:"):
        st.caption("This address opens the page as it is now, in any browser: copy it with the icon at its right.")
        st.code(page_link(st.context.url or "", params), language=LINK_LANGUAGE, wrap_lines=True)
        if missing:
            st.caption(missing)


def warn_ignored(ignored: list[str]) -> None:
    """One warning line for the parameters an address gave that a page could not take, the model's first (on any
    page, as a page's own), each once (escaped: they are the address's text, anyone's)."""
    ignored = list(dict.fromkeys([*state.take_model_link_warnings(), *ignored]))
    if ignored:
        st.warning(
            escape.markdown(f"Ignored in the address: {'; '.join(ignored)}. The page's defaults are used instead.")
        )
