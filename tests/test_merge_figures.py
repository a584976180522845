"""The Merges page's pure builders: race animation, segmentation HTML, merge trees, overviews."""

from __future__ import annotations

import pytest

from bpe_core import Config, Step, Token, load_gpt2, train
from viz import merge_figures as mf
from viz.token_html import PALETTES

MAX_FIGURE_JSON = 1_500_000  # bytes: what a 16k-merge model may send per figure


@pytest.fixture(scope="module")
def banana():
    """The textbook model: 6 merges a+n, b+an, an+a, ana+_, ban+ana_, banana_+ban."""
    return train("banana_bandana_", Config(split="none"), merges=6)


@pytest.fixture(scope="module")
def banana_hf():
    return train("banana_bandana_", Config(split="none", tie_break="hf"), merges=6)


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


# -- labels -----------------------------------------------------------------------


def test_control_characters_are_made_visible():
    assert mf.readable_symbol("a\nb") == "a↵b"
    assert mf.readable_symbol("\t") == "→"
    assert mf.readable_symbol("\x01\x7f") == "\\x01\\x7f"
    assert mf.readable_symbol("x y") == "x␣y"
    assert mf.readable_symbol("\u200b") == "\\u200b"


def test_pair_label_keeps_byte_level_space_marker():
    assert mf.pair_label("Ġ", "t") == "Ġ + t"
    assert mf.pair_label("\n", "\n") == "↵ + ↵"


def test_tie_break_rules_are_named():
    assert mf.tie_break_rule("first") == "first occurrence wins"
    assert mf.tie_break_rule("hf") == "smallest id pair wins (HF)"


# -- pair race ----------------------------------------------------------------------


def test_race_has_one_frame_and_one_slider_step_per_merge(banana):
    figure = mf.race_figure(banana.steps)
    assert [frame.name for frame in figure.frames] == ["1", "2", "3", "4", "5", "6"]
    slider_steps = figure.layout.sliders[0].steps
    assert [list(step.args[0]) for step in slider_steps] == [["1"], ["2"], ["3"], ["4"], ["5"], ["6"]]
    assert [step.label for step in slider_steps] == ["1", "2", "3", "4", "5", "6"]
    assert [button.label for button in figure.layout.updatemenus[0].buttons] == ["▶ Play", "❚❚ Pause"]
    assert figure.layout.updatemenus[0].buttons[0].args[1]["fromcurrent"] is True


def test_race_highlights_the_winner(banana):
    first = mf.race_figure(banana.steps).frames[0]
    winner = _trace(first, "winner")
    assert winner.marker.color == mf.WINNER_COLOUR
    assert list(winner.y) == ["#1"] and list(winner.x) == [4]
    assert winner.text[0].startswith("a + n")
    others = _trace(first, "other")
    assert others.marker.color == mf.OTHER_COLOUR
    assert list(others.x) == [3, 2, 2, 1, 1, 1]
    assert first.layout.title.text.startswith("<b>step 1: a + n → an (count 4)")


def test_every_race_frame_carries_the_whole_title(banana):
    """An animation step resets what its frame's layout leaves out, so each frame sets it all."""
    figure = mf.race_figure(banana.steps)
    titles = [frame.layout.title for frame in figure.frames]
    assert all(title.x == 0 and title.xanchor == "left" and title.text.startswith("<b>") for title in titles)
    assert figure.layout.title == titles[0]


def test_race_marks_pairs_tied_with_the_winner(banana):
    # Step 2: b+an, an+a and a+_ all occur twice; b+an wins on first occurrence.
    second = mf.race_figure(banana.steps).frames[1]
    tied = _trace(second, "tied")
    assert list(tied.y) == ["#2", "#3"]
    assert [label.split("   ")[0] for label in tied.text] == ["an + a", "a + _"]
    assert tied.marker.pattern.shape == "/"
    assert tied.marker.color == mf.TIED_COLOUR
    assert "3 pairs tied" in second.layout.title.text
    assert list(_trace(second, "winner").x) == [2]


