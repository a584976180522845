"""Shared test harness: a live Streamlit server and a headless Chromium.

Fixtures
--------
app_server  (session)  base URL (``http://127.0.0.1:<port>``) of ``app.py``
                       served by ``python -m streamlit run`` from the repo root.
browser     (session)  Playwright ``Browser`` on Debian's /usr/bin/chromium.
                       Skips the test if Chromium is missing, or fails it when
                       the environment has BPE_REQUIRE_BROWSER=1 (as CI does).
page        (function) a fresh context + page (1400x1000). Dialogs are
                       dismissed and recorded in ``page.dialogs`` (list of
                       ``{"type", "message"}``); uncaught JS errors land in
                       ``page.page_errors``. A failing test leaves a
                       ``<test>-FAILED.png`` screenshot behind.
screenshot  (function) ``screenshot(page, suffix="") -> Path`` saves
                       ``tests/screenshots/<test name>[-suffix].png``.
banana      (session)  the textbook model: ``banana_bandana_``, no split, 6 merges.

The helpers the tests share are in the ``support`` package (tests/support/, one module per kind: see its
``__init__.py``); a test module imports from there, never from another test module (tests/test_layers.py checks).
Helpers such as ``wait_for_app(page)``, ``open_app(page, base_url, path)``, ``click_nav(page, title)`` and
``save_screenshot(page, name)`` are in ``support.browser``, which imports Playwright: the fixtures import it when
they start, so that the engine's tests (``pytest tests/core``) run without Playwright, Streamlit or Plotly installed
(tests/test_engine_tests_alone.py checks).
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import settings

from bench.servers import running_redis
from bench.tiktoken_offline import offline_tiktoken
from bpe_core import Config, Tokenizer, train

SERVER_START_TIMEOUT = 60.0

# CI runs the same property-test examples every time (derandomized), so a red run can be repeated;
# a developer's run explores new ones.
# The live class's store for every server and page the tests start: a file of its own, never data/live/'s.
os.environ.setdefault("BPE_CLASS_STORE", f"sqlite:///{tempfile.mkdtemp(prefix='bpe-class-')}/classes.sqlite3")

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    # Keep each phase's report on the item so fixtures can see if the test failed.
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def app_server(tmp_path_factory):
    """Start the Streamlit app on a free local port; yield its base URL."""
    from support.browser import ServerDidNotStart, running_app

    log_path = tmp_path_factory.mktemp("streamlit") / "server.log"
    try:
        with running_app(log_path, timeout=SERVER_START_TIMEOUT) as (base_url, _):
            yield base_url
    except ServerDidNotStart as error:
        pytest.fail(str(error))


def _no_browser(reason: str):
    if os.environ.get("BPE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (BPE_REQUIRE_BROWSER=1)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium driven by Playwright (never `playwright install`)."""
    from support.browser import CHROMIUM_ARGS, CHROMIUM_MISSING, CHROMIUM_PATH

    if not os.path.exists(CHROMIUM_PATH):
        _no_browser(CHROMIUM_MISSING)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _no_browser("playwright is not installed: pip install -r requirements-test.txt")

    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=CHROMIUM_PATH, headless=True, args=CHROMIUM_ARGS)
    except Exception:
        pw.stop()
        raise
    try:
        yield browser
    finally:
        browser.close()
        pw.stop()


@pytest.fixture
def page(browser, request):
    """A new context and page per test; dialogs are dismissed and recorded."""
    from support.browser import SCREENSHOT_DIR, safe_name, save_screenshot
    from support.screens import VIEWPORT

    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    pg.dialogs = []
    pg.page_errors = []

    def on_dialog(dialog):
        pg.dialogs.append({"type": dialog.type, "message": dialog.message})
        dialog.dismiss()

    pg.on("dialog", on_dialog)
    pg.on("pageerror", lambda err: pg.page_errors.append(str(err)))
    try:
        yield pg
    finally:
        rep = getattr(request.node, "rep_call", None)
        failed_name = f"{request.node.name}-FAILED"
        if rep is not None and rep.failed:
            try:
                save_screenshot(pg, failed_name)
            except Exception:
                pass
        else:  # drop a stale failure picture from an earlier run
            (SCREENSHOT_DIR / f"{safe_name(failed_name)}.png").unlink(missing_ok=True)
        context.close()


@pytest.fixture
def screenshot(request):
    """``screenshot(page, suffix="", whole=False)`` -> Path of ``tests/screenshots/<test>[-suffix].png``."""
    from support.browser import safe_name, save_screenshot

    def take(pg, suffix: str = "", whole: bool = False) -> Path:
        name = request.node.name + (f"-{suffix}" if suffix else "")
        return save_screenshot(pg, safe_name(name), whole=whole)

    return take


@pytest.fixture(scope="session")
def tiktoken_module(tmp_path_factory):
    """tiktoken, loading the rank files this project ships (no network); a test that needs it skips without it."""
    pytest.importorskip("tiktoken")
    return offline_tiktoken(tmp_path_factory.mktemp("tiktoken-cache"))


@pytest.fixture(scope="session")
def banana() -> Tokenizer:
    """The textbook model every view test works out by hand: banana_bandana_ with no split, 6 merges a+n, b+an,
    an+a, ana+_, ban+ana_, banana_+ban (counts 4 2 2 2 1 1)."""
    return train("banana_bandana_", Config(split="none"), merges=6)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """``redis://127.0.0.1:<port>/0`` of a private ``redis-server`` (Debian's), for the class store's tests. Skips
    when it is missing, or fails when BPE_REQUIRE_REDIS=1 (as CI sets after installing it)."""
    if shutil.which("redis-server") is None:
        if os.environ.get("BPE_REQUIRE_REDIS") == "1":
            pytest.fail("redis-server is missing (BPE_REQUIRE_REDIS=1): apt-get install redis-server")
        pytest.skip("redis-server is not installed")
    with running_redis(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture(scope="session", autouse=True)
def components_scanned_once():
    """Streamlit scans every installed package for components at each new AppTest's first run (a quarter of a
    second, some 200 times a run); the installed packages do not change during a run, so they are scanned once.
    Only where the collected tests imported Streamlit: a run of the engine's tests stays without it."""
    scanner = sys.modules.get("streamlit.components.v2.manifest_scanner")
    if scanner is None and "streamlit" in sys.modules:
        from streamlit.components.v2 import manifest_scanner as scanner
    if scanner is None:
        yield
        return
    with mock.patch.object(scanner, "scan_component_manifests", functools.cache(scanner.scan_component_manifests)):
        yield
