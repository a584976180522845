"""The pair-frequency race: one frame per step, the winner and its ties marked, the count axis following the step
(or fixed)."""

from __future__ import annotations

import pytest
from support.wcag import contrast

from bpe_core import Step, load_gpt2
from pages.merges.views.race import DEFAULT_WINDOW, race_figure, race_pairs, window_bounds

MAX_FIGURE_JSON = 1_500_000  # bytes: what a 16k-merge model may send per figure


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
    key = (  # two short lines: one long line was cut on a phone
        '<span style="color:#e4572e">■</span> winner (merged)   '
        '<span style="color:#8da9c4">■</span> other pairs<br>'
        '<span style="color:#f3a712">▨</span> tied with the winner; {rule}'
    )
    steps = [Step(1, "a", "b", "ab", 3, 2, 1)]
    assert race_figure(steps).layout.annotations[0].text == key.format(rule="the pair seen first wins")
    lowest_ids = key.format(rule="the pair with the lowest ids wins")
    assert race_figure(steps, tie_break="hf").layout.annotations[0].text == lowest_ids


def test_race_count_axis_follows_each_step(banana):
    # banana_bandana_'s top counts before steps 1 to 6 (worked out by hand above): 4, 2, 2, 2, 1, 1
    figure = race_figure(banana.steps)
    assert list(figure.layout.yaxis.categoryarray) == ["#1", "#2", "#3", "#4", "#5", "#6", "#7"]
    assert [frame.layout.xaxis.range[0] for frame in figure.frames] == [0] * 6  # from 0: lengths compare counts
    ends = [frame.layout.xaxis.range[1] for frame in figure.frames]
    assert ends == pytest.approx([4 * 1.45, 2 * 1.45, 2 * 1.45, 2 * 1.45, 1.45, 1.45])
    assert list(figure.layout.xaxis.range) == pytest.approx([0, 4 * 1.45])  # the figure opens on step 1's
    # every frame carries the whole axis: an animation step resets what its frame leaves out
    for axis in [figure.layout.xaxis, *(frame.layout.xaxis for frame in figure.frames)]:
        assert (axis.title.text, axis.fixedrange) == ("pair count before the step", True)


def test_race_count_axis_can_stay_fixed_over_the_window(banana):
    figure = race_figure(banana.steps, fixed_axis=True)
    ends = [frame.layout.xaxis.range[1] for frame in figure.frames]
    assert ends == pytest.approx([4 * 1.45] * 6)  # the window's highest count, 4, in every frame
    assert list(figure.layout.xaxis.range) == pytest.approx([0, 4 * 1.45])
    assert [frame.name for frame in figure.frames] == ["1", "2", "3", "4", "5", "6"]  # the same frames otherwise


def test_race_names_byte_level_tokens_by_their_text():
    # GPT-2's stand-ins: Ġ is a space (0x20), Ã© the two bytes of é; the boxes write them ␣ and é
    steps = [Step(1, "Ġ", "Ġ", "ĠĠ", 300, 7, 1, (("Ġ", "Ġ", 7), ("Ã", "©", 5)))]
    frame = race_figure(steps, byte_level=True).frames[0]
    assert list(frame.data[0].text) == ["␣ + ␣   7"] and list(frame.data[2].text) == ["\\xc3 + \\xa9   5"]
    assert frame.layout.title.text == "<b>step 1: ␣ + ␣ → ␣␣ (count 7)</b>"
    assert race_figure(steps).frames[0].layout.title.text == "<b>step 1: Ġ + Ġ → ĠĠ (count 7)</b>"  # chars: as spelt


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


# -- a small race worked out by hand ---------------------------------------------------------------

from pages.merges.views.race import COMPACT_RACE  # noqa: E402

# Step 1: a+b and c+d both occur 5 times (a+b wins the tie), e+f 3 times; step 2: c+d 5, e+f 3.
TWO_STEPS = [
    Step(1, "a", "b", "ab", 10, 5, 2, (("a", "b", 5), ("c", "d", 5), ("e", "f", 3))),
    Step(2, "c", "d", "cd", 11, 5, 1, (("c", "d", 5), ("e", "f", 3))),
]


# One step with a top 20: p0+q 40, p1+q 39, ..., p19+q 21.
TWENTY_RANKS = [Step(1, "p0", "q", "p0q", 9, 40, 1, tuple((f"p{rank}", "q", 40 - rank) for rank in range(20)))]


