"""The Compare page's compression curves and size table as light HTML and SVG (no plotly: a page switch draws
them in a few milliseconds).

Pure builders: data in, an escaped HTML string out, for ``st.html``. Two panels, side by side on a wide screen and
one under the other on a phone: the tokens a text needs and its characters per token against the vocabulary size,
one line per text and a dotted line per compared size. Each plot area's lines are an SVG picture stretched to its
box (an ``<img>``: ``st.html`` keeps no inline SVG; its own units, ``PLOT`` each way, with strokes that do not
stretch); tick labels, titles, the legend and the size labels are HTML around it, so text keeps its size at any
width. Hovering a plot (a tap on a touch screen) shows every text's values at that size, a band of sizes at a time;
the size table gives the compared sizes' values exactly.

>>> curves = curve_panels({"text": ("banana", [6, 4, 3])}, lambda merges: 6 + merges, marked_sizes=[1])
>>> [panel.title for panel in curves.panels], curves.panels[0].series[0].points
(['Tokens needed', 'Characters per token'], ((6, 6), (7, 4), (8, 3)))
>>> curves.markers
((7, '#6b7080'),)
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from drawing.card_table import card_table_html
from drawing.describe import plural
from drawing.escape import attribute, html_text
from drawing.token_html import tap_details_css
from pages.compare.views.data import chars_per_token

LINE_COLOURS = ("#2b59c3", "#e4572e", "#2a9d8f", "#8e5bb5")  # one per text
SIZE_COLOURS = ("#6b7080", "#c77d00", "#1b7f4b", "#b0306a")  # one per compared size
MAX_CURVE_POINTS = 400  # per line: a point per pixel or two of a panel, so it looks the same as every merge
MAX_HOVER_BANDS = 100  # bands of sizes whose values a hover shows
PLOT = 1000  # a plot area's own units, across and down
TICKS = 5  # about this many tick labels an axis
MARK_LINE_PX = 16  # each compared size's label this much lower than the one before: close sizes do not overlap
_KEEP_WIDTH = ' vector-effect="non-scaling-stroke"'  # a line as thick at any width of the plot

_STYLE = """<style>
.bpe-cc{font-family:"Source Sans Pro",sans-serif;font-size:13px;color:#31333f}
.bpe-cc .legend{display:flex;flex-wrap:wrap;gap:2px 18px;margin:0 0 8px}
.bpe-cc .swatch{display:inline-block;width:18px;border-top:2px solid;vertical-align:middle;margin-right:6px}
.bpe-cc .panels{display:flex;flex-wrap:wrap;gap:18px 40px}
.bpe-cc .panel{flex:1 1 300px;min-width:0;margin:0}
.bpe-cc .title{font-size:13px;font-weight:600;margin:0 0 6px}
.bpe-cc .plot{display:grid;grid-template-columns:var(--yw) minmax(0,1fr);grid-template-rows:230px 22px}
.bpe-cc .ylabels,.bpe-cc .xlabels,.bpe-cc .area{position:relative}
.bpe-cc .ylabels span,.bpe-cc .xlabels span{position:absolute;font-size:11px;color:#5f6470;white-space:nowrap}
.bpe-cc .ylabels span{right:6px;transform:translateY(-50%)}
.bpe-cc .xlabels span{top:4px;transform:translateX(-50%)}
.bpe-cc .area{border-left:1px solid #c9ccd3;border-bottom:1px solid #c9ccd3}
.bpe-cc .lines{position:absolute;top:0;left:0;width:100%;height:100%}
.bpe-cc .band{position:absolute;top:0;bottom:0}
.bpe-cc .band:hover,.bpe-cc .band:focus{background:rgba(49,51,63,.07);outline:none}
{tap_details}
.bpe-cc .mark{position:absolute;font-size:11px;line-height:15px;padding:0 3px;background:rgba(255,255,255,.85);
  white-space:nowrap}
.bpe-cc .xtitle{padding-left:var(--yw);text-align:center;font-size:12px;color:#5f6470}
</style>""".replace("{tap_details}", tap_details_css(".bpe-cc .band"))


@dataclass(frozen=True)
class Series:
    """One text's line in a panel: (vocabulary size, value) points."""

    name: str
    colour: str
    points: tuple[tuple[int, float], ...]


@dataclass(frozen=True)
class Panel:
    title: str
    series: tuple[Series, ...]
    top: float  # the value at the top of the plot (the bottom is 0)
    y_ticks: tuple[float, ...]
    y_suffix: str = ""


@dataclass(frozen=True)
class Curves:
    """What the panels show, before any HTML: the x axis (vocabulary sizes), the marked sizes and the hover bands."""

    panels: tuple[Panel, ...]
    x_range: tuple[int, int]
    x_ticks: tuple[float, ...]
    markers: tuple[tuple[int, str], ...]  # (vocabulary size, colour)
    bands: tuple[tuple[float, float, str], ...]  # (from size, to size, what a hover there says)


def sampled_steps(total_merges: int, keep: Sequence[int] = (), limit: int = MAX_CURVE_POINTS) -> list[int]:
    """Merge counts to plot: all of ``0..total_merges`` when few, else an even spread plus ``keep``.

    The values at the kept points are exact, so the marked sizes sit on the curve.

    >>> sampled_steps(4)
    [0, 1, 2, 3, 4]
    >>> sampled_steps(1000, keep=[333], limit=5)
    [0, 250, 333, 500, 750, 1000]
    """
    if total_merges + 1 <= limit:
        return list(range(total_merges + 1))
    spread = {round(total_merges * index / (limit - 1)) for index in range(limit)}
    return sorted(spread | {k for k in keep if 0 <= k <= total_merges})


def tick_step(span: float, count: int = TICKS) -> float:
    """A round step (1, 2 or 5 times a power of ten) that cuts ``span`` into about ``count`` parts.

    >>> tick_step(2000), tick_step(4.2), tick_step(100), tick_step(0)
    (500, 1, 20, 1)
    """
    if span <= 0:
        return 1
    power = 10 ** math.floor(math.log10(span / count))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= span / count)
    return int(step) if step >= 1 else step


def ticks(low: float, high: float, step: float) -> tuple[float, ...]:
    """The multiples of ``step`` from ``low`` to ``high`` (both included when they are multiples).

    >>> ticks(62, 2062, 500), ticks(0, 1.5, 0.5)
    ((500, 1000, 1500, 2000), (0.0, 0.5, 1.0, 1.5))
    """
    first = math.ceil(low / step - 1e-9)
    values = (round(index * step, 9) for index in range(first, math.floor(high / step + 1e-9) + 1))
    return tuple(int(value) if step >= 1 else value for value in values)


def tick_label(value: float, suffix: str = "") -> str:
    """A tick's text: thousands separators, the decimals its value needs (at most two).

    >>> tick_label(12000), tick_label(2.5), tick_label(100, "%")
    ('12,000', '2.5', '100%')
    """
    decimals = next(places for places in (0, 1, 2) if abs(value - round(value, places)) < 1e-9 or places == 2)
    return f"{value:,.{decimals}f}{suffix}"


def curve_panels(
    curves: Mapping[str, tuple[str, list[int]]],
    vocabulary_after: Callable[[int], int],
    marked_sizes: Sequence[int] = (),
) -> Curves:
    """Tokens needed (first panel) and characters per token (second) against the vocabulary size.

    ``curves`` maps a name to ``(text, token_counts)`` where ``token_counts[k]`` is the token count with the first
    ``k`` merges (``tokens_by_merge_count``); ``vocabulary_after(k)`` is the vocabulary of the first ``k`` merges
    (``VocabularyScale.after``), where the point is drawn. When one text needs more than ten times the tokens of
    another before any merge, each text's tokens are drawn as a share of that count (a short held-out text would
    lie flat beside a 1 MB corpus).
    """
    total = max((len(counts) - 1 for _, counts in curves.values()), default=0)
    steps = sampled_steps(total, keep=marked_sizes)
    starts = [counts[0] for _, counts in curves.values() if counts and counts[0]]
    relative = bool(starts) and max(starts) > 10 * min(starts)
    token_lines, ratio_lines = [], []
    for index, (name, (text, counts)) in enumerate(curves.items()):
        colour = LINE_COLOURS[index % len(LINE_COLOURS)]
        shown = [k for k in steps if k < len(counts)]
        sizes = [vocabulary_after(k) for k in shown]
        tokens: list[float] = [counts[k] for k in shown]
        if relative:
            tokens = [100 * count / counts[0] if counts[0] else 0.0 for count in tokens]
        token_lines.append(Series(name, colour, tuple(zip(sizes, tokens))))
        ratio_lines.append(Series(name, colour, tuple(zip(sizes, chars_per_token(text, [counts[k] for k in shown])))))
    panels = (
        _panel(
            "Tokens, % of unmerged" if relative else "Tokens needed",
            token_lines,
            "%" if relative else "",
            whole=not relative,
        ),
        _panel("Characters per token", ratio_lines),
    )
    low, high = vocabulary_after(0), vocabulary_after(total)
    x_range = (low, max(high, low + 1))
    markers = tuple(
        (vocabulary_after(size), SIZE_COLOURS[index % len(SIZE_COLOURS)]) for index, size in enumerate(marked_sizes)
    )
    x_ticks = ticks(*x_range, max(1, tick_step(x_range[1] - x_range[0])))  # sizes are whole numbers
    return Curves(
        panels,
        x_range,
        x_ticks,
        markers,
        _bands(curves, vocabulary_after, sampled_steps(total, marked_sizes, MAX_HOVER_BANDS), x_range),
    )


def _panel(title: str, series: list[Series], suffix: str = "", whole: bool = False) -> Panel:
    """A panel from 0 to the first tick at or above its highest value (whole ticks for counts)."""
    highest = max((value for line in series for _, value in line.points), default=0) or 1
    step = max(1, tick_step(highest)) if whole else tick_step(highest)
    top = step * math.ceil(highest / step - 1e-9)
    return Panel(title, tuple(series), top, ticks(0, top, step), suffix)


def _bands(
    curves: Mapping[str, tuple[str, list[int]]],
    vocabulary_after: Callable[[int], int],
    steps: list[int],
    x_range: tuple[int, int],
) -> tuple[tuple[float, float, str], ...]:
    """A band around each size of ``steps``, halfway to its neighbours (the nearest size is shown, as plotly's
    unified hover did), saying what every text needs there."""
    sizes = [vocabulary_after(k) for k in steps]
    bands = []
    for index, k in enumerate(steps):
        start = (sizes[index - 1] + sizes[index]) / 2 if index else x_range[0]
        end = (sizes[index] + sizes[index + 1]) / 2 if index + 1 < len(steps) else x_range[1]
        lines = [f"vocabulary {sizes[index]:,} ({plural(k, 'merge')})"]
        for name, (text, counts) in curves.items():
            if k < len(counts):
                ratio = chars_per_token(text, [counts[k]])[0]
                lines.append(f"{name}: {plural(counts[k], 'token')}, {ratio:.2f} characters per token")
        if end > start:  # a merge that made a token again adds no size: the next step's band has it
            bands.append((start, end, "\n".join(lines)))
    return tuple(bands)


# -- HTML ----------------------------------------------------------------------------------------------


def compression_html(
    curves: Mapping[str, tuple[str, list[int]]],
    vocabulary_after: Callable[[int], int],
    marked_sizes: Sequence[int] = (),
) -> str:
    """``curve_panels`` drawn: a legend, then the two panels (see ``render_curves``)."""
    return render_curves(curve_panels(curves, vocabulary_after, marked_sizes))


def render_curves(curves: Curves) -> str:
    """The panels as HTML with an SVG plot area each; every name escaped.

    >>> out = compression_html({"a<b>": ("abcd", [4, 2])}, lambda merges: 10 + merges, marked_sizes=[1])
    >>> "a&lt;b&gt;" in out and "<b>" not in out, out.count('class="lines"'), out.count('class="mark"')
    (True, 2, 1)
    """
    legend = "".join(
        f'<span><span class="swatch" style="border-color:{line.colour}"></span>{html_text(line.name)}</span>'
        for line in curves.panels[0].series
    )
    panels = "".join(_panel_html(panel, curves, marks=index == 0) for index, panel in enumerate(curves.panels))
    return f'{_STYLE}<div class="bpe-cc"><div class="legend">{legend}</div><div class="panels">{panels}</div></div>'


def _panel_html(panel: Panel, curves: Curves, marks: bool) -> str:
    low, high = curves.x_range
    across = lambda size: PLOT * (size - low) / (high - low)  # noqa: E731
    down = lambda value: PLOT - PLOT * value / panel.top  # noqa: E731
    labels = [tick_label(value, panel.y_suffix) for value in panel.y_ticks]
    width = max(map(len, labels)) * 0.6 + 1  # em of the widest y label, and a gap
    grid = "".join(
        f'<line x1="0" x2="{PLOT}" y1="{down(v):.1f}" y2="{down(v):.1f}" stroke="#e6e8ec"{_KEEP_WIDTH}/>'
        for v in panel.y_ticks[1:]
    )
    grid += "".join(
        f'<line x1="{across(x):.1f}" x2="{across(x):.1f}" y1="0" y2="{PLOT}" stroke="#eef0f3"{_KEEP_WIDTH}/>'
        for x in curves.x_ticks
    )
    marked = "".join(
        f'<line x1="{across(size):.1f}" x2="{across(size):.1f}" y1="0" y2="{PLOT}" stroke="{colour}" '
        f'stroke-width="1.5" stroke-dasharray="2 3"{_KEEP_WIDTH}/>'
        for size, colour in curves.markers
    )
    lines = "".join(
        f'<polyline points="{_steps_path(line.points, across, down)}" fill="none" stroke="{line.colour}" '
        f'stroke-width="2" stroke-linejoin="round"{_KEEP_WIDTH}/>'
        for line in panel.series
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {PLOT} {PLOT}" preserveAspectRatio="none">'
        f"{grid}{marked}{lines}</svg>"
    )  # numbers and colours only: no outside text in the picture
    picture = (
        f'<img class="lines" alt="{attribute(panel.title)} by vocabulary size" '
        f'src="data:image/svg+xml;base64,{base64.b64encode(svg.encode()).decode()}">'
    )
    bands = "".join(
        f'<div class="band" style="left:{across(start) / PLOT * 100:.2f}%;'
        f'width:{max(across(end) - across(start), 1) / PLOT * 100:.2f}%" title="{attribute(title)}" '
        'tabindex="-1"></div>'
        for start, end, title in curves.bands
    )
    notes = (
        "".join(
            _mark_html(index, size, colour, across(size) / PLOT * 100)
            for index, (size, colour) in enumerate(curves.markers)
        )
        if marks
        else ""
    )
    y_labels = "".join(
        f'<span style="top:{down(v) / PLOT * 100:.2f}%">{label}</span>' for v, label in zip(panel.y_ticks, labels)
    )
    x_labels = "".join(_x_label_html(across(x) / PLOT * 100, tick_label(x)) for x in curves.x_ticks)
    return (
        f'<figure class="panel" style="--yw:{width:.1f}em"><div class="title">{html_text(panel.title)}</div>'
        f'<div class="plot"><div class="ylabels">{y_labels}</div><div class="area">{picture}{notes}{bands}</div>'
        f'<div></div><div class="xlabels">{x_labels}</div></div><div class="xtitle">vocabulary size</div>'
        "</figure>"
    )


def _steps_path(points: Sequence[tuple[int, float]], across, down) -> str:
    """A line that holds each value until the next size, then drops (the count changes only at a merge)."""
    corners: list[tuple[float, float]] = []
    for index, (size, value) in enumerate(points):
        if index:
            corners.append((across(size), down(points[index - 1][1])))
        corners.append((across(size), down(value)))
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def _x_label_html(percent: float, label: str) -> str:
    """A tick label under its tick, kept inside the panel at either end."""
    shift = -100 if percent > 92 else (0 if percent < 8 else -50)
    return f'<span style="left:{percent:.2f}%;transform:translateX({shift}%)">{label}</span>'


def _mark_html(index: int, size: int, colour: str, percent: float) -> str:
    """A compared size's vocabulary beside its line, one line lower than the size before; to the left of its line
    when the line is near the right edge."""
    side = f"right:{100 - percent:.2f}%" if percent > 70 else f"left:{percent:.2f}%"
    return f'<span class="mark" style="{side};top:{index * MARK_LINE_PX}px;color:{colour}">{size:,}</span>'


def number_format(column: str) -> str:
    """How the size table shows a column's numbers (a ``str.format`` pattern): ratios with two decimals, counts
    with thousands separators.

    >>> number_format("your text chars/token").format(4.5), number_format("your text tokens").format(12345)
    ('4.50', '12,345')
    """
    return "{:.2f}" if column.endswith("chars/token") else "{:,}"


def size_table_html(rows: Sequence[Mapping[str, object]]) -> str:
    """``compare_data.size_table``'s rows as a static table of numbers; on a phone each size becomes a card
    (``card_table_html``), so nothing scrolls sideways.

    >>> out = size_table_html([{"vocabulary": 2062, "a<b>: chars/token": 4.5}])
    >>> out[out.index("<tbody>"):]  # doctest: +NORMALIZE_WHITESPACE
    '<tbody><tr><td class="num" data-column="vocabulary">2,062</td><td class="num"
    data-column="a&lt;b&gt;: chars/token">4.50</td></tr></tbody></table></div>'
    """
    shown = [{column: number_format(column).format(value) for column, value in row.items()} for row in rows]
    return card_table_html(shown, "Sizes compared", numeric=set(rows[0]) if rows else (), name="bpe-st")
