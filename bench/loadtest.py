"""A classroom at once: many browser sessions against one local app server; single-user latency beside a bare
Streamlit page; server memory over many reruns.

    make loadtest                                   # load and latency parts, 10 concurrent sessions
    .venv/bin/python -m bench.loadtest --sessions 5 # fewer sessions
    .venv/bin/python -m bench.loadtest --part latency --rounds 5
    .venv/bin/python -m bench.loadtest --part memory

Starts ``streamlit run app.py`` and the bare reference app (``bench/bare_app/app.py``: the same router, page titles
and kinds of widget, one small plotly chart a page, nothing of ours) on 127.0.0.1 on free ports (nothing else is
contacted), both from the project root so the same ``.streamlit/config.toml`` applies, drives them with Debian's
headless Chromium through Playwright, prints Markdown tables and stops the servers. Everything is bounded: a fixed
number of sessions and rounds, and a deadline for the whole run.

An action's time runs from just before it starts to the page's last change (a DOM mutation, plotly's drawing
included) once the app has settled: connected, not running, no skeleton, every plotly chart on screen drawn, and no
change for 0.5 s. The settle wait itself is not counted.

Load part: one warm-up session runs the actions alone (its server memory is "1 session"), then
``--sessions`` browser contexts run them at the same time: load the app (its landing, Start), open the Train page,
train the shipped sample with the default settings (press Train), open the Merges page, encode a paragraph on the
Encode page, open the Compare page. Per action the 50th/95th percentile of the wall time is printed, and whether
every session ended without an exception box or a JavaScript error. Server memory (RSS) is read with all sessions
still connected.

Latency part: each round one fresh session against the app and one against the bare page, one after the other
(the order swapped every round, so the machine's load falls on both alike): first load, Train's first visit, press
Train, each page switch (first visit, then later visits), the Merges step slider, a paragraph typed and sent, a size
beyond the model on Compare; within the first load, how long after the first paint the landing's tokens show (the
bare page draws one box of the same class). Medians per action (and the app's fastest
and slowest round), the bare page's beside the app's, the ratio against the issues' targets, and when the app's
server run was over.

Memory part: one session moves the Merges step slider 50 times (every fifth rerun a page switch) and the server's
RSS is read every 10 reruns.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the browser test helpers: Chromium path, flags, app state probe

from support.browser import APP_STATE_JS, CHROMIUM_ARGS, CHROMIUM_PATH, EXCEPTION, NAV_LINK, IdleWatch, running_app  # noqa: E402

from bench.measure import action_table, cpu_seconds, load_average, rss_mib  # noqa: E402

SAMPLE = (REPO / "data" / "kjv_sample.txt").read_text(encoding="utf-8")
PARAGRAPH = SAMPLE[:600]
ACTION_TIMEOUT = 240.0  # seconds one action may take before the session counts as failed
RUN_DEADLINE = 900.0  # the whole run stops after this long, whatever happens
BARE_APP = "bench/bare_app/app.py"  # the bare Streamlit floor the latency part measures beside the app
MEMORY_RERUNS = 50
MAIN = '[data-testid="stMain"]'
LANDING = "landing's tokens shown, from the first paint"  # timed within the first load
EXTEND = "Compare: a size beyond the model (vocabulary 5,000: the sample trained further)"


# -- the server -------------------------------------------------------------------------


# -- one browser session ------------------------------------------------------------------


# Each page records when its document last changed, and when Streamlit's script state last became
# "notRunning" (the server's run is over; what comes after is the browser drawing), on its own clock.
CHANGE_RECORDER_JS = """(() => {
  window.__bpeLastChange = 0; window.__bpeRunEnd = 0;
  new MutationObserver((records) => {
    const now = performance.now();
    for (const record of records) {
      if (record.attributeName === 'data-test-script-state' && record.oldValue !== 'notRunning'
          && record.target.getAttribute('data-test-script-state') === 'notRunning') window.__bpeRunEnd = now;
    }
    window.__bpeLastChange = now;
  }).observe(document, {subtree: true, childList: true, attributes: true, attributeOldValue: true,
                        characterData: true});
})();"""
# The app's state (tests/support/browser.py), with plotly charts on screen but not drawn yet counted as loading.
PROBE_JS = f"""() => {{
  const state = ({APP_STATE_JS})();
  const shown = (el) => el.getClientRects().length > 0;
  state.loading += Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"]'))
    .filter((chart) => shown(chart) && !chart.querySelector('.main-svg')).length;
  state.now = performance.now(); state.lastChange = window.__bpeLastChange; state.runEnd = window.__bpeRunEnd;
  return state;
}}"""


# Now less the first paint (the browser's own record of it), on the page's clock, in ms
TOKENS_AFTER_FIRST_PAINT_JS = """() => {
  const paint = performance.getEntriesByName('first-paint')[0];
  return performance.now() - (paint ? paint.startTime : 0);
}"""


async def wait_for_app(page, settle: float = 0.5) -> dict:
    """Until the run is over (connected, not running, nothing loading or undrawn) and the page has not
    changed for ``settle`` seconds; returns the last probe (page clock in ms: ``lastChange``, ``runEnd``)."""
    watch = IdleWatch(ACTION_TIMEOUT, settle)
    while True:
        state = await page.evaluate(PROBE_JS)
        if watch.settled(state) and state["now"] - state["lastChange"] >= settle * 1000:
            return state
        await page.wait_for_timeout(25)


class Session:
    """One user: a browser context, the time each action took, and what went wrong.

    An action's time runs from just before it starts to the page's last change once the app has settled
    (so the settle wait itself is not counted); ``run_ends`` keeps when the server's run was over."""

    def __init__(self, context, base_url: str):
        self.context = context
        self.base_url = base_url
        self.page = None
        self.times: dict[str, float] = {}
        self.run_ends: dict[str, float] = {}
        self.problems: list[str] = []

    async def timed(self, name: str, action, new_document: bool = False) -> None:
        start = 0.0 if new_document else await self.page.evaluate("performance.now()")
        await action()
        state = await wait_for_app(self.page)
        self.times[name] = (state["lastChange"] - start) / 1000
        self.run_ends[name] = (state["runEnd"] - start) / 1000
        if await self.page.locator(EXCEPTION).count():
            self.problems.append(f"{name}: exception box")

    async def open(self) -> None:
        """Load the site's root, the landing (Start); besides the whole load, time how long after the first paint
        its text shows cut into tokens (the issue's "within 2 s of the first paint")."""
        self.page = await self.context.new_page()
        self.page.set_default_timeout(ACTION_TIMEOUT * 1000)
        self.page.on("pageerror", lambda error: self.problems.append(f"JS error: {error}"))
        await self.page.add_init_script(CHANGE_RECORDER_JS)
        tokens = self.page.locator(f"{MAIN} .bpe-tv .tok").first

        async def load_until_tokens() -> None:
            await self.page.goto(self.base_url, wait_until="domcontentloaded")
            await tokens.wait_for(state="visible")
            shown = await self.page.evaluate(TOKENS_AFTER_FIRST_PAINT_JS) / 1000
            self.times[LANDING], self.run_ends[LANDING] = shown, shown

        await self.timed("load the app", load_until_tokens, new_document=True)

    async def go_to(self, title: str, name: str) -> None:
        await self.timed(name, lambda: self.page.locator(NAV_LINK).filter(has_text=title).click())

    async def train_sample(self) -> None:
        button = self.page.locator(f'{MAIN} [data-testid="stBaseButton-primary"]').filter(has_text="Train")
        await self.timed("train the sample", button.click)

    async def encode(self, text: str, name: str) -> None:
        """Put ``text`` in the box and send it (a box that reruns as it is typed into reruns on the fill)."""
        box = self.page.get_by_role("textbox", name="Text to encode")

        async def fill_and_send() -> None:
            await box.fill(text)
            await box.press("Control+Enter")

        await self.timed(name, fill_and_send)

    async def ask_for_size(self, size: int) -> None:
        """On Compare, type a vocabulary size beyond the session's model: the app trains the model further."""
        box = self.page.get_by_role("spinbutton", name="Size 3")

        async def type_and_send() -> None:
            await box.fill(str(size))
            await box.press("Enter")

        await self.timed(EXTEND, type_and_send)

    async def move_step_slider(self) -> None:
        slider = self.page.locator(f'{MAIN} [data-testid="stSlider"]').filter(has_text="Step").get_by_role("slider")
        await slider.focus()
        await self.timed("move the Merges step slider", lambda: slider.press("ArrowRight"))

    async def classroom_actions(self) -> None:
        try:
            await self.open()
            await self.go_to("Train", "open the Train page")
            await self.train_sample()
            await self.go_to("Merges", "open the Merges page")
            await self.go_to("Encode / Decode", "open the Encode page")
            await self.encode(PARAGRAPH, "encode a paragraph")
            await self.go_to("Compare", "open the Compare page")
        except Exception as error:  # a timeout or a missing element: count it, keep the other sessions going
            self.problems.append(f"{type(error).__name__}: {str(error)[:200]}")


