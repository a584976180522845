"""Merge trees: layout from the leaves up, boxes and hovers, big trees cut to a legible size."""

from __future__ import annotations

import pytest

from bpe_core import Config, load_gpt2, train
from bpe_core.pretrained import load_pretrained
from pages.merges.views.tree import (
    COLLAPSED_BACKGROUND,
    MAX_TREE_LEAVES,
    collapsed_note,
    default_tree_token,
    later_parts_note,
    leaf_counts,
    tree_figure,
    tree_layout,
)

GPT2_BIGGEST = "ÃĥÃĤ" * 32  # GPT-2's token with the most base symbols: mojibake of "Ã\x83Ã\x82" repeated


def test_tree_of_banana_ban(banana):
    # banana_ban = banana_ + ban; banana_ = ban + ana_; ana_ = ana + _; ana = an + a; ban = b + an; an = a + n
    tree = banana.merge_tree("banana_ban")
    nodes, edges = tree_layout(tree)
    assert [node.token for node in nodes] == [
        "banana_ban",
        "banana_",
        "ban",
        "b",
        "an",
        "a",
        "n",
        "ana_",
        "ana",
        "an",
        "a",
        "n",
        "a",
        "_",
        "ban",
        "b",
        "an",
        "a",
        "n",
    ]
    assert len(edges) == 18
    leaves = sorted((node for node in nodes if node.step is None), key=lambda node: node.x)
    assert [node.token for node in leaves] == list("banana_ban")
    assert [node.x for node in leaves] == list(range(10)) and {node.y for node in leaves} == {0}
    by_path = {node.path: node for node in nodes}
    assert (by_path["LL"].x, by_path["LL"].y) == (0.75, 2)  # ban: midway between b (x 0) and an (x 1.5)
    for parent, _ in edges:  # every parent is centred above its two children
        node = by_path[parent]
        assert node.x == (by_path[parent + "L"].x + by_path[parent + "R"].x) / 2
        assert node.y > max(by_path[parent + "L"].y, by_path[parent + "R"].y)
    assert (by_path[""].token, by_path[""].step, by_path[""].y) == ("banana_ban", 6, 5)

    figure = tree_figure(tree)
    edges_trace, nodes_trace = figure.data
    assert sum(1 for x in edges_trace.x if x is None) == 18
    assert list(nodes_trace.text) == [node.token for node in nodes]
    assert [box.text for box in figure.layout.annotations] == list(nodes_trace.text)
    assert nodes_trace.hovertext[0] == "banana_ban: made at step 6, count 1"
    assert nodes_trace.hovertext[-1] == "n: base symbol"


def test_tree_with_repeated_tokens_keeps_every_node():
    tok = train("aaaa", Config(split="none"), merges=2)
    tree = tok.merge_tree("aaaa")
    assert (tree.left.token, tree.right.token) == ("aa", "aa")
    nodes, edges = tree_layout(tree)
    assert [node.token for node in nodes] == ["aaaa", "aa", "a", "a", "aa", "a", "a"]
    assert [node.path for node in nodes] == ["", "L", "LL", "LR", "R", "RL", "RR"]
    assert edges == [("L", "LL"), ("L", "LR"), ("R", "RL"), ("R", "RR"), ("", "L"), ("", "R")]
    assert [node.x for node in nodes] == [1.5, 0.5, 0, 1, 2.5, 2, 3]


def test_tree_labels_are_escaped():
    tok = train("<b><b>", Config(split="none"), merges=5)
    figure = tree_figure(tok.merge_tree("<b><b>"))
    assert figure.layout.annotations[0].text == "&lt;b&gt;&lt;b&gt;"
    assert figure.data[1].text[0] == "&lt;b&gt;&lt;b&gt;"


def test_long_tree_grows_wide_with_bounded_font():
    tok = train("a" * 32, Config(split="none"), merges=5)
    figure = tree_figure(tok.merge_tree("a" * 32))
    # 32 one-letter leaves, one 23 px slot each, 0.3 of a slot beyond either end, 40 px of margins: 23 * 32.6 + 40
    assert figure.layout.meta == {"leaves": 32, "collapsed": 0, "min_width": 790}
    assert figure.layout.width == 56 * 32 + 120
    assert {box.font.size for box in figure.layout.annotations} == {12}


