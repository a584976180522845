"""Overview charts: every merge as a dot (thinned for big models), and the winning count per step."""

from __future__ import annotations

import math

import pytest

from bpe_core import Step, load_gpt2
from pages.merges.views.overview import (
    count_curve_caption,
    count_curve_figure,
    forest_caption,
    forest_figure,
    rising_steps,
    sample_indices,
)

MAX_FIGURE_JSON = 1_500_000  # bytes: what a 16k-merge model may send per figure


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
    steps = [
        Step(number, "l", str(number), f"l{number}", 300 + number, 20_000 - number, 1) for number in range(1, 16_001)
    ]
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
    assert (
        count_curve_caption(1) == "How often the merged pair occurred. Triangles mark the step where the count went up."
    )
    assert count_curve_caption(0) == (
        "How often the merged pair occurred. It never went up here: a pair containing the new token can occur "
        "at most as often as that token, so the top count can only stay level or fall."
    )


# -- small cases worked out by hand --------------------------------------------------------------

from pages.merges.views.overview import UP_COLOUR  # noqa: E402


def test_sample_indices_by_hand():
    assert sample_indices(5, 5) == [0, 1, 2, 3, 4]  # exactly max_points: all of them
    assert sample_indices(1, 1) == [0]  # one merge, one point
    # 11 for 5 points: the first 5 // 4 = 1, then 4 spread over 1..10: 1 + round(9 * i / 3) = 1, 4, 7, 10
    assert sample_indices(11, 5) == [0, 1, 4, 7, 10]
    # 6 for 5: 1 + round(4 * i / 3) for i = 0..3 is 1, 2 (1.33), 4 (3.67), 5
    assert sample_indices(6, 5) == [0, 1, 2, 4, 5]
    assert sample_indices(10, 6, keep_first=0) == [0, 2, 4, 5, 7, 9]  # 0 + round(9 * i / 5)
    assert len(sample_indices(2001)) == 2000 and len(sample_indices(2000)) == 2000  # MAX_FOREST_POINTS


def test_forest_colour_bar_ticks_are_powers_of_ten():
    steps = [Step(n, "a", str(n), "a" + "b" * n, 10 + n, count, 1) for n, count in enumerate([1000, 999, 10, 1], 1)]
    marker = forest_figure(steps).data[0].marker
    assert list(marker.color) == pytest.approx([3, math.log10(999), 1, 0])
    assert list(marker.colorbar.tickvals) == [0.0, 1.0, 2.0, 3.0]
    assert list(marker.colorbar.ticktext) == ["1", "10", "100", "1,000"]
    assert list(forest_figure(steps[1:]).data[0].marker.colorbar.tickvals) == [0.0, 1.0, 2.0]  # up to 999
    assert marker.colorscale[0][1] == "#440154"  # Viridis: dark purple for the rarest pairs
    assert (marker.size, marker.opacity) == (6, 0.75)  # small, see-through dots: a crowd still shows its density


def test_forest_counts_below_one_are_drawn_as_one():
    # a count of 0, or a step without a count beside counted ones, sits at log10(1) = 0
    steps = [Step(1, "a", "b", "ab", 3, 0, 1), Step(2, "ab", "c", "abc", 4, None, 0), Step(3, "a", "c", "ac", 5, 10, 1)]
    assert list(forest_figure(steps).data[0].marker.color) == pytest.approx([0, 0, 1])


def test_forest_layout_and_hovers(banana):
    figure = forest_figure(banana.steps, max_points=4)
    trace = figure.data[0]
    # 6 steps for 4 points: the first 4 // 4 = 1 (step 1), then 3 spread over steps 2..6: 2, 4, 6
    assert list(trace.x) == [1, 2, 4, 6]
    assert trace.mode == "markers"
    assert trace.hovertext[0] == "step 1: a + n → an (count 4)"
    assert trace.hovertemplate == "%{hovertext}<extra></extra>"
    assert figure.layout.meta == {"shown": 4, "total": 6}
    assert figure.layout.xaxis.title.text == "merge step"
    assert figure.layout.yaxis.title.text == "length of the new token (characters)"
    assert figure.layout.height == 380
    assert figure.layout.margin.to_plotly_json() == {"l": 50, "r": 20, "t": 30, "b": 50}


def test_forest_hover_escapes_tokens():
    trace = forest_figure([Step(1, "<b>", "&", "<b>&", 9, 2, 1)]).data[0]
    assert list(trace.hovertext) == ["step 1: &lt;b&gt; + &amp; → &lt;b&gt;&amp; (count 2)"]


