"""The merge tree of one token: a node-link diagram laid out from the leaves up.

>>> from bpe_core import TreeNode
>>> a = TreeNode("a", 0)
>>> tree_figure(TreeNode("aa", 1, step=1, count=3, left=a, right=a)).layout.meta
{'leaves': 2, 'collapsed': 0, 'min_width': 100}

On a wide screen a leaf has 56 px on average; on a narrow one the figure may shrink until its leaves stand 23 px
apart (a box of one character and a small gap), never further: ``min_width`` is that width, and the page lets a tree
that needs more than the screen gives scroll sideways in its own box (the page itself keeps to the screen). A leaf
wider than one character (``</w>``, ``\\xe2``, a collapsed part) takes as many 23 px slots as its box needs, so no
two leaves overlap at any width the figure is drawn at. Why scroll rather than wrap or turn the tree: its bottom row
spells the token left to right, which a wrapped or sideways tree would no longer do, and the server does not know the
screen's width.
"""

from __future__ import annotations

import heapq
import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from bpe_core import Step, TreeNode
from drawing.describe import plural
from drawing.escape import plotly_text
from drawing.readable import token_text
from pages.merges.views.labels import WINNER_COLOUR

SYMBOL_BACKGROUND = "#dbeafe"  # a base symbol
MERGED_BACKGROUND = "#fde2c4"  # a merged part drawn with its own parts
COLLAPSED_BACKGROUND = "#e9d5ff"  # a tree box standing for a whole subtree
MAX_TREE_LEAVES = 32  # bottom-row boxes that stay legible across the page
ROOMY_LEAF_PX = 56  # a leaf's room on average where the screen allows
NARROW_SLOT_PX = 23  # the least room of a one-character leaf: its box (about 18 px at 14 px type) and a 4 px gap
MARGIN_PX = 40  # the figure's left and right margins together
SIDE_ROOM = 0.3  # slots of room beyond the outer leaves' own slots, on either side


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
    tree: TreeNode, max_leaves: int = MAX_TREE_LEAVES, slots: Callable[[str], float] = lambda token: 1.0
) -> tuple[list[TreeNodePosition], list[tuple[str, str]]]:
    """Positions for a merge tree: leaves on one row side by side, each in the middle of its ``slots(token)`` (1 for
    each by default: x = 0, 1, 2, ...), each parent centred above its two children. Returns the nodes (root first)
    and the (parent, child) path pairs.

    A tree with more than ``max_leaves`` base symbols is drawn from the top down to
    ``max_leaves`` boxes; the merged tokens left on the bottom row are ``collapsed``.

    >>> from bpe_core import TreeNode
    >>> a = TreeNode("a", 0)
    >>> nodes, edges = tree_layout(TreeNode("aa", 1, step=1, count=3, left=a, right=a))
    >>> [(n.path, n.token, n.x, n.y) for n in nodes], edges
    ([('', 'aa', 0.5, 1), ('L', 'a', 0.0, 0), ('R', 'a', 1.0, 0)], [('', 'L'), ('', 'R')])
    >>> ab = TreeNode("ab", 2, step=1, count=1, left=a, right=TreeNode("b", 1))
    >>> [n.x for n in tree_layout(ab, slots=lambda token: 3.0 if token == "a" else 1.0)[0]]  # a 3 slots wide
    [2.0, 1.0, 3.0]
    """
    opened = _paths_to_open(tree, max_leaves)
    nodes: list[TreeNodePosition | None] = []  # pre-order: a parent's slot is taken before its children's
    edges: list[tuple[str, str]] = []
    next_leaf = [-0.5]  # where the next leaf's slot starts: a slot of 1 is centred on a whole number

    def place(node: TreeNode, path: str) -> TreeNodePosition:
        slot = len(nodes)
        nodes.append(None)  # keep pre-order (root first); filled once the children are placed
        if path not in opened or node.left is None or node.right is None:  # opened: merged nodes only
            collapsed = node.left is not None and node.right is not None
            width = slots(node.token)
            centre = next_leaf[0] + width / 2
            position = TreeNodePosition(path, node.token, centre, 0, node.step, node.count, collapsed)
            next_leaf[0] += width
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
    return [position for position in nodes if position is not None], edges  # all filled by now


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
    """A readable label (``drawing.readable.token_text``) cut in the middle when long (the hover keeps the whole token).

    >>> short_label("abcdefghij", 5), short_label("Ġthe", byte_level=True)
    ('ab…ij', '␣the')
    """
    text = token_text(text, byte_level)
    if len(text) <= max_chars:
        return text
    keep = (max_chars - 1) // 2
    return text[:keep] + "…" + text[len(text) - keep :]


def box_width_px(label: str, font_size: int) -> float:
    """About how wide a tree box of ``label`` is drawn: a monospace character is 0.6 of the type size (two for a wide
    one, as CJK), plus the box's padding (4 px a side) and border (1 px a side).

    >>> box_width_px("e", 14), box_width_px("</w>", 14), box_width_px("词", 12)
    (18.4, 43.6, 24.4)
    """
    columns = sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in label)
    return round(0.6 * font_size * columns + 10, 1)


def leaf_slots(label: str, font_size: int) -> float:
    """How many narrow slots (``NARROW_SLOT_PX``) a leaf labelled ``label`` takes: one, or as many as its box and
    a 4 px gap need.

    >>> leaf_slots("e", 14), round(leaf_slots("</w>", 14), 2)
    (1.0, 2.07)
    """
    return max(1.0, (box_width_px(label, font_size) + 4) / NARROW_SLOT_PX)