def test_huge_tree_is_drawn_down_to_a_legible_number_of_boxes():
    gpt2 = load_gpt2()
    assert max(leaf_counts(gpt2.steps).items(), key=lambda item: item[1]) == (GPT2_BIGGEST, 128)
    tree = gpt2.merge_tree(GPT2_BIGGEST)
    nodes, edges = tree_layout(tree)
    bottom = sorted((node for node in nodes if node.y == 0), key=lambda node: node.x)
    assert MAX_TREE_LEAVES == 32 and len(bottom) == 32 and len(nodes) == 63 and len(edges) == 62
    assert [node.token for node in bottom] == ["ÃĥÃĤ"] * 32  # merged parts of 4 symbols each, not symbols
    assert all(node.collapsed for node in bottom)
    figure = tree_figure(tree)
    # each ÃĥÃĤ box at 12 px type: 4 * 7.2 + 10 = 38.8 px, with a 4 px gap 42.8 / 23 = 1.861 slots;
    # 23 * (32 * 1.861 + 0.6) + 40 = 1423.4: narrower than 56 px a leaf (1912) needs on a wide screen
    assert figure.layout.meta == {"leaves": 32, "collapsed": 32, "min_width": 1424}
    assert figure.layout.width == 56 * 32 + 120
    # HF's GPT-2 vocabulary gives ÃĥÃĤ id 5808, so merge step 5808 - 256 + 1
    assert figure.data[1].hovertext[-1] == (
        "ÃĥÃĤ: made at step 5553, count n/a; its parts are not drawn (choose it to see its own tree)"
    )
    assert figure.layout.annotations[-1].bgcolor == COLLAPSED_BACKGROUND
    assert figure.layout.annotations[0].text == "ÃĥÃĤ" * 4 + "ÃĥÃ" + "…" + "ĥÃĤ" + "ÃĥÃĤ" * 4  # cut in the middle
    assert figure.data[1].text[0] == GPT2_BIGGEST  # the marker keeps the whole token


def test_tree_hover_without_counts_says_na():
    # GPT-2's merged tokens have ids 256 + (step - 1): "Hello" is id 15496, made at step 15241.
    tree = load_gpt2().merge_tree("Hello")
    assert tree_figure(tree).data[1].hovertext[0] == "Hello: made at step 15241, count n/a"


def test_default_tree_token_is_a_long_one(banana):
    assert default_tree_token(banana.steps) == "banana_ban"
    assert default_tree_token([]) is None
    assert leaf_counts(banana.steps) == {"an": 2, "ban": 3, "ana": 3, "ana_": 4, "banana_": 7, "banana_ban": 10}


def test_cut_tree_opens_the_widest_parts_first(banana):
    nodes, _ = tree_layout(banana.merge_tree("banana_ban"), max_leaves=4)
    bottom = sorted((node for node in nodes if node.y == 0), key=lambda node: node.x)
    # banana_ban = banana_ + ban; banana_ = ban + ana_ opens first (7 symbols), then ana_ or ban.
    assert [node.token for node in bottom] == ["ban", "ana", "_", "ban"]
    assert [node.collapsed for node in bottom] == [True, True, False, True]


def test_collapsed_note_counts_the_violet_boxes():
    assert collapsed_note(0) == ""
    assert collapsed_note(32) == (
        " The tree is too big to draw whole: the 32 violet boxes stand for merged parts whose own trees you can pick"
        " above."
    )


# -- the figure of a small tree worked out by hand ------------------------------------------------

from bpe_core import Step, TreeNode  # noqa: E402
from pages.merges.views.labels import WINNER_COLOUR  # noqa: E402
from pages.merges.views.tree import MERGED_BACKGROUND, SYMBOL_BACKGROUND, short_label, tree_box_css  # noqa: E402


def _abc_tree() -> TreeNode:
    """abc = ab + c (step 2, count 2); ab = a + b (step 1, count 5)."""
    a, b, c = TreeNode("a", 0), TreeNode("b", 1), TreeNode("c", 2)
    return TreeNode("abc", 4, step=2, count=2, left=TreeNode("ab", 3, step=1, count=5, left=a, right=b), right=c)


def _chain(leaves: int) -> TreeNode:
    """x...x built one x at a time: (((x x) x) x)..., ``leaves`` leaves, ``leaves - 1`` levels of merges."""
    x = TreeNode("x", 0)
    tree = x
    for size in range(2, leaves + 1):
        tree = TreeNode("x" * size, size, step=size - 1, count=1, left=tree, right=x)
    return tree


