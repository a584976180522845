"""The "Copy link" button every page shows: the page's address as it is now (the model, then the page's own
choices), to paste in another browser or send; a reload of the page comes back from the same address."""

from __future__ import annotations

import streamlit as st

from viz import state
from viz.addresses import page_link
from viz.presenting import presentation_params

LINK_LANGUAGE = "text"  # the address's code block: plain text, and told apart from the pages' own code blocks


def model_params() -> tuple[dict[str, str], str]:
    """The session's model as query parameters (``viz.train.links``), and what a link cannot carry, if anything."""
    about = state.model_about()
    if about.get("link"):
        return dict(about["link"]), ""
    if "link" in about or about.get("source") in ("upload", "gpt2"):  # trained on files or a long text; loaded
        return (
            {},
            "This model cannot travel in a link (files, a long text or a loaded tokenizer): it opens the default.",
        )
    return {}, ""  # the default model needs no parameter


def show_address(params: dict[str, str], missing: str = "") -> None:
    """Write ``params`` into the address bar (a reload comes back to them) and offer them as a link to copy."""
    params = {**params, **presentation_params(state.presenting())}  # a reload keeps presenting
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)
    with st.popover("Copy link", icon=":material/link:"):
        st.caption("This address opens the page as it is now, in any browser: copy it with the icon at its right.")
        st.code(page_link(st.context.url or "", params), language=LINK_LANGUAGE, wrap_lines=True)
        if missing:
            st.caption(missing)