def tree_figure(tree: TreeNode, byte_level: bool = False) -> go.Figure:
    """A merge tree as a node-link diagram: boxes labelled by token, lines to the two parts (a byte-level model's
    tokens as the text they spell, ``drawing.readable.token_text``).

    Boxes are annotations (they size themselves to the label); an invisible marker under
    each box carries its label (``text``), path (``customdata``) and hover. The width grows
    with the bottom row (56 px a leaf, at most ``MAX_TREE_LEAVES`` boxes, see ``tree_layout``),
    so a small tree stays compact and a long token stays legible; ``meta["min_width"]`` is the narrowest it may be
    drawn with its leaves apart (the module's note).
    """
    leaves = len(_paths_to_open(tree, MAX_TREE_LEAVES)) + 1  # each node drawn with its parts adds a bottom box
    font_size = 14 if leaves <= 24 else 12

    def slots_of(token: str) -> float:
        return leaf_slots(short_label(token, byte_level=byte_level), font_size)

    nodes, edges = tree_layout(tree, slots=slots_of)
    slots = sum(slots_of(node.token) for node in nodes if node.y == 0)  # from x = -0.5 to slots - 0.5
    collapsed = sum(1 for node in nodes if node.collapsed)
    height_levels = nodes[0].y + 1  # the root's row, counted from the leaves' 0
    hover = [plotly_text(_node_hover(node, byte_level)) for node in nodes]
    min_width = math.ceil(NARROW_SLOT_PX * (slots + 2 * SIDE_ROOM)) + MARGIN_PX
    figure = go.Figure([_edge_lines(nodes, edges), _node_markers(nodes, hover, font_size, byte_level)])
    figure.update_layout(
        width=max(420, ROOMY_LEAF_PX * leaves + 120, min_width),
        height=max(220, 70 * height_levels + 90),
        margin=dict(l=MARGIN_PX // 2, r=MARGIN_PX // 2, t=30, b=20),
        xaxis=dict(visible=False, range=[-0.5 - SIDE_ROOM, slots - 0.5 + SIDE_ROOM], fixedrange=True),
        yaxis=dict(visible=False, range=[-0.6, height_levels - 0.4], fixedrange=True),
        plot_bgcolor="rgba(0,0,0,0)",
        annotations=[_token_box(node, hover_text, font_size, byte_level) for node, hover_text in zip(nodes, hover)],
        hoverlabel=dict(font=dict(family="monospace")),
        meta=dict(leaves=leaves, collapsed=collapsed, min_width=min_width),
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


def later_parts_note(tree: TreeNode) -> str:
    """A sentence about parts made at a later step than the token they build ("" when there are none): a published
    model's ranks may list a token before one of its parts (as Qwen3.6's do), so the steps do not rise up such a
    tree.

    >>> from bpe_core import TreeNode
    >>> a, b = TreeNode("a", 0), TreeNode("b", 1)
    >>> later_parts_note(TreeNode("aab", 4, step=2, left=a, right=TreeNode("ab", 3, step=9, left=a, right=b)))
    ' Step 9 builds a part of the token step 2 makes: the published ranks list that token first.'
    >>> later_parts_note(TreeNode("ab", 3, step=9, left=a, right=b))
    ''
    >>> ab, ba = TreeNode("ab", 3, step=9, left=a, right=b), TreeNode("ba", 5, step=7, left=b, right=a)
    >>> later_parts_note(TreeNode("abab", 6, step=2, left=ab, right=ab))  # one part, drawn twice
    ' Step 9 builds a part of the token step 2 makes: the published ranks list that token first.'
    >>> later_parts_note(TreeNode("baab", 8, step=2, left=ba, right=ab))[:71]
    ' Step 9 builds a part of the token step 2 makes (and 1 other part here)'
    """
    later, to_visit = set(), [tree]  # a part used twice (ab + ab) is drawn twice: counted once
    while to_visit:
        node = to_visit.pop()
        for part in (node.left, node.right):
            if part is not None and part.step is not None:
                to_visit.append(part)
                if node.step is not None and part.step > node.step:
                    later.add((part.step, node.step))
    if not later:
        return ""
    part_step, token_step = max(later)  # the latest part named; the others counted
    more = f" (and {plural(len(later) - 1, 'other part')} here)" if len(later) > 1 else ""
    return (
        f" Step {part_step:,} builds a part of the token step {token_step:,} makes{more}: the published ranks list"
        " that token first."
    )


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


def tree_box_css(min_width: int, box_key: str, chart_key: str) -> str:
    """The style that keeps the tree chart (Streamlit's element keyed ``chart_key``) at least ``min_width`` px wide
    (``tree_figure``'s ``meta["min_width"]``) inside the box keyed ``box_key``, which scrolls sideways when the screen
    is narrower: the page itself never does.

    >>> tree_box_css(355, "box", "chart")
    '<style>.st-key-box{overflow-x:auto;overflow-y:hidden}.st-key-box .st-key-chart{min-width:355px}</style>'
    """
    return (
        f"<style>.st-key-{box_key}{{overflow-x:auto;overflow-y:hidden}}"
        f".st-key-{box_key} .st-key-{chart_key}{{min-width:{int(min_width)}px}}</style>"
    )
