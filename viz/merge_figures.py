"""Figures and HTML for the Merges page: BPE training shown step by step.

Pure builders: they take engine data (``Step`` lists, ``TreeNode`` trees,
``Token`` lists) and return plotly figures or escaped HTML strings. No
streamlit here, so everything is testable on its own.

>>> from bpe_core import Config, train
>>> tok = train("banana_bandana_", Config(split="none"), merges=6)
>>> pair_label("a", "n")
'a + n'
>>> len(race_figure(tok.steps, first_step=1, window=50).frames)
6
"""

from __future__ import annotations

import heapq
import html
import math
from dataclasses import dataclass
from typing import Sequence

import plotly.graph_objects as go

from bpe_core import Step, Token, TreeNode
from viz.readable import readable_symbol
from viz.token_html import KIND_NOTES, PALETTES

WINNER_COLOUR = "#e4572e"  # the pair merged at this step
TIED_COLOUR = "#f3a712"  # pairs with the winner's count that lost the tie-break
OTHER_COLOUR = "#8da9c4"  # every other pair in the top K
UP_COLOUR = "#2a9d8f"  # count-curve steps where the count rose
TOKEN_BACKGROUNDS = ("#dbeafe", "#fde2c4")  # alternate so neighbouring tokens stand apart

TIE_BREAK_RULES = {
    "first": "first occurrence wins",
    "hf": "smallest id pair wins (HF)",
}

COLLAPSED_BACKGROUND = "#e9d5ff"  # a tree box standing for a whole subtree
MAX_TREE_LEAVES = 32  # bottom-row boxes that stay legible across the page

DEFAULT_WINDOW = 50  # steps per animation: keeps big models' figures small
RACE_TOP_MARGIN = 80  # px: title and colour key
RACE_BOTTOM_MARGIN = 130  # px: axis title, then Play/Pause and the step slider
MAX_FOREST_POINTS = 2000

# -- labels ---------------------------------------------------------------------


def plot_text(text: str) -> str:
    """A token as plotly text: visible, with ``<``/``>``/``&`` escaped (plotly reads a few HTML tags).

    >>> plot_text("<b>")
    '&lt;b&gt;'
    """
    return html.escape(readable_symbol(text), quote=False)


def pair_label(left: str, right: str) -> str:
    """``left + right`` as plain readable text (escape it again for HTML/plotly).

    >>> pair_label("Ġ", "t")
    'Ġ + t'
    """
    return f"{readable_symbol(left)} + {readable_symbol(right)}"


def tie_break_rule(tie_break: str) -> str:
    """The tie-break rule in words: ``tie_break_rule("hf")`` -> ``'smallest id pair wins (HF)'``."""
    return TIE_BREAK_RULES.get(tie_break, tie_break)


def step_summary(step: Step) -> str:
    """One line about a step, plain text.

    >>> step_summary(Step(2, "b", "an", "ban", 7, 2, 3))
    'step 2: b + an → ban (count 2, 3 pairs tied)'
    """
    if step.count is None:
        detail = "count n/a"
    elif step.tied > 1:
        detail = f"count {step.count:,}, {step.tied} pairs tied"
    else:
        detail = f"count {step.count:,}"
    return f"step {step.step}: {pair_label(step.left, step.right)} → {readable_symbol(step.new_token)} ({detail})"


# -- pair-frequency race ----------------------------------------------------------


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


def race_pairs(step: Step) -> tuple[tuple[str, str, int], ...]:
    """The pairs racing before ``step``, winner first; the winner alone if the trace kept no top K."""
    if step.top:
        return step.top
    if step.count is not None:
        return ((step.left, step.right, step.count),)
    return ()


def _race_traces(step: Step, ranks: Sequence[str]) -> list[go.Bar]:
    """Three bar traces (winner, tied, others) on the fixed rank axis, for one step."""
    groups: dict[str, list[tuple[str, str, str, int]]] = {"winner": [], "tied": [], "other": []}
    pairs = race_pairs(step)
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
            marker=dict(color=TIED_COLOUR, pattern=dict(shape="/", fgcolor="#6b4a00"), line=dict(color="#6b4a00", width=2)),
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
                text=[html.escape(f"{pair_label(left, right)}   {count:,}", quote=False) for _, left, right, count in rows],
                textposition="outside",
                cliponaxis=False,
                hovertext=[
                    html.escape(f"{pair_label(left, right)}: {count:,}", quote=False) for _, left, right, count in rows
                ],
                hovertemplate="%{hovertext}<extra></extra>",
                showlegend=False,
                **styles[group],
            )
        )
    return traces


