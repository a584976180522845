"""The container serves what the repository serves: the app runs from exactly the files deploy/Dockerfile copies.

No Docker needed: the test copies what each ``COPY`` line names into an empty folder (as the image's ``WORKDIR``)
and runs each page there with Streamlit's AppTest, in a process that sees no other file of the project.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from support.deploy import DOCKERFILE, copied_into_workdir
from support.paths import REPO_ROOT

from session.page_registry import PAGES

RUN_EVERY_PAGE = (  # each page in menu order, as a visitor's clicks would run it
    "from streamlit.testing.v1 import AppTest\n"
    "from session.page_registry import PAGES\n"
    "at = AppTest.from_file('app.py', default_timeout=120)\n"
    "for page in PAGES:\n"
    "    at.switch_page(page.path).run()\n"
    "    assert not at.exception, (page.path, [e.message for e in at.exception])\n"
    "    print('served', page.path)\n"
)


def test_the_copies_are_read_from_the_dockerfile():
    copies = dict(copied_into_workdir(DOCKERFILE))
    assert copies["app.py"] == "./" and copies["bpe_core/"] == "bpe_core/"
    assert "deploy/streamlit/config.toml" not in copies  # copied to the user's home, not the app's folder


def test_the_app_runs_from_exactly_the_files_the_image_copies(tmp_path):
    workdir = tmp_path / "app"
    workdir.mkdir()
    for source, destination in copied_into_workdir(DOCKERFILE):
        target = workdir / destination
        if (REPO_ROOT / source).is_dir():
            shutil.copytree(REPO_ROOT / source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            target.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / source, target / Path(source).name)
    # -c puts the working folder first on sys.path; with no PYTHONPATH, only the copies of the project are importable
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "BPE_CLASS_STORE": ""}
    result = subprocess.run(
        [sys.executable, "-c", RUN_EVERY_PAGE],
        cwd=workdir,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == [word for page in PAGES for word in ("served", page.path)]
