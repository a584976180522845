"""Presentation mode in Chromium at a projector's 853x480: the sidebar folded, larger type, ← and → stepping the
merges (but not while typing), and the step buttons' labels whole."""

from __future__ import annotations

import pytest
from browser_helpers import SIDEBAR, exception_texts, open_app, wait_for_app

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 853, "height": 480}
STEP = '[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]'


def step_shown(page) -> str:
    return page.locator(STEP).input_value()


def test_a_projector_address_presents_and_the_arrow_keys_step(app_server, page, screenshot):
    page.set_viewport_size(PROJECTOR)
    open_app(page, app_server, "Merges?preset=banana_bandana&merges=6&tab=steps&step=3&present=1")
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "18px"
    assert page.locator(SIDEBAR).get_attribute("data-collapsed") == "true"
    assert step_shown(page) == "3"
    page.locator("h1").click()  # the keys belong to the page, not to a box
    page.keyboard.press("ArrowRight")
    wait_for_app(page)
    assert step_shown(page) == "4"
    page.keyboard.press("ArrowLeft")
    wait_for_app(page)
    page.keyboard.press("ArrowLeft")
    wait_for_app(page)
    assert step_shown(page) == "2"
    assert "present=1" in page.url and "step=2" in page.url
    page.get_by_role("combobox", name="Tokenizer").press("ArrowRight")  # typing in a box moves no step
    wait_for_app(page)
    assert step_shown(page) == "2"
    for label in ("◀ Previous", "Next ▶"):  # whole, not cut to "◀ Pr…"
        button = page.get_by_role("button", name=label)
        assert button.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert exception_texts(page) == []
    screenshot(page, "projector")


def test_the_step_labels_fit_beside_the_sidebar_too(app_server, page):
    page.set_viewport_size(PROJECTOR)
    open_app(page, app_server, "Merges?preset=banana_bandana&merges=6&tab=steps")
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "16px"
    assert page.locator(SIDEBAR).get_attribute("data-collapsed") == "false"
    for label in ("◀ Previous", "Next ▶"):
        assert page.get_by_role("button", name=label).evaluate("el => el.scrollWidth <= el.clientWidth")
