"""Presentation mode in Chromium at a projector's 853x480: the sidebar folded, larger type, ← and → stepping the
merges (but not while typing), and the step buttons' labels whole."""

from __future__ import annotations

import pytest
from support.browser import SIDEBAR, click_nav, exception_texts, open_app, wait_for_app
from support.browser_pages import EVERY_VIEW
from support.screens import PHONE, PROJECTOR, overlapping_elements, page_width, unreachable_controls

pytestmark = pytest.mark.browser

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


# Every page, and every tab or section of it, as a room sees it (the page's address names the tab). The tabs are
# the pages' own (page_tabs): the page draws as many as it declares.

# What a room would miss, read from the page: buttons and select boxes whose text is cut (wider than their box),
# boxes of the main block that run past its edges, and boxes that hide part of their content behind a scroll bar
# (tables; Streamlit's own tab bar scrolls by design and is left out). Plotly's inner SVG is measured by its chart.
_CUT_JS = """() => {
  const main = document.querySelector('[data-testid=stMainBlockContainer]');
  const edge = main.getBoundingClientRect();
  const shown = (el) => el.checkVisibility({visibilityProperty: true}) && !el.closest('details:not([open])');
  const name = (el) => `${el.tagName} ${el.dataset.testid || ''} ${(el.innerText || el.value || '').slice(0, 40)}`;
  const cut = [];
  for (const el of main.querySelectorAll('button, input[role=combobox]')) {
    if (shown(el) && el.scrollWidth > el.clientWidth + 1) cut.push(`cut: ${name(el)}`);
  }
  for (const el of main.querySelectorAll('*')) {
    if (!shown(el) || el.ownerSVGElement || el.closest('[data-testid=stTabs] [role=tablist]')) continue;
    const box = el.getBoundingClientRect();
    if (box.width && (box.left < edge.left - 1 || box.right > edge.right + 1)) cut.push(`past the edge: ${name(el)}`);
    const scrolls = ['auto', 'scroll', 'hidden'].includes(getComputedStyle(el).overflowX);
    if (scrolls && el.clientWidth > 20 && el.scrollWidth > el.clientWidth + 1) cut.push(`hidden: ${name(el)}`);
  }
  return cut;
}"""


def cut_or_covered(page) -> list[str]:
    return page.evaluate(_CUT_JS)


@pytest.mark.parametrize("address, tabs", EVERY_VIEW)
def test_every_view_fits_a_projector(app_server, page, address, tabs):
    page.set_viewport_size(PROJECTOR)
    open_app(page, app_server, address)
    assert page.locator('[data-testid="stMain"] [role="tab"]').count() == tabs
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "18px"
    assert cut_or_covered(page) == [] and unreachable_controls(page) == []
    assert page_width(page) <= PROJECTOR["width"]
    assert overlapping_elements(page) == []
    assert exception_texts(page) == []


@pytest.mark.parametrize("address, tabs", EVERY_VIEW)
def test_every_view_fits_a_phone(app_server, page, address, tabs):
    """The same views as a student's phone shows them: no presentation mode, 390 pixels wide."""
    page.set_viewport_size(PHONE)
    open_app(page, app_server, address.replace("present=1&", "").replace("?present=1", ""))
    assert page.locator('[data-testid="stMain"] [role="tab"]').count() == tabs
    assert cut_or_covered(page) == [] and unreachable_controls(page) == []
    assert page_width(page) <= PHONE["width"]
    assert overlapping_elements(page) == []
    assert exception_texts(page) == []


RACE = ".st-key-merges_race_chart"  # the race's chart (the sidebar holds a blank one that loads plotly early)
RACE_ADDRESS = "Merges?preset=banana_bandana&merges=6&tab=race"
# Where the race's controls and colour key sit, in the window's pixels, once plotly has drawn them all
_RACE_BOXES_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top,
    bottom: r.bottom}; };
  const chart = document.querySelector('.st-key-merges_race_chart');
  const [buttons, slider, key] = ['.updatemenu-button', '.slider-rail-rect', '.annotation'].map(
    (css) => [...(chart?.querySelectorAll(css) || [])]);
  if (!buttons.length || !slider.length || !key.length) return null;
  return {chart: box(chart), buttons: buttons.map(box), slider: box(slider[0]), key: box(key[0])};
}"""


def open_race(page, app_server, size) -> None:
    """The banana race in a window of ``size``, presenting, once plotly has drawn its slider."""
    page.set_viewport_size(size)
    open_app(page, app_server, RACE_ADDRESS + "&present=1")
    page.locator(f"{RACE} .slider-rail-rect").wait_for(state="attached")


def race_step(page) -> str:
    """The step the race shows, from its title ("step 3: an + a → ana ...")."""
    return (page.locator(f"{RACE} .gtitle").first.text_content() or "").split(":")[0]


def race_axis(page) -> dict:
    """The race's count axis as plotly drew it: its range and its title."""
    return page.evaluate(
        """() => {
            const plot = document.querySelector('.st-key-merges_race_chart .js-plotly-plot');
            return {range: plot._fullLayout.xaxis.range.map((end) => Math.round(end * 100) / 100),
                    title: plot.querySelector('.xtitle')?.textContent};
        }"""
    )