def test_race_names_the_active_tie_break_rule(banana, banana_hf):
    key_first = mf.race_figure(banana.steps).layout.annotations[0].text
    key_hf = mf.race_figure(banana_hf.steps, tie_break="hf").layout.annotations[0].text
    assert "first occurrence wins" in key_first and "tied with the winner" in key_first
    assert "smallest id pair wins (HF)" in key_hf


def test_race_axes_stay_fixed_over_the_window(banana):
    figure = mf.race_figure(banana.steps)
    assert list(figure.layout.yaxis.categoryarray) == [f"#{rank}" for rank in range(1, 8)]
    assert figure.layout.xaxis.range[1] >= 4  # the highest count in the window fits
    assert all(frame.layout.xaxis.range is None for frame in figure.frames)  # frames never rescale


def test_race_escapes_pair_text():
    steps = [Step(1, "<b>", "\n", "<b>\n", 9, 5, 1, (("<b>", "\n", 5),))]
    text = mf.race_figure(steps).frames[0].data[0].text[0]
    assert text.startswith("&lt;b&gt; + ↵")


def test_race_without_top_falls_back_to_the_winner_alone():
    assert mf.race_pairs(Step(1, "a", "b", "ab", 3, 7, 1)) == (("a", "b", 7),)
    gpt2_step = load_gpt2().steps[0]
    assert gpt2_step.count is None and mf.race_pairs(gpt2_step) == ()


def test_race_window_of_a_big_model_is_small(big_steps):
    figure = mf.race_figure(big_steps, first_step=8000)
    assert [frame.name for frame in figure.frames][:2] == ["8000", "8001"]
    assert len(figure.frames) == mf.DEFAULT_WINDOW
    assert [step.label for step in figure.layout.sliders[0].steps][:11] == ["8000"] + [""] * 9 + ["8010"]
    assert len(figure.to_json()) < MAX_FIGURE_JSON
    last = mf.race_figure(big_steps, first_step=16_000)  # clamped so the window stays full
    assert last.frames[-1].name == "16000" and len(last.frames) == mf.DEFAULT_WINDOW


def test_window_bounds_clamp():
    assert mf.window_bounds(16_000, 1) == (1, 50)
    assert mf.window_bounds(16_000, 15_990) == (15_951, 16_000)
    assert mf.window_bounds(6, 4) == (1, 6)


# -- corpus segmentation --------------------------------------------------------------


def test_corpus_lines_skip_blank_lines_and_cap_length():
    assert mf.corpus_lines("\n\nfirst\n  \nsecond line\n", count=5, max_chars=6) == ["first", "second"]
    assert len(mf.corpus_lines("x\n" * 20)) == 5


def test_segmentation_shows_merges_fusing_symbols(banana):
    text = "banana_bandana_"
    before = mf.segmentation_html([banana.prefix(0).encode_with_spans(text)])
    after_step_1 = mf.segmentation_html([banana.prefix(1).encode_with_spans(text)], highlight_id=banana.vocab["an"])
    assert before.count("<span") == 15
    assert after_step_1.count("<span") == 11  # b an an a _ b an d an a _
    assert after_step_1.count(f"border:2px solid {mf.WINNER_COLOUR}") == 4
    for colour in mf.TOKEN_BACKGROUNDS:  # neighbours alternate
        assert f"background:{colour}" in after_step_1


def test_segmentation_marks_unknown_characters_like_the_encode_page(banana):
    page = mf.segmentation_html([banana.encode_with_spans("banzai")])  # z and i never seen in training
    unknown_boxes = [box for box in page.split("<span")[1:] if ">&lt;unk&gt;</span>" in box]
    assert len(unknown_boxes) == 2
    assert all("never appeared in the training text" in box for box in unknown_boxes)
    assert all(any(f"background:{colour}" in box for colour in PALETTES["unknown"]) for box in unknown_boxes)
    assert not any(f"background:{colour}" in page for colour in PALETTES["normal"])


def test_segmentation_leaves_a_gap_where_no_token_covers_the_text():
    tok = train("ab ab", Config(split="whitespace"), merges=1)
    page = mf.segmentation_html([tok.encode_with_spans("ab ab")])
    assert page.count(">ab</span>") == 2 and page.count("width:0.7em") == 1