def test_count_curve_figure_by_hand():
    # counts 5, None, 3, 4: the line skips the step without a count; only 3 -> 4 is a rise
    counts = [5, None, 3, 4]
    steps = [Step(n, "x", str(n), f"x{n}", 10 + n, count, 1) for n, count in enumerate(counts, 1)]
    figure = count_curve_figure(steps)
    line, rises = figure.data
    assert (list(line.x), list(line.y)) == ([1, 3, 4], [5, 3, 4])
    assert (list(rises.x), list(rises.y)) == ([4], [4])
    assert (line.name, rises.name) == ("winning count", "count went up")
    assert (line.mode, rises.mode) == ("lines", "markers")
    assert (line.line.color, line.line.width) == ("#e4572e", 1.5)  # the winner's colour, as in the race
    assert line.hovertemplate == "step %{x}: count %{y:,}<extra></extra>"
    assert (rises.marker.symbol, rises.marker.size, rises.marker.color) == ("triangle-up", 11, UP_COLOUR)
    assert (rises.marker.line.color, rises.marker.line.width) == ("#0b3d36", 1)
    assert rises.hovertemplate == "%{hovertext}<extra></extra>"
    assert figure.layout.yaxis.type == "log" and figure.layout.yaxis.title.text == "count of the merged pair"
    assert figure.layout.xaxis.title.text == "merge step"
    assert figure.layout.height == 340
    assert figure.layout.margin.to_plotly_json() == {"l": 60, "r": 20, "t": 30, "b": 50}
    legend = figure.layout.legend
    # a one-line legend above the plot's top right corner
    assert (legend.orientation, legend.yanchor, legend.y, legend.x, legend.xanchor) == ("h", "bottom", 1.0, 1, "right")
    assert figure.layout.meta == {"rising": 1}


def test_rising_steps_need_both_counts_and_a_strict_rise():
    steps = [Step(n, "x", str(n), f"x{n}", 10 + n, count, 1) for n, count in enumerate([2, 2, None, 3, 1, 5], 1)]
    # 2 -> 2 is level; None -> 3 and 3 after a None compare nothing; 1 -> 5 rises
    assert [step.step for step in rising_steps(steps)] == [6]
    assert rising_steps([Step(1, "a", "b", "ab", 3, None, 0), Step(2, "a", "c", "ac", 4, 9, 1)]) == []


def test_captions_count_with_thousands_separators():
    assert count_curve_caption(1_234) == (
        "How often the merged pair occurred. Triangles mark the 1,234 steps where the count went up."
    )
    assert forest_caption(5, 6, False) == (
        "Each dot is a merge: when it happened and how long the new token is. No counts: all dots share one colour."
        " Showing 5 of 6 merges: the first ones and an even sample of the rest."
    )


def test_overview_hovers_name_byte_level_tokens_by_their_text():
    # GPT-2's stand-in Ġ is a space: the hovers write it ␣, as the token boxes do
    steps = [Step(1, "Ġ", "t", "Ġt", 256, 9, 1), Step(2, "Ġt", "he", "Ġthe", 257, 12, 1)]
    assert list(forest_figure(steps, byte_level=True).data[0].hovertext) == [
        "step 1: ␣ + t → ␣t (count 9)",
        "step 2: ␣t + he → ␣the (count 12)",
    ]
    (rise,) = count_curve_figure(steps, byte_level=True).data[1].hovertext  # the count rose at step 2
    assert rise == "step 2: ␣t + he → ␣the (count 12)"


def test_the_count_curve_writes_its_log_ticks_whole():
    # counts from 3 to 31 (the walk-through's curve, whose ticks read "2" and "3" for 20 and 30): ticks at 2, 5, 10,
    # 20 and 50, each written in full
    steps = [Step(n, "x", str(n), f"x{n}", 10 + n, count, 1) for n, count in enumerate([31, 24, 12, 7, 3], 1)]
    yaxis = count_curve_figure(steps).layout.yaxis
    assert list(yaxis.tickvals) == [2, 5, 10, 20, 50]
    assert list(yaxis.ticktext) == ["2", "5", "10", "20", "50"]
    # the default model's first count, 38,045, down to 1: thousands with their commas
    big = [Step(n, "x", str(n), f"x{n}", 10 + n, count, 1) for n, count in enumerate([38_045, 1], 1)]
    assert list(count_curve_figure(big).layout.yaxis.ticktext) == [
        "1",
        "2",
        "5",
        "10",
        "20",
        "50",
        "100",
        "200",
        "500",
        "1,000",
        "2,000",
        "5,000",
        "10,000",
        "20,000",
        "50,000",
    ]
