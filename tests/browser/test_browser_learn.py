"""The Learn page in a real browser at desktop, phone and projector size: an answer checked in words, the next step,
a reload coming back to the same place."""

from __future__ import annotations

import pytest
from browser_helpers import (
    PHONE,
    PROJECTOR,
    exception_texts,
    open_app,
    overlapping_elements,
    page_width,
    unreachable_controls,
    wait_for_app,
    wholly_in_view,
)

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 900}
ALERT = '[data-testid="stAlert"]'
SIZES = [(DESKTOP, ""), (PHONE, ""), (PROJECTOR, "&present=1")]  # a projector presents


def _fits(page, size: dict) -> None:
    assert page_width(page) <= size["width"]  # no sideways scroll
    assert overlapping_elements(page) == []
    # from the top, as the page opens (scrolled, the title's anchor slides under Streamlit's toolbar, as it should)
    page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
    assert unreachable_controls(page) == []


@pytest.mark.parametrize("size", [DESKTOP, PHONE, PROJECTOR], ids=["desktop", "phone", "projector"])
def test_a_learner_answers_moves_on_and_a_reload_comes_back(app_server, page, screenshot, size):
    page.set_viewport_size(size)
    open_app(page, app_server, "Learn?example=low")
    words = page.locator(".bpe-learn-word")
    assert words.count() == 4 and words.first.inner_text().split() == ["l", "o", "w", "_", "×5"]
    question = page.get_by_role("radiogroup", name="Which pair does BPE merge next?")
    question.get_by_text("t + _", exact=True).click()
    wait_for_app(page)
    said = page.locator(ALERT).inner_text()
    assert said.startswith("Not this one: t + _ occurs 6 times, as often as 5 other pairs")
    _fits(page, size)
    page.locator(ALERT).scroll_into_view_if_needed()
    screenshot(page, "1-wrong")
    question.get_by_text("l + o", exact=True).click()
    wait_for_app(page)
    assert page.locator(ALERT).inner_text().startswith("Right: l + o merges next.")

    page.get_by_role("button", name="Next step ▶").click()
    wait_for_app(page)
    assert "step=2" in page.url
    page.get_by_text("Count a pair", exact=True).click()  # the exercise, in the address too
    wait_for_app(page)
    assert "exercise=count" in page.url
    page.reload(wait_until="domcontentloaded")  # a phone's reload: the same example, exercise and step
    wait_for_app(page)
    assert page.get_by_text("Step 2 of 9.", exact=False).first.is_visible()
    assert page.locator(".bpe-learn-word").first.inner_text().split() == ["lo", "w", "_", "×5"]
    asked = page.locator('[data-testid="stNumberInput"]').filter(has_text="How many times does w + e occur in the text")
    box = asked.locator("input")  # w e: in lower ×1 and newest ×5
    box.fill("6")
    box.press("Enter")
    wait_for_app(page)
    assert page.locator(ALERT).inner_text().startswith("Right: w + e occurs 6 times.")
    _fits(page, size)
    screenshot(page, "2-counted", whole=True)

    page.get_by_text("Decode ids", exact=True).click()  # n e w e s t _ by id: 6, 3, 11, 3, 9, 10, 1
    wait_for_app(page)
    word = page.get_by_label("Which word do the ids 6, 3, 11, 3, 9, 10, 1 spell?")
    word.fill("newest")
    word.press("Enter")
    wait_for_app(page)
    assert page.locator(ALERT).inner_text() == "Right: the ids spell newest."
    _fits(page, size)
    screenshot(page, "3-decoded", whole=True)
    assert exception_texts(page) == [] and page.page_errors == []


@pytest.mark.parametrize("size", [DESKTOP, PHONE, PROJECTOR], ids=["desktop", "phone", "projector"])
def test_the_exercises_beyond_the_textbook_answer_in_words(app_server, page, screenshot, size):
    page.set_viewport_size(size)
    open_app(page, app_server, "Learn?exercise=premium" + ("&present=1" if size == PROJECTOR else ""))
    question = page.get_by_role("radiogroup", name="Which language needs the most tokens for the same text?")
    question.get_by_text("Greek", exact=True).click()
    wait_for_app(page)
    assert page.locator(ALERT).inner_text().startswith("Right: Greek needs the most tokens.")  # tiktoken's: 2,796
    assert page.locator('[data-testid="stNumberInput"]').count() == 0  # no example's step beyond the textbook
    _fits(page, size)
    screenshot(page, "1-premium", whole=True)

    page.get_by_text("The prompt's last token", exact=True).click()
    wait_for_app(page)
    assert "exercise=healing" in page.url
    page.get_by_text("One token, “ the”: the space joined to the word", exact=True).click()
    wait_for_app(page)
    assert page.locator(ALERT).inner_text().startswith("Right: GPT-2 cuts “The answer is the” ending in “ the”")
    _fits(page, size)
    screenshot(page, "2-healing", whole=True)
    assert exception_texts(page) == [] and page.page_errors == []


@pytest.mark.parametrize(("size", "path"), SIZES, ids=["desktop", "phone", "projector"])
def test_the_verdict_is_in_view_after_an_answer(app_server, page, screenshot, size, path):
    """The question at the window's lower edge, as a learner scrolling down to it leaves it: the verdict drawn
    under it is brought on screen after a choice, and after a number typed."""
    page.set_viewport_size(size)
    open_app(page, app_server, f"Learn?example=low{path}")
    question = page.get_by_role("radiogroup", name="Which pair does BPE merge next?")
    question.evaluate("element => element.scrollIntoView({block: 'end'})")
    question.get_by_text("l + o", exact=True).click()
    wait_for_app(page)
    assert page.locator(ALERT).inner_text().startswith("Right: l + o merges next.")
    assert wholly_in_view(page, page.locator(ALERT)), page.locator(ALERT).bounding_box()
    screenshot(page, "chosen")
    page.get_by_text("Count a pair", exact=True).click()
    wait_for_app(page)
    box = page.locator('[data-testid="stNumberInput"]').filter(has_text="How many times does").locator("input")
    box.evaluate("element => element.scrollIntoView({block: 'end'})")
    box.fill("999")  # more than the text holds: wrong
    box.press("Enter")
    wait_for_app(page)
    assert page.locator(ALERT).inner_text().startswith("Not quite")
    assert wholly_in_view(page, page.locator(ALERT)), page.locator(ALERT).bounding_box()
    screenshot(page, "counted")
    assert exception_texts(page) == [] and page.page_errors == []