def test_segmentation_escapes_token_text():
    tokens = [Token(1, "<script>", 0, 8, b"<script>"), Token(2, 'x"&\n', 8, 12, b'x"&\n')]
    page = mf.segmentation_html([tokens])
    assert "<script>" not in page
    assert "&lt;script&gt;" in page
    assert 'title="id 2: x&quot;&amp;↵"' in page and ">x&quot;&amp;↵</span>" not in page
    assert ">x\"&amp;↵</span>" in page


def test_segmentation_of_a_trained_model_escapes_html(banana):
    tok = train("<script>alert(1)</script>\n", Config(split="none"), merges=10)
    page = mf.segmentation_html([tok.encode_with_spans("<script>alert(1)</script>")])
    assert "<script" not in page and "</script" not in page


def test_step_card_escapes_and_reports_ties(banana):
    card = mf.step_card_html(banana.steps[1], "first")
    assert "b + an" in card and "ban" in card and "3 pairs shared the top count; first occurrence wins" in card
    assert "&lt;" in mf.step_card_html(Step(1, "<", "b>", "<b>", 9, 4, 1), "hf")
    assert "n/a" in mf.step_card_html(load_gpt2().steps[0], "hf")


# -- merge trees ------------------------------------------------------------------------


def test_tree_of_banana_ban(banana):
    tree = banana.merge_tree("banana_ban")
    nodes, edges = mf.tree_layout(tree)
    assert len(nodes) == 19 and len(edges) == 18
    leaves = sorted((node for node in nodes if node.step is None), key=lambda node: node.x)
    assert [node.token for node in leaves] == list("banana_ban")
    assert [node.x for node in leaves] == list(range(10)) and {node.y for node in leaves} == {0}
    by_path = {node.path: node for node in nodes}
    for parent, _ in edges:  # every parent is centred above its two children
        node = by_path[parent]
        assert node.x == (by_path[parent + "L"].x + by_path[parent + "R"].x) / 2
        assert node.y > max(by_path[parent + "L"].y, by_path[parent + "R"].y)
    assert by_path[""].token == "banana_ban" and by_path[""].step == 6

    figure = mf.tree_figure(tree)
    edges_trace, nodes_trace = figure.data
    assert sum(1 for x in edges_trace.x if x is None) == 18
    assert len(nodes_trace.text) == 19 and nodes_trace.text[0] == "banana_ban"
    assert [box.text for box in figure.layout.annotations] == list(nodes_trace.text)
    assert "made at step 6, count 1" in nodes_trace.hovertext[0]
    assert "base symbol" in nodes_trace.hovertext[-1]


def test_tree_with_repeated_tokens_keeps_every_node():
    tok = train("aaaa", Config(split="none"), merges=2)
    tree = tok.merge_tree("aaaa")
    assert (tree.left.token, tree.right.token) == ("aa", "aa")
    nodes, edges = mf.tree_layout(tree)
    assert [node.token for node in nodes] == ["aaaa", "aa", "a", "a", "aa", "a", "a"]
    assert len({node.path for node in nodes}) == 7 and len(edges) == 6
    assert sorted(node.x for node in nodes if node.token == "a") == [0, 1, 2, 3]
    assert sorted(node.x for node in nodes if node.token == "aa") == [0.5, 2.5]


def test_long_tree_grows_wide_with_bounded_font():
    tok = train("a" * 32, Config(split="none"), merges=5)
    figure = mf.tree_figure(tok.merge_tree("a" * 32))
    assert figure.layout.meta == {"leaves": 32, "collapsed": 0}
    assert figure.layout.width == 56 * 32 + 120
    sizes = {box.font.size for box in figure.layout.annotations}
    assert sizes == {12}