def test_small_race_frames_put_each_pair_on_its_rank():
    figure = race_figure(TWO_STEPS)
    first, second = figure.frames
    assert [trace.name for trace in first.data] == ["winner", "tied", "other"]
    assert [(list(trace.y), list(trace.x)) for trace in first.data] == [(["#1"], [5]), (["#2"], [5]), (["#3"], [3])]
    assert [list(trace.text) for trace in first.data] == [["a + b   5"], ["c + d   5"], ["e + f   3"]]
    assert [list(trace.hovertext) for trace in first.data] == [["a + b: 5"], ["c + d: 5"], ["e + f: 3"]]
    # step 2 has no tie: c+d wins alone, e+f (3) is an other pair
    assert [(list(trace.y), list(trace.x)) for trace in second.data] == [(["#1"], [5]), ([], []), (["#2"], [3])]
    assert first.layout.title.text == "<b>step 1: a + b → ab (count 5, 2 pairs tied)</b>"
    assert second.layout.title.text == "<b>step 2: c + d → cd (count 5)</b>"
    assert [trace.name for trace in figure.data] == ["winner", "tied", "other"]  # the figure opens on frame 1
    assert list(figure.data[1].y) == ["#2"]


def test_race_bars_are_horizontal_with_their_pair_beside_them():
    for trace in race_figure(TWO_STEPS).frames[0].data:
        assert trace.orientation == "h"
        # the label goes past the bar's end; unclipped, it may run into the 45 % head room of the count axis
        assert (trace.textposition, trace.cliponaxis) == ("outside", False)
        assert trace.hovertemplate == "%{hovertext}<extra></extra>"  # the text alone, no trace-name box
        assert trace.showlegend is False  # the fixed colour key stands in for a legend


def test_race_bar_styles_mark_winner_and_ties():
    winner, tied, other = race_figure(TWO_STEPS).frames[0].data
    assert (winner.marker.color, winner.marker.line.color, winner.marker.line.width) == ("#e4572e", "#7a1f0b", 2)
    # a tie is hatched as well as coloured, so it is told apart without colour vision
    assert (tied.marker.pattern.shape, tied.marker.pattern.fgcolor) == ("/", "#6b4a00")
    assert (tied.marker.line.color, tied.marker.line.width) == ("#6b4a00", 2)
    assert other.marker.color == "#8da9c4" and other.marker.pattern.shape is None


def test_race_axes_for_the_small_race():
    figure = race_figure(TWO_STEPS)
    xaxis, yaxis = figure.layout.xaxis, figure.layout.yaxis
    assert xaxis.title.text == "pair count before the step"
    assert list(xaxis.range) == pytest.approx([0, 5 * 1.45])  # from 0: bar lengths compare counts
    assert (yaxis.type, yaxis.categoryorder, list(yaxis.categoryarray)) == ("category", "array", ["#1", "#2", "#3"])
    assert yaxis.autorange == "reversed"  # rank #1 on top
    assert yaxis.title.text == "rank"
    assert (xaxis.fixedrange, yaxis.fixedrange) == (True, True)  # no zoom: the axes must not move between frames
    assert figure.layout.barmode == "overlay"  # one bar per rank, never side by side
    assert figure.layout.title.text == "<b>step 1: a + b → ab (count 5, 2 pairs tied)</b>"


def test_race_height_grows_with_the_number_of_ranks():
    # 3 ranks: 200 + 26 * 3 = 278 px, under the 360 px floor; 20 ranks: 200 + 26 * 20 = 720 px
    assert race_figure(TWO_STEPS).layout.height == 360
    figure = race_figure(TWENTY_RANKS)
    assert figure.layout.height == 720
    assert len(figure.layout.yaxis.categoryarray) == 20


