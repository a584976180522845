"""Start a Streamlit script as ``streamlit run`` does, with Streamlit's first kind of multipage app switched off.

Streamlit takes a folder named ``pages`` beside the main script for its first kind of multipage app (each
``pages/*.py`` a page of its own) until ``st.navigation`` first runs in the process: the first session of a fresh
server would run through that mode, find no page of the address it asked for (``/Class``), and lay "Page not found"
over the page that app.py's router draws next. Our ``pages/`` holds one folder per page, routed by app.py alone, so
the mode is switched off before the server starts.

For app.py it also makes the default model every session starts with (``session.state.default_session_model``:
the KJV sample, 2,000 merges, a job as every training) before the server listens, so that no visitor's first page
waits for it behind other visitors' jobs, and the server's health check (``/_stcore/health``: the Docker image's,
compose's, the tests' and benchmarks') answers only once it is made. A server whose job budget cannot make it
says why and exits with status 2 instead of serving pages that have no model.

    python deploy/start_app.py [SCRIPT] [streamlit run's flags]    SCRIPT: app.py unless another .py is named

make run, make class, the Docker image and the tests' and benchmarks' servers start the app through it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from streamlit.runtime.pages_manager import PagesManager
from streamlit.web import cli

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"


def streamlit_arguments(argv: list[str]) -> list[str]:
    """``streamlit run``'s arguments for ours: the script (app.py unless the first argument names a .py), then the
    flags.

    >>> streamlit_arguments(["--server.port", "8501"])[1:]
    ['--server.port', '8501']
    >>> streamlit_arguments(["bench/bare_app/app.py", "--server.headless", "true"])
    ['bench/bare_app/app.py', '--server.headless', 'true']
    """
    if argv and argv[0].endswith(".py"):
        return argv
    return [str(APP), *argv]


def make_default_model() -> None:
    """The default model in the model store of this process, where every session of the server it starts finds it
    (Streamlit's caches belong to the process), and the piece caches' budget set; exits with status 2 and a
    sentence if the job budget cannot make it or a budget variable makes no sense."""
    sys.path.insert(0, str(ROOT))  # the app's packages, as Streamlit gives them to app.py
    from session import state  # the app's modules: only for the app (a benchmark's bare app needs none of them)
    from session.training_settings import DEFAULT_SETTINGS

    sample = f"the sample corpus, {DEFAULT_SETTINGS.merges:,} merges"
    print(f"Making the default model ({sample})...", flush=True)
    started = time.monotonic()
    try:
        state.piece_caches()
        state.default_session_model()
    except ValueError as error:  # a ceiling too low for the sample, a budget variable that makes no sense
        print(f"This server could not make its first model ({sample}): {error}. See README, Limits.", file=sys.stderr)
        sys.exit(2)
    print(f"The default model is made ({time.monotonic() - started:.1f} s): serving.", flush=True)


def main(argv: list[str]) -> None:
    PagesManager.uses_pages_directory = False  # read once per process, when the first session starts
    arguments = streamlit_arguments(argv)
    if (ROOT / arguments[0]).resolve() == APP:
        make_default_model()
    sys.argv = ["streamlit", "run", *arguments]
    cli.main()


if __name__ == "__main__":
    main(sys.argv[1:])
