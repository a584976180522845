"""The live class's load test, run short: a teacher and five students speaking Streamlit's protocol through nginx
to two replicas that share the class store, on Redis and on one SQLite file. A replica is killed and started again
during the second question, and a student trains the heaviest recipe a class allows during the third."""

from __future__ import annotations

import os
import re

import pytest
from support.deploy import needs, run_students

from bench.classroom.cluster import NGINX, running_classroom
from bench.classroom.live_class import STEP_TARGET, run_class

pytestmark = pytest.mark.slow

STUDENTS = 5
LAST_LINE = re.compile(
    r"class: (\d+)/(\d+) students joined, (\d+)/(\d+) votes counted once, p95 step seen (\d+\.\d\d) s, "
    r"restart lost (\d+) votes, (\d+) replicas"
)


@pytest.fixture(params=["redis", "sqlite"])
def class_store(request, tmp_path):
    needs(NGINX, os.access(NGINX, os.X_OK), "BPE_REQUIRE_NGINX")
    if request.param == "redis":
        return request.getfixturevalue("redis_url")
    return f"sqlite:///{tmp_path}/classes.sqlite3"


def test_a_short_live_class_meets_every_target(class_store):
    with running_classroom(replicas=2, class_store=class_store) as classroom:
        report = run_students(lambda: run_class(classroom, class_store, STUDENTS))
    assert report.problems == []
    assert (report.joined, report.counted_once, report.lost_at_restart) == (STUDENTS, STUDENTS, 0)
    assert len(report.step_delays) == 3 * STUDENTS and report.p95 < STEP_TARGET
    assert report.came_back >= 1  # the restarted replica's sessions reconnected and carried on
    line = LAST_LINE.fullmatch(report.last_line())
    assert line and line.group(2) == line.group(4) == str(STUDENTS) and line.group(7) == "2"
