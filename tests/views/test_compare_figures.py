"""Compare page figures: traces per text against the vocabulary size, a vertical marker per compared size, escaped
hovers."""

from __future__ import annotations

import pytest

from bpe_core import Config, train
from viz.compare_data import tokens_by_merge_count, vocabulary_usage
from viz.compare_figures import MAX_CURVE_POINTS, compression_figure, sampled_steps, usage_figure

CORPUS = "low lower newest widest low low low low newest newest newest newest"
# A trained model's vocabulary is its base vocabulary plus one token a merge: 12 for the marker model
# (<unk>, </w> and the ten letters of l o w e r n s t i d), 6 for banana (<unk> and b a n _ d).
MARKER_VOCABULARY, BANANA_VOCABULARY = (lambda merges: 12 + merges), (lambda merges: 6 + merges)


@pytest.fixture(scope="module")
def marker_model():
    return train(CORPUS, Config(end_of_word="</w>"), merges=12)


def test_two_traces_per_text_and_two_lines_per_size(marker_model):
    held_out = "lowest wider"
    curves = {
        "training corpus": (CORPUS, tokens_by_merge_count(marker_model, CORPUS)),
        "your text": (held_out, tokens_by_merge_count(marker_model, held_out)),
    }
    fig = compression_figure(curves, MARKER_VOCABULARY, marked_sizes=[0, 4, 12])
    assert len(fig.data) == 4
    assert [trace.name for trace in fig.data if trace.showlegend is not False] == ["training corpus", "your text"]
    vertical = [shape for shape in fig.layout.shapes if shape.x0 == shape.x1]
    assert sorted(shape.x0 for shape in vertical) == [12, 12, 16, 16, 24, 24]  # at the vocabularies of 0, 4, 12 merges
    assert {shape.xref for shape in vertical} == {"x", "x2"}  # both panels


def test_curve_values_are_the_token_counts_and_ratios():
    # banana_bandana_ cut by its first 0..6 textbook merges (a n, b an, an a, ana _, ban ana_, banana_ ban)
    fig = compression_figure({"training corpus": ("banana_bandana_", [15, 11, 9, 7, 5, 4, 3])}, BANANA_VOCABULARY)
    tokens_trace, ratio_trace = fig.data
    assert list(tokens_trace.x) == [6, 7, 8, 9, 10, 11, 12] == list(ratio_trace.x)
    assert list(tokens_trace.y) == [15, 11, 9, 7, 5, 4, 3]
    assert list(ratio_trace.y) == pytest.approx([1.0, 15 / 11, 15 / 9, 15 / 7, 3.0, 3.75, 5.0])
    assert fig.layout.shapes == ()


def test_long_curves_are_thinned_but_keep_the_marked_sizes():
    counts = list(range(50_001, 0, -1))  # a 50,000-merge model
    fig = compression_figure({"text": ("x" * 10, counts)}, lambda merges: 256 + merges, marked_sizes=[12_345])
    xs = list(fig.data[0].x)
    assert len(xs) <= MAX_CURVE_POINTS + 1
    assert xs[0] == 256 and xs[-1] == 50_256 and 12_601 in xs
    assert fig.data[0].y[xs.index(12_601)] == counts[12_345]


def test_sampled_steps_ignores_sizes_outside_the_model():
    assert sampled_steps(3, keep=[7]) == [0, 1, 2, 3]
    assert sampled_steps(100, keep=[150], limit=3) == [0, 50, 100]


def test_usage_bars_stack_used_and_unused_with_escaped_hover(marker_model):
    ids = marker_model.encode("lowest lower")
    usage = vocabulary_usage(marker_model, ids, bins=4)
    fig = usage_figure(usage)
    used, unused = fig.data
    assert fig.layout.barmode == "stack"
    assert list(used.x) == [b.label for b in usage.bins]
    assert list(used.y) == [b.used for b in usage.bins]
    assert [u + n for u, n in zip(used.y, unused.y)] == [b.tokens for b in usage.bins]
    hover = " ".join(used.hovertext)
    assert "&lt;/w&gt;" in hover and "</w>" not in hover  # plotly would eat an unescaped tag


def test_tokens_become_a_share_when_texts_differ_a_lot(marker_model):
    short = "low"
    curves = {"training corpus": (CORPUS, tokens_by_merge_count(marker_model, CORPUS))}
    absolute = compression_figure(curves, MARKER_VOCABULARY)  # one text
    # 56 letters in 12 words, each word ending in </w>: 68 tokens before any merge
    assert absolute.layout.annotations[0].text == "Tokens needed" and absolute.data[0].y[0] == 68
    curves["your text"] = (short, tokens_by_merge_count(marker_model, short))  # l o w </w>: 4 tokens, 68 > 10 x 4
    fig = compression_figure(curves, MARKER_VOCABULARY)
    assert fig.layout.annotations[0].text == "Tokens, % of unmerged"
    assert (fig.data[0].y[0], fig.data[2].y[0]) == (100, 100)  # each text from all of its unmerged tokens
    assert fig.layout.yaxis.type is None and fig.layout.yaxis2.type is None  # no log axis flattens the curves