# -- reports -------------------------------------------------------------------------------


# -- the two parts ---------------------------------------------------------------------------


async def load_part(browser, base_url: str, pid: int, sessions: int) -> bool:
    baseline = rss_mib(pid)
    warm_up = Session(await browser.new_context(viewport={"width": 1400, "height": 1000}), base_url)
    cpu_start = cpu_seconds(pid)
    await warm_up.classroom_actions()
    warm_up_cpu, one_session = cpu_seconds(pid) - cpu_start, rss_mib(pid)
    crowd = [
        Session(await browser.new_context(viewport={"width": 1400, "height": 1000}), base_url) for _ in range(sessions)
    ]
    start, cpu_start = time.monotonic(), cpu_seconds(pid)
    await asyncio.gather(*(session.classroom_actions() for session in crowd))
    wall, server_cpu = time.monotonic() - start, cpu_seconds(pid) - cpu_start
    everyone = rss_mib(pid)  # all sessions still connected
    for session in [warm_up, *crowd]:
        await session.context.close()

    failed = [(index, problem) for index, session in enumerate(crowd) for problem in session.problems]
    print(f"\n## Load test: {sessions} concurrent sessions (load average before: {LOAD_BEFORE})\n")
    print(action_table(crowd))
    print(
        f"\nAll {sessions} sessions done in {wall:.1f} s; "
        + (
            "every session finished without an error."
            if not failed and not warm_up.problems
            else f"PROBLEMS: {warm_up.problems + [f'session {i}: {p}' for i, p in failed]}"
        )
    )
    print(
        f"\nThe server process used {server_cpu:.1f} s of CPU for those {wall:.0f} s "
        f"({server_cpu / sessions:.2f} s per session); the rest of the machine's time went to the "
        f"{sessions} browser tabs rendering on the same {os.cpu_count()} cores."
    )
    print(
        f"\nWarm-up session alone ({warm_up_cpu:.1f} s of server CPU, training included): "
        + ", ".join(f"{k} {v:.2f} s" for k, v in warm_up.times.items())
    )
    print(
        f"\nServer memory (RSS): started {baseline:.0f} MiB, after 1 session {one_session:.0f} MiB, "
        f"with {sessions + 1} sessions {everyone:.0f} MiB "
        f"(about {(everyone - one_session) / sessions:.1f} MiB per extra session). "
        f"Load average after: {load_average()}"
    )
    return not failed and not warm_up.problems


