"""Reusable helpers for the browser (Playwright + Debian Chromium) tests.

Import them in a test module with ``from browser_helpers import ...``
(pytest puts ``tests/`` on ``sys.path`` because it has no ``__init__.py``).
The fixtures that start the app and the browser live in ``conftest.py``.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import time
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench.servers import ServerDidNotStart, answers_ok, free_port, log_tail, start_streamlit

REPO_ROOT = Path(__file__).resolve().parent.parent
SCREENSHOT_DIR = REPO_ROOT / "tests" / "screenshots"

CHROMIUM_PATH = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CHROMIUM_MISSING = (
    "Chromium not found at /usr/bin/chromium: install Debian's chromium "
    "package (apt-get install chromium) to run browser tests"
)

VIEWPORT = {"width": 1400, "height": 1000}
# The small screens every page must fit: a phone held upright, a classroom projector.
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 853, "height": 480}

# Selectors for Streamlit's own test ids (stable across recent releases).
APP = '[data-testid="stApp"]'
RUNNING_ICON = '[data-testid="stStatusWidgetRunningIcon"]'
STATUS_WIDGET = '[data-testid="stStatusWidget"]'
SIDEBAR = '[data-testid="stSidebar"]'
NAV_LINK = '[data-testid="stSidebarNavLink"]'
EXCEPTION = '[data-testid="stException"]'

APP_STATE_JS = """
() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app) return {script: null, connection: null, running: false};
  const isShown = (el) => !!el && el.getClientRects().length > 0;
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  const running =
    isShown(document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')) ||
    (isShown(status) && /Running/i.test(status.innerText || ''));
  // Elements whose JS chunk is still loading show a skeleton (React Suspense).
  const loading = Array.from(document.querySelectorAll(
    '[data-testid="stSkeleton"], [data-testid="stAppSkeleton"]')).filter(isShown).length;
  return {
    loading: loading,
    script: app.getAttribute('data-test-script-state'),
    connection: app.getAttribute('data-test-connection-state'),
    running: running,
  };
}
"""


@contextlib.contextmanager
def running_app(log_path: Path, timeout: float = 60.0, script: str = "app.py", env: dict[str, str] | None = None):
    """``streamlit run app.py`` (or another ``script`` of the project) on 127.0.0.1:<free port>,
    from the project root (its ``.streamlit/config.toml`` applies), output to ``log_path``, with ``env`` added
    to the environment.

    Yields ``(base URL, process)`` once ``/_stcore/health`` answers ``ok``;
    stops the server on exit.
    """
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    flags = ["--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    process = start_streamlit(script, port, flags, log_path, env)
    try:
        deadline = time.monotonic() + timeout
        while not answers_ok(f"{base_url}/_stcore/health"):
            if process.poll() is not None:
                raise ServerDidNotStart(f"Streamlit exited with code {process.returncode}.\n{log_tail(log_path)}")
            if time.monotonic() > deadline:
                raise ServerDidNotStart(
                    f"Streamlit did not answer {base_url}/_stcore/health within {timeout:.0f}s.\n{log_tail(log_path)}"
                )
            time.sleep(0.25)
        yield base_url, process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def app_state(page) -> dict:
    """Streamlit's run state as the page shows it right now.

    Keys: ``script`` ("initial", "running", "notRunning", ...),
    ``connection`` ("CONNECTED", ...), ``running`` (the status widget's
    "Running..." indicator is on screen) and ``loading`` (how many elements
    still show a loading skeleton while their code is fetched).
    """
    return page.evaluate(APP_STATE_JS)


def is_idle(state: dict) -> bool:
    """Whether an ``app_state`` reading shows a finished run: connected, not running, nothing loading."""
    return (
        state.get("script") == "notRunning"
        and state.get("connection") == "CONNECTED"
        and not state.get("running")
        and not state.get("loading")
    )


class IdleWatch:
    """Watches the app's state, read again and again: settled once it has been idle for ``settle``
    seconds in a row; a ``TimeoutError`` once ``timeout`` seconds have passed without that."""

    def __init__(self, timeout: float, settle: float):
        self.timeout, self.settle = timeout, settle
        self.deadline = time.monotonic() + timeout
        self.idle_since: float | None = None

    def settled(self, state: dict) -> bool:
        now = time.monotonic()
        self.idle_since = (self.idle_since or now) if is_idle(state) else None
        if self.idle_since is not None and now - self.idle_since >= self.settle:
            return True
        if now > self.deadline:
            raise TimeoutError(f"Streamlit app still busy after {self.timeout:.0f}s: {state}")
        return False


def wait_for_app(page, timeout: float = 60.0, settle: float = 0.5) -> None:
    """Wait until Streamlit has finished running the script.

    Done means: the app is connected, its script state is ``notRunning``,
    no "Running..." status indicator is visible, no element still shows a
    loading skeleton (widgets' code is fetched lazily, so a slider or table
    can appear a moment after the run ends), and all of that has held
    for ``settle`` seconds in a row (so a rerun that starts just after a
    click is not missed). Raises ``TimeoutError`` after ``timeout`` seconds.
    Call it after ``page.goto`` and after every interaction that reruns
    the script (clicks, typing followed by Enter/blur, uploads, ...).
    """
    page.wait_for_selector(APP, state="attached", timeout=timeout * 1000)
    watch = IdleWatch(timeout, settle)
    while not watch.settled(app_state(page)):
        page.wait_for_timeout(100)


def open_app(page, base_url: str, path: str = "", timeout: float = 60.0) -> None:
    """Navigate to ``base_url`` + ``path`` (e.g. "merges") and wait for the run."""
    url = base_url.rstrip("/") + "/" + path.lstrip("/")
    page.goto(url, wait_until="domcontentloaded")
    wait_for_app(page, timeout=timeout)


def sidebar_nav_labels(page) -> list[str]:
    """The page titles shown by the sidebar navigation links (icons left out)."""
    page.wait_for_selector(NAV_LINK, timeout=30_000)
    labels = []
    for text in page.locator(NAV_LINK).all_inner_texts():
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        labels.append(lines[-1] if lines else "")
    return labels


def click_nav(page, title: str, timeout: float = 60.0) -> None:
    """Click the sidebar page link whose text is ``title`` and wait for the run."""
    links = page.locator(NAV_LINK)
    labels = sidebar_nav_labels(page)
    if title not in labels:
        raise AssertionError(f"no sidebar page link titled {title!r}; links: {labels}")
    links.nth(labels.index(title)).click()
    wait_for_app(page, timeout=timeout)


def open_tab(page, name: str) -> None:
    """Click the tab whose label contains ``name`` (a regular expression) and wait for the run it starts."""
    page.get_by_role("tab", name=re.compile(name)).click()
    wait_for_app(page)


def section(page, label: str):
    """The expander whose text contains ``label``."""
    return page.locator('[data-testid="stExpander"]').filter(has_text=label)


def open_section(page, label: str) -> None:
    """Open one of the sections drawn only while open (a click on its heading reruns the page)."""
    section(page, label).locator("summary").click()
    wait_for_app(page)


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


def exception_texts(page) -> list[str]:
    """Texts of any Streamlit exception boxes on the page (empty if none)."""
    return page.locator(EXCEPTION).all_inner_texts()


def safe_name(text: str) -> str:
    """Turn a test id such as ``test_x[param-1]`` into a file-name-safe string."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "screenshot"


def save_screenshot(page, name: str, whole: bool = False) -> Path:
    """Save a PNG of ``page`` as ``tests/screenshots/<name>.png``; return its path.

    ``whole``: Streamlit scrolls inside its main area, which a full-page shot
    does not see, so the window grows to fit it for the shot and then shrinks back.
    """
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOT_DIR / f"{safe_name(name)}.png"
    size = page.viewport_size
    if whole:
        height = page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollHeight")
        page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(height + 40, 6000))})
        page.wait_for_timeout(300)
    page.screenshot(path=str(path), full_page=True)
    if whole:
        page.set_viewport_size(size)
    return path


def choose_option(page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label`` (the first one on the page), then wait for the app.
    A rerun that lands while the list opens closes it again (seen once in CI): then the box is opened once more."""
    wanted = page.get_by_role("option", name=option, exact=True)
    for attempt in range(3):
        page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first.click()
        try:
            wanted.wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
            wait_for_app(page)
    wanted.click()
    wait_for_app(page)


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