# -- small figures worked out by hand ------------------------------------------------------------

from viz.compare_data import UsageBin, VocabularyUsage  # noqa: E402
from viz.compare_figures import LINE_COLOURS, SIZE_COLOURS, UNUSED_COLOUR, USED_COLOUR  # noqa: E402

# banana_bandana_ (15 characters) with 0..6 textbook merges, and "banana" (6) with 0..3
BANANA_CURVES = {
    "training corpus": ("banana_bandana_", [15, 11, 9, 7, 5, 4, 3]),
    "held <out>": ("banana", [6, 4, 3, 2]),
}


def test_each_text_has_a_token_curve_and_a_ratio_curve_in_its_colour():
    fig = compression_figure(BANANA_CURVES, BANANA_VOCABULARY)
    tokens, ratios, short_tokens, short_ratios = fig.data
    assert (tokens.xaxis, ratios.xaxis) == ("x", "x2")  # left panel, right panel
    assert list(short_tokens.x) == [6, 7, 8, 9]  # a shorter curve stops at its own last size
    assert list(short_tokens.y) == [6, 4, 3, 2]
    assert list(short_ratios.y) == pytest.approx([1.0, 1.5, 2.0, 3.0])  # 6 characters / tokens
    assert [trace.line.color for trace in fig.data] == [LINE_COLOURS[0]] * 2 + [LINE_COLOURS[1]] * 2
    # one legend entry per text; clicking it hides both of its curves
    assert [trace.showlegend for trace in fig.data] == [None, False, None, False]
    assert [trace.legendgroup for trace in fig.data] == ["training corpus"] * 2 + ["held <out>"] * 2
    # steps, not slopes: the token count only changes at a merge
    assert {(trace.mode, trace.line.shape, trace.line.width) for trace in fig.data} == {("lines", "hv", 2)}
    # the hover names the text, escaped (plotly would read <out> as a tag)
    assert short_tokens.hovertemplate == "%{y:,} tokens<extra>held &lt;out&gt;</extra>"
    assert short_ratios.hovertemplate == "%{y:.2f} characters per token<extra>held &lt;out&gt;</extra>"


def test_line_colours_repeat_after_four_texts():
    curves = {f"text {index}": ("ab", [2, 1]) for index in range(5)}
    colours = [trace.line.color for trace in compression_figure(curves, BANANA_VOCABULARY).data[::2]]
    assert colours == [*LINE_COLOURS, LINE_COLOURS[0]]


def test_compression_axes_and_layout():
    fig = compression_figure(BANANA_CURVES, BANANA_VOCABULARY)
    assert [(note.text, note.font.size) for note in fig.layout.annotations] == [
        ("Tokens needed", 13), ("Characters per token", 13),
    ]
    for axis in (fig.layout.xaxis, fig.layout.xaxis2):
        assert axis.title.text == "vocabulary size"
        assert axis.unifiedhovertitle.text == "vocabulary %{x:,}"
        assert (axis.type, axis.rangemode, axis.separatethousands) == (None, None, True)  # linear, from the base
    for axis in (fig.layout.yaxis, fig.layout.yaxis2):
        assert (axis.type, axis.rangemode, axis.separatethousands) == (None, "tozero", True)  # counts and ratios from 0
        assert axis.ticksuffix is None
    # 0.09 of the width between the panels: the right panel's tick labels do not touch the left curves
    assert fig.layout.xaxis2.domain[0] - fig.layout.xaxis.domain[1] == pytest.approx(0.09)
    # two panels side by side filling the width and height, and no third axis
    assert (fig.layout.xaxis.domain[0], fig.layout.xaxis2.domain[1]) == (0, 1)
    assert tuple(fig.layout.yaxis.domain) == (0, 1) and not {"xaxis3", "yaxis3"} & set(fig.layout.to_plotly_json())
    assert fig.layout.hovermode == "x unified"  # one hover lists every text at that size
    assert fig.layout.height == 400
    assert fig.layout.margin.to_plotly_json() == {"l": 10, "r": 10, "t": 60, "b": 10}
    legend = fig.layout.legend
    # a horizontal legend above the panel titles, from the left edge
    assert (legend.orientation, legend.yanchor, legend.y, legend.x) == ("h", "bottom", 1.1, 0)