NAV_TITLES = ("Start", "Train", "Merges", "Encode / Decode", "Compare")
# the issues' targets, as a multiple of the bare page's time (1.5 for the rest), or in seconds
TARGETS = {"first load": 2.0}
# training a larger model, and the landing's tokens after the first paint: their own targets, whatever the bare
# page's times
SECONDS_TARGETS = {EXTEND: 2.0, LANDING: 2.0}
DEFAULT_TARGET = 1.5


async def latency_tour(session: Session, extended_size: int) -> None:
    """The single-user actions, in the order a student meets them; the same against both apps. ``extended_size``
    differs a little each round, so that the app trains it rather than finding the last round's model in its store."""
    try:
        await session.open()
        await session.go_to("Train", "switch to Train, first visit")
        await session.train_sample()
        await session.go_to("Merges", "switch to Merges, first visit")
        await session.move_step_slider()
        await session.go_to("Encode / Decode", "switch to Encode, first visit")
        await session.encode(PARAGRAPH, "type a paragraph and encode it")
        await session.go_to("Compare", "switch to Compare, first visit")
        await session.ask_for_size(extended_size)
        for title in NAV_TITLES:
            await session.go_to(title, f"switch to {title.split()[0]}, later visit")
    except Exception as error:
        session.problems.append(f"{type(error).__name__}: {str(error)[:200]}")
    await session.context.close()


def latency_table(app: list[Session], bare: list[Session]) -> str:
    """Medians per action for the app (with its fastest and slowest round) and the bare page, the ratio against the
    issues' target, and when the app's server run was over (the rest of its time is the browser drawing)."""
    rows = [
        "| action | app (s) | app's spread (s) | bare Streamlit (s) | ratio | target | met | app's run over at (s) |",
        "|---|---:|---:|---:|---:|---:|:-:|---:|",
    ]
    for name in dict.fromkeys(name for session in app for name in session.times):
        times = [session.times[name] for session in app if name in session.times]
        mine = statistics.median(times)
        ends = statistics.median(session.run_ends[name] for session in app if name in session.run_ends)
        floor = [session.times[name] for session in bare if name in session.times]
        if not floor:
            continue
        base = statistics.median(floor)
        label = "first load" if name == "load the app" else name
        ratio = mine / base
        if label in SECONDS_TARGETS:
            target, met = f"{SECONDS_TARGETS[label]:.1f} s", mine <= SECONDS_TARGETS[label]
        else:
            target, met = f"{TARGETS.get(label, DEFAULT_TARGET):.1f}x", ratio <= TARGETS.get(label, DEFAULT_TARGET)
        rows.append(
            f"| {label} | {mine:.2f} | {min(times):.2f}-{max(times):.2f} | {base:.2f} | {ratio:.2f}x | {target} | "
            f"{'yes' if met else 'NO'} | {ends:.2f} |"
        )
    return "\n".join(rows)


