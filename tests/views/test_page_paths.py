"""Which page an address typed in another letter case means (session/page_paths.py)."""

from __future__ import annotations

import pytest

from session.page_paths import page_in_other_case, requested_segment
from session.page_registry import COMPARE, ENCODE, PAGES, TRAIN

SERVED = {"", "Merges", "Encode", "Compare", "Learn", "Class"}  # as app.py registers them: Train at the root


@pytest.mark.parametrize(
    ("url", "segment"),
    [
        ("http://127.0.0.1:8501/encode", "encode"),
        ("http://127.0.0.1:8501/COMPARE/", "COMPARE"),
        ("https://example.org/bpe/explorer/Train", "Train"),  # behind a base path
        ("http://127.0.0.1:8501/", ""),
        ("http://127.0.0.1:8501", ""),
        ("http://h/En%63ode", "Encode"),  # percent-escaped as a browser may send it
        (None, ""),
    ],
)
def test_the_requested_segment_is_the_paths_last_part(url, segment):
    assert requested_segment(url) == segment


@pytest.mark.parametrize(
    ("segment", "page"),
    [("encode", ENCODE), ("ENCODE", ENCODE), ("COMPARE", COMPARE), ("train", TRAIN), ("Train", TRAIN)],
)
def test_a_name_in_another_case_finds_its_page(segment, page):
    assert page_in_other_case(segment, PAGES, SERVED) == page


@pytest.mark.parametrize("segment", ["Encode", "Compare", "", "Nowhere", "Encoder", "Encode "])
def test_a_served_address_or_no_pages_address_is_left_to_streamlit(segment):
    assert page_in_other_case(segment, PAGES, SERVED) is None
