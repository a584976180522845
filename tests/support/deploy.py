"""What the deployment tests share: the programs they need (nginx, redis-server), a run of simulated students
(bench/classroom: Streamlit's protocol, no browser), and what deploy/Dockerfile copies."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
from pathlib import Path

import pytest

from support.paths import REPO_ROOT

DOCKERFILE = REPO_ROOT / "deploy" / "Dockerfile"


def needs(program: str, present: bool, variable: str) -> None:
    """Skip the test when ``program`` is not ``present``, or fail it when the environment sets ``variable`` to 1
    (as CI does after installing it)."""
    if present:
        return
    if os.environ.get(variable) == "1":
        pytest.fail(f"{program} is missing ({variable}=1)")
    pytest.skip(f"{program} is missing: apt-get install {Path(program).name}")


def run_students(lesson) -> object:
    """``asyncio.run(lesson())`` in a thread of its own: Playwright's sync API (the browser tests, earlier in
    the same pytest session) leaves an event loop running in the main thread, where asyncio.run refuses."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, lesson()).result()


def copied_into_workdir(dockerfile: Path) -> list[tuple[str, str]]:
    """The (source, destination) of each ``COPY`` into the working folder (a destination under / is left out)."""
    copies = []
    for line in dockerfile.read_text(encoding="utf-8").splitlines():
        words = line.split()
        if words[:1] == ["COPY"] and not any(word.startswith("--") for word in words[1:]):
            *sources, destination = words[1:]
            if not destination.startswith("/"):
                copies += [(source, destination) for source in sources]
    return copies