def test_small_tree_figure_places_boxes_markers_and_edges():
    # leaves a, b, c at x 0, 1, 2 (y 0); ab above a and b at (0.5, 1); abc above ab and c at (1.25, 2)
    figure = tree_figure(_abc_tree())
    edges, markers = figure.data
    assert list(markers.x) == [1.25, 0.5, 0, 1, 2] and list(markers.y) == [2, 1, 0, 0, 0]
    assert list(markers.customdata) == ["", "L", "LL", "LR", "R"]  # a click names the node by its path
    # one line per (parent, child), ab's two first (its children are placed before abc's), None between lines
    assert list(edges.x) == [0.5, 0, None, 0.5, 1, None, 1.25, 0.5, None, 1.25, 2, None]
    assert list(edges.y) == [1, 0, None, 1, 0, None, 2, 1, None, 2, 0, None]
    assert edges.mode == "lines" and edges.hoverinfo == "skip"  # the lines say nothing on hover
    assert (edges.line.color, edges.line.width) == ("#94a3b8", 1.5)  # thin and light, behind the boxes
    assert [(box.x, box.y) for box in figure.layout.annotations] == [(1.25, 2), (0.5, 1), (0, 0), (1, 0), (2, 0)]
    assert [box.text for box in figure.layout.annotations] == ["abc", "ab", "a", "b", "c"]
    assert {box.showarrow for box in figure.layout.annotations} == {False}  # boxes, not arrow call-outs
    assert list(markers.hovertext) == [
        "abc: made at step 2, count 2",
        "ab: made at step 1, count 5",
        "a: base symbol",
        "b: base symbol",
        "c: base symbol",
    ]
    # the boxes hover like their markers: the same text, legible dark monospace on white
    assert [box.hovertext for box in figure.layout.annotations] == list(markers.hovertext)
    label = figure.layout.annotations[0].hoverlabel
    assert (label.bgcolor, label.bordercolor, label.font.color, label.font.family) == (
        "white",
        "#475569",
        "#111",
        "monospace",
    )
    assert figure.layout.hoverlabel.font.family == "monospace"  # tokens line up in every hover
    # the hover shows the text alone, without the trace-name box plotly adds by default
    assert markers.hovertemplate == "%{hovertext}<extra></extra>"
    assert markers.mode == "markers" and (edges.showlegend, markers.showlegend) == (False, False)  # no legend
    assert figure.layout.meta == {"leaves": 3, "collapsed": 0, "min_width": 123}  # 23 px * 3.6 slots + 40


def test_tree_markers_are_invisible_hover_targets_under_the_boxes():
    figure = tree_figure(_abc_tree())
    # opacity 0: the annotation is what is seen; the marker, a little larger than the 14 px text, catches hovers
    assert (figure.data[1].marker.opacity, figure.data[1].marker.size) == (0, 14 + 12)
    assert {(box.font.size, box.font.family, box.font.color) for box in figure.layout.annotations} == {
        (14, "monospace", "#111")
    }
    assert {box.borderpad for box in figure.layout.annotations} == {4}  # room between token and border


def test_tree_box_colours_tell_the_token_its_merged_parts_and_base_symbols_apart():
    boxes = tree_figure(_abc_tree()).layout.annotations
    root, merged, symbol = boxes[0], boxes[1], boxes[2]
    assert (root.bordercolor, root.borderwidth) == (WINNER_COLOUR, 2)  # the chosen token: thick, in the winner's colour
    assert (merged.bgcolor, merged.borderwidth) == (MERGED_BACKGROUND, 1)
    assert (symbol.bgcolor, symbol.borderwidth) == (SYMBOL_BACKGROUND, 1)
    assert len({(box.bgcolor, box.bordercolor) for box in (root, merged, symbol)}) == 3
    assert {box.borderwidth for box in boxes[1:]} == {1}


def test_tree_figure_size_and_axes():
    figure = tree_figure(_abc_tree())
    # 3 leaves need 56 * 3 + 120 = 288 px, less than the 420 px floor: a small tree is not squeezed
    assert figure.layout.width == 420
    assert figure.layout.height == 70 * 3 + 90  # 3 rows of boxes (y 0, 1, 2), 70 px each, plus 90 px
    # the 120 px beyond the boxes include these small margins (no title: the page names the token)
    assert figure.layout.margin.to_plotly_json() == {"l": 20, "r": 20, "t": 30, "b": 20}
    # 0.8 of room on either side of the outer boxes (x 0 and 2), 0.6 above and below the rows (y 0 and 2)
    assert list(figure.layout.xaxis.range) == pytest.approx([-0.8, 2.8])
    assert list(figure.layout.yaxis.range) == pytest.approx([-0.6, 2.6])
    # a diagram, not a chart: no axes, and no zoom or pan that would lose boxes (a drag scrolls the page on a phone)
    for axis in (figure.layout.xaxis, figure.layout.yaxis):
        assert (axis.visible, axis.fixedrange) == (False, True)
    assert figure.layout.plot_bgcolor == "rgba(0,0,0,0)"  # transparent: the page's theme shows through


