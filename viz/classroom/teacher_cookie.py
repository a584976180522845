"""The teacher's key survives a reload or a restarted replica: an invisible component whose constant script keeps
the class code and key in a cookie of the teacher's own browser (never in an address, never sent to a student), and
the server reads it back from the request that opens a new session (``st.context.cookies``). The server still
decides: the key must match the class's hash in the store."""

from __future__ import annotations

import streamlit as st

COOKIE = "bpe_teacher"
LIFETIME_SECONDS = 4 * 3600  # as long as an idle class lasts (live_class.rules.IDLE_SECONDS)

# The values are data, never code; SameSite=Strict: no other site's page sends it along.
_JS = """
export default function ({data, parentElement}) {
  const {name, value, seconds} = data;
  parentElement.ownerDocument.cookie =
    `${name}=${encodeURIComponent(value)}; path=/; max-age=${seconds}; SameSite=Strict`;
}
"""
_HTML = '<span class="bpe-teacher-cookie"></span>'
_CSS = ".stElementContainer:has(.bpe-teacher-cookie) { display: none; }"

_teacher_cookie = st.components.v2.component("bpe_teacher_cookie", html=_HTML, css=_CSS, js=_JS, isolate_styles=False)


def remember_teacher(code: str, teacher_key: str) -> None:
    """Keep (code, teacher key) in this browser for ``LIFETIME_SECONDS``."""
    _teacher_cookie(data={"name": COOKIE, "value": f"{code}.{teacher_key}", "seconds": LIFETIME_SECONDS})


def forget_teacher() -> None:
    _teacher_cookie(data={"name": COOKIE, "value": "", "seconds": 0})


def remembered_teacher() -> tuple[str, str] | None:
    """(code, teacher key) from this browser's cookie, if it sent one that can be them."""
    value = st.context.cookies.get(COOKIE)
    code, dot, teacher_key = value.partition(".") if isinstance(value, str) else ("", "", "")
    return (code, teacher_key) if dot and code and teacher_key else None
