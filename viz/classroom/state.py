"""The Class page's own state: the address students type, worked out once per server process (it depends on how
Streamlit listens and on this machine's network, not on the session). No widget of its own is kept yet."""

from __future__ import annotations

import os

import streamlit as st

from viz.classroom.address import CLASS_URL_ENV, ClassAddress, class_address, network_address

KEPT: tuple[str, ...] = ()  # the Class page's widgets whose values are kept while it is not drawn


@st.cache_resource(max_entries=1, show_spinner=False)
def _this_machine() -> str | None:
    return network_address()


def students_address() -> ClassAddress:
    """Where students reach this server (``viz.classroom.address.class_address``)."""
    return class_address(
        os.environ.get(CLASS_URL_ENV, ""),
        st.get_option("server.address"),
        st.get_option("server.port"),
        _this_machine(),
    )
