"""What a newcomer's walk-through of a live class found, on screen: Start a class on a projector leaves the join
address and its QR code on the first screen, and once students have joined a latecomer still finds the class's code
large and a QR code, with the question and its first choices on the same first screen."""

from __future__ import annotations

import re

import pytest
from browser_helpers import (
    PHONE,
    PROJECTOR,
    exception_texts,
    open_app,
    overlapping_elements,
    page_width,
    running_app,
    wait_for_app,
)

from live_class.choose import STORE_ENV
from pages.classroom.views.address import CLASS_URL_ENV

pytestmark = pytest.mark.browser

ROOM_URL = "http://10.9.8.7:8080/"  # what make class would set: the room's address, so the page draws QR codes
FOLLOW_MS = 4_000  # a screen follows the class within 2 s (a poll a second): twice that, for CI


@pytest.fixture(scope="module")
def room_server(tmp_path_factory):
    """The app as ``make class`` serves it (students' address given), with a class store of its own."""
    folder = tmp_path_factory.mktemp("class-walkthrough")
    env = {STORE_ENV: f"sqlite:///{folder}/classes.sqlite3", CLASS_URL_ENV: ROOM_URL}
    with running_app(folder / "server.log", env=env) as (url, _):
        yield url


def on_first_screen(page, selector: str) -> bool:
    """The element ``selector`` names lies wholly within the window, as the page is scrolled now."""
    box = page.locator(selector).first.bounding_box()
    window = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= window["height"]


def fits(screen, window) -> bool:
    return page_width(screen) <= window["width"] and not overlapping_elements(screen) and not exception_texts(screen)


def test_start_a_class_on_a_projector_leaves_the_join_address_and_qr_code_in_view(room_server, page, screenshot):
    """At 853x480, presenting: Start a class is on the first screen, and once pressed the page stays at its top,
    where the class's QR code and join address are."""
    page.set_viewport_size(PROJECTOR)
    open_app(page, room_server, "Class?present=1")
    assert on_first_screen(page, "button:has-text('Start a class')")  # pressed without scrolling
    page.get_by_role("button", name="Start a class").click()
    wait_for_app(page)
    page.locator("img.bpe-qr").wait_for(timeout=FOLLOW_MS)
    assert on_first_screen(page, "img.bpe-qr") and on_first_screen(page, ".bpe-reach .bpe-url")
    assert re.fullmatch(r"http://10\.9\.8\.7:8080/Class\?join=\w{5}", page.locator(".bpe-url").inner_text())
    assert fits(page, PROJECTOR)
    screenshot(page, "projector-started")


def test_a_latecomer_finds_the_code_large_and_a_qr_code_beside_the_question(room_server, page, browser, screenshot):
    """Once Ada has joined, the projector's join line keeps a small QR code and the class's code large (the Class
    page's address, shorter than the whole link), and the question with its first two choices stays on the 853x480
    first screen; the join line fits a phone-sized teacher's screen too."""
    page.set_viewport_size(PROJECTOR)
    open_app(page, room_server, "Class?present=1")
    page.get_by_role("button", name="Start a class").click()
    wait_for_app(page)
    code = page.locator(".bpe-url").inner_text().rsplit("=", 1)[1]
    ada = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    try:
        open_app(ada, room_server, f"Class?join={code}")  # the phone reaches this server, not the room's address
        ada.get_by_label("Your name").fill("Ada")
        ada.get_by_role("button", name="Join").click()
        ada.get_by_text("Which pair merges next?").wait_for(timeout=FOLLOW_MS * 3)
    finally:
        ada.context.close()
    page.locator(".bpe-join .bpe-code").wait_for(timeout=FOLLOW_MS)
    assert page.locator(".bpe-join .bpe-code").inner_text() == code
    size = page.locator(".bpe-join .bpe-code").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 1.8 * page.locator(".bpe-model").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert page.locator(".bpe-join code").inner_text() == "http://10.9.8.7:8080/Class"
    assert page.locator(".bpe-join img.bpe-qr-small").get_attribute("alt") == f"QR code of {ROOM_URL}Class?join={code}"
    for element in (".bpe-join .bpe-code", ".bpe-join img.bpe-qr-small", ".bpe-ask"):
        assert on_first_screen(page, element), element
    assert all(on_first_screen(page, f".bpe-waiting li:nth-child({row})") for row in (1, 2))
    assert fits(page, PROJECTOR)
    screenshot(page, "projector-joined")
    page.set_viewport_size(PHONE)
    wait_for_app(page)
    assert on_first_screen(page, ".bpe-join .bpe-code") and fits(page, PHONE)
    screenshot(page, "phone-teacher-joined")


def test_after_the_teachers_model_changes_the_projector_asks_about_the_new_one(room_server, page, screenshot):
    """The class starts on the sample model (step 1: h + e, t + h, ␣ + a, ␣ + t); the teacher's browser then opens
    the Class page with the textbook banana_bandana_ model (a reload with another model: the class is found again
    by its cookie). The projector names the new model and offers its pairs (a + _, a + n, b + a, n + a, worked out
    in the page tests), nothing of the old, and the teacher is told so."""
    page.set_viewport_size(PROJECTOR)
    open_app(page, room_server, "Class?present=1")
    page.get_by_role("button", name="Start a class").click()
    wait_for_app(page)
    page.locator(".bpe-key", has_text="t + h").wait_for(timeout=FOLLOW_MS)
    open_app(page, room_server, "Class?preset=banana_bandana&present=1")
    page.get_by_text("The class follows your new model: step 1 is asked again with its pairs.").wait_for()
    key = page.locator(".bpe-key", has_text="a + n")
    key.wait_for(timeout=FOLLOW_MS)
    assert key.inner_text().startswith("Pairs offered: A a + _ · B a + n · C b + a · D n + a")
    assert "banana_bandana_" in page.locator(".bpe-model").inner_text() and "t + h" not in page.inner_text("body")
    assert fits(page, PROJECTOR)
    screenshot(page, "projector-new-model")
