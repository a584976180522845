"""Pressing Train on the largest recipe, as a user does: minbpe basic (raw bytes, no split) on the 1 MB sample.

    .venv/bin/python -m bench.train_click              # 5 rounds
    .venv/bin/python -m bench.train_click --rounds 9

Starts ``streamlit run app.py`` on 127.0.0.1 (a free port), opens a fresh headless Chromium session per round,
chooses the recipe, sets the merges to 2,000 minus the round (so the shared model store never has the model yet),
presses Train and reads the page every 40 ms until the run is over. Per round: when the first training status
showed, when the first count of merges showed, and when the page last changed (the result drawn). Between the
browser rounds the engine alone trains the same corpus and settings in this process (``bpe_core.train``), so
the page's share of the time can be read beside the training's under the same load. Medians are printed as
Markdown, with the machine's load average before and after.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the browser test helpers: Chromium path, flags, server, app state

from support.browser import CHROMIUM_ARGS, CHROMIUM_PATH, open_app, running_app, wait_for_app  # noqa: E402

from bpe_core import train  # noqa: E402
from pages.train.views.form import SETTING_PRESETS  # noqa: E402
from session.training_settings import DEFAULT_SETTINGS  # noqa: E402

RECIPE = "minbpe basic (raw bytes, no split)"
MERGES_COUNTED = re.compile(r"\d of [\d,]+ merges")  # the bar's count ("Merging: 20 of 2,000 merges")
MAIN = '[data-testid="stMain"]'
# The training status (the spinner and the bar), whether the script still runs, and when the page last changed.
PROBE_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const status = ['stSpinner', 'stProgress'].map((id) => main.querySelector(`[data-testid="${id}"]`))
    .filter(Boolean).map((el) => el.innerText.trim()).join(' / ');
  return {now: performance.now(), status, lastChange: window.__lastChange,
          script: document.querySelector('[data-testid="stApp"]').getAttribute('data-test-script-state')};
}"""
CHANGE_RECORDER_JS = """window.__lastChange = 0;
new MutationObserver(() => { window.__lastChange = performance.now(); })
  .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});"""


def press_train(browser, url: str, merges: int) -> dict:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    open_app(page, url)
    page.get_by_role("button", name=RECIPE.split(" (")[0]).click()
    wait_for_app(page)
    box = page.locator(f'{MAIN} [data-testid="stNumberInput"]').filter(has_text="Merges").locator("input")
    box.fill(str(merges))
    box.press("Enter")
    wait_for_app(page)
    page.evaluate(CHANGE_RECORDER_JS)
    start = page.evaluate("performance.now()")
    page.locator(f'{MAIN} [data-testid="stBaseButton-primary"]').filter(has_text="Train").click()
    first_status = first_count = None
    while True:
        probe = page.evaluate(PROBE_JS)
        seconds = (probe["now"] - start) / 1000
        if probe["status"] and first_status is None:
            first_status = seconds
        if MERGES_COUNTED.search(probe["status"]) and first_count is None:
            first_count = seconds
        if probe["script"] == "notRunning" and seconds > 0.3 and not probe["status"]:
            break
        page.wait_for_timeout(40)
    wait_for_app(page)
    done = (page.evaluate("window.__lastChange") - start) / 1000
    trained = "First merges" in page.locator(MAIN).inner_text()
    page.close()
    return {"first status": first_status, "first count of merges": first_count, "page done": done, "ok": trained}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="browser rounds (1-10)")
    rounds = max(1, min(10, parser.parse_args().rounds))
    if not os.path.exists(CHROMIUM_PATH):
        print(f"Chromium not found at {CHROMIUM_PATH}: apt-get install chromium", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    corpus = (REPO / "data" / "kjv_sample.txt").read_text(encoding="utf-8")
    config = replace(DEFAULT_SETTINGS, **SETTING_PRESETS[RECIPE]).to_config()
    load_before = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    results, engine = [], []
    with running_app(Path(tempfile.mkdtemp()) / "server.log") as (url, _), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, headless=True, args=CHROMIUM_ARGS)
        try:
            open_app(page := browser.new_page(), url)  # the default model trained, plotly fetched
            page.close()
            for round_number in range(rounds):
                results.append(press_train(browser, url, 2000 - round_number))
                start = time.perf_counter()
                train(corpus, config, merges=2000 - round_number)
                engine.append(time.perf_counter() - start)
        finally:
            browser.close()
    load_after = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"## Train on the largest recipe ({RECIPE}, the 1 MB sample, ~2,000 merges): medians of {rounds} rounds\n")
    print(f"Load average {load_before} before, {load_after} after; {os.cpu_count()} cores.\n")
    print("| from the click to | median (s) | all rounds (s) |\n|---|---:|---|")
    for name in ("first status", "first count of merges", "page done"):
        values = [result[name] for result in results if result[name] is not None]
        print(f"| {name} | {statistics.median(values):.2f} | {', '.join(f'{v:.2f}' for v in values)} |")
    print(
        f"| (the engine alone, same corpus and settings, between the rounds) | {statistics.median(engine):.2f} | "
        f"{', '.join(f'{v:.2f}' for v in engine)} |"
    )
    failed = [index for index, result in enumerate(results) if not result["ok"]]
    print("\n" + (f"PROBLEMS: no result drawn in rounds {failed}" if failed else "Every round drew its result."))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