@pytest.mark.parametrize("size", [{"width": 1400, "height": 900}, PROJECTOR, {"width": 390, "height": 844}])
def test_the_race_controls_and_key_stay_whole(app_server, page, size):
    open_race(page, app_server, size)
    boxes = page.wait_for_function(_RACE_BOXES_JS).json_value()
    chart, slider, key = boxes["chart"], boxes["slider"], boxes["key"]
    assert len(boxes["buttons"]) == 2
    for button in boxes["buttons"]:  # Play and Pause end above the slider's rail, inside the chart
        assert button["bottom"] <= slider["top"] and button["left"] >= chart["left"]
    assert chart["left"] <= key["left"] and key["right"] <= chart["right"]  # the colour key is not cut
    assert chart["left"] <= slider["left"] and slider["right"] <= chart["right"]


def test_a_projector_s_first_screen_shows_the_race_with_its_controls(app_server, page, screenshot):
    # presenting at 853x480: the top bars, Play/Pause and the slider all on the first screen, unscrolled
    open_race(page, app_server, PROJECTOR)
    boxes = page.wait_for_function(_RACE_BOXES_JS).json_value()
    first_bar = page.locator(f"{RACE} .bars .point").first.bounding_box()
    assert page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTop") == 0
    assert 0 < first_bar["y"] and boxes["key"]["top"] > 0
    assert all(button["bottom"] <= PROJECTOR["height"] for button in boxes["buttons"])
    assert boxes["slider"]["bottom"] <= PROJECTOR["height"]
    assert page.locator(f"{RACE} .bars .point").count() == 5  # banana_bandana's 7 pairs before step 1: the top 5
    screenshot(page, "race-first-screen")


def test_the_arrow_keys_step_the_race(app_server, page, screenshot):
    open_race(page, app_server, PROJECTOR)
    assert race_step(page) == "step 1"
    page.locator("h1").click()
    page.keyboard.press("ArrowLeft")  # nothing before the first step
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.gtitle')?.textContent.startsWith('step 3')")
    # the count axis follows the step: banana's top count is 4 before step 1, 2 before step 3 (times 1.45)
    # (presenting, the axis has no title: each bar says its count)
    assert race_axis(page) == {"range": [0, 2.9], "title": None}
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('.gtitle')?.textContent.startsWith('step 2')")
    assert page.locator(f"{RACE} .slider-group .slider-label").count() == 6  # the slider is still there
    page.get_by_label("First step of the animation").press("ArrowRight")  # typing in a box moves no frame
    page.wait_for_timeout(300)
    assert race_step(page) == "step 2"
    for _ in range(7):  # past the last step: it stays on it
        page.locator("h1").click()
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('.gtitle')?.textContent.startsWith('step 6')")
    assert page.page_errors == [] and exception_texts(page) == []
    page.locator(RACE).scroll_into_view_if_needed()
    screenshot(page, "race")


def test_the_largest_merge_count_shows_whole_in_a_projector_number_box(app_server, page):
    """At 853 px in the larger type Train's Merges box is about 140 px wide: its − and + give way to the six digits
    (both keep working by keyboard), while a wide box keeps them."""
    page.set_viewport_size(PROJECTOR)
    open_app(page, app_server, "Train?preset=low&merges=100000&present=1")
    box = page.get_by_role("spinbutton", name="Merges")
    assert box.input_value() == "100000"
    assert box.evaluate("el => el.scrollWidth <= el.clientWidth")  # no digit cut
    assert not page.locator('[data-testid="stNumberInputStepUp"]').first.is_visible()
    page.set_viewport_size({"width": 1400, "height": 900})
    assert page.locator('[data-testid="stNumberInputStepUp"]').first.is_visible()


def bottom_of(page, locator) -> float:
    box = locator.bounding_box()
    return box["y"] + box["height"]


