"""``make class``: the app on every interface of this machine, for students on the room's network.

Prints the address students type and its QR code, then runs Streamlit in this process's place (Ctrl+C stops it).
Only the address and the port change: XSRF protection and the upload limit stay as ``.streamlit/config.toml`` and
Streamlit's defaults set them.

    .venv/bin/python deploy/serve_class.py --port 8501
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from make: the project's packages
from pages.classroom.views.address import CLASS_URL_ENV, announcement, network_address  # noqa: E402


def streamlit_command(port: int) -> list[str]:
    """The Streamlit server a class reaches: every interface, ``port``, no browser opened on this machine."""
    return [
        *(sys.executable, str(ROOT / "deploy" / "start_app.py")),
        *("--server.address", "0.0.0.0", "--server.port", str(port), "--server.headless", "true"),
    ]


def port_number(text: str) -> int:
    """A TCP port as typed in ``PORT=...``; anything else is one line of usage, not a traceback."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"PORT must be a whole number from 1 to 65535, not {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve BPE Explorer to a class on this machine's network.")
    parser.add_argument("--port", type=port_number, default=8501, help="the port students type (1-65535)")
    port = parser.parse_args(argv).port
    url, text = announcement(network_address(), port)
    print(text, flush=True)
    environment = dict(os.environ, **({CLASS_URL_ENV: url} if url else {}))
    os.chdir(ROOT)  # the project's .streamlit/config.toml applies
    os.execve(sys.executable, streamlit_command(port), environment)


if __name__ == "__main__":
    main()
