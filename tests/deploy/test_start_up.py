"""The launcher makes the default model before the server listens: its health check answers only once the model is
made, a visitor's first page shows it without a job (the server starts no worker process for it), and a server
whose job budget cannot make it exits with status 2 and a sentence instead of serving pages without a model."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from support.deploy import run_students
from support.paths import REPO_ROOT

from bench.classroom.server_memory import process_trees
from bench.classroom.student import Student
from bench.servers import answers_ok, free_port, log_tail, start_streamlit

LAUNCHER = REPO_ROOT / "deploy" / "start_app.py"
MADE = "The default model is made"


def first_page(url: str) -> str:
    """What a new visitor's first page shows."""

    async def visit() -> str:
        tab = Student(url)
        try:
            await tab.enter()
            return tab.shown_text()
        finally:
            await tab.leave()

    return run_students(visit)  # in a thread: a browser test earlier in the session leaves an event loop here


@pytest.mark.slow
def test_the_server_is_healthy_once_the_default_model_is_made_and_a_first_page_runs_no_job(tmp_path):
    port, log = free_port(), tmp_path / "server.log"
    health = f"http://127.0.0.1:{port}/_stcore/health"
    server = start_streamlit("app.py", port, ["--server.headless", "true"], log)
    try:
        deadline = time.monotonic() + 120
        while not answers_ok(health):
            assert server.poll() is None and time.monotonic() < deadline, log_tail(log)
            time.sleep(0.05)
        assert MADE in log.read_text(encoding="utf-8")  # said before the server listened, never after its health
        workers = process_trees([server.pid])[server.pid] - {server.pid}  # the idle worker the next job will take
        shown = first_page(f"http://127.0.0.1:{port}")
        assert "Current model: a vocabulary of 2,256 tokens, 2,000 of them made by merges" in shown, shown[-500:]
        assert process_trees([server.pid])[server.pid] - {server.pid} == workers  # no job took the idle worker
    finally:
        server.terminate()
        server.wait(timeout=15)


def test_a_server_that_cannot_make_the_default_model_says_why_and_never_answers_its_health_check():
    port = free_port()
    result = subprocess.run(
        [sys.executable, str(LAUNCHER), "--server.port", str(port), "--server.headless", "true"],
        cwd=REPO_ROOT,
        env={"PATH": "/usr/bin:/bin", "BPE_JOB_SECONDS": "0.01", "BPE_CLASS_STORE": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        "This server could not make its first model (the sample corpus, 2,000 merges): it took longer than its "
        "time ceiling of 0.01 s" in result.stderr
    )
    assert not answers_ok(f"http://127.0.0.1:{port}/_stcore/health")
