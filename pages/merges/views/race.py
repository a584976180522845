"""The pair-frequency race: the top-K pair counts before each step, as an animated bar chart.

Each frame sets its own count axis, so a late step's bars are as long as an early one's; ``fixed_axis`` keeps one
axis for the whole window instead, to see the counts fall.

>>> from bpe_core import Config, train
>>> tok = train("banana_bandana_", Config(split="none"), merges=6)
>>> figure = race_figure(tok.steps, first_step=1, window=50)
>>> [frame.layout.xaxis.range[1] for frame in figure.frames]  # top counts 4, 2, 2, 2, 1, 1 times 1.45
[5.8, 2.9, 2.9, 2.9, 1.45, 1.45]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from bpe_core import Step
from drawing.escape import plotly_text
from pages.merges.views.labels import OTHER_COLOUR, TIED_COLOUR, WINNER_COLOUR, step_summary, tie_break_rule, token_pair

DEFAULT_WINDOW = 50  # steps per animation: keeps big models' figures small


@dataclass(frozen=True)
class RaceLayout:
    """How much room the race takes, in px: the bars it shows at most, the margin above the plot (the title and the
    colour key's two lines) and under it (the axis, then Play/Pause on their own row, then the step slider: never
    beside the buttons, which on a narrow screen would sit on the slider), each bar's row and the least height."""

    max_bars: int  # the top pairs drawn before each step
    top: int
    bottom: int
    buttons_below: int  # from the plot's foot to the top of Play/Pause
    slider_below: int  # from the plot's foot to the top of the slider
    row: int  # px per bar
    base: int  # px the figure takes besides its rows
    least: int  # px the figure never goes under
    axis_labelled: bool  # the count axis titled and numbered (else the counts beside the bars alone say them)


FULL_RACE = RaceLayout(
    20, top=100, bottom=160, buttons_below=55, slider_below=90, row=26, base=200, least=360, axis_labelled=True
)
# Presenting (a projector's 853x480, the tabs ending near 200 px): the top 5 pairs, the controls right under the
# bars (the axis unnumbered: each bar says its count), so the race and its controls fit in the 280 px left:
# 80 + 5 x 22 + 80 = 270
COMPACT_RACE = RaceLayout(
    5, top=80, bottom=80, buttons_below=8, slider_below=46, row=22, base=160, least=0, axis_labelled=False
)
# Pause and the slider: go to the frame at once, with no transition (Play runs frame by frame)
AT_ONCE = dict(mode="immediate", frame=dict(duration=0, redraw=True), transition=dict(duration=0))
HEAD_ROOM = 1.45  # the count axis runs to 1.45 times the highest count: room for the labels beyond the bars


def _race_title(text: str) -> dict:
    """The whole title, in every frame: an animation step resets what its frame leaves out
    (the theme's bold font, the left alignment)."""
    return dict(text=f"<b>{text}</b>", x=0, xanchor="left")


def window_bounds(n_steps: int, first_step: int, window: int = DEFAULT_WINDOW) -> tuple[int, int]:
    """The 1-based inclusive step range animated, clamped to the model.

    >>> window_bounds(100, 80, 50)
    (51, 100)
    >>> window_bounds(6, 1, 50)
    (1, 6)
    """
    window = max(1, window)
    first = max(1, min(first_step, n_steps - window + 1))
    return first, min(n_steps, first + window - 1)


def race_pairs(step: Step, most: int | None = None) -> tuple[tuple[str, str, int], ...]:
    """The pairs racing before ``step`` (the ``most`` first), winner first; the winner alone if the trace kept no
    top K."""
    if step.top:
        return step.top[:most]
    if step.count is not None:
        return ((step.left, step.right, step.count),)
    return ()


def _count_axis(highest: int, labelled: bool = True) -> dict:
    """The whole count axis, in the figure and in every frame: an animation step resets what its frame leaves out.

    >>> _count_axis(4)["range"]
    [0, 5.8]
    """
    title = "pair count before the step" if labelled else ""
    return dict(title=title, showticklabels=labelled, range=[0, highest * HEAD_ROOM], fixedrange=True)