def test_huge_tree_is_drawn_down_to_a_legible_number_of_boxes():
    gpt2 = load_gpt2()
    token = max(mf.leaf_counts(gpt2.steps).items(), key=lambda item: item[1])[0]
    tree = gpt2.merge_tree(token)
    assert len(tree.leaves()) == 128
    nodes, edges = mf.tree_layout(tree)
    bottom = [node for node in nodes if node.y == 0]
    assert len(bottom) == mf.MAX_TREE_LEAVES and len(nodes) == 2 * len(bottom) - 1 == len(edges) + 1
    assert all(node.collapsed and node.step is not None for node in bottom)  # merged parts, not symbols
    assert "".join(node.token for node in sorted(bottom, key=lambda node: node.x)) == token
    figure = mf.tree_figure(tree)
    assert figure.layout.meta["collapsed"] == 32
    assert figure.layout.width == 56 * 32 + 120
    assert "its parts are not drawn" in figure.data[1].hovertext[-1]
    assert figure.layout.annotations[-1].bgcolor == mf.COLLAPSED_BACKGROUND
    root_box = figure.layout.annotations[0].text
    assert len(root_box) == 39 and "…" in root_box  # long labels are cut in the middle
    assert figure.data[1].text[0] == token  # the marker keeps the whole token


def test_tree_hover_without_counts_says_na():
    tree = load_gpt2().merge_tree("Hello")
    hover = mf.tree_figure(tree).data[1].hovertext[0]
    assert hover.startswith("Hello: made at step") and hover.endswith("count n/a")


def test_default_tree_token_is_a_long_one(banana):
    assert mf.default_tree_token(banana.steps) == "banana_ban"
    assert mf.default_tree_token([]) is None
    assert mf.leaf_counts(banana.steps)["banana_"] == 7


# -- overviews ------------------------------------------------------------------------------


def test_sample_indices_keep_the_start_and_an_even_sample():
    chosen = mf.sample_indices(16_000, 2000)
    assert len(chosen) == 2000 and chosen == sorted(set(chosen))
    assert chosen[:500] == list(range(500)) and chosen[-1] == 15_999
    gaps = {b - a for a, b in zip(chosen[500:], chosen[501:])}
    assert max(gaps) - min(gaps) <= 1
    assert mf.sample_indices(30, 2000) == list(range(30))


def test_forest_colours_by_log_count(banana):
    figure = mf.forest_figure(banana.steps)
    trace = figure.data[0]
    assert list(trace.x) == [1, 2, 3, 4, 5, 6]
    assert list(trace.y) == [2, 3, 3, 4, 7, 10]
    assert trace.marker.color[0] == pytest.approx(0.60206, abs=1e-4)  # log10(4)
    assert trace.marker.colorbar.title.text == "count"
    assert "step 6: banana_ + ban → banana_ban" in trace.hovertext[5]


def test_forest_without_counts_has_one_colour():
    figure = mf.forest_figure(load_gpt2().steps)
    assert figure.data[0].marker.color == mf.OTHER_COLOUR
    assert figure.layout.meta["shown"] == 2000 and figure.layout.meta["total"] == 50_000


def test_big_model_figures_stay_small(big_steps):
    for figure in (mf.forest_figure(big_steps), mf.count_curve_figure(big_steps)):
        assert len(figure.to_json()) < MAX_FIGURE_JSON
    assert mf.forest_figure(big_steps).layout.meta["shown"] == 2000


def test_count_curve_marks_rises():
    counts = [5, 3, 4, 4, 2, 6]
    steps = [Step(i + 1, "x", str(i), f"x{i}", 10 + i, count, 1) for i, count in enumerate(counts)]
    figure = mf.count_curve_figure(steps)
    line, rises = figure.data
    assert list(line.y) == counts
    assert list(rises.x) == [3, 6] and rises.marker.symbol == "triangle-up"
    assert figure.layout.yaxis.type == "log" and figure.layout.meta["rising"] == 2


def test_textbook_counts_never_rise(banana):
    assert mf.rising_steps(banana.steps) == []
    assert list(mf.count_curve_figure(banana.steps).data[0].y) == [4, 2, 2, 2, 1, 1]


def test_cut_tree_opens_the_widest_parts_first(banana):
    nodes, _ = mf.tree_layout(banana.merge_tree("banana_ban"), max_leaves=4)
    bottom = sorted((node for node in nodes if node.y == 0), key=lambda node: node.x)
    # banana_ban = banana_ + ban; banana_ = ban + ana_ opens first (7 symbols), then ana_ or ban.
    assert [node.token for node in bottom] == ["ban", "ana", "_", "ban"]
    assert [node.collapsed for node in bottom] == [True, True, False, True]
