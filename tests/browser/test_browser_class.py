"""The Class page in Chromium: the QR code a phone's camera sees reads back as the address shown beside it, and the
page fits a desktop, a phone and a projector."""

from __future__ import annotations

import io

import pytest
import zxingcpp
from PIL import Image
from support.browser import exception_texts, open_app, running_app
from support.screens import overlapping_elements, page_width

from pages.classroom.views.address import CLASS_URL_ENV

pytestmark = pytest.mark.browser

CLASS_URL = "http://10.9.8.7:8501/"
SIZES = {"desktop": (1400, 900), "phone": (390, 844), "projector": (853, 480)}


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    """The app as make class serves it, with the students' address it would print."""
    with running_app(tmp_path_factory.mktemp("class") / "server.log", env={CLASS_URL_ENV: CLASS_URL}) as (url, _):
        yield url


@pytest.mark.parametrize("size", SIZES)
def test_the_qr_code_reads_back_as_the_address_shown(class_server, page, screenshot, size):
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    open_app(page, class_server, "Class")
    assert page.locator(".bpe-url").inner_text() == CLASS_URL
    qr = page.locator("img.bpe-qr")
    qr.scroll_into_view_if_needed()
    decoded = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr.screenshot())))
    assert [code.text for code in decoded] == [CLASS_URL]
    assert page_width(page) <= width and overlapping_elements(page) == []
    assert exception_texts(page) == []
    screenshot(page, size)