def _rank_axis(ranks: Sequence[str]) -> dict:
    """The whole rank axis, in the figure and in every frame: only the ranks a step has pairs for, so that a late step
    with fewer pairs racing shows no empty rows (the bars grow into the room instead).

    >>> _rank_axis(["#1", "#2"])["categoryarray"]
    ['#1', '#2']
    """
    return dict(
        type="category",
        categoryorder="array",
        categoryarray=list(ranks),
        autorange="reversed",
        title="rank",
        fixedrange=True,
    )


def _highest(step: Step) -> int:
    """The highest count racing before ``step`` (1 when none was recorded: an axis from 0 to 1.45)."""
    return max((count for _, _, count in race_pairs(step)), default=1)


def _race_traces(step: Step, ranks: Sequence[str], byte_level: bool) -> list[go.Bar]:
    """Three bar traces (winner, tied, others) on the fixed rank axis, for one step: a bar per rank."""
    groups: dict[str, list[tuple[str, str, str, int]]] = {"winner": [], "tied": [], "other": []}
    pairs = race_pairs(step, len(ranks))
    for rank, (left, right, count) in enumerate(pairs):
        if rank == 0:
            group = "winner"
        elif count == pairs[0][2]:
            group = "tied"
        else:
            group = "other"
        groups[group].append((ranks[rank], left, right, count))

    styles = {
        "winner": dict(name="winner", marker=dict(color=WINNER_COLOUR, line=dict(color="#7a1f0b", width=2))),
        "tied": dict(
            name="tied",
            marker=dict(
                color=TIED_COLOUR, pattern=dict(shape="/", fgcolor="#6b4a00"), line=dict(color="#6b4a00", width=2)
            ),
        ),
        "other": dict(name="other", marker=dict(color=OTHER_COLOUR)),
    }
    traces = []
    for group, rows in groups.items():
        traces.append(
            go.Bar(
                x=[count for _, _, _, count in rows],
                y=[rank for rank, _, _, _ in rows],
                orientation="h",
                text=[
                    plotly_text(f"{token_pair(left, right, byte_level)}   {count:,}") for _, left, right, count in rows
                ],
                textposition="outside",
                cliponaxis=False,
                hovertext=[
                    plotly_text(f"{token_pair(left, right, byte_level)}: {count:,}") for _, left, right, count in rows
                ],
                hovertemplate="%{hovertext}<extra></extra>",
                showlegend=False,
                **styles[group],
            )
        )
    return traces


def race_figure(
    steps: Sequence[Step],
    *,
    first_step: int = 1,
    window: int = DEFAULT_WINDOW,
    tie_break: str = "first",
    fixed_axis: bool = False,
    byte_level: bool = False,
    layout: RaceLayout = FULL_RACE,
) -> go.Figure:
    """The top-K pair counts before each step of a window, as an animated horizontal bar chart.

    One frame per step (named by its step number), a Play/Pause menu and a step
    slider. Bars sit on fixed rank positions 1..K with the pair as their text (a
    byte-level model's tokens as text, ``drawing.readable.token_text``). Each frame's count
    axis runs to its own highest count, so the bars fill the chart at every step;
    with ``fixed_axis`` the axis fits the window's highest count in every frame. ``layout`` says how many bars
    and how much room (``COMPACT_RACE`` when presenting).
    """
    first, last = window_bounds(len(steps), first_step, window)
    shown = steps[first - 1 : last]
    top_k = max((len(race_pairs(step, layout.max_bars)) for step in shown), default=1)
    ranks = [f"#{rank}" for rank in range(1, top_k + 1)]
    highest = max((_highest(step) for step in shown), default=1)
    frames = [
        _race_frame(step, ranks, byte_level, highest if fixed_axis else _highest(step), layout.axis_labelled)
        for step in shown
    ]
    height = max(layout.least, layout.base + layout.row * top_k)
    # Play/Pause and the slider sit a fixed distance under the plot, whatever its height
    # (plotly places them in fractions of the plot area).
    plot_height = height - layout.top - layout.bottom
    figure = go.Figure(data=frames[0].data if frames else [], frames=frames)
    figure.update_layout(
        title=frames[0].layout.title if frames else _race_title("no merges"),
        barmode="overlay",
        height=height,
        margin=dict(l=50, r=30, t=layout.top, b=layout.bottom),
        xaxis=frames[0].layout.xaxis if frames else _count_axis(1, layout.axis_labelled),
        yaxis=frames[0].layout.yaxis if frames else _rank_axis(ranks),
        annotations=[_colour_legend(tie_break)],
        updatemenus=[_play_pause(-layout.buttons_below / plot_height)],
        sliders=[_step_slider(frames, -layout.slider_below / plot_height)],
    )
    return figure