def test_race_buttons_sit_on_their_own_row_above_the_slider():
    # Worked out in px under the plot area: the axis title takes about 50, Play/Pause (about 26 px high) start 55
    # down, the slider 90 down, so the buttons end before the slider begins, at any width (before, the slider began
    # right of the buttons at 16 % of the width, under them on a phone).
    for steps, height in ((TWO_STEPS, 360), (TWENTY_RANKS, 720)):
        figure = race_figure(steps)
        # title and a two-line key above; axis title, then the controls under
        assert (figure.layout.margin.t, figure.layout.margin.b) == (100, 160)
        assert (figure.layout.margin.l, figure.layout.margin.r) == (50, 30)
        plot_height = height - 100 - 160  # 100 or 460 px
        menu, slider = figure.layout.updatemenus[0], figure.layout.sliders[0]
        # plotly places both in fractions of the plot's height: -55 / 100 of 100 px is 55 px down
        assert menu.y == pytest.approx(-55 / plot_height) and slider.y == pytest.approx(-90 / plot_height)
        assert (menu.yanchor, slider.yanchor) == ("top", "top")
        assert (menu.pad.t, menu.pad.r, slider.pad.t) == (0, 0, 0)
        assert (menu.x, slider.x, slider.len) == (0, 0, 1)  # both from the plot's left edge, the slider its whole width


def test_race_play_pause_and_slider():
    figure = race_figure(TWO_STEPS)
    menu, slider = figure.layout.updatemenus[0], figure.layout.sliders[0]
    assert (menu.type, menu.direction, menu.x, menu.xanchor, menu.showactive) == ("buttons", "left", 0, "left", False)
    play, pause = menu.buttons
    assert (play.method, pause.method) == ("animate", "animate")
    # Play: every frame from the current one, 700 ms each, redrawn, without tweening
    assert play.args[0] is None
    assert play.args[1] == {
        "frame": {"duration": 700, "redraw": True},
        "fromcurrent": True,
        "transition": {"duration": 0},
    }
    # Pause: plotly's idiom, an immediate animation to no frame
    immediate = {"mode": "immediate", "frame": {"duration": 0, "redraw": True}, "transition": {"duration": 0}}
    assert list(pause.args[0]) == [None] and pause.args[1] == immediate
    assert slider.active == 0  # the slider starts at the first step
    assert slider.currentvalue.visible is False  # the title names the step
    assert [step.method for step in slider.steps] == ["animate", "animate"]
    assert [step.args[1] for step in slider.steps] == [immediate, immediate]  # a jump, not a 700 ms replay


def test_race_colour_key_sits_above_the_plot_from_its_left_edge():
    key = race_figure(TWO_STEPS).layout.annotations[0]
    assert (key.xref, key.yref, key.x, key.y, key.xanchor, key.yanchor, key.align) == (
        "paper",
        "paper",
        0,
        1.02,
        "left",
        "bottom",
        "left",
    )
    assert key.showarrow is False and key.font.size == 12


def test_race_slider_labels_every_step_up_to_12():
    steps = [Step(n, "a", str(n), f"a{n}", 10 + n, 20 - n, 1) for n in range(1, 14)]
    assert [step.label for step in race_figure(steps[:12]).layout.sliders[0].steps] == [str(n) for n in range(1, 13)]
    labels = [step.label for step in race_figure(steps).layout.sliders[0].steps]
    assert labels == ["1"] + [""] * 9 + ["11", "", ""]  # 13 frames: every 10th labelled


def test_race_without_merges_or_counts():
    empty = race_figure([])
    assert empty.frames == () and empty.data == ()
    assert empty.layout.title.text == "<b>no merges</b>"
    assert list(empty.layout.xaxis.range) == pytest.approx([0, 1.45])  # an empty axis still starts at 0
    assert list(empty.layout.yaxis.categoryarray) == ["#1"]
    uncounted = race_figure([Step(1, "a", "b", "ab", 3, None, 0)])  # GPT-2-style: no race was recorded
    assert [list(trace.x) for trace in uncounted.frames[0].data] == [[], [], []]
    assert uncounted.frames[0].layout.title.text == "<b>step 1: a + b → ab (count n/a)</b>"


def test_race_window_picks_its_steps():
    steps = [Step(n, "a", str(n), f"a{n}", 10 + n, 100 - n, 1) for n in range(1, 11)]
    figure = race_figure(steps, first_step=4, window=3, fixed_axis=True)
    assert [frame.name for frame in figure.frames] == ["4", "5", "6"]
    # a fixed count axis fits the highest count in the window (96 before step 4), not the model's (99)
    assert list(figure.layout.xaxis.range) == pytest.approx([0, 96 * 1.45])
    assert list(figure.frames[2].layout.xaxis.range) == pytest.approx([0, 96 * 1.45])
    # else step 6's frame fits its own, 94
    assert list(race_figure(steps, first_step=4, window=3).frames[2].layout.xaxis.range) == pytest.approx(
        [0, 94 * 1.45]
    )
    # by default a window starts at step 1, also in a model longer than one window
    sixty = [Step(n, "a", str(n), f"a{n}", 10 + n, 100 - n, 1) for n in range(1, 61)]
    assert [frame.name for frame in race_figure(sixty).frames] == [str(n) for n in range(1, 51)]


