"""A classroom at once: many browser sessions against one local app server, and single-user latency.

    make loadtest                                   # both parts, 10 concurrent sessions
    .venv/bin/python -m bench.loadtest --sessions 5 # fewer sessions
    .venv/bin/python -m bench.loadtest --part latency

Starts ``streamlit run app.py`` on 127.0.0.1 on a free port (nothing else is contacted), drives it with
Debian's headless Chromium through Playwright, prints Markdown tables and stops the server. Everything is
bounded: a fixed number of sessions and rounds, and a deadline for the whole run.

Load part: one warm-up session runs the actions alone (its server memory is "1 session"), then
``--sessions`` browser contexts run them at the same time: load the app, train the shipped sample with the
default settings (press Train), open the Merges page, encode a paragraph on the Encode page, open the
Compare page. Per action the
50th/95th percentile of the wall time is printed, and whether every session ended without an exception box
or a JavaScript error. Server memory (RSS) is read with all sessions still connected.

Latency part: one browser, measured ``--rounds`` times on a warm server (the cold first page, which
trains the default model, is reported once): first page ready, train, switch page, move the Merges step
slider, encode 10,000 characters.
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

from browser_helpers import (  # noqa: E402
    APP_STATE_JS, CHROMIUM_ARGS, CHROMIUM_PATH, EXCEPTION, NAV_LINK, IdleWatch, running_app,
)

SAMPLE = (REPO / "data" / "kjv_sample.txt").read_text(encoding="utf-8")
PARAGRAPH = SAMPLE[:600]
TEN_THOUSAND = SAMPLE[:10_000]
ACTION_TIMEOUT = 240.0  # seconds one action may take before the session counts as failed
RUN_DEADLINE = 900.0  # the whole run stops after this long, whatever happens
MAIN = '[data-testid="stMain"]'


# -- the server -------------------------------------------------------------------------


def rss_mib(pid: int) -> float:
    """Resident memory of a process, in MiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# -- one browser session ------------------------------------------------------------------


async def wait_for_app(page, settle: float = 0.5) -> None:
    """Until the script run is over (connected, not running, nothing loading) for ``settle`` seconds."""
    watch = IdleWatch(ACTION_TIMEOUT, settle)
    while not watch.settled(await page.evaluate(APP_STATE_JS)):
        await page.wait_for_timeout(100)


class Session:
    """One user: a browser context, the time each action took, and what went wrong."""

    def __init__(self, context, base_url: str):
        self.context = context
        self.base_url = base_url
        self.page = None
        self.times: dict[str, float] = {}
        self.problems: list[str] = []

    async def timed(self, name: str, action) -> None:
        start = time.monotonic()
        await action()
        await wait_for_app(self.page)
        self.times[name] = time.monotonic() - start  # the settle wait is part of every action alike
        if await self.page.locator(EXCEPTION).count():
            self.problems.append(f"{name}: exception box")

    async def open(self) -> None:
        self.page = await self.context.new_page()
        self.page.set_default_timeout(ACTION_TIMEOUT * 1000)
        self.page.on("pageerror", lambda error: self.problems.append(f"JS error: {error}"))
        await self.timed("load the app", lambda: self.page.goto(self.base_url, wait_until="domcontentloaded"))

    async def go_to(self, title: str, name: str) -> None:
        await self.timed(name, lambda: self.page.locator(NAV_LINK).filter(has_text=title).click())

    async def train_sample(self) -> None:
        button = self.page.locator(f'{MAIN} [data-testid="stBaseButton-primary"]').filter(has_text="Train")
        await self.timed("train the sample", button.click)

    async def encode(self, text: str, name: str) -> None:
        box = self.page.get_by_role("textbox", name="Text to encode")
        await box.fill(text)
        await self.timed(name, lambda: box.press("Control+Enter"))

    async def move_step_slider(self) -> None:
        slider = self.page.locator(f'{MAIN} [data-testid="stSlider"]').filter(has_text="Step").get_by_role("slider")
        await slider.focus()
        await self.timed("move the Merges step slider", lambda: slider.press("ArrowRight"))

    async def classroom_actions(self) -> None:
        try:
            await self.open()
            await self.train_sample()
            await self.go_to("Merges", "open the Merges page")
            await self.go_to("Encode / Decode", "open the Encode page")
            await self.encode(PARAGRAPH, "encode a paragraph")
            await self.go_to("Compare", "open the Compare page")
        except Exception as error:  # a timeout or a missing element: count it, keep the other sessions going
            self.problems.append(f"{type(error).__name__}: {str(error)[:200]}")


# -- reports -------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


