"""Accessibility in Chromium: axe-core's WCAG 2 A and AA rules on every view, in normal and presentation mode, find
nothing serious that a bare Streamlit page does not have; text and token markers keep 4.5:1 contrast; every box of
ours that scrolls can be reached by Tab and has a name."""

from __future__ import annotations

from pathlib import Path

import axe_playwright_python
import pytest
from support.browser import open_app, running_app
from support.browser_pages import EVERY_VIEW
from support.screens import VIEWPORT
from support.wcag import contrast

from bench.loadtest import BARE_APP

pytestmark = pytest.mark.browser

AXE_JS = Path(axe_playwright_python.__file__).with_name("axe.min.js")  # axe-core 4.12.1 (MPL-2.0)
_AXE_RUN = """async () => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}});
  return result.violations.filter((rule) => ['serious', 'critical'].includes(rule.impact))
    .map((rule) => [rule.id, rule.nodes.map((node) => node.target.join(' '))]);
}"""


def serious_violations(page) -> dict[str, list[str]]:
    """axe-core's serious and critical violations of WCAG 2 A and AA on the page: rule id -> the elements' selectors."""
    page.add_script_tag(path=str(AXE_JS))
    return dict(page.evaluate(_AXE_RUN))


def described(violations: dict[str, list[str]]) -> str:
    """Each rule with how many elements break it and the ends of the first three selectors, for a readable failure."""
    return "; ".join(
        f"{rule} ({len(targets)}: {', '.join(target[-70:] for target in targets[:3])})"
        for rule, targets in violations.items()
    )


@pytest.fixture(scope="module")
def bare_rules(browser, tmp_path_factory) -> set[str]:
    """The rules a bare Streamlit page (the latency benchmark's, with our theme) breaks: Streamlit's own, not ours."""
    with running_app(tmp_path_factory.mktemp("bare") / "server.log", script=BARE_APP) as (base_url, _):
        context = browser.new_context(viewport=VIEWPORT)
        try:
            page = context.new_page()
            open_app(page, base_url)
            return set(serious_violations(page))
        finally:
            context.close()


# Every page, tab and folded section (the projector's list, and Encode's token ids, which it leaves out), each also
# without presentation mode
VIEWS = [address for address, _ in EVERY_VIEW] + ["Encode?present=1&open=ids"]
NORMAL_VIEWS = [address.replace("present=1&", "").replace("?present=1", "") for address in VIEWS]

# Boxes drawn by our HTML that scroll (or may, with more content) but lack what lets a keyboard reach them
_UNREACHABLE_SCROLL_BOXES_JS = """() => [...document.querySelectorAll('[data-testid=stMain] [data-testid=stHtml] *')]
  .filter((el) => /auto|scroll/.test(getComputedStyle(el).overflowX + getComputedStyle(el).overflowY))
  .filter((el) => !(el.tabIndex === 0 && el.getAttribute('role') === 'region' && el.getAttribute('aria-label')))
  .map((el) => `${el.tagName} ${el.className}`)"""


@pytest.mark.parametrize("address", VIEWS + NORMAL_VIEWS)
def test_axe_finds_nothing_serious_beyond_bare_streamlit(app_server, page, bare_rules, address):
    open_app(page, app_server, address)
    found = serious_violations(page)
    ours = {rule: targets for rule, targets in found.items() if rule not in bare_rules}
    assert ours == {}, f"{address}: {described(ours)} (the bare page breaks only {sorted(bare_rules)})"
    unreachable = page.evaluate(_UNREACHABLE_SCROLL_BOXES_JS)
    assert unreachable == [], f"{address}: boxes that scroll but Tab cannot reach: {unreachable[:3]}"


# Each visible element's text colour, the colour behind it (the nearest box with an opaque background) and the
# opacity of the boxes between (Streamlit fades a caption by the opacity of its box, not by its colour)
_COLOURS_JS = """(selector) => [...document.querySelectorAll(selector)].filter((el) => el.checkVisibility())
  .map((el) => {
    let box = el, opacity = 1;
    while (box && /rgba\\(.*, 0\\)|transparent/.test(getComputedStyle(box).backgroundColor)) {
      opacity *= Number(getComputedStyle(box).opacity);
      box = box.parentElement;
    }
    return [getComputedStyle(el).color, box ? getComputedStyle(box).backgroundColor : 'rgb(255, 255, 255)', opacity];
  })"""
CAPTIONS = "[data-testid=stCaptionContainer]"
MARKERS = ".tok .marker, .tok i, .bpe-tv .gap"  # a word's end marker, whitespace in a token, whitespace in none


@pytest.mark.parametrize(
    "address", ["Merges?tab=steps", "Merges?tab=steps&present=1", "Encode?input=the%20lowest%20%20newer"]
)
def test_captions_and_token_markers_keep_aa_contrast(app_server, page, address):
    open_app(page, app_server, address)
    for selector in (CAPTIONS, MARKERS):
        colours = page.evaluate(_COLOURS_JS, selector)
        assert colours, f"no {selector} on {address}"
        worst = min(colours, key=lambda seen: contrast(*seen))
        assert contrast(*worst) >= 4.5, f"{selector} on {address}: {worst} is {contrast(*worst):.2f}:1"
