"""The pair-frequency race: one frame per step, the winner and its ties marked, fixed axes."""

from __future__ import annotations

import pytest

from bpe_core import Config, Step, load_gpt2, train
from viz.merge_race import DEFAULT_WINDOW, race_figure, race_pairs, window_bounds

MAX_FIGURE_JSON = 1_500_000  # bytes: what a 16k-merge model may send per figure


@pytest.fixture(scope="module")
def banana():
    """The textbook model: 6 merges a+n, b+an, an+a, ana+_, ban+ana_, banana_+ban."""
    return train("banana_bandana_", Config(split="none"), merges=6)


@pytest.fixture(scope="module")
def big_steps():
    """16,000 steps shaped like a real trace: falling counts and a top 20 before each step."""
    steps = []
    for number in range(1, 16_001):
        count = 20_000 - number
        top = tuple((f"left{number}_{rank}", f"right{number}", count - rank) for rank in range(20))
        steps.append(Step(number, top[0][0], top[0][1], top[0][0] + top[0][1], 300 + number, count, 1, top))
    return steps


def _trace(frame_or_figure, name):
    return next(trace for trace in frame_or_figure.data if trace.name == name)


def test_race_has_one_frame_and_one_slider_step_per_merge(banana):
    figure = race_figure(banana.steps)
    assert [frame.name for frame in figure.frames] == ["1", "2", "3", "4", "5", "6"]
    slider_steps = figure.layout.sliders[0].steps
    assert [list(step.args[0]) for step in slider_steps] == [["1"], ["2"], ["3"], ["4"], ["5"], ["6"]]
    assert [step.label for step in slider_steps] == ["1", "2", "3", "4", "5", "6"]
    assert [button.label for button in figure.layout.updatemenus[0].buttons] == ["▶ Play", "❚❚ Pause"]
    assert figure.layout.updatemenus[0].buttons[0].args[1]["fromcurrent"] is True


def test_race_highlights_the_winner(banana):
    # Before step 1 of banana_bandana_: an 4, na 3, ba 2, a_ 2, _b 1, nd 1, da 1 (ties in first-seen order).
    first = race_figure(banana.steps).frames[0]
    winner = _trace(first, "winner")
    assert winner.marker.color == "#e4572e"
    assert list(winner.y) == ["#1"] and list(winner.x) == [4]
    assert list(winner.text) == ["a + n   4"] and list(winner.hovertext) == ["a + n: 4"]
    assert list(_trace(first, "tied").x) == []
    others = _trace(first, "other")
    assert others.marker.color == "#8da9c4"
    assert list(others.y) == ["#2", "#3", "#4", "#5", "#6", "#7"]
    assert list(others.x) == [3, 2, 2, 1, 1, 1]
    assert list(others.text) == ["n + a   3", "b + a   2", "a + _   2", "_ + b   1", "n + d   1", "d + a   1"]
    assert first.layout.title.text == "<b>step 1: a + n → an (count 4)</b>"


def test_every_race_frame_carries_the_whole_title(banana):
    """An animation step resets what its frame's layout leaves out, so each frame sets it all."""
    figure = race_figure(banana.steps)
    titles = [frame.layout.title for frame in figure.frames]
    assert all(title.x == 0 and title.xanchor == "left" and title.text.startswith("<b>") for title in titles)
    assert figure.layout.title == titles[0]


def test_race_marks_pairs_tied_with_the_winner(banana):
    # Step 2: b+an, an+a and a+_ all occur twice; b+an wins on first occurrence.
    second = race_figure(banana.steps).frames[1]
    tied = _trace(second, "tied")
    assert list(tied.y) == ["#2", "#3"]
    assert list(tied.text) == ["an + a   2", "a + _   2"]
    assert tied.marker.pattern.shape == "/"
    assert tied.marker.color == "#f3a712"
    assert second.layout.title.text == "<b>step 2: b + an → ban (count 2, 3 pairs tied)</b>"
    assert list(_trace(second, "winner").x) == [2]


def test_race_names_the_active_tie_break_rule():
    key = (
        '<span style="color:#e4572e">■</span> winner (merged)   '
        '<span style="color:#f3a712">▨</span> tied with the winner; {rule}   '
        '<span style="color:#8da9c4">■</span> other pairs'
    )
    steps = [Step(1, "a", "b", "ab", 3, 2, 1)]
    assert race_figure(steps).layout.annotations[0].text == key.format(rule="first occurrence wins")
    assert race_figure(steps, tie_break="hf").layout.annotations[0].text == key.format(rule="smallest ids (HF) wins")


def test_race_axes_stay_fixed_over_the_window(banana):
    figure = race_figure(banana.steps)
    assert list(figure.layout.yaxis.categoryarray) == ["#1", "#2", "#3", "#4", "#5", "#6", "#7"]
    assert list(figure.layout.xaxis.range) == pytest.approx([0, 4 * 1.45])  # the highest count, 4, fits
    assert all(frame.layout.xaxis.range is None for frame in figure.frames)  # frames never rescale


def test_race_escapes_pair_text():
    steps = [Step(1, "<b>", "\n", "<b>\n", 9, 5, 1, (("<b>", "\n", 5),))]
    frame = race_figure(steps).frames[0]
    assert list(frame.data[0].text) == ["&lt;b&gt; + ↵   5"]
    assert frame.layout.title.text == "<b>step 1: &lt;b&gt; + ↵ → &lt;b&gt;↵ (count 5)</b>"


def test_race_without_top_falls_back_to_the_winner_alone():
    assert race_pairs(Step(1, "a", "b", "ab", 3, 7, 1)) == (("a", "b", 7),)
    gpt2_step = load_gpt2().steps[0]
    assert gpt2_step.count is None and race_pairs(gpt2_step) == ()


def test_race_window_of_a_big_model_is_small(big_steps):
    figure = race_figure(big_steps, first_step=8000)
    assert [frame.name for frame in figure.frames] == [str(step) for step in range(8000, 8050)]
    assert DEFAULT_WINDOW == 50
    assert [step.label for step in figure.layout.sliders[0].steps][:11] == ["8000"] + [""] * 9 + ["8010"]
    assert len(figure.to_json()) < MAX_FIGURE_JSON
    last = race_figure(big_steps, first_step=16_000)  # clamped so the window stays full
    assert [frame.name for frame in last.frames] == [str(step) for step in range(15_951, 16_001)]


def test_window_bounds_clamp():
    assert window_bounds(16_000, 1) == (1, 50)
    assert window_bounds(16_000, 15_990) == (15_951, 16_000)
    assert window_bounds(6, 4) == (1, 6)