def race_figure(
    steps: Sequence[Step], *, first_step: int = 1, window: int = DEFAULT_WINDOW, tie_break: str = "first"
) -> go.Figure:
    """The top-K pair counts before each step of a window, as an animated horizontal bar chart.

    One frame per step (named by its step number), a Play/Pause menu and a step
    slider. Bars sit on fixed rank positions 1..K with the pair as their text,
    and the count axis is fixed over the window, so nothing jumps between frames.
    """
    first, last = window_bounds(len(steps), first_step, window)
    shown = steps[first - 1 : last]
    top_k = max((len(race_pairs(step)) for step in shown), default=1)
    ranks = [f"#{rank}" for rank in range(1, top_k + 1)]
    highest = max((count for step in shown for _, _, count in race_pairs(step)), default=1)

    frames = [
        go.Frame(
            name=str(step.step),
            data=_race_traces(step, ranks),
            layout=go.Layout(title=_race_title(html.escape(step_summary(step), quote=False))),
        )
        for step in shown
    ]
    animate_args = dict(mode="immediate", frame=dict(duration=0, redraw=True), transition=dict(duration=0))
    # In a long window label every 10th step only: 50 numbers would overlap. The title names the step.
    label_every = 1 if len(frames) <= 12 else 10
    slider_steps = [
        dict(label=frame.name if index % label_every == 0 else "", method="animate", args=[[frame.name], animate_args])
        for index, frame in enumerate(frames)
    ]
    height = max(360, 200 + 26 * top_k)
    # Play/Pause and the slider sit a fixed 55 px under the plot, whatever its height
    # (plotly places them in fractions of the plot area).
    controls_y = -55 / (height - RACE_TOP_MARGIN - RACE_BOTTOM_MARGIN)
    figure = go.Figure(data=frames[0].data if frames else [], frames=frames)
    figure.update_layout(
        title=frames[0].layout.title if frames else _race_title("no merges"),
        barmode="overlay",
        height=height,
        margin=dict(l=50, r=30, t=RACE_TOP_MARGIN, b=RACE_BOTTOM_MARGIN),
        xaxis=dict(title="pair count before the step", range=[0, highest * 1.45], fixedrange=True),
        yaxis=dict(
            type="category",
            categoryorder="array",
            categoryarray=ranks,
            autorange="reversed",
            title="rank",
            fixedrange=True,
        ),
        # A fixed key instead of a legend: a legend would drop "tied" on frames without ties.
        annotations=[
            dict(
                text=(
                    f'<span style="color:{WINNER_COLOUR}">■</span> winner (merged)   '
                    f'<span style="color:{TIED_COLOUR}">▨</span> tied with the winner; '
                    f"{html.escape(tie_break_rule(tie_break))}   "
                    f'<span style="color:{OTHER_COLOUR}">■</span> other pairs'
                ),
                xref="paper",
                yref="paper",
                x=1,
                y=1.02,
                xanchor="right",
                yanchor="bottom",
                showarrow=False,
                font=dict(size=12),
            )
        ],
        updatemenus=[
            dict(
                type="buttons",
                direction="left",
                x=0,
                y=controls_y,
                xanchor="left",
                yanchor="top",
                pad=dict(t=30, r=10),
                showactive=False,
                buttons=[
                    dict(
                        label="▶ Play",
                        method="animate",
                        args=[None, dict(frame=dict(duration=700, redraw=True), fromcurrent=True, transition=dict(duration=0))],
                    ),
                    dict(label="❚❚ Pause", method="animate", args=[[None], animate_args]),
                ],
            )
        ],
        sliders=[
            dict(
                active=0,
                x=0.16,
                len=0.84,
                y=controls_y,
                yanchor="top",
                pad=dict(t=30),
                currentvalue=dict(visible=False),
                steps=slider_steps,
            )
        ],
    )
    return figure


# -- corpus segmentation ------------------------------------------------------------


def corpus_lines(corpus: str, count: int = 5, max_chars: int = 160) -> list[str]:
    """The first ``count`` non-empty lines, each cut to ``max_chars`` characters.

    >>> corpus_lines("\\n a b \\n\\nc", count=5, max_chars=3)
    [' a ', 'c']
    """
    lines = [line for line in corpus.splitlines() if line.strip()]
    return [line[:max_chars] for line in lines[:count]]