def action_table(sessions: list[Session], columns: tuple[str, ...] = ("p50", "p95", "max")) -> str:
    names = list(dict.fromkeys(name for session in sessions for name in session.times))
    rows = [f"| action | n | {' | '.join(f'{c} (s)' for c in columns)} |", "|---|---:|" + "---:|" * len(columns)]
    for name in names:
        values = [session.times[name] for session in sessions if name in session.times]
        stats = {"p50": percentile(values, 0.5), "p95": percentile(values, 0.95), "max": max(values),
                 "median": statistics.median(values)}
        rows.append(f"| {name} | {len(values)} | " + " | ".join(f"{stats[c]:.2f}" for c in columns) + " |")
    return "\n".join(rows)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, in seconds (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# -- the two parts ---------------------------------------------------------------------------


async def load_part(browser, base_url: str, pid: int, sessions: int) -> bool:
    baseline = rss_mib(pid)
    warm_up = Session(await browser.new_context(viewport={"width": 1400, "height": 1000}), base_url)
    cpu_start = cpu_seconds(pid)
    await warm_up.classroom_actions()
    warm_up_cpu, one_session = cpu_seconds(pid) - cpu_start, rss_mib(pid)
    crowd = [Session(await browser.new_context(viewport={"width": 1400, "height": 1000}), base_url)
             for _ in range(sessions)]
    start, cpu_start = time.monotonic(), cpu_seconds(pid)
    await asyncio.gather(*(session.classroom_actions() for session in crowd))
    wall, server_cpu = time.monotonic() - start, cpu_seconds(pid) - cpu_start
    everyone = rss_mib(pid)  # all sessions still connected
    for session in [warm_up, *crowd]:
        await session.context.close()

    failed = [(index, problem) for index, session in enumerate(crowd) for problem in session.problems]
    print(f"\n## Load test: {sessions} concurrent sessions (load average before: {LOAD_BEFORE})\n")
    print(action_table(crowd))
    print(f"\nAll {sessions} sessions done in {wall:.1f} s; "
          + ("every session finished without an error." if not failed and not warm_up.problems else
             f"PROBLEMS: {warm_up.problems + [f'session {i}: {p}' for i, p in failed]}"))
    print(f"\nThe server process used {server_cpu:.1f} s of CPU for those {wall:.0f} s "
          f"({server_cpu / sessions:.2f} s per session); the rest of the machine's time went to the "
          f"{sessions} browser tabs rendering on the same {os.cpu_count()} cores.")
    print(f"\nWarm-up session alone ({warm_up_cpu:.1f} s of server CPU, training included): "
          + ", ".join(f"{k} {v:.2f} s" for k, v in warm_up.times.items()))
    print(f"\nServer memory (RSS): started {baseline:.0f} MiB, after 1 session {one_session:.0f} MiB, "
          f"with {sessions + 1} sessions {everyone:.0f} MiB "
          f"(about {(everyone - one_session) / sessions:.1f} MiB per extra session). "
          f"Load average after: {load_average()}")
    return not failed and not warm_up.problems


async def latency_part(browser, base_url: str, rounds: int) -> bool:
    sessions = []
    for _ in range(rounds):
        session = Session(await browser.new_context(viewport={"width": 1400, "height": 1000}), base_url)
        sessions.append(session)
        try:
            await session.open()
            await session.train_sample()
            await session.go_to("Merges", "switch page (Train → Merges)")
            await session.move_step_slider()
            await session.go_to("Encode / Decode", "switch page (Merges → Encode)")
            await session.encode(TEN_THOUSAND, "encode 10,000 characters")
        except Exception as error:
            session.problems.append(f"{type(error).__name__}: {str(error)[:200]}")
        await session.context.close()
    print(f"\n## Latency: one user, {rounds} rounds on a warm server (load average before: {LOAD_BEFORE})\n")
    print(action_table(sessions, columns=("median", "max")))
    problems = [problem for session in sessions for problem in session.problems]
    print("\n" + ("No errors." if not problems else f"PROBLEMS: {problems}"))
    return not problems


async def run(parts: list[str], sessions: int, rounds: int) -> bool:
    from playwright.async_api import async_playwright

    ok = True
    with running_app(Path(tempfile.mkdtemp()) / "server.log") as (base_url, server):
        pid = server.pid
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM_PATH, headless=True,
                                                       args=CHROMIUM_ARGS)
            try:
                cold = Session(await browser.new_context(), base_url)
                await cold.open()  # the first page on a fresh server also trains the default model
                await cold.context.close()
                print(f"Cold start: first page ready in {cold.times['load the app']:.1f} s "
                      f"(includes training the default model). Server RSS {rss_mib(pid):.0f} MiB.")
                if "latency" in parts:
                    ok &= await latency_part(browser, base_url, rounds)
                if "load" in parts:
                    ok &= await load_part(browser, base_url, pid, sessions)
            finally:
                await browser.close()
    return ok


def main() -> int:
    global LOAD_BEFORE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["load", "latency", "both"], default="both")
    parser.add_argument("--sessions", type=int, default=10, help="concurrent sessions in the load part (1-30)")
    parser.add_argument("--rounds", type=int, default=3, help="repetitions in the latency part (1-10)")
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
    except asyncio.TimeoutError:
        print(f"Stopped: the run took longer than {RUN_DEADLINE:.0f} s.")
        return 1
    return 0 if ok else 1


LOAD_BEFORE = ""

if __name__ == "__main__":
    sys.exit(main())
