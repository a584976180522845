"""The job runner: a function's result from a worker process, each ceiling of the budget reached in words, the
worker ended when its caller stops waiting, and jobs beyond the server's slots waiting their turn in order.

The jobs here are functions of the standard library or the engine: a worker imports what it runs by name."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from bpe_core import Config, train
from bpe_core.textbook import train_merges
from jobs import Budget, JobStopped, Slots, run_job

BUDGET = Budget(memory_mb=512, seconds=30)


def workers_running() -> int:
    """Worker processes of this test process (the one kept idle included)."""
    me, count = str(os.getpid()), 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
            command = (status.parent / "cmdline").read_bytes()
        except OSError:
            continue
        count += fields.get("PPid", "").strip() == me and b"jobs.worker" in command
    return count


def test_a_job_gives_what_the_function_gives():
    assert run_job(Counter, "banana", budget=BUDGET, slots=Slots(1)) == Counter("banana")
    model = run_job(train, "low lower newest widest", Config(), merges=5, budget=BUDGET, slots=Slots(1))
    assert model.merges == train_merges("low lower newest widest", Config(), merges=5)


def test_progress_comes_from_the_function_and_ends_at_its_total():
    seen: list[tuple[int, int]] = []
    run_job(
        train,
        "banana_bandana_",
        Config(split="none"),
        merges=6,
        budget=BUDGET,
        slots=Slots(1),
        on_progress=lambda *p: seen.append(p),
    )
    assert seen[-1] == (6, 6) and seen == sorted(seen)


def test_a_refusal_of_the_function_comes_back_in_its_words():
    with pytest.raises(ValueError, match="give either a number of merges or a vocabulary size") as refused:
        run_job(train, "abc", budget=BUDGET, slots=Slots(1))
    assert not isinstance(refused.value, JobStopped)


def test_the_memory_ceiling_stops_a_job_in_words():
    with pytest.raises(JobStopped, match="more than its memory ceiling of 256 MB") as stopped:
        run_job(bytearray, 2**30, budget=Budget(memory_mb=256, seconds=30), slots=Slots(1))
    assert stopped.value.ceiling == "memory"


def test_the_time_ceiling_stops_a_job_in_words():
    with pytest.raises(JobStopped, match="longer than its time ceiling of 0.5 s") as stopped:
        run_job(time.sleep, 60, budget=Budget(memory_mb=256, seconds=0.5), slots=Slots(1))
    assert stopped.value.ceiling == "time"


def test_a_worker_that_dies_is_said_so():
    with pytest.raises(JobStopped, match=r"ended without a result \(exit code 3\)") as stopped:
        run_job(os._exit, 3, budget=BUDGET, slots=Slots(1))
    assert stopped.value.ceiling == "worker"


class PageClosed(Exception):
    """What Streamlit raises in a callback when the page that waits was closed or asked again."""


def test_a_caller_that_stops_waiting_ends_its_worker():
    def closed(*_):
        raise PageClosed

    run_job(abs, 1, budget=BUDGET, slots=Slots(1))  # a spare worker is kept from here on
    sample = (Path(__file__).parents[2] / "data" / "kjv_sample.txt").read_text(encoding="utf-8")
    long_training = (sample, Config(units="bytes", split="none", end_of_word=""))  # seconds: stopped at its start
    with pytest.raises(PageClosed):
        run_job(train, *long_training, merges=100_000, budget=BUDGET, slots=Slots(1), on_progress=closed)
    assert workers_running() == 1  # the spare only: the training one was ended


def test_jobs_beyond_the_slots_wait_in_order_and_are_told_their_place():
    slots, places, finished = Slots(1), [], []

    def job(name: str, seconds: float, on_wait=None):
        run_job(time.sleep, seconds, budget=BUDGET, slots=slots, on_wait=on_wait)
        finished.append(name)

    first = threading.Thread(target=job, args=("first", 1.0))
    first.start()
    while slots.running == 0:
        time.sleep(0.01)
    second = threading.Thread(target=job, args=("second", 0, places.append))
    second.start()
    while len(places) == 0:
        time.sleep(0.01)
    third = threading.Thread(target=job, args=("third", 0))
    third.start()
    for thread in (first, second, third):
        thread.join()
    assert finished == ["first", "second", "third"] and set(places) == {1}


def test_a_place_given_up_lets_the_next_one_through():
    slots = Slots(1)

    def gives_up(place: int):
        raise PageClosed

    with slots.held():
        with pytest.raises(PageClosed):
            with slots.held(on_wait=gives_up):
                pass  # never reached: the slot is taken
    with slots.held():
        assert slots.running == 1


@pytest.mark.parametrize(
    ("environment", "problem"),
    [
        ({"BPE_JOB_MEMORY_MB": "0"}, "BPE_JOB_MEMORY_MB=0: not a whole number of megabytes above 0"),
        ({"BPE_JOB_MEMORY_MB": "1.5"}, "BPE_JOB_MEMORY_MB=1.5: not a whole number of megabytes above 0"),
        ({"BPE_JOB_SECONDS": "-2"}, "BPE_JOB_SECONDS=-2: not a number of seconds above 0"),
    ],
)
def test_a_budget_that_makes_no_sense_is_refused_by_name(environment, problem):
    with pytest.raises(ValueError, match=problem.replace(".", r"\.")):
        Budget.from_environment(environment)


def test_a_budget_from_the_environment():
    assert Budget.from_environment({"BPE_JOB_MEMORY_MB": "2048", "BPE_JOB_SECONDS": "1.5"}) == Budget(2048, 1.5)
    assert Budget.from_environment({}) == Budget(1024, 60.0)