def segmentation_html(lines_tokens: Sequence[Sequence[Token]], *, highlight_id: int | None = None) -> str:
    """Encoded lines as HTML: one box per token, alternating backgrounds, all text escaped.

    Tokens whose id is ``highlight_id`` (the token just made) get a thick coloured border;
    text that no token covers (spaces dropped by a whitespace split) shows as a gap.

    >>> from bpe_core import Token
    >>> "&lt;script&gt;" in segmentation_html([[Token(5, "<script>", 0, 8, b"<script>")]])
    True
    >>> "never appeared in the training text" in segmentation_html([[Token(0, "<unk>", 0, 1, b"?", "unknown")]])
    True
    """
    rows = []
    for tokens in lines_tokens:
        boxes = []
        covered_to = 0
        for index, token in enumerate(tokens):
            if token.start > covered_to:  # text no token covers (spaces cut off by the word split)
                boxes.append('<span style="display:inline-block;width:0.7em"></span>')
            covered_to = max(covered_to, token.end)
            # Unknown, byte-fallback and special tokens take the Encode page's colours and notes.
            backgrounds = PALETTES[token.kind] if token.kind in KIND_NOTES else TOKEN_BACKGROUNDS
            background = backgrounds[index % len(backgrounds)]
            border = f"2px solid {WINNER_COLOUR}" if token.id == highlight_id else "1px solid #94a3b8"
            weight = "700" if token.id == highlight_id else "400"
            note = f" ({KIND_NOTES[token.kind]})" if token.kind in KIND_NOTES else ""
            tooltip = html.escape(f"id {token.id}: {readable_symbol(token.token)}{note}", quote=True)
            boxes.append(
                f'<span title="{tooltip}" style="background:{background};color:#111;border:{border};'
                f"border-radius:3px;padding:1px 3px;margin:0 2px 0 0;font-weight:{weight};"
                f'white-space:pre;display:inline-block">{html.escape(readable_symbol(token.token), quote=False)}</span>'
            )
        rows.append(f'<div style="line-height:2;margin-bottom:6px">{"".join(boxes)}</div>')
    return f'<div style="font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px">{"".join(rows)}</div>'


# -- merge trees ----------------------------------------------------------------------


@dataclass(frozen=True)
class TreeNodePosition:
    """A node of a laid-out merge tree. ``path`` ("" root, "L", "LR", ...) identifies it;
    two nodes may share a token (``a`` + ``a``) but never a path."""

    path: str
    token: str
    x: float
    y: int  # 0 for leaves, parents above their highest child
    step: int | None
    count: int | None
    collapsed: bool = False  # a merged token drawn as a leaf: its parts would not fit


def _paths_to_open(tree: TreeNode, max_leaves: int) -> set[str]:
    """Paths of the merged nodes to draw with their parts, widest first, so that at most
    ``max_leaves`` boxes end up on the bottom row (each opened node adds one)."""
    opened: set[str] = set()
    frontier = [(-len(tree.leaves()), "", tree)]  # paths are unique, so nodes are never compared
    while frontier and len(opened) + 1 < max_leaves:
        _, path, node = heapq.heappop(frontier)
        if node.left is None or node.right is None:
            continue
        opened.add(path)
        for side, child in (("L", node.left), ("R", node.right)):
            heapq.heappush(frontier, (-len(child.leaves()), path + side, child))
    return opened


def tree_layout(
    tree: TreeNode, max_leaves: int = MAX_TREE_LEAVES
) -> tuple[list[TreeNodePosition], list[tuple[str, str]]]:
    """Positions for a merge tree: leaves on one row at x = 0, 1, 2, ..., each parent centred
    above its two children. Returns the nodes (root first) and the (parent, child) path pairs.

    A tree with more than ``max_leaves`` base symbols is drawn from the top down to
    ``max_leaves`` boxes; the merged tokens left on the bottom row are ``collapsed``.

    >>> from bpe_core import TreeNode
    >>> a = TreeNode("a", 0)
    >>> nodes, edges = tree_layout(TreeNode("aa", 1, step=1, count=3, left=a, right=a))
    >>> [(n.path, n.token, n.x, n.y) for n in nodes], edges
    ([('', 'aa', 0.5, 1), ('L', 'a', 0.0, 0), ('R', 'a', 1.0, 0)], [('', 'L'), ('', 'R')])
    """
    opened = _paths_to_open(tree, max_leaves)
    nodes: list[TreeNodePosition] = []
    edges: list[tuple[str, str]] = []
    next_leaf = [0]

    def place(node: TreeNode, path: str) -> TreeNodePosition:
        slot = len(nodes)
        nodes.append(None)  # keep pre-order (root first); filled once the children are placed
        if path not in opened:
            collapsed = node.left is not None and node.right is not None
            position = TreeNodePosition(path, node.token, float(next_leaf[0]), 0, node.step, node.count, collapsed)
            next_leaf[0] += 1
        else:
            left = place(node.left, path + "L")
            right = place(node.right, path + "R")
            edges.extend([(path, left.path), (path, right.path)])
            position = TreeNodePosition(
                path, node.token, (left.x + right.x) / 2, 1 + max(left.y, right.y), node.step, node.count
            )
        nodes[slot] = position
        return position

    place(tree, "")
    return nodes, edges