def test_one_symbol_tree_keeps_the_minimum_size():
    # a base symbol alone: one box, one row; 70 + 90 = 160 px would be less than the 220 px floor
    figure = tree_figure(TreeNode("a", 0))
    assert (figure.layout.width, figure.layout.height) == (420, 220)
    assert list(figure.data[0].x) == [] and list(figure.data[1].x) == [0]
    assert figure.data[1].hovertext[0] == "a: base symbol"


def test_tree_font_shrinks_past_24_leaves():
    # a chain of n leaves has n - 1 merges above the bottom row: n rows in all
    at_24 = tree_figure(_chain(24))
    assert at_24.layout.meta == {"leaves": 24, "collapsed": 0, "min_width": 606}  # 23 * 24.6 + 40
    assert {box.font.size for box in at_24.layout.annotations} == {14} and at_24.data[1].marker.size == 26
    assert at_24.layout.height == 70 * 24 + 90
    assert at_24.layout.width == 56 * 24 + 120
    assert list(at_24.layout.xaxis.range) == pytest.approx([-0.8, 23.8])
    at_25 = tree_figure(_chain(25))
    assert {box.font.size for box in at_25.layout.annotations} == {12} and at_25.data[1].marker.size == 24
    assert list(at_25.layout.yaxis.range) == pytest.approx([-0.6, 24.6])


def test_cut_tree_keeps_the_counts_of_its_collapsed_parts(banana):
    # cut to 4 boxes: ban | ana | _ | ban, as above; ban was made at step 2 (count 2), ana at step 3 (count 2)
    nodes, _ = tree_layout(banana.merge_tree("banana_ban"), max_leaves=4)
    bottom = sorted((node for node in nodes if node.y == 0), key=lambda node: node.x)
    assert [(node.step, node.count) for node in bottom] == [(2, 2), (3, 2), (None, None), (2, 2)]


def test_default_tree_token_takes_the_most_leaves_that_fit(banana):
    # leaves: an 2, ban 3, ana 3, ana_ 4, banana_ 7, banana_ban 10
    assert default_tree_token(banana.steps, most_leaves=7) == "banana_"  # exactly the limit still fits
    assert default_tree_token(banana.steps, most_leaves=4) == "ana_"  # the most leaves, not the last name
    assert default_tree_token(banana.steps, most_leaves=3) == "ban"  # ban and ana tie: the earlier wins
    # nothing fits: the smallest tree, by leaves (bc, 2), not by name (abc < bc)
    steps = [
        Step(1, "b", "c", "bc", 3, 5, 1),
        Step(2, "a", "bc", "abc", 4, 2, 1),
        Step(3, "abc", "abc", "abcabc", 5, 1, 1),
    ]
    assert default_tree_token(steps, most_leaves=1) == "bc"
    # by default up to 12 leaves: of x x -> xx, xx x -> xxx, ..., the 12-x token, not the 13-x one
    chain = [Step(n, "x" * n, "x", "x" * (n + 1), 10 + n, 1, 1) for n in range(1, 13)]
    assert default_tree_token(chain) == "x" * 12


def test_short_label_cuts_long_tokens_in_the_middle():
    assert short_label("abcde", 5) == "abcde"  # exactly the limit: kept whole
    assert short_label("abcdefghij", 5) == "ab…ij"  # 2 + … + 2 = 5 characters
    assert short_label("abcdefghij", 6) == "ab…ij"  # an even limit keeps both ends the same length
    assert short_label("a\nb", 3) == "a↵b"  # whitespace made visible before counting
    assert short_label("x" * 41) == "x" * 19 + "…" + "x" * 19  # default limit 40


def test_collapsed_note_for_one_violet_box():
    assert collapsed_note(1) == (
        " The tree is too big to draw whole: the violet box stands for merged parts whose own trees you can pick above."
    )
    assert collapsed_note(2).startswith(" The tree is too big to draw whole: the 2 violet boxes stand for")


