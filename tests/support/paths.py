"""Where the tests find the project's files (standard library only: every kind of test may import it)."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
APP_FILE = str(REPO_ROOT / "app.py")  # the router every AppTest and served app starts from