def _node_hover(node: TreeNodePosition) -> str:
    if node.step is None:
        return f"{readable_symbol(node.token)}: base symbol"
    count = "n/a" if node.count is None else f"{node.count:,}"
    parts = "; its parts are not drawn (choose it to see its own tree)" if node.collapsed else ""
    return f"{readable_symbol(node.token)}: made at step {node.step}, count {count}{parts}"


def _node_colours(node: TreeNodePosition) -> tuple[str, str]:
    """(background, border) of a tree box: the token itself, a merged part, or a base symbol."""
    if node.path == "":
        return "#fbd0c2", WINNER_COLOUR
    if node.collapsed:
        return COLLAPSED_BACKGROUND, "#7c3aed"
    if node.step is not None:
        return TOKEN_BACKGROUNDS[1], "#b7791f"
    return TOKEN_BACKGROUNDS[0], "#64748b"


def short_label(text: str, max_chars: int = 40) -> str:
    """A readable label cut in the middle when long (the hover keeps the whole token).

    >>> short_label("abcdefghij", 5)
    'ab…ij'
    """
    text = readable_symbol(text)
    if len(text) <= max_chars:
        return text
    keep = (max_chars - 1) // 2
    return text[:keep] + "…" + text[len(text) - keep :]


def tree_figure(tree: TreeNode) -> go.Figure:
    """A merge tree as a node-link diagram: boxes labelled by token, lines to the two parts.

    Boxes are annotations (they size themselves to the label); an invisible marker under
    each box carries its label (``text``), path (``customdata``) and hover. The width grows
    with the bottom row (56 px a box, at most ``MAX_TREE_LEAVES`` boxes, see ``tree_layout``),
    so a small tree stays compact and a long token stays legible.
    """
    nodes, edges = tree_layout(tree)
    by_path = {node.path: node for node in nodes}
    edge_x: list[float | None] = []
    edge_y: list[float | None] = []
    for parent, child in edges:
        edge_x += [by_path[parent].x, by_path[child].x, None]
        edge_y += [by_path[parent].y, by_path[child].y, None]

    leaves = sum(1 for node in nodes if node.y == 0)
    collapsed = sum(1 for node in nodes if node.collapsed)
    height_levels = by_path[""].y + 1
    font_size = 14 if leaves <= 24 else 12
    hover = [html.escape(_node_hover(node), quote=False) for node in nodes]
    boxes = []
    for node, hover_text in zip(nodes, hover):
        background, border = _node_colours(node)
        boxes.append(
            dict(
                x=node.x,
                y=node.y,
                text=html.escape(short_label(node.token), quote=False),
                showarrow=False,
                bgcolor=background,
                bordercolor=border,
                borderwidth=2 if node.path == "" else 1,
                borderpad=4,
                font=dict(size=font_size, family="monospace", color="#111"),
                hovertext=hover_text,
                hoverlabel=dict(bgcolor="white", bordercolor="#475569", font=dict(color="#111", family="monospace")),
            )
        )
    figure = go.Figure(
        [
            go.Scatter(x=edge_x, y=edge_y, mode="lines", line=dict(color="#94a3b8", width=1.5), hoverinfo="skip", showlegend=False),
            go.Scatter(
                x=[node.x for node in nodes],
                y=[node.y for node in nodes],
                mode="markers",
                marker=dict(size=font_size + 12, opacity=0),
                text=[plot_text(node.token) for node in nodes],
                customdata=[node.path for node in nodes],
                hovertext=hover,
                hovertemplate="%{hovertext}<extra></extra>",
                showlegend=False,
            ),
        ]
    )
    figure.update_layout(
        width=max(420, 56 * leaves + 120),
        height=max(220, 70 * height_levels + 90),
        margin=dict(l=20, r=20, t=30, b=20),
        xaxis=dict(visible=False, range=[-0.8, leaves - 0.2], fixedrange=True),
        yaxis=dict(visible=False, range=[-0.6, height_levels - 0.4], fixedrange=True),
        plot_bgcolor="rgba(0,0,0,0)",
        annotations=boxes,
        hoverlabel=dict(font=dict(family="monospace")),
        meta=dict(leaves=leaves, collapsed=collapsed),
    )
    return figure


