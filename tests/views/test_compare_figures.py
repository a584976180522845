"""Compare page figures: traces per text, a vertical marker per compared size, escaped hovers."""

from __future__ import annotations

import pytest

from bpe_core import Config, train
from viz.compare_data import tokens_by_merge_count, vocabulary_usage
from viz.compare_figures import MAX_CURVE_POINTS, compression_figure, sampled_steps, usage_figure

CORPUS = "low lower newest widest low low low low newest newest newest newest"


@pytest.fixture(scope="module")
def marker_model():
    return train(CORPUS, Config(end_of_word="</w>"), merges=12)


def test_two_traces_per_text_and_two_lines_per_size(marker_model):
    held_out = "lowest wider"
    curves = {
        "training corpus": (CORPUS, tokens_by_merge_count(marker_model, CORPUS)),
        "your text": (held_out, tokens_by_merge_count(marker_model, held_out)),
    }
    fig = compression_figure(curves, marked_sizes=[0, 4, 12])
    assert len(fig.data) == 4
    assert [trace.name for trace in fig.data if trace.showlegend is not False] == ["training corpus", "your text"]
    vertical = [shape for shape in fig.layout.shapes if shape.x0 == shape.x1]
    assert sorted(shape.x0 for shape in vertical) == [0, 0, 4, 4, 12, 12]
    assert {shape.xref for shape in vertical} == {"x", "x2"}  # both panels


def test_curve_values_are_the_token_counts_and_ratios():
    # banana_bandana_ cut by its first 0..6 textbook merges (a n, b an, an a, ana _, ban ana_, banana_ ban)
    fig = compression_figure({"training corpus": ("banana_bandana_", [15, 11, 9, 7, 5, 4, 3])})
    tokens_trace, ratio_trace = fig.data
    assert list(tokens_trace.x) == [0, 1, 2, 3, 4, 5, 6]
    assert list(tokens_trace.y) == [15, 11, 9, 7, 5, 4, 3]
    assert list(ratio_trace.y) == pytest.approx([1.0, 15 / 11, 15 / 9, 15 / 7, 3.0, 3.75, 5.0])
    assert fig.layout.shapes == ()


def test_long_curves_are_thinned_but_keep_the_marked_sizes():
    counts = list(range(50_001, 0, -1))  # a 50,000-merge model
    fig = compression_figure({"text": ("x" * 10, counts)}, marked_sizes=[12_345])
    xs = list(fig.data[0].x)
    assert len(xs) <= MAX_CURVE_POINTS + 1
    assert xs[0] == 0 and xs[-1] == 50_000 and 12_345 in xs
    assert fig.data[0].y[xs.index(12_345)] == counts[12_345]


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


def test_tokens_axis_turns_logarithmic_when_texts_differ_a_lot(marker_model):
    short = "low"
    curves = {"training corpus": (CORPUS, tokens_by_merge_count(marker_model, CORPUS))}
    linear = compression_figure(curves)  # one text
    assert linear.layout.yaxis.type is None and linear.layout.annotations[0].text == "Tokens needed"
    curves["your text"] = (short, tokens_by_merge_count(marker_model, short))  # 4 vs 70 tokens at 0 merges
    fig = compression_figure(curves)
    assert fig.layout.yaxis.type == "log" and fig.layout.yaxis2.type is None
    assert fig.layout.annotations[0].text == "Tokens needed (log scale)"