def test_tokens_become_a_share_of_the_unmerged_count_past_ten_times():
    ten_times = {"big": ("x" * 100, [100, 50]), "small": ("x" * 10, [10, 5])}
    same_scale = compression_figure(ten_times, BANANA_VOCABULARY)  # 100 is not more than 10 x 10
    assert [list(trace.y) for trace in same_scale.data[::2]] == [[100, 50], [10, 5]]
    assert same_scale.data[0].hovertemplate == "%{y:,} tokens<extra>big</extra>"
    more = {"big": ("x" * 101, [101, 50]), "small": ("x" * 10, [10, 4])}
    fig = compression_figure(more, BANANA_VOCABULARY)
    big, _, small, small_ratios = fig.data
    # 50 of 101 is 49.50 %, 4 of 10 is 40 %; the counts themselves stay in the hover
    assert list(big.y) == pytest.approx([100, 49.50495]) and list(small.y) == [100, 40]
    assert list(big.customdata) == [101, 50] and list(small.customdata) == [10, 4]
    assert small.hovertemplate == "%{customdata:,} tokens (%{y:.0f}%)<extra>small</extra>"
    assert list(small_ratios.y) == [1.0, 2.5]  # characters per token do not change: 10 characters / 4 tokens
    assert (fig.layout.yaxis.ticksuffix, fig.layout.yaxis2.ticksuffix) == ("%", None)
    assert (fig.layout.yaxis.type, fig.layout.yaxis.rangemode) == (None, "tozero")
    # an empty text (0 tokens) is left out of the comparison: it would make any other text 'ten times' bigger
    with_empty = {"text": ("x" * 20, [20, 10]), "empty": ("", [0, 0])}
    assert [list(trace.y) for trace in compression_figure(with_empty, BANANA_VOCABULARY).data[::2]] == [[20, 10], [0, 0]]
    # models without merges: one point per text, compared at their base vocabulary (30 > 10 x 2)
    no_merges = compression_figure({"big": ("x" * 30, [30]), "small": ("xx", [2])}, BANANA_VOCABULARY)
    assert [list(trace.y) for trace in no_merges.data[::2]] == [[100], [100]] and list(no_merges.data[0].x) == [6]


def test_marked_sizes_get_a_dotted_line_in_each_panel_and_a_label_on_the_left():
    # a loaded model whose merge 2 makes a token again: vocabularies 6, 7, 7, 8 after 0..3 merges
    vocabulary_after = [6, 7, 7, 8].__getitem__
    fig = compression_figure({"text": ("abcd", [4, 3, 3, 2])}, vocabulary_after, marked_sizes=[1, 3, 0])
    assert list(fig.data[0].x) == [6, 7, 7, 8]  # the repeated merge draws a step straight down, if any
    lines = fig.layout.shapes
    assert [(shape.x0, shape.xref) for shape in lines] == [(7, "x"), (7, "x2"), (8, "x"), (8, "x2"), (6, "x"), (6, "x2")]
    assert [shape.line.color for shape in lines] == [SIZE_COLOURS[0]] * 2 + [SIZE_COLOURS[1]] * 2 + [SIZE_COLOURS[2]] * 2
    assert {(shape.line.dash, shape.line.width) for shape in lines} == {("dot", 1.5)}
    labels = [note for note in fig.layout.annotations if note.text not in ("Tokens needed", "Characters per token")]
    assert [note.text for note in labels] == ["7", "8", "6"]  # each size's vocabulary
    assert [note.x for note in labels] == [7, 8, 6]
    # one line of 11 px text lower each: 1, 0.94, 0.88 of the panel's height, from the top
    assert [note.y for note in labels] == pytest.approx([1, 0.94, 0.88])
    assert {(note.xref, note.yref, note.xanchor, note.yanchor) for note in labels} == {("x", "y domain", "left", "top")}
    assert [note.font.color for note in labels] == [SIZE_COLOURS[0], SIZE_COLOURS[1], SIZE_COLOURS[2]]
    assert {(note.font.size, note.bgcolor, note.showarrow) for note in labels} == {(11, "rgba(255,255,255,0.8)", False)}
    assert compression_figure({"t": ("ab", [2, 1])}, lambda merges: 1_500, [1]).layout.annotations[-1].text == "1,500"


def test_size_colours_repeat_after_four_sizes():
    fig = compression_figure({"text": ("ab", [2, 1])}, BANANA_VOCABULARY, marked_sizes=[0, 1, 2, 3, 4])
    assert [shape.line.color for shape in fig.layout.shapes[::2]] == [*SIZE_COLOURS, SIZE_COLOURS[0]]


def test_no_curves_give_an_empty_figure():
    fig = compression_figure({}, BANANA_VOCABULARY)
    assert fig.data == () and fig.layout.annotations[0].text == "Tokens needed"


