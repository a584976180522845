"""The Merges page in a real browser: play the race, scrub the steps, pick a tree."""

from __future__ import annotations

import re
from urllib.parse import quote, urlencode

import pytest
from support.browser import choose_option, click_nav, exception_texts, open_app, open_tab, wait_for_app
from support.screens import PHONE, PROJECTOR, page_width

pytestmark = pytest.mark.browser

CHART = '[data-testid="stPlotlyChart"]'


def _race_title(page) -> str:
    """The race chart's title, "step N: left + right → new (count ...)", updated by every frame."""
    return page.locator(f"{CHART} .gtitle").first.text_content() or ""


# The sample trained by words + </w> (the page's defaults are byte-level): the tests of </w> in trees name this model
WORDS_LINK = urlencode(
    {"preset": "sample", "merges": "2000", "split": "whitespace", "eow": "</w>", "units": "chars", "tie": "first"}
)


def _step_card_text(page) -> str:
    return page.locator('[data-testid="stHtml"]').first.inner_text()


def test_merges_page_play_scrub_and_tree(app_server, page, screenshot):
    open_app(page, app_server, f"Merges?{WORDS_LINK}")
    assert exception_texts(page) == []
    assert page.locator('[data-testid="stMain"] h1').first.inner_text().strip() == "Merges"
    assert page.locator(CHART).count() == 0  # Step by step is open: the other tabs' charts are not drawn yet
    screenshot(page, "1-opened")

    # Move the step slider with the keyboard: 5 steps right, then Next once.
    assert "Step\n1" in _step_card_text(page)
    handle = page.locator('[data-testid="stSlider"] input').first
    handle.focus()
    for _ in range(5):  # one key at a time: each press reruns the step section
        handle.press("ArrowRight")
        wait_for_app(page)
    assert "Step\n6" in _step_card_text(page)
    page.get_by_role("button", name="Next ▶").click()
    wait_for_app(page)
    assert "Step\n7" in _step_card_text(page)
    # the boxes outlined in the text are the token the step card names
    new_id = re.search(r"\(id (\d+)\)", _step_card_text(page)).group(1)
    outlined = page.locator('[data-testid="stHtml"] span.tok.new').evaluate_all(
        "boxes => boxes.map(box => box.dataset.details)"
    )
    assert outlined and all(title.startswith(f"id {new_id} ·") for title in outlined)
    page.locator('[data-testid="stSlider"]').first.scroll_into_view_if_needed()
    screenshot(page, "3-step-7")

    # Play the race: plotly advances through the frames by itself.
    open_tab(page, "Pair race")
    page.locator(CHART).first.wait_for()
    assert _race_title(page).startswith("step 1: t + h → th")
    page.locator(f"{CHART} .updatemenu-button").filter(has_text="Play").first.click()
    page.wait_for_function(
        """() => {
            const title = document.querySelector('[data-testid="stPlotlyChart"] .gtitle');
            return title && /^step [3-9]/.test(title.textContent);
        }""",
        timeout=15_000,
    )
    assert page.page_errors == []
    page.locator(f"{CHART} .updatemenu-button").filter(has_text="Pause").first.click()
    # Pausing interrupts plotly's running animate() call, whose promise plotly.js rejects
    # with no reason and does not catch: one "undefined" page error, harmless. Drop it.
    page.wait_for_timeout(300)
    assert set(page.page_errors) <= {"undefined"}, page.page_errors
    page.page_errors.clear()
    page.locator(CHART).first.scroll_into_view_if_needed()
    screenshot(page, "2-played")
    played_to = int(re.match(r"step (\d+)", _race_title(page)).group(1))
    assert played_to >= 3
    assert "font-weight:bold" in page.locator(f"{CHART} .gtitle").first.inner_html()  # every frame keeps it
    page.get_by_role("button", name="Centre on the step chosen in Step by step").click()  # step 7, on a closed tab
    wait_for_app(page)
    assert page.get_by_label("First step of the animation").input_value() == "1"  # 7 - 25, kept in range

    # Pick a token for the merge tree by typing in the searchable select box.
    open_tab(page, "Merge tree")
    select = page.locator('[data-testid="stSelectbox"]').filter(
        has_text="Token (type to search)"
    )  # the tokenizer's is first
    select.click()
    page.keyboard.type("Israel</w>")
    page.get_by_role("option", name="Israel</w>", exact=True).click()
    wait_for_app(page)
    tree = page.locator(CHART).first
    tree.scroll_into_view_if_needed()
    labels = tree.locator("g.annotation text").all_text_contents()
    assert "Israel&lt;/w&gt;" not in labels and "Israel</w>" in labels
    assert {"I", "s", "r", "a", "e", "l", "</w>"} <= set(labels)
    screenshot(page, "4-tree")

    # The overview charts: every merge as a dot, then the winning count per step.
    open_tab(page, "All merges")
    forest = page.locator(CHART).first
    forest.scroll_into_view_if_needed()
    assert forest.locator("g.points path").count() == 2000  # thinned from 2,000 merges: all shown
    page.locator(CHART).nth(1).scroll_into_view_if_needed()
    screenshot(page, "5-overview")

    open_tab(page, "Step by step")  # back on the first tab, the step is where it was left
    assert "Step\n7" in _step_card_text(page)
    assert exception_texts(page) == []
    assert page.page_errors == []
    assert page.dialogs == []