def test_window_bounds_edges():
    assert window_bounds(10, 7, 4) == (7, 10)  # ends exactly on the last step
    assert window_bounds(10, 8, 4) == (7, 10)  # would run past the end: moved back
    assert window_bounds(10, 0, 4) == (1, 4)  # before the first step: from step 1
    assert window_bounds(10, 3, 0) == (3, 3)  # a window holds at least one step
    assert window_bounds(3, 2, 50) == (1, 3)  # a window wider than the model shows it all


def test_a_frame_shows_only_the_ranks_it_has_pairs_for(banana):
    """banana_bandana_ before step 1 has 7 distinct pairs (b a, a n, n a, a _, _ b, n d, d a): seven rows; a later
    step with fewer pairs racing shows fewer rows, never an empty one."""
    figure = race_figure(banana.steps)
    rows = [list(frame.layout.yaxis.categoryarray) for frame in figure.frames]
    assert rows[0] == ["#1", "#2", "#3", "#4", "#5", "#6", "#7"]
    assert list(figure.layout.yaxis.categoryarray) == rows[0]  # the figure opens on the first frame
    for frame, ranks in zip(figure.frames, rows):
        filled = {rank for trace in frame.data for rank in trace.y}
        assert filled == set(ranks), frame.name  # every row drawn holds a bar
    assert len(rows[-1]) < len(rows[0])


def test_play_and_pause_are_readable_buttons(banana):
    menu = race_figure(banana.steps).layout.updatemenus[0]
    assert [button.label for button in menu.buttons] == ["▶ Play", "❚❚ Pause"]
    assert menu.font.size >= 14  # the page's body size, not plotly's 12
    assert contrast(menu.font.color, menu.bgcolor) >= 7  # WCAG AAA for text; plotly's grey on grey was about 3


def test_a_presenting_race_shows_five_bars_with_its_controls_under_them_in_270_px():
    # COMPACT_RACE, worked out for a projector (853x480, the tabs ending near 200 px): the top 5 of 20 pairs, each
    # on a 22 px row: 80 px above the plot + 5 x 22 + 80 under it = 270 px; the plot is 110 px high, Play/Pause
    # start 8 px under it (-8 / 110 of its height), the slider 46 px under it (-46 / 110)
    figure = race_figure(TWENTY_RANKS, layout=COMPACT_RACE)
    assert figure.layout.height == 270
    assert (figure.layout.margin.t, figure.layout.margin.b) == (80, 80)
    assert list(figure.layout.yaxis.categoryarray) == ["#1", "#2", "#3", "#4", "#5"]
    bars = [(y, x) for trace in figure.frames[0].data for y, x in zip(trace.y, trace.x)]
    assert bars == [("#1", 40), ("#2", 39), ("#3", 38), ("#4", 37), ("#5", 36)]  # p0+q 40 ... p4+q 36
    menu, slider = figure.layout.updatemenus[0], figure.layout.sliders[0]
    assert menu.y == pytest.approx(-8 / 110) and slider.y == pytest.approx(-46 / 110)
    # no axis title or numbers to make room for: the counts are written beside the bars ("p0 + q   40")
    xaxis = figure.frames[0].layout.xaxis
    assert (xaxis.title.text, xaxis.showticklabels) == ("", False)
    assert list(figure.frames[0].data[0].text) == ["p0 + q   40"]


def test_a_presenting_race_of_fewer_pairs_than_five_draws_them_all():
    # TWO_STEPS has 3 pairs before step 1: 3 rows, 80 + 3 x 22 + 80 = 226 px (no floor when presenting)
    figure = race_figure(TWO_STEPS, layout=COMPACT_RACE)
    assert figure.layout.height == 226
    assert list(figure.layout.yaxis.categoryarray) == ["#1", "#2", "#3"]