def leaf_counts(steps: Sequence[Step]) -> dict[str, int]:
    """How many base symbols each merged token spans (a base symbol spans 1).

    >>> leaf_counts([Step(1, "a", "a", "aa", 1, 3, 1), Step(2, "aa", "aa", "aaaa", 2, 1, 1)])
    {'aa': 2, 'aaaa': 4}
    """
    counts: dict[str, int] = {}
    for step in steps:
        counts.setdefault(step.new_token, counts.get(step.left, 1) + counts.get(step.right, 1))
    return counts


def default_tree_token(steps: Sequence[Step], most_leaves: int = 12) -> str | None:
    """A merged token with a good-sized tree to show first: the one with the most leaves
    up to ``most_leaves`` (earliest on a tie), else the smallest tree.

    >>> default_tree_token([Step(1, "a", "a", "aa", 1, 3, 1), Step(2, "aa", "aa", "aaaa", 2, 1, 1)])
    'aaaa'
    """
    counts = leaf_counts(steps)
    if not counts:
        return None
    fitting = [token for token, leaves in counts.items() if leaves <= most_leaves]
    if fitting:
        return max(fitting, key=lambda token: counts[token])  # max keeps the first of equals
    return min(counts, key=lambda token: counts[token])


# -- overview charts ------------------------------------------------------------------


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
    return [float(p) for p in powers], [f"{10 ** p:,}" for p in powers]


def forest_figure(steps: Sequence[Step], max_points: int = MAX_FOREST_POINTS) -> go.Figure:
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
            hovertext=[html.escape(step_summary(step), quote=False) for step in chosen],
            hovertemplate="%{hovertext}<extra></extra>",
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


def count_curve_figure(steps: Sequence[Step]) -> go.Figure:
    """The winning count at each step (log scale), with the steps where it rose marked."""
    counted = [step for step in steps if step.count is not None]
    rising = rising_steps(steps)
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
                hovertext=[html.escape(step_summary(step), quote=False) for step in rising],
                hovertemplate="%{hovertext}<extra></extra>",
            ),
        ]
    )
    figure.update_layout(
        height=340,
        margin=dict(l=60, r=20, t=30, b=50),
        xaxis=dict(title="merge step"),
        yaxis=dict(title="count of the merged pair", type="log"),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1, xanchor="right"),
        meta=dict(rising=len(rising)),
    )
    return figure


def step_card_html(step: Step, tie_break: str) -> str:
    """The facts of one step as a small escaped HTML card: pair, new token, count, ties.

    >>> "&lt;b&gt;" in step_card_html(Step(1, "<", "b>", "<b>", 9, 4, 2), "first")
    True
    """
    count = "n/a (no training counts)" if step.count is None else f"{step.count:,}"
    if step.tied == 0:
        ties = "unknown"
    elif step.tied == 1:
        ties = "none: a clear winner"
    else:
        ties = f"{step.tied} pairs shared the top count; {tie_break_rule(tie_break)}"
    facts = [
        ("Step", str(step.step)),
        ("Pair merged", pair_label(step.left, step.right)),
        ("New token", f"{readable_symbol(step.new_token)}  (id {step.new_id})"),
        ("Count", count),
        ("Ties", ties),
    ]
    cells = "".join(
        '<div style="padding:4px 14px 4px 0">'
        f'<div style="font-size:12px;opacity:0.7">{html.escape(name)}</div>'
        f'<div style="font-size:18px;font-family:ui-monospace,Menlo,Consolas,monospace;white-space:pre">{html.escape(value, quote=False)}</div>'
        "</div>"
        for name, value in facts
    )
    return f'<div style="display:flex;flex-wrap:wrap;gap:6px 18px">{cells}</div>'
