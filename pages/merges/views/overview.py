"""Overview charts of all merges: every merge as a dot, and the winning count per step.

>>> from bpe_core import Config, train
>>> tok = train("banana_bandana_", Config(split="none"), merges=6)
>>> list(forest_figure(tok.steps).data[0].y)
[2, 3, 3, 4, 7, 10]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import plotly.graph_objects as go

from bpe_core import Step
from drawing.escape import plotly_text
from pages.merges.views.labels import OTHER_COLOUR, WINNER_COLOUR, step_summary

UP_COLOUR = "#2a9d8f"  # count-curve steps where the count rose
MAX_FOREST_POINTS = 2000


def sample_indices(total: int, max_points: int = MAX_FOREST_POINTS, keep_first: int | None = None) -> list[int]:
    """Indices to plot: all if ``total <= max_points``, else the first ``keep_first``
    (default a quarter) plus an even sample of the rest, always ending with the last.

    >>> sample_indices(5, 10)
    [0, 1, 2, 3, 4]
    >>> sample_indices(100, 10, keep_first=4)
    [0, 1, 2, 3, 4, 23, 42, 61, 80, 99]
    """
    if total <= max_points:
        return list(range(total))
    keep_first = max_points // 4 if keep_first is None else keep_first
    rest = max_points - keep_first
    span = total - 1 - keep_first
    tail = {keep_first + round(span * i / (rest - 1)) for i in range(rest)}
    return sorted(set(range(keep_first)) | tail)


def _log_colour_ticks(counts: Sequence[int]) -> tuple[list[float], list[str]]:
    top = max(counts)
    powers = range(0, int(math.log10(top)) + 1)
    return [float(p) for p in powers], [f"{10**p:,}" for p in powers]


def log_axis_ticks(lowest: int, highest: int) -> tuple[list[int], list[str]]:
    """Ticks for a log axis from ``lowest`` to ``highest``: 1, 2 and 5 times each power of ten, written whole
    (plotly's own minor labels on a log axis read "2" and "3" for 20 and 30), from the one at or under ``lowest`` to
    the one at or over ``highest``.

    >>> log_axis_ticks(1, 31)
    ([1, 2, 5, 10, 20, 50], ['1', '2', '5', '10', '20', '50'])
    >>> log_axis_ticks(900, 38_045)[1]
    ['500', '1,000', '2,000', '5,000', '10,000', '20,000', '50,000']
    """
    lowest, highest = max(1, lowest), max(1, highest)
    steps = [factor * 10**power for power in range(len(str(highest)) + 1) for factor in (1, 2, 5)]
    first = max(index for index, value in enumerate(steps) if value <= lowest)
    last = min(index for index, value in enumerate(steps) if value >= highest)
    values = steps[first : last + 1]
    return values, [f"{value:,}" for value in values]


def _step_hovers(steps: Sequence[Step], byte_level: bool) -> dict:
    """Trace arguments that show each point's step summary on hover (``labels.token_text``), escaped for plotly."""
    return dict(
        hovertext=[plotly_text(step_summary(step, byte_level)) for step in steps],
        hovertemplate="%{hovertext}<extra></extra>",
    )


def forest_figure(steps: Sequence[Step], max_points: int = MAX_FOREST_POINTS, byte_level: bool = False) -> go.Figure:
    """Every merge as a dot: step on x, length of the new token on y, colour = log count.

    Big models are thinned to ``max_points`` dots (see ``sample_indices``); the figure's
    ``layout.meta`` says how many were shown of how many.
    """
    chosen = [steps[i] for i in sample_indices(len(steps), max_points)]
    has_counts = any(step.count is not None for step in chosen)
    marker: dict = dict(size=6, opacity=0.75)
    if has_counts:
        counts = [max(step.count or 1, 1) for step in chosen]
        tick_values, tick_text = _log_colour_ticks(counts)
        marker.update(
            color=[math.log10(count) for count in counts],
            colorscale="Viridis",
            colorbar=dict(title="count", tickvals=tick_values, ticktext=tick_text),
        )
    else:
        marker.update(color=OTHER_COLOUR)
    figure = go.Figure(
        go.Scatter(
            x=[step.step for step in chosen],
            y=[len(step.new_token) for step in chosen],
            mode="markers",
            marker=marker,
            **_step_hovers(chosen, byte_level),
        )
    )
    figure.update_layout(
        height=380,
        margin=dict(l=50, r=20, t=30, b=50),
        xaxis=dict(title="merge step"),
        yaxis=dict(title="length of the new token (characters)"),
        meta=dict(shown=len(chosen), total=len(steps)),
    )
    return figure


def forest_caption(shown: int, total: int, has_counts: bool) -> str:
    """The caption of the forest figure: what a dot is, what its colour means, how many are shown.

    >>> forest_caption(2000, 50000, False)  # doctest: +NORMALIZE_WHITESPACE
    'Each dot is a merge: when it happened and how long the new token is. No counts: all dots share one colour. Showing
    2,000 of 50,000 merges: the first ones and an even sample of the rest.'
    """
    colour = "Colour is the pair count (log scale)." if has_counts else "No counts: all dots share one colour."
    sample = (
        ""
        if shown == total
        else f" Showing {shown:,} of {total:,} merges: the first ones and an even sample of the rest."
    )
    return f"Each dot is a merge: when it happened and how long the new token is. {colour}{sample}"


def count_curve_caption(rising: int) -> str:
    """The caption of the count curve: where the count rose, or why it cannot.

    >>> count_curve_caption(3)
    'How often the merged pair occurred. Triangles mark the 3 steps where the count went up.'
    """
    if rising:
        steps = "the step" if rising == 1 else f"the {rising:,} steps"
        return f"How often the merged pair occurred. Triangles mark {steps} where the count went up."
    return (
        "How often the merged pair occurred. It never went up here: a pair containing the new token can occur "
        "at most as often as that token, so the top count can only stay level or fall."
    )


def rising_steps(steps: Sequence[Step]) -> list[Step]:
    """Steps whose winning count is higher than the step before's.

    >>> [s.step for s in rising_steps([Step(1, "a", "b", "ab", 1, 5, 1), Step(2, "c", "d", "cd", 2, 7, 1)])]
    [2]
    """
    return [
        step
        for before, step in zip(steps, steps[1:])
        if step.count is not None and before.count is not None and step.count > before.count
    ]


def count_curve_figure(steps: Sequence[Step], byte_level: bool = False) -> go.Figure:
    """The winning count at each step (log scale), with the steps where it rose marked."""
    counted = [step for step in steps if step.count is not None]
    rising = rising_steps(steps)
    counts = [step.count for step in counted if step.count is not None] or [1]
    tick_values, tick_texts = log_axis_ticks(min(counts), max(counts))
    figure = go.Figure(
        [
            go.Scatter(
                x=[step.step for step in counted],
                y=[step.count for step in counted],
                mode="lines",
                name="winning count",
                line=dict(color=WINNER_COLOUR, width=1.5),
                hovertemplate="step %{x}: count %{y:,}<extra></extra>",
            ),
            go.Scatter(
                x=[step.step for step in rising],
                y=[step.count for step in rising],
                mode="markers",
                name="count went up",
                marker=dict(symbol="triangle-up", size=11, color=UP_COLOUR, line=dict(color="#0b3d36", width=1)),
                **_step_hovers(rising, byte_level),
            ),
        ]
    )
    figure.update_layout(
        height=340,
        margin=dict(l=60, r=20, t=30, b=50),
        xaxis=dict(title="merge step"),
        yaxis=dict(title="count of the merged pair", type="log", tickvals=tick_values, ticktext=tick_texts),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1, xanchor="right"),
        meta=dict(rising=len(rising)),
    )
    return figure
