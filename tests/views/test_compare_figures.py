"""Compare page figures (plotly, the tabs other than Compression): vocabulary usage bars, escaped hovers. The
compression curves are HTML: tests/views/test_compare_curves.py."""

from __future__ import annotations

import pytest

from bpe_core import Config, train
from pages.compare.views.data import UsageBin, VocabularyUsage, vocabulary_usage
from pages.compare.views.figures import UNUSED_COLOUR, USED_COLOUR, usage_figure

CORPUS = "low lower newest widest low low low low newest newest newest newest"


@pytest.fixture(scope="module")
def marker_model():
    return train(CORPUS, Config(end_of_word="</w>"), merges=12)


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


USAGE = VocabularyUsage(
    [
        UsageBin(0, 0, 5, 4, 9, (("a", 5), ("<b>", 2))),
        UsageBin(1, 3, 3, 1, 2, (("ab", 2),)),
        UsageBin(4, 4, 1, 0, 0, ()),
    ],
    vocabulary=9,
    used=5,
    never_used=4,
    text_tokens=11,
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
    assert (legend.orientation, legend.yanchor, legend.y, legend.x, legend.traceorder) == (
        "h",
        "bottom",
        1.02,
        0,
        "normal",
    )


def test_usage_hover_says_which_tokens_and_how_they_are_used():
    base, middle, last = usage_figure(USAGE).data[0].hovertext
    assert base == "<b>base symbols</b><br>4 of 5 used · 9 tokens of the text<br>most used: a ×5, &lt;b&gt; ×2"
    assert middle == "<b>tokens made in steps 1-3</b><br>1 of 3 used · 2 tokens of the text<br>most used: ab ×2"
    assert last == "<b>tokens made in step 4</b><br>0 of 1 used · 0 tokens of the text"  # nothing used: no examples
    once = UsageBin(1, 1, 1, 1, 1, (("ab", 1),))
    assert usage_figure(VocabularyUsage([once], 1, 1, 0, 1)).data[0].hovertext[0] == (
        "<b>tokens made in step 1</b><br>1 of 1 used · 1 token of the text<br>most used: ab ×1"
    )
    big = UsageBin(1, 9, 12_345, 1_234, 56_789, (("\n", 1_000),))
    assert usage_figure(VocabularyUsage([big], 12_345, 1_234, 11_111, 56_789)).data[0].hovertext[0] == (
        "<b>tokens made in steps 1-9</b><br>1,234 of 12,345 used · 56,789 tokens of the text<br>most used: ↵ ×1,000"
    )
