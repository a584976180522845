"""Start a Streamlit script as ``streamlit run`` does, with Streamlit's first kind of multipage app switched off.

Streamlit takes a folder named ``pages`` beside the main script for its first kind of multipage app (each
``pages/*.py`` a page of its own) until ``st.navigation`` first runs in the process: the first session of a fresh
server would run through that mode, find no page of the address it asked for (``/Class``), and lay "Page not found"
over the page that app.py's router draws next. Our ``pages/`` holds one folder per page, routed by app.py alone, so
the mode is switched off before the server starts.

    python deploy/start_app.py [SCRIPT] [streamlit run's flags]    SCRIPT: app.py unless another .py is named

make run, make class, the Docker image and the tests' and benchmarks' servers start the app through it.
"""

from __future__ import annotations

import sys
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


def main(argv: list[str]) -> None:
    PagesManager.uses_pages_directory = False  # read once per process, when the first session starts
    sys.argv = ["streamlit", "run", *streamlit_arguments(argv)]
    cli.main()


if __name__ == "__main__":
    main(sys.argv[1:])
