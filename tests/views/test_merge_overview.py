"""Overview charts: every merge as a dot (thinned for big models), and the winning count per step."""

from __future__ import annotations

import math

import pytest

from bpe_core import Config, Step, load_gpt2, train
from viz.merge_overview import (count_curve_caption, count_curve_figure, forest_caption, forest_figure, rising_steps,
                                sample_indices)

MAX_FIGURE_JSON = 1_500_000  # bytes: what a 16k-merge model may send per figure


@pytest.fixture(scope="module")
def banana():
    """The textbook model: 6 merges a+n, b+an, an+a, ana+_, ban+ana_, banana_+ban (counts 4 2 2 2 1 1)."""
    return train("banana_bandana_", Config(split="none"), merges=6)


def test_sample_indices_keep_the_start_and_an_even_sample():
    chosen = sample_indices(16_000, 2000)
    assert len(chosen) == 2000 and chosen == sorted(set(chosen))
    assert chosen[:500] == list(range(500)) and chosen[-1] == 15_999
    gaps = {b - a for a, b in zip(chosen[500:], chosen[501:])}
    assert max(gaps) - min(gaps) <= 1
    assert sample_indices(30, 2000) == list(range(30))
    assert sample_indices(10, 6, keep_first=2) == [0, 1, 2, 4, 7, 9]


def test_forest_colours_by_log_count(banana):
    trace = forest_figure(banana.steps).data[0]
    assert list(trace.x) == [1, 2, 3, 4, 5, 6]
    assert list(trace.y) == [2, 3, 3, 4, 7, 10]  # an, ban, ana, ana_, banana_, banana_ban
    assert list(trace.marker.color) == pytest.approx([math.log10(4), math.log10(2), math.log10(2), math.log10(2), 0, 0])
    assert trace.marker.colorbar.title.text == "count"
    assert list(trace.marker.colorbar.ticktext) == ["1"]
    # before step 6 the text is banana_ ban d ana_: three pairs, each seen once
    assert trace.hovertext[5] == "step 6: banana_ + ban → banana_ban (count 1, 3 pairs tied)"


def test_forest_without_counts_has_one_colour():
    figure = forest_figure(load_gpt2().steps)
    assert figure.data[0].marker.color == "#8da9c4"
    assert figure.layout.meta == {"shown": 2000, "total": 50_000}


def test_big_model_figures_stay_small():
    steps = [Step(number, "l", str(number), f"l{number}", 300 + number, 20_000 - number, 1) for number in range(1, 16_001)]
    for figure in (forest_figure(steps), count_curve_figure(steps)):
        assert len(figure.to_json()) < MAX_FIGURE_JSON
    assert forest_figure(steps).layout.meta == {"shown": 2000, "total": 16_000}


def test_count_curve_marks_rises():
    counts = [5, 3, 4, 4, 2, 6]
    steps = [Step(i + 1, "x", str(i), f"x{i}", 10 + i, count, 1) for i, count in enumerate(counts)]
    figure = count_curve_figure(steps)
    line, rises = figure.data
    assert list(line.y) == counts
    assert list(rises.x) == [3, 6] and list(rises.y) == [4, 6] and rises.marker.symbol == "triangle-up"
    assert list(rises.hovertext) == ["step 3: x + 2 → x2 (count 4)", "step 6: x + 5 → x5 (count 6)"]
    assert figure.layout.yaxis.type == "log" and figure.layout.meta == {"rising": 2}


def test_textbook_counts_never_rise(banana):
    assert rising_steps(banana.steps) == []
    assert list(count_curve_figure(banana.steps).data[0].y) == [4, 2, 2, 2, 1, 1]


def test_captions_say_what_is_shown():
    assert forest_caption(6, 6, True) == (
        "Each dot is a merge: when it happened and how long the new token is. Colour is the pair count (log scale)."
    )
    assert count_curve_caption(1) == "How often the merged pair occurred. Triangles mark the step where the count went up."
    assert count_curve_caption(0) == (
        "How often the merged pair occurred. It never went up here: a pair containing the new token can occur "
        "at most as often as that token, so the top count can only stay level or fall."
    )
