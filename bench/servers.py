"""Servers the benchmarks and the tests start on this machine, with the standard library alone (``make classroom`` and
``make class`` run from ``requirements.txt``, without the tests' Playwright): a Streamlit app, a private
``redis-server``, and the small checks around them.

>>> 1024 <= free_port() <= 65535
True
>>> answers_ok(f"http://127.0.0.1:{free_port()}/_stcore/health")  # nobody listens there
False
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


class ServerDidNotStart(RuntimeError):
    """The app server exited or stayed silent; the message ends with its log."""


def start_streamlit(
    script: str, port: int, flags: list[str], log_path: Path, env: dict[str, str] | None = None, *, append: bool = False
) -> subprocess.Popen:
    """``streamlit run script`` (through ``deploy/start_app.py``) with ``flags`` from the project root, on
    127.0.0.1:``port``; its output written to ``log_path`` (added to it with ``append``), ``env`` added to the
    environment. Returns at once: the caller waits for its health check and stops it."""
    command = [sys.executable, str(REPO_ROOT / "deploy" / "start_app.py"), script, *flags]
    command += ["--server.address", "127.0.0.1", "--server.port", str(port)]
    with open(log_path, "ab" if append else "wb") as log:
        return subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=dict(os.environ, PYTHONUNBUFFERED="1", **(env or {})),
        )


def answers_ok(url: str) -> bool:
    """True when a health URL (Streamlit's /_stcore/health) answers 200 with 'ok'."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200 and response.read().strip() == b"ok"
    except (urllib.error.URLError, OSError, ValueError):
        return False


def log_tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_redis(folder: Path, timeout: float = 20.0, durable: bool = False):
    """Debian's ``redis-server`` on 127.0.0.1:<free port>, its files in ``folder``; yields its ``redis://`` URL
    once it answers PING, and stops it on exit. ``durable``: every write goes to an append-only file in ``folder``
    (flushed each second, and at a clean stop), so a server started again on that folder has every class and vote;
    otherwise nothing is written to disk."""
    port = free_port()
    persistence = ["--appendonly", "yes", "--appendfsync", "everysec"] if durable else ["--save", ""]
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder), *persistence]
    with open(folder / "redis.log", "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + timeout
        while not _redis_answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise ServerDidNotStart(f"redis-server did not start.\n{log_tail(folder / 'redis.log')}")
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def _redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(16).startswith(b"+PONG")
    except OSError:
        return False
