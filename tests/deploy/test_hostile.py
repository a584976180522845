"""The hostile-visitor test (``make hostile-test``), run short: five students in a live class on two replicas sharing
Redis behind nginx, while one visitor opens the 100,000-merge link, uploads a backtracking tokenizer and types 40 x's,
uploads a generated tokenizer of 200,000 tokens, and floods the join form past its limit; meanwhile a victim from
another address opens the app and trains a small corpus, again and again. Students and visitor speak
Streamlit's protocol (no browser). Skipped without nginx or redis-server unless BPE_REQUIRE_NGINX=1 or
BPE_REQUIRE_REDIS=1 (CI installs both and sets them)."""

from __future__ import annotations

import concurrent.futures
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.deploy import needs

from bench.classroom.cluster import NGINX
from bench.classroom.hostile import LAST_LINE, Hostility, hostile_test
from bench.classroom.live_class import STEP_TARGET
from bench.classroom.server_memory import PeakMemory, documented_total_mb, documented_total_text, process_trees
from bench.classroom.victim import VICTIM_TARGET

STUDENTS = 5
README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.slow
def test_a_short_class_keeps_its_pace_and_every_hostile_action_is_answered_in_words():
    needs(NGINX, os.access(NGINX, os.X_OK), "BPE_REQUIRE_NGINX")
    needs("redis-server", shutil.which("redis-server") is not None, "BPE_REQUIRE_REDIS")
    hostility = Hostility(link_tabs=1, upload_tabs=1, tokens=200_000)
    # In a thread of its own: a browser test earlier in the session leaves an event loop in the main thread.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as thread:
        report = thread.submit(hostile_test, 2, STUDENTS, hostility).result()
    details = report.details()
    line = LAST_LINE.fullmatch(report.last_line())
    assert line, details
    p95, votes, students, peak_gib, answered, actions, victims_p95 = line.groups()
    assert float(p95) < STEP_TARGET, details
    assert int(votes) == int(students) == STUDENTS, details
    assert float(peak_gib) * 1024 < documented_total_mb(2), details
    assert int(answered) == int(actions) == 5, details
    assert float(victims_p95) < VICTIM_TARGET and report.victim.problems == [], details
    assert all(report.victim.times.values()), details  # a first page and a training at least
    said = {answer.action: answer.words for answer in report.answers}
    assert "took longer than" in said["a backtracking tokenizer: 40 x's typed"], details  # a search, or all of them
    assert "the most it may" in said["360 joins from one address"], details
    assert set(report.peak_shares) == {"replica 1", "replica 2", "nginx", "redis"}, details  # every server process


def test_the_readme_gives_the_memory_the_test_holds_the_server_to():
    """The README's Limits write out the same sum the hostile test computes, for the default budgets."""
    assert documented_total_text(2, {}) in README.read_text(encoding="utf-8")


HOLDER = "import sys; held = b'x' * (80 << 20); print('ready', flush=True); sys.stdin.read()"  # 80 MB, written


def test_the_server_memory_adds_up_a_process_and_the_processes_under_it():
    """A process that starts another holding 80 MB: the tree of the first holds both, and its memory the 80 MB
    (two interpreters beside it: well under 80 MB more)."""
    starter = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {HOLDER!r}]); sys.stdin.read()"
    parent = subprocess.Popen([sys.executable, "-c", starter], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert parent.stdout.readline() == b"ready\n"  # the grandchild holds its 80 MB
        tree = process_trees([parent.pid])[parent.pid]
        assert len(tree) == 2 and parent.pid in tree
        with PeakMemory(lambda: [parent.pid], seconds=0.05) as memory:
            time.sleep(0.3)
        assert 80 <= memory.peak_mb < 160
        assert set(memory.peak_shares) == {parent.pid}
    finally:
        parent.stdin.close()  # both read it to its end, then exit
        parent.wait(timeout=30)
