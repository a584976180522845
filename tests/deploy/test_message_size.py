"""Bounded messages: what Compare's Real tokenizers tab sends over the websocket in one run, counted as Streamlit
sends it (bench/classroom/student.py speaks its protocol), for a long text of emoji under four published tokenizers
and the session's model, all four lined up: a few megabytes, the strips and the line-up each showing the text's first
part and saying so. Before the bound on the strips' boxes (``setup.STRIP_BOXES_IN_ALL``) the same run sent 15.6 MB;
now 2.7 MB."""

from __future__ import annotations

import pytest
from support.deploy import run_students

from bench.classroom.student import Student
from pages.compare.views.real_tokenizers import DEFAULT_REAL

EMOJI = "😀👍🏽🇫🇷👨‍👩‍👧 "  # a face, a toned thumb, a flag, a family of four joined by ZWJs: many byte-level tokens each
TEXT = (EMOJI * 10_000)[:100_000]  # the longest text the box takes
MOST_BYTES = 4 * 2**20  # "a few megabytes"

pytestmark = pytest.mark.slow


def test_four_tokenizers_on_a_long_text_of_emoji_send_a_few_megabytes(app_server):
    async def visit():
        tab = Student(app_server.rstrip("/"))
        try:
            await tab.enter()
            await tab.open_page("Compare", f"tab=real&line={','.join(DEFAULT_REAL)}")
            before = tab.received
            await tab.type_text("Your text", TEXT)
            return tab.received - before, tab.shown_text()
        finally:
            await tab.leave()

    sent, page = run_students(visit)
    assert sent < MOST_BYTES, f"{sent:,} bytes in one run"
    assert page.count("Showing the tokens of the first") == 1 + len(DEFAULT_REAL)
    assert "of 100,000 characters" in page
    assert "The first 3,000 characters of your 100,000." in page  # the line-up