def test_sampled_steps_limits():
    assert sampled_steps(4, limit=5) == [0, 1, 2, 3, 4]  # 5 points fit a limit of 5 exactly
    assert sampled_steps(0, limit=1) == [0]  # no merges: the one point fits a limit of one
    # 6 points for a limit of 5: round(5 * i / 4) for i = 0..4 is 0, 1, 2 (2.5 rounds to even), 4, 5
    assert sampled_steps(5, limit=5) == [0, 1, 2, 4, 5]
    # kept sizes inside 0..1000 join the spread; -1 and 1001 are not sizes of this model
    assert sampled_steps(1000, keep=[-1, 999, 1001], limit=5) == [0, 250, 500, 750, 999, 1000]
    assert sampled_steps(1000, keep=[0, 1000], limit=5) == [0, 250, 500, 750, 1000]
    assert MAX_CURVE_POINTS == 400
    assert sampled_steps(399) == list(range(400))  # 400 points fit the default limit whole
    assert len(sampled_steps(400)) == 400  # 401 do not: round(400 * i / 399) for i = 0..399, all different


def test_the_default_models_2000_merges_are_drawn_with_400_points_per_line():
    # round(2000 * i / 399): i = 1, 2, 3 give 5.01, 10.03, 15.04; i = 398 gives 1994.99; i = 399 gives 2000
    steps = sampled_steps(2000)
    assert len(steps) == 400 and steps[:4] == [0, 5, 10, 15] and steps[-2:] == [1995, 2000]
    # the default sizes 0, 200, 2000: i = 39 and 40 give 195.49 and 200.50, so 200 is added between 195 and 201
    marked = sampled_steps(2000, keep=[0, 200, 2000])
    assert len(marked) == 401 and marked[39:42] == [195, 200, 201]


USAGE = VocabularyUsage(
    [UsageBin(0, 0, 5, 4, 9, (("a", 5), ("<b>", 2))), UsageBin(1, 3, 3, 1, 2, (("ab", 2),)), UsageBin(4, 4, 1, 0, 0, ())],
    vocabulary=9, used=5, never_used=4, text_tokens=11,
)


def test_usage_bars_count_used_and_unused_entries_per_bin():
    fig = usage_figure(USAGE)
    used, unused = fig.data
    assert (used.name, unused.name) == ("used by the text", "never used")
    assert list(used.x) == ["base", "1-3", "4"] and list(unused.x) == ["base", "1-3", "4"]
    assert list(used.y) == [4, 1, 0] and list(unused.y) == [1, 2, 1]  # tokens - used: 5 - 4, 3 - 1, 1 - 0
    assert (used.marker.color, unused.marker.color) == (USED_COLOUR, UNUSED_COLOUR)
    assert (used.hoverinfo, unused.hoverinfo) == ("text", "text")
    assert list(used.hovertext) == list(unused.hovertext)  # either part of a bar tells about the whole bin
    assert fig.layout.barmode == "stack" and fig.layout.bargap == 0.15
    assert fig.layout.xaxis.type == "category"  # "4" is a bin's name, not a number on a scale
    assert fig.layout.xaxis.title.text == "the merge steps that made them"  # short enough for a phone
    assert fig.layout.yaxis.title.text == "vocabulary entries"
    assert fig.layout.height == 360
    assert fig.layout.margin.to_plotly_json() == {"l": 10, "r": 10, "t": 30, "b": 10}
    legend = fig.layout.legend
    # horizontal, above the bars, in trace order (used first, as stacked from the bottom)
    assert (legend.orientation, legend.yanchor, legend.y, legend.x, legend.traceorder) == ("h", "bottom", 1.02, 0, "normal")


def test_usage_hover_says_which_tokens_and_how_they_are_used():
    base, middle, last = usage_figure(USAGE).data[0].hovertext
    assert base == "<b>base symbols</b><br>4 of 5 used · 9 tokens of the text<br>most used: a ×5, &lt;b&gt; ×2"
    assert middle == "<b>tokens made in steps 1-3</b><br>1 of 3 used · 2 tokens of the text<br>most used: ab ×2"
    assert last == "<b>tokens made in steps 4</b><br>0 of 1 used · 0 tokens of the text"  # nothing used: no examples
    big = UsageBin(1, 9, 12_345, 1_234, 56_789, (("\n", 1_000),))
    assert usage_figure(VocabularyUsage([big], 12_345, 1_234, 11_111, 56_789)).data[0].hovertext[0] == (
        "<b>tokens made in steps 1-9</b><br>1,234 of 12,345 used · 56,789 tokens of the text<br>most used: ↵ ×1,000"
    )