async def latency_part(browser, app_url: str, bare_url: str, rounds: int) -> bool:
    """Each round one fresh session against the app and one against the bare page, one after the other,
    the order swapped every round so that the machine's load falls on both alike."""
    app, bare = [], []
    for round_number in range(rounds):
        pairs = [(app, app_url), (bare, bare_url)]
        for sessions, url in pairs if round_number % 2 == 0 else pairs[::-1]:
            session = Session(await browser.new_context(viewport={"width": 1400, "height": 1000}), url)
            sessions.append(session)
            await latency_tour(session, 5_000 + round_number)
    print(
        f"\n## Latency: one user, the app beside a bare Streamlit page, medians of {rounds} rounds on warm "
        f"servers (load average before: {LOAD_BEFORE}, after: {load_average()})\n"
    )
    print(latency_table(app, bare))
    problems = [problem for session in app + bare for problem in session.problems]
    print("\n" + ("No errors." if not problems else f"PROBLEMS: {problems}"))
    return not problems


async def memory_part(browser, base_url: str, pid: int, reruns: int) -> bool:
    """Server memory over many reruns in one session: the Merges step slider, then page switches."""
    session = Session(await browser.new_context(viewport={"width": 1400, "height": 1000}), base_url)
    readings = []
    try:
        await session.open()
        await session.go_to("Merges", "open Merges")
        readings.append(rss_mib(pid))
        for index in range(reruns):
            if index % 5 == 4:
                await session.go_to(NAV_TITLES[index // 5 % 4], "switch page")
                await session.go_to("Merges", "open Merges")
            else:
                await session.move_step_slider()
            if index % 10 == 9:
                readings.append(rss_mib(pid))
    except Exception as error:
        session.problems.append(f"{type(error).__name__}: {str(error)[:200]}")
    await session.context.close()
    print(f"\n## Server memory over {reruns} reruns in one session (slider moves, every fifth a page switch)\n")
    print("RSS after Merges opened, then after every 10 reruns (MiB): " + ", ".join(f"{r:.0f}" for r in readings))
    print("\n" + ("No errors." if not session.problems else f"PROBLEMS: {session.problems}"))
    return not session.problems


async def run(parts: list[str], sessions: int, rounds: int) -> bool:
    from playwright.async_api import async_playwright

    ok = True
    logs = Path(tempfile.mkdtemp())
    with (
        running_app(logs / "server.log") as (base_url, server),
        running_app(logs / "bare.log", script=BARE_APP) as (bare_url, _bare_server),
    ):
        pid = server.pid
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM_PATH, headless=True, args=CHROMIUM_ARGS)
            try:
                for url, what in (
                    (base_url, "the app (includes training the default model)"),
                    (bare_url, "the bare page"),
                ):
                    cold = Session(await browser.new_context(), url)
                    await cold.open()
                    await cold.context.close()
                    print(f"Cold start of {what}: first page ready in {cold.times['load the app']:.1f} s.")
                print(f"App server RSS {rss_mib(pid):.0f} MiB.")
                if "latency" in parts:
                    ok &= await latency_part(browser, base_url, bare_url, rounds)
                if "memory" in parts:
                    ok &= await memory_part(browser, base_url, pid, MEMORY_RERUNS)
                if "load" in parts:
                    ok &= await load_part(browser, base_url, pid, sessions)
            finally:
                await browser.close()
    return ok


def main() -> int:
    global LOAD_BEFORE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["load", "latency", "memory", "both"], default="both")
    parser.add_argument("--sessions", type=int, default=10, help="concurrent sessions in the load part (1-30)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the latency part (1-10)")
    args = parser.parse_args()
    if not os.path.exists(CHROMIUM_PATH):
        print(f"Chromium not found at {CHROMIUM_PATH}: apt-get install chromium", file=sys.stderr)
        return 2
    sessions = max(1, min(30, args.sessions))
    rounds = max(1, min(10, args.rounds))
    parts = ["latency", "load"] if args.part == "both" else [args.part]
    LOAD_BEFORE = load_average()
    print(f"Machine: {os.cpu_count()} cores, load average {LOAD_BEFORE} at the start.")
    try:
        ok = asyncio.run(asyncio.wait_for(run(parts, sessions, rounds), timeout=RUN_DEADLINE))
    except TimeoutError:
        print(f"Stopped: the run took longer than {RUN_DEADLINE:.0f} s.")
        return 1
    return 0 if ok else 1


LOAD_BEFORE = ""

if __name__ == "__main__":
    sys.exit(main())
