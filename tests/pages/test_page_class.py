"""The Class page (AppTest): the address students type and its QR code, or why they cannot reach this server."""

from __future__ import annotations

import re

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest
from support.pages import ok
from support.paths import REPO_ROOT

from pages.classroom.views.address import CLASS_URL_ENV
from session.page_registry import CLASS


@pytest.fixture
def server_address():
    """Set Streamlit's server.address for one test, as ``make run`` (localhost) or ``make class`` (0.0.0.0) do."""
    before = config.get_option("server.address")
    yield lambda value: config.set_option("server.address", value)
    config.set_option("server.address", before)


def class_page_html(at: AppTest) -> str:
    return "".join(element.value for element in at.get("html"))


def test_the_page_shows_the_address_make_class_gave(monkeypatch, server_address):
    server_address("0.0.0.0")
    monkeypatch.setenv(CLASS_URL_ENV, "http://10.9.8.7:8080/")
    at = ok(AppTest.from_file(str(REPO_ROOT / CLASS.path)).run())
    assert at.title[0].value == "Class"
    block = class_page_html(at)
    assert re.search(r'<div class="bpe-url" style="[^"]*">http://10\.9\.8\.7:8080/</div>', block)
    assert 'alt="QR code of http://10.9.8.7:8080/"' in block


def test_a_server_on_localhost_says_how_to_let_a_class_in(monkeypatch, server_address):
    server_address("localhost")
    monkeypatch.delenv(CLASS_URL_ENV, raising=False)
    block = class_page_html(ok(AppTest.from_file(str(REPO_ROOT / CLASS.path)).run()))
    assert "<img" not in block and "start it with make class" in block
