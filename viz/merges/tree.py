"""The merge tree of one token: a node-link diagram laid out from the leaves up.

>>> from bpe_core import TreeNode
>>> a = TreeNode("a", 0)
>>> tree_figure(TreeNode("aa", 1, step=1, count=3, left=a, right=a)).layout.meta
{'leaves': 2, 'collapsed': 0}
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from bpe_core import Step, TreeNode
from viz.escape import plotly_text
from viz.merges.labels import WINNER_COLOUR
from viz.readable import token_text

SYMBOL_BACKGROUND = "#dbeafe"  # a base symbol
MERGED_BACKGROUND = "#fde2c4"  # a merged part drawn with its own parts
COLLAPSED_BACKGROUND = "#e9d5ff"  # a tree box standing for a whole subtree
MAX_TREE_LEAVES = 32  # bottom-row boxes that stay legible across the page


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


def _node_hover(node: TreeNodePosition, byte_level: bool) -> str:
    name = token_text(node.token, byte_level)
    if node.step is None:
        return f"{name}: base symbol"
    count = "n/a" if node.count is None else f"{node.count:,}"
    parts = "; its parts are not drawn (choose it to see its own tree)" if node.collapsed else ""
    return f"{name}: made at step {node.step}, count {count}{parts}"


def _node_colours(node: TreeNodePosition) -> tuple[str, str]:
    """(background, border) of a tree box: the token itself, a merged part, or a base symbol."""
    if node.path == "":
        return "#fbd0c2", WINNER_COLOUR
    if node.collapsed:
        return COLLAPSED_BACKGROUND, "#7c3aed"
    if node.step is not None:
        return MERGED_BACKGROUND, "#b7791f"
    return SYMBOL_BACKGROUND, "#64748b"


def short_label(text: str, max_chars: int = 40, byte_level: bool = False) -> str:
    """A readable label (``viz.readable.token_text``) cut in the middle when long (the hover keeps the whole token).

    >>> short_label("abcdefghij", 5), short_label("Ġthe", byte_level=True)
    ('ab…ij', '␣the')
    """
    text = token_text(text, byte_level)
    if len(text) <= max_chars:
        return text
    keep = (max_chars - 1) // 2
    return text[:keep] + "…" + text[len(text) - keep :]


def tree_figure(tree: TreeNode, byte_level: bool = False) -> go.Figure:
    """A merge tree as a node-link diagram: boxes labelled by token, lines to the two parts (a byte-level model's
    tokens as the text they spell, ``viz.readable.token_text``).

    Boxes are annotations (they size themselves to the label); an invisible marker under
    each box carries its label (``text``), path (``customdata``) and hover. The width grows
    with the bottom row (56 px a box, at most ``MAX_TREE_LEAVES`` boxes, see ``tree_layout``),
    so a small tree stays compact and a long token stays legible.
    """
    nodes, edges = tree_layout(tree)
    leaves = sum(1 for node in nodes if node.y == 0)
    collapsed = sum(1 for node in nodes if node.collapsed)
    height_levels = nodes[0].y + 1  # the root's row, counted from the leaves' 0
    font_size = 14 if leaves <= 24 else 12
    hover = [plotly_text(_node_hover(node, byte_level)) for node in nodes]
    figure = go.Figure([_edge_lines(nodes, edges), _node_markers(nodes, hover, font_size, byte_level)])
    figure.update_layout(
        width=max(420, 56 * leaves + 120),
        height=max(220, 70 * height_levels + 90),
        margin=dict(l=20, r=20, t=30, b=20),
        xaxis=dict(visible=False, range=[-0.8, leaves - 0.2], fixedrange=True),
        yaxis=dict(visible=False, range=[-0.6, height_levels - 0.4], fixedrange=True),
        plot_bgcolor="rgba(0,0,0,0)",
        annotations=[_token_box(node, hover_text, font_size, byte_level) for node, hover_text in zip(nodes, hover)],
        hoverlabel=dict(font=dict(family="monospace")),
        meta=dict(leaves=leaves, collapsed=collapsed),
    )
    return figure


def _edge_lines(nodes: Sequence[TreeNodePosition], edges: Sequence[tuple[str, str]]) -> go.Scatter:
    """The lines from each parent to its two parts, one trace broken by ``None`` between lines."""
    by_path = {node.path: node for node in nodes}
    edge_x: list[float | None] = []
    edge_y: list[float | None] = []
    for parent, child in edges:
        edge_x += [by_path[parent].x, by_path[child].x, None]
        edge_y += [by_path[parent].y, by_path[child].y, None]
    return go.Scatter(
        x=edge_x, y=edge_y, mode="lines", line=dict(color="#94a3b8", width=1.5), hoverinfo="skip", showlegend=False
    )


def _node_markers(
    nodes: Sequence[TreeNodePosition], hover: Sequence[str], font_size: int, byte_level: bool
) -> go.Scatter:
    """An invisible marker under each box: what a click and a test read (token, path) and the hover."""
    return go.Scatter(
        x=[node.x for node in nodes],
        y=[node.y for node in nodes],
        mode="markers",
        marker=dict(size=font_size + 12, opacity=0),
        text=[plotly_text(token_text(node.token, byte_level)) for node in nodes],
        customdata=[node.path for node in nodes],
        hovertext=hover,
        hovertemplate="%{hovertext}<extra></extra>",
        showlegend=False,
    )


def _token_box(node: TreeNodePosition, hover_text: str, font_size: int, byte_level: bool) -> dict:
    """One node's box, an annotation labelled by its token, coloured by what it is."""
    background, border = _node_colours(node)
    return dict(
        x=node.x,
        y=node.y,
        text=plotly_text(short_label(node.token, byte_level=byte_level)),
        showarrow=False,
        bgcolor=background,
        bordercolor=border,
        borderwidth=2 if node.path == "" else 1,
        borderpad=4,
        font=dict(size=font_size, family="monospace", color="#111"),
        hovertext=hover_text,
        hoverlabel=dict(bgcolor="white", bordercolor="#475569", font=dict(color="#111", family="monospace")),
    )


def collapsed_note(collapsed: int) -> str:
    """A sentence about the violet boxes of a cut tree ("" when the tree is drawn whole).

    >>> collapsed_note(0)
    ''
    >>> collapsed_note(1)
    ' The tree is too big to draw whole: the violet box stands for merged parts whose own trees you can pick above.'
    """
    if not collapsed:
        return ""
    boxes = "the violet box stands" if collapsed == 1 else f"the {collapsed} violet boxes stand"
    return f" The tree is too big to draw whole: {boxes} for merged parts whose own trees you can pick above."


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
