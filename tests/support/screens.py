"""The screens the browser tests size a window to, and what a page must do on each: fit its width, overlap
nothing, leave every control where a click reaches it."""

from __future__ import annotations

import contextlib

VIEWPORT = {"width": 1400, "height": 1000}  # each test's page, unless it sets another size
DESKTOP = {"width": 1400, "height": 900}  # a laptop's window
# The small screens every page must fit: a phone held upright, a classroom projector.
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 853, "height": 480}
# Each small screen by name: its size, what an address adds there (a projector presents), whether it is touched
SMALL_SCREENS = {"phone": (PHONE, "", True), "projector": (PROJECTOR, "&present=1", False)}


@contextlib.contextmanager
def page_on(browser, viewport: dict, touch: bool = False):
    """A page in a browser context of its own, ``viewport`` wide and high, a touch screen (as a phone's) if ``touch``;
    the context is closed on leaving."""
    context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    try:
        yield context.new_page()
    finally:
        context.close()


# Pairs of visible elements of the main area that overlap (neither inside the other), as their test ids (the
# contents of a closed expander keep a box but are not shown).
_OVERLAPS_JS = """() => {
  const boxes = Array.from(document.querySelectorAll('[data-testid=stMain] [data-testid=stElementContainer]'))
    .filter((el) => !el.closest('details:not([open])') && el.checkVisibility({visibilityProperty: true}))
    .map((el) => [el, el.getBoundingClientRect()]).filter(([, r]) => r.width > 0 && r.height > 0);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, ra] = boxes[i], [b, rb] = boxes[j];
    if (a.contains(b) || b.contains(a)) continue;
    const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
    const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (w > 1 && h > 1) out.push([a.firstElementChild?.dataset.testid, b.firstElementChild?.dataset.testid]);
  }
  return out;
}"""


def overlapping_elements(page) -> list[list[str]]:
    """Pairs of visible elements of the main area that overlap (by their test ids): none on a good layout."""
    return page.evaluate(_OVERLAPS_JS)


def page_width(page) -> int:
    """How wide the page's content is: more than the window means the page scrolls sideways."""
    return page.evaluate(
        "() => Math.max(document.documentElement.scrollWidth,"
        " document.querySelector('[data-testid=stMain]').scrollWidth)"
    )


# Every control of the main area the window shows whose middle a click would not reach: something else (Streamlit's
# top bar, another box) lies over it there
_UNREACHABLE_JS = """() => {
  const hidden = [];
  const controls = 'button, input, textarea, [role=tab], [role=slider], a[href]';
  for (const el of document.querySelectorAll(`[data-testid=stMain] :is(${controls})`)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (!box.width || !box.height || x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    const label = el.closest('label');  // a check box or toggle is clicked through its label
    if (hit && !el.contains(hit) && !hit.contains(el) && !(label && label.contains(hit))) {
      hidden.push(`${el.tagName} ${(el.innerText || el.value || el.ariaLabel || '').trim().slice(0, 30)} under ${
        hit.closest('[data-testid]')?.dataset.testid || hit.tagName}`);
    }
  }
  return hidden;
}"""


def unreachable_controls(page) -> list[str]:
    """The controls in view that a click on their middle would miss (see ``_UNREACHABLE_JS``)."""
    return page.evaluate(_UNREACHABLE_JS)


def wholly_in_view(page, locator) -> bool:
    """Whether the element is all inside the window as the page stands (a result scrolled to, not by the test)."""
    box = locator.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and (box["x"] + box["width"] <= size["width"])
    )