def test_byte_level_tree_names_tokens_by_their_text():
    # GPT-2 builds " the" (Ġthe) from Ġt + he (merges 1 and 2 of merges.txt: Ġ t, then h e, then Ġt he ...)
    tree = load_gpt2().merge_tree("Ġthe")
    figure = tree_figure(tree, byte_level=True)
    labels = [box.text for box in figure.layout.annotations]
    assert labels == ["␣the", "␣t", "␣", "t", "he", "h", "e"]  # root first, then each part before its own parts
    assert list(figure.data[1].text) == labels
    assert figure.data[1].hovertext[2] == "␣: base symbol"
    assert [box.text for box in tree_figure(tree).layout.annotations][:3] == ["Ġthe", "Ġt", "Ġ"]  # as spelt


def _leaf_edges_px(figure, width: float) -> list[tuple[str, float, float]]:
    """Each bottom-row box's (label, left, right) in pixels when ``figure`` is drawn ``width`` px wide, its box
    measured by hand: 0.6 of the 14 px type a character (8.4 px), 4 px padding and 1 px border a side."""
    low, high = figure.layout.xaxis.range
    plot = width - figure.layout.margin.l - figure.layout.margin.r
    boxes = []
    for box in figure.layout.annotations:
        if box.y == 0:
            centre = figure.layout.margin.l + (box.x - low) / (high - low) * plot
            half = (8.4 * len(box.text.replace("&lt;", "<").replace("&gt;", ">")) + 10) / 2
            boxes.append((box.text, centre - half, centre + half))
    return sorted(boxes, key=lambda box: box[1])


def test_a_wide_leaf_gets_room_for_its_box_down_to_the_narrowest_width():
    # ce</w> = c + e</w>, e</w> = e + </w>: at one slot a leaf, e (18.4 px) and </w> (43.6 px) drawn 23 px apart
    # would overlap by 8 px, as they did on a phone; </w> takes (43.6 + 4) / 23 = 2.07 slots instead
    e_end = TreeNode("e</w>", 3, step=1, count=2, left=TreeNode("e", 1), right=TreeNode("</w>", 2))
    figure = tree_figure(TreeNode("ce</w>", 4, step=2, count=1, left=TreeNode("c", 0), right=e_end))
    assert [box.x for box in figure.layout.annotations if box.y == 0] == [0, 1, pytest.approx(1.5 + 2.07 / 2, 0.01)]
    narrowest = figure.layout.meta["min_width"]
    assert narrowest == 148  # 23 px * (1 + 1 + 2.07 + 0.6 slots) = 107.4, rounded up, + 40 px of margins
    for width in (narrowest, figure.layout.width):
        boxes = _leaf_edges_px(figure, width)
        assert [label for label, _, _ in boxes] == ["c", "e", "&lt;/w&gt;"]
        assert all(left_box[2] + 3 < right_box[1] for left_box, right_box in zip(boxes, boxes[1:]))  # 3 px apart
        assert boxes[0][1] > 0 and boxes[-1][2] < width  # none cut at the figure's edges


def test_tree_box_scrolls_sideways_below_the_trees_narrowest_width():
    css = tree_box_css(355, "merges_tree_box", "merges_tree_chart")
    assert ".st-key-merges_tree_box{overflow-x:auto" in css
    assert ".st-key-merges_tree_box .st-key-merges_tree_chart{min-width:355px" in css
    assert css.startswith("<style>") and css.endswith("</style>")


@pytest.mark.slow  # loads all of Qwen3.6 (about 4 s)
def test_a_part_made_after_the_token_it_builds_is_said_under_its_tree():
    """Qwen3.6's ranks list some tokens before one of their parts (bench/ranks_to_tokenizer_json.py recovered its
    merges): each such merge, found from the merges and the steps that made their parts, has a tree that says which
    step builds the later part; GPT-2's trees never do."""
    qwen = load_pretrained("qwen3.6")
    later = []
    for rank, (left, right) in enumerate(qwen.merges):
        part_ranks = [qwen.created_at.get(qwen.vocab[part], -1) for part in (left, right)]
        if max(part_ranks) > rank:
            later.append((left + right, max(part_ranks) + 1, rank + 1))
    assert later[0][0] == "äººåĬĽèµĦæºĲ"  # 人力资源 (human resources), at step 99,400
    for token, part_step, token_step in later:
        note = later_parts_note(qwen.merge_tree(token))
        assert note.startswith(f" Step {part_step:,} builds a part of the token step {token_step:,} makes"), token
    gpt2 = load_gpt2()
    assert all(later_parts_note(gpt2.merge_tree(left + right)) == "" for left, right in gpt2.merges[::500])