def test_a_projectors_first_screen_shows_the_merges_step(app_server, page, screenshot):
    """Presenting at 853x480, Merges' first screen is its step: the buttons beside the slider, the step's card
    (pair merged, new token, count) and the text after it begin above the fold; Copy link under the step."""
    page.set_viewport_size(PROJECTOR)
    open_app(page, app_server, "Merges?present=1&tab=steps")
    for text in ("Pair merged", "New token", "Count"):
        assert bottom_of(page, page.get_by_text(text, exact=True)) <= PROJECTOR["height"], text
    assert page.locator(".bpe-tv").first.bounding_box()["y"] < PROJECTOR["height"]  # the text after the step
    assert bottom_of(page, page.get_by_role("button", name="Next ▶")) <= PROJECTOR["height"]
    assert exception_texts(page) == [] and overlapping_elements(page) == []
    screenshot(page)


@pytest.mark.parametrize("exercise", ["next", "count", "encode", "decode"])
def test_a_projectors_first_screen_shows_the_learn_text_and_its_question(app_server, page, screenshot, exercise):
    """Presenting at 853x480, each Learn exercise shows the text at the step and its question, answer box or
    choices included, on the first screen."""
    page.set_viewport_size(PROJECTOR)
    open_app(page, app_server, f"Learn?present=1&exercise={exercise}")
    main = page.locator('[data-testid="stMain"]')
    question = main.locator('[data-testid="stRadio"], [data-testid="stNumberInput"], [data-testid="stTextInput"]')
    assert bottom_of(page, question.last) <= PROJECTOR["height"]
    assert bottom_of(page, page.get_by_label("The text now", exact=True)) <= PROJECTOR["height"]
    assert exception_texts(page) == [] and overlapping_elements(page) == []
    screenshot(page)


def test_the_presentation_toggle_shows_whole_on_a_projectors_first_screen(app_server, page):
    """A teacher looks for Presentation mode in the sidebar at 853x480: whole, without scrolling the sidebar."""
    page.set_viewport_size(PROJECTOR)
    open_app(page, app_server)
    box = page.locator(f'{SIDEBAR} [data-testid="stCheckbox"]', has_text="Presentation mode").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= PROJECTOR["height"]
    assert page.locator(SIDEBAR).evaluate("el => el.querySelector('[data-testid=stSidebarContent]').scrollTop") == 0


# The sidebar's » and the top bar it sits in, once the page is scrolled: the bar's background colour, the two boxes,
# and the top of the page's first element before the scroll
_OPENER_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const first = document.querySelector('[data-testid=stMainBlockContainer] [data-testid=stElementContainer]');
  const firstTop = first.getBoundingClientRect().top;
  main.scrollTo(0, 300);
  const header = document.querySelector('[data-testid=stHeader]');
  const opener = document.querySelector('[data-testid=stExpandSidebarButton]').getBoundingClientRect();
  return {background: getComputedStyle(header).backgroundColor, barBottom: header.getBoundingClientRect().bottom,
          openerTop: opener.top, openerBottom: opener.bottom, firstTop, scrolled: main.scrollTop};
}"""


@pytest.mark.parametrize(
    "size, address", [(PROJECTOR, "Merges?tab=race&present=1"), (PHONE, "Merges?tab=race"), (PHONE, "Learn")]
)
def test_the_sidebar_opener_never_prints_over_the_page(app_server, page, size, address):
    """The » lies on the top bar, which hides what scrolls under it (an opaque colour, as tall as the »), and the
    page's first element starts below the bar: the » is never drawn over the page's text."""
    page.set_viewport_size(size)
    open_app(page, app_server, address)
    seen = page.evaluate(_OPENER_JS)
    assert seen["scrolled"] == 300
    assert seen["background"].startswith("rgb(")  # rgba(..., 0) is see-through
    assert 0 <= seen["openerTop"] and seen["openerBottom"] <= seen["barBottom"] <= seen["firstTop"]


def test_choosing_a_page_folds_the_sidebar_that_lies_over_it(app_server, page):
    """A narrow window (a phone's width, a desktop browser's name, which Streamlit does not fold for): the page
    chosen is shown, not the sidebar over three quarters of it. Beside a wide page the sidebar stays open."""
    page.set_viewport_size(PHONE)
    open_app(page, app_server)
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    page.wait_for_selector(f'{SIDEBAR}[data-collapsed="false"]')
    click_nav(page, "Learn")
    page.wait_for_selector(f'{SIDEBAR}[data-collapsed="true"]', state="attached", timeout=5_000)
    assert page.locator("h1").inner_text() == "Learn"
    page.set_viewport_size({"width": 1400, "height": 900})
    page.locator('[data-testid="stExpandSidebarButton"]').click()
    click_nav(page, "Train")
    page.wait_for_timeout(500)  # longer than the fold's wait after a click
    assert page.locator(SIDEBAR).get_attribute("data-collapsed") == "false"
