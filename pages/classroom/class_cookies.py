"""A teacher's class and a student's place in it survive a reload or a restarted replica: an invisible component
whose constant script keeps the class code and the role's secret (the teacher's key, the student's id) in a cookie
of that person's own browser, never in an address, and the server reads it back from the request that opens a new
session (``st.context.cookies``). The server still decides: the key must match the class's hash in the store, the
student must be one of the class's."""

from __future__ import annotations

import streamlit as st

COOKIES = {"teacher": "bpe_teacher", "student": "bpe_student"}  # role -> its cookie's name
LIFETIME_SECONDS = 4 * 3600  # as long as an idle class lasts (live_class.rules.IDLE_SECONDS)

# The values are data, never code; SameSite=Strict: no other site's page sends it along.
_JS = """
export default function ({data, parentElement}) {
  const {name, value, seconds} = data;
  parentElement.ownerDocument.cookie =
    `${name}=${encodeURIComponent(value)}; path=/; max-age=${seconds}; SameSite=Strict`;
}
"""
_HTML = '<span class="bpe-class-cookie"></span>'
_CSS = ".stElementContainer:has(.bpe-class-cookie) { display: none; }"

_class_cookie = st.components.v2.component("bpe_class_cookie", html=_HTML, css=_CSS, js=_JS, isolate_styles=False)


def remember(role: str, code: str, secret: str) -> None:
    """Keep (code, secret) of ``role`` ("teacher" or "student") in this browser for ``LIFETIME_SECONDS``."""
    data = {"name": COOKIES[role], "value": f"{code}.{secret}", "seconds": LIFETIME_SECONDS}
    _class_cookie(data=data, key=f"bpe_{role}_cookie")


def forget(role: str) -> None:
    _class_cookie(data={"name": COOKIES[role], "value": "", "seconds": 0}, key=f"bpe_{role}_cookie")


def remembered(role: str) -> tuple[str, str] | None:
    """(code, secret) of ``role`` from this browser's cookie, if it sent one that can be them."""
    value = st.context.cookies.get(COOKIES[role])
    code, dot, secret = value.partition(".") if isinstance(value, str) else ("", "", "")
    return (code, secret) if dot and code and secret else None