def test_gpt4_merge_tree_found_by_typing(app_server, page, screenshot):
    open_app(page, app_server)
    click_nav(page, "Merges")
    choose_option(page, "Tokenizer", "GPT-4 (cl100k_base)")
    open_tab(page, "Pair race")
    assert page.get_by_text("no training counts", exact=False).first.is_visible()  # no race for GPT-4
    open_tab(page, "Merge tree")
    search = page.get_by_label("Find a token by the text it stands for")
    search.fill(" understanding")  # no Enter: the box updates after a pause in typing
    wait_for_app(page)
    tree = page.locator(CHART).first  # only the open tab is drawn
    tree.scroll_into_view_if_needed()
    labels = tree.locator("g.annotation text").all_text_contents()
    assert labels[0] == "␣understanding"  # as the token boxes write a space
    assert {"␣understand", "␣under", "stand", "ing", "␣", "u", "n", "d", "e", "r", "s", "t", "a", "i", "g"} <= set(
        labels
    )
    screenshot(page, "desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(500)
    tree.scroll_into_view_if_needed()
    screenshot(page, "phone")
    search.fill(" tokenization")  # not one token: how GPT-4 cuts it, and a link to Encode's "Why this split?"
    wait_for_app(page)
    note = page.locator(".bpe-split-note")
    assert note.locator("span.tok").all_inner_texts() == ["␣token", "ization"]
    link = note.get_by_role("link", name="Why this split? Open it on Encode")
    assert link.get_attribute("href") == "Encode?tokenizer=cl100k_base&input=+tokenization&open=why"
    note.scroll_into_view_if_needed()
    screenshot(page, "split")
    assert exception_texts(page) == [] and page.page_errors == []


# Each bottom-row box of the tree chart (the leaves: the boxes lowest in the chart) as [label, left, right] in pixels
_LEAF_BOXES_JS = """chart => {
  const boxes = Array.from(chart.querySelectorAll('g.annotation'))
    .map((g) => [g.textContent, g.getBoundingClientRect()]);
  const lowest = Math.max(...boxes.map(([, r]) => r.top));
  return boxes.filter(([, r]) => Math.abs(r.top - lowest) < 2).map(([text, r]) => [text, r.left, r.right])
    .sort((a, b) => a[1] - b[1]);
}"""


@pytest.mark.parametrize("size", [PHONE, PROJECTOR], ids=["phone", "projector"])
def test_a_long_tokens_leaves_never_overlap(app_server, page, screenshot, size):
    # the sample's inheritance</w> by words + </w>: 12 leaves, the last </w>, which a phone drew over the e before it;
    # congregation,</w>: 14 leaves, more than a phone's width holds, so its box scrolls sideways, not the page
    page.set_viewport_size(size)
    for token, leaves in (("inheritance</w>", list("inheritance") + ["</w>"]), ("congregation,</w>", None)):
        open_app(page, app_server, f"Merges?{WORDS_LINK}&tab=tree&token={quote(token)}")
        tree = page.locator(CHART).first
        tree.scroll_into_view_if_needed()
        boxes = tree.evaluate(_LEAF_BOXES_JS)
        assert [label for label, _, _ in boxes] == (leaves or list("congregation,") + ["</w>"])
        touching = [(a[0], b[0]) for a, b in zip(boxes, boxes[1:]) if a[2] + 2 > b[1]]
        assert touching == [], f"{token}: leaves closer than 2 px at {size}"
        assert page_width(page) <= size["width"]  # the page itself never scrolls sideways
        screenshot(page, token.split("<")[0].rstrip(","))
    scroller = page.locator(".st-key-merges_tree_box")
    fits = scroller.evaluate("box => box.scrollWidth <= box.clientWidth")
    assert fits == (size == PROJECTOR)  # 14 leaves need 401 px: a phone's 358 scroll, a projector's do not
    assert exception_texts(page) == [] and page.page_errors == []


_ON_SCREEN_JS = (
    """(el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }"""
)


def test_next_on_a_phone_brings_the_outlined_text_on_screen_under_the_buttons(app_server, page, screenshot):
    # low lower newest widest on a phone: the card and the text under Next pushed the outlined boxes a screen down
    page.set_viewport_size(PHONE)
    open_app(page, app_server, "Merges?preset=low")
    outlined = page.locator(".bpe-tv .tok.new").first
    assert not outlined.evaluate(_ON_SCREEN_JS)  # before any press, below the first screen
    for step in (2, 3):
        page.get_by_role("button", name="Next ▶").click()
        wait_for_app(page)
        page.wait_for_function("() => document.querySelector('.bpe-tv .tok.new')?.textContent.length > 0")
        page.wait_for_timeout(300)  # the scroll is one animation frame after the run
        assert f"Step\n{step}" in _step_card_text(page)
        assert page.locator(".bpe-tv .tok.new").first.evaluate(_ON_SCREEN_JS), f"step {step}"
        assert page.get_by_role("button", name="Next ▶").evaluate(_ON_SCREEN_JS)  # still under the thumb
    screenshot(page, "phone-step-3")
    assert exception_texts(page) == [] and page.page_errors == []