def _race_frame(step: Step, ranks: Sequence[str], byte_level: bool, axis_end: int, axis_labelled: bool) -> go.Frame:
    """One step's bars (one per rank of ``ranks``), titled by the step, named by its number, its count axis up to
    ``axis_end``'s head room."""
    return go.Frame(
        name=str(step.step),
        data=_race_traces(step, ranks, byte_level),
        layout=go.Layout(
            title=_race_title(plotly_text(step_summary(step, byte_level))),
            xaxis=_count_axis(axis_end, axis_labelled),
            yaxis=_rank_axis(ranks[: max(1, len(race_pairs(step, len(ranks))))]),
        ),
    )


def _colour_legend(tie_break: str) -> dict:
    """What the colours mean, as an annotation above the plot.

    A fixed legend instead of plotly's: plotly's would drop "tied" on frames without ties. Two short lines from the
    plot's left edge: one long line was cut on a phone.
    """
    return dict(
        text=(
            f'<span style="color:{WINNER_COLOUR}">■</span> winner (merged)   '
            f'<span style="color:{OTHER_COLOUR}">■</span> other pairs<br>'
            f'<span style="color:{TIED_COLOUR}">▨</span> tied with the winner; '
            f"{plotly_text(tie_break_rule(tie_break))}"
        ),
        xref="paper",
        yref="paper",
        x=0,
        y=1.02,
        xanchor="left",
        yanchor="bottom",
        align="left",
        showarrow=False,
        font=dict(size=12),
    )


def _play_pause(y: float) -> dict:
    """The Play and Pause buttons, on their own row under the axis, their top at ``y`` (a fraction of the plot's
    height)."""
    play = dict(frame=dict(duration=700, redraw=True), fromcurrent=True, transition=dict(duration=0))
    return dict(
        type="buttons",
        direction="left",
        x=0,
        y=y,
        xanchor="left",
        yanchor="top",
        pad=dict(t=0, r=0),
        showactive=False,
        # the page's own type and ink on white, not plotly's small grey: buttons a newcomer sees are buttons
        font=dict(size=15, color="#1f2430"),
        bgcolor="#ffffff",
        bordercolor="#8a8f9c",
        borderwidth=1,
        buttons=[
            dict(label="▶ Play", method="animate", args=[None, play]),
            dict(label="❚❚ Pause", method="animate", args=[[None], AT_ONCE]),
        ],
    )


def _step_slider(frames: Sequence[go.Frame], y: float) -> dict:
    """The step slider under the buttons, its top at ``y`` (a fraction of the plot's height), one stop per frame.

    In a long window it labels every 10th step only: 50 numbers would overlap. The title names the step.
    """
    label_every = 1 if len(frames) <= 12 else 10
    stops = [
        dict(label=frame.name if index % label_every == 0 else "", method="animate", args=[[frame.name], AT_ONCE])
        for index, frame in enumerate(frames)
    ]
    return dict(active=0, x=0, len=1, y=y, yanchor="top", pad=dict(t=0), currentvalue=dict(visible=False), steps=stops)
