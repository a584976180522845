"""Compare's compression curves and size table as HTML: the values drawn, the axes, the compared sizes, the hover
bands and the escaping, on curves worked out by hand."""

from __future__ import annotations

import base64
import re

import pytest

from bpe_core import Config, train
from pages.compare.views.curves import (
    LINE_COLOURS,
    MAX_CURVE_POINTS,
    SIZE_COLOURS,
    compression_html,
    curve_panels,
    sampled_steps,
    size_table_html,
    tick_label,
    tick_step,
    ticks,
)
from pages.compare.views.data import ComparedSize, size_table, tokens_by_merge_count

# banana_bandana_ (15 characters) cut by its first 0..6 textbook merges (a n, b an, an a, ana _, ban ana_,
# banana_ ban), and "banana" (6 characters) by 0..3; the vocabulary is <unk> and b a n _ d (6) plus one a merge
BANANA_CURVES = {
    "training corpus": ("banana_bandana_", [15, 11, 9, 7, 5, 4, 3]),
    "held <out>": ("banana", [6, 4, 3, 2]),
}
BANANA_VOCABULARY = lambda merges: 6 + merges  # noqa: E731


def values(series) -> list[float]:
    return [value for _, value in series.points]


def test_each_text_has_its_token_counts_and_ratios_at_each_vocabulary():
    curves = curve_panels(BANANA_CURVES, BANANA_VOCABULARY)
    tokens, ratios = curves.panels
    assert (tokens.title, ratios.title) == ("Tokens needed", "Characters per token")  # 15 is not 10 x 6
    corpus, held_out = tokens.series
    assert corpus.points == ((6, 15), (7, 11), (8, 9), (9, 7), (10, 5), (11, 4), (12, 3))
    assert held_out.points == ((6, 6), (7, 4), (8, 3), (9, 2))  # a shorter curve stops at its own last size
    assert values(ratios.series[0]) == pytest.approx([1.0, 15 / 11, 15 / 9, 15 / 7, 3.0, 3.75, 5.0])
    assert values(ratios.series[1]) == pytest.approx([1.0, 1.5, 2.0, 3.0])  # 6 characters / tokens
    assert [line.colour for line in tokens.series] == [line.colour for line in ratios.series] == list(LINE_COLOURS[:2])
    assert [line.name for line in ratios.series] == ["training corpus", "held <out>"]


def test_line_colours_repeat_after_four_texts_and_no_texts_draw_empty_panels():
    curves = curve_panels({f"text {index}": ("ab", [2, 1]) for index in range(5)}, BANANA_VOCABULARY)
    assert [line.colour for line in curves.panels[0].series] == [*LINE_COLOURS, LINE_COLOURS[0]]
    empty = curve_panels({}, BANANA_VOCABULARY)
    assert [(panel.title, panel.series, panel.y_ticks) for panel in empty.panels] == [
        ("Tokens needed", (), (0, 1)),
        ("Characters per token", (), (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)),
    ]  # 0 to 1
    assert empty.x_range == (6, 7) and 'class="legend"></div>' in compression_html({}, BANANA_VOCABULARY)


def test_axes_run_from_zero_and_the_base_vocabulary_with_round_ticks():
    tokens, ratios = curve_panels(BANANA_CURVES, BANANA_VOCABULARY).panels
    # 15 tokens at most: a step of 5 (15 / 5 = 3, the next of 1, 2, 5 is 5); 5.0 characters per token: a step of 1
    assert (tokens.top, tokens.y_ticks) == (15, (0, 5, 10, 15))
    assert (ratios.top, ratios.y_ticks) == (5, (0, 1, 2, 3, 4, 5))
    curves = curve_panels(BANANA_CURVES, BANANA_VOCABULARY)
    assert curves.x_range == (6, 12) and curves.x_ticks == (6, 8, 10, 12)  # 6 sizes across: steps of 2
    # counts get whole ticks even when small; ratios may not
    small = curve_panels({"t": ("ab", [2, 1])}, BANANA_VOCABULARY).panels
    assert small[0].y_ticks == (0, 1, 2) and small[1].y_ticks == (0.0, 0.5, 1.0, 1.5, 2.0)
    # no merges: one size, drawn over one unit of the axis
    assert curve_panels({"t": ("ab", [2])}, BANANA_VOCABULARY).x_range == (6, 7)


def test_tick_helpers():
    assert [tick_step(span) for span in (2000, 15, 5.0, 0.3, 48_000)] == [500, 5, 1, 0.1, 10_000]
    assert ticks(62, 2062, 500) == (500, 1000, 1500, 2000)  # inside the range only
    assert ticks(0, 0.3, 0.1) == (0.0, 0.1, 0.2, 0.3)  # no 0.30000000000000004 left out
    assert [tick_label(v) for v in (0, 12_000, 0.5, 0.25, 1.0)] == ["0", "12,000", "0.5", "0.25", "1"]
    assert tick_label(40, "%") == "40%"


def test_tokens_become_a_share_of_the_unmerged_count_past_ten_times():
    same_scale = curve_panels({"big": ("x" * 100, [100, 50]), "small": ("x" * 10, [10, 5])}, BANANA_VOCABULARY)
    assert [values(line) for line in same_scale.panels[0].series] == [[100, 50], [10, 5]]  # 100 is not > 10 x 10
    more = curve_panels({"big": ("x" * 101, [101, 50]), "small": ("x" * 10, [10, 4])}, BANANA_VOCABULARY)
    tokens, ratios = more.panels
    assert (tokens.title, tokens.y_suffix, ratios.y_suffix) == ("Tokens, % of unmerged", "%", "")
    # 50 of 101 is 49.50 %, 4 of 10 is 40 %; characters per token do not change: 10 characters / 4 tokens
    assert values(tokens.series[0]) == pytest.approx([100, 49.50495]) and values(tokens.series[1]) == [100, 40]
    assert values(ratios.series[1]) == [1.0, 2.5]
    assert tokens.y_ticks == (0, 20, 40, 60, 80, 100)
    # an empty text (0 tokens) is left out of the comparison: it would make any other text 'ten times' bigger
    with_empty = curve_panels({"text": ("x" * 20, [20, 10]), "empty": ("", [0, 0])}, BANANA_VOCABULARY)
    assert [values(line) for line in with_empty.panels[0].series] == [[20, 10], [0, 0]]
    # models without merges: one point per text, compared at their base vocabulary (30 > 10 x 2)
    no_merges = curve_panels({"big": ("x" * 30, [30]), "small": ("xx", [2])}, BANANA_VOCABULARY)
    assert [line.points for line in no_merges.panels[0].series] == [((6, 100),), ((6, 100),)]


def test_compared_sizes_are_marked_at_their_vocabulary_in_order():
    # a loaded model whose merge 2 makes a token again: vocabularies 6, 7, 7, 8 after 0..3 merges
    vocabulary_after = [6, 7, 7, 8].__getitem__
    curves = curve_panels({"text": ("abcd", [4, 3, 3, 2])}, vocabulary_after, marked_sizes=[1, 3, 0])
    assert curves.panels[0].series[0].points == ((6, 4), (7, 3), (7, 3), (8, 2))
    assert curves.markers == ((7, SIZE_COLOURS[0]), (8, SIZE_COLOURS[1]), (6, SIZE_COLOURS[2]))
    five = curve_panels({"text": ("ab", [2, 1])}, BANANA_VOCABULARY, marked_sizes=[0, 1, 0, 1, 0]).markers
    assert [colour for _, colour in five] == [*SIZE_COLOURS, SIZE_COLOURS[0]]  # the colours repeat after four


def test_hover_bands_reach_halfway_to_the_next_size_and_name_every_text():
    curves = curve_panels(BANANA_CURVES, BANANA_VOCABULARY)
    assert [(start, end) for start, end, _ in curves.bands] == [
        (6, 6.5),
        (6.5, 7.5),
        (7.5, 8.5),
        (8.5, 9.5),
        (9.5, 10.5),
        (10.5, 11.5),
        (11.5, 12),
    ]
    assert curves.bands[2][2] == (
        "vocabulary 8 (2 merges)\n"
        "training corpus: 9 tokens, 1.67 characters per token\n"  # 15 / 9
        "held <out>: 3 tokens, 2.00 characters per token"
    )
    assert curves.bands[4][2] == "vocabulary 10 (4 merges)\ntraining corpus: 5 tokens, 3.00 characters per token"
    assert curves.bands[1][2].startswith("vocabulary 7 (1 merge)\n")
    # a size reached twice (merge 2 made a token again) keeps a band for each of its merges
    twice = curve_panels({"t": ("abcd", [4, 3, 3, 2])}, [6, 7, 7, 8].__getitem__).bands
    assert [(start, end) for start, end, _ in twice] == [(6, 6.5), (6.5, 7), (7, 7.5), (7.5, 8)]


def test_long_curves_are_thinned_but_keep_the_marked_sizes():
    counts = list(range(50_001, 0, -1))  # a 50,000-merge model
    curves = curve_panels({"text": ("x" * 10, counts)}, lambda merges: 256 + merges, marked_sizes=[12_345])
    points = dict(curves.panels[0].series[0].points)
    assert len(points) <= MAX_CURVE_POINTS + 1 and min(points) == 256 and max(points) == 50_256
    assert points[12_601] == counts[12_345]  # the marked size sits on the curve, at its exact count
    assert len(curves.bands) <= 101


def test_sampled_steps_limits():
    assert sampled_steps(4, limit=5) == [0, 1, 2, 3, 4]  # 5 points fit a limit of 5 exactly
    assert sampled_steps(0, limit=1) == [0]  # no merges: the one point fits a limit of one
    # 6 points for a limit of 5: round(5 * i / 4) for i = 0..4 is 0, 1, 2 (2.5 rounds to even), 4, 5
    assert sampled_steps(5, limit=5) == [0, 1, 2, 4, 5]
    # kept sizes inside 0..1000 join the spread; -1 and 1001 are not sizes of this model
    assert sampled_steps(1000, keep=[-1, 999, 1001], limit=5) == [0, 250, 500, 750, 999, 1000]
    assert sampled_steps(1000, keep=[0, 1000], limit=5) == [0, 250, 500, 750, 1000]
    assert sampled_steps(3, keep=[7]) == [0, 1, 2, 3]
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


# -- the HTML -------------------------------------------------------------------------------------------


def pictures(markup: str) -> list[str]:
    """The SVG of each plot area's picture."""
    return [base64.b64decode(data).decode() for data in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', markup)]


def test_lines_are_drawn_as_steps_in_the_plot_areas_own_units():
    # "abcd" in 4 tokens, then 2: sizes 10 and 11 are the left and right edges (0 and 1000); 4 tokens at the top
    # of a 0-4 panel (0), 2 tokens halfway (500); 1 and 2 characters per token on a 0-2 panel: 500, then 0
    markup = compression_html({"t": ("abcd", [4, 2])}, lambda merges: 10 + merges)
    tokens, ratios = pictures(markup)
    assert re.findall(r'points="([^"]*)"', tokens) == ["0.0,0.0 1000.0,0.0 1000.0,500.0"]  # held, then a drop
    assert re.findall(r'points="([^"]*)"', ratios) == ["0.0,500.0 1000.0,500.0 1000.0,0.0"]
    assert 'stroke="#2b59c3"' in tokens and 'vector-effect="non-scaling-stroke"' in tokens
    # the y labels from the top, where they sit; the x labels kept inside at either end
    labels = re.findall(r'<span style="top:([\d.]+)%">([^<]*)</span>', markup)
    assert labels[:5] == [("100.00", "0"), ("75.00", "1"), ("50.00", "2"), ("25.00", "3"), ("0.00", "4")]
    assert labels[5:] == [("100.00", "0"), ("75.00", "0.5"), ("50.00", "1"), ("25.00", "1.5"), ("0.00", "2")]
    assert re.findall(r'left:([\d.]+)%;transform:translateX\((-?\d+)%\)">([^<]*)<', markup)[:2] == [
        ("0.00", "0", "10"),
        ("100.00", "-100", "11"),
    ]


def test_compared_sizes_are_labelled_in_the_first_panel_one_line_lower_each():
    markup = compression_html({"t": ("abcd", [4, 3, 3, 2])}, [1_000, 1_500, 1_500, 2_000].__getitem__, [1, 3, 0])
    marks = re.findall(r'<span class="mark" style="([^"]*)">([^<]*)</span>', markup)
    assert marks == [  # 1,500 halfway; 2,000 at the right edge, so its label sits left of its line
        ("left:50.00%;top:0px;color:#6b7080", "1,500"),
        ("right:0.00%;top:16px;color:#c77d00", "2,000"),
        ("left:0.00%;top:32px;color:#1b7f4b", "1,000"),
    ]
    tokens, ratios = pictures(markup)
    assert tokens.count('stroke-dasharray="2 3"') == ratios.count('stroke-dasharray="2 3"') == 3  # in both panels
    assert re.findall(r'<line x1="([\d.]+)"[^>]*stroke="#c77d00"', tokens) == ["1000.0"]


def test_names_and_hover_texts_are_escaped():
    markup = compression_html(BANANA_CURVES, BANANA_VOCABULARY)
    assert "held &lt;out&gt;" in markup and "<out>" not in markup
    assert markup.count('class="band"') == 2 * 7  # a band a size, in each panel
    band = re.search(r'<div class="band" style="left:([\d.]+)%;width:([\d.]+)%" title="([^"]*)" tabindex="-1">', markup)
    assert band.groups() == (
        "0.00",
        "8.33",
        "vocabulary 6 (0 merges)\ntraining corpus: 15 tokens, 1.00 characters "
        "per token\nheld &lt;out&gt;: 6 tokens, 1.00 characters per token",
    )  # 0.5 of 6 sizes
    assert '<span class="swatch" style="border-color:#e4572e"></span>held &lt;out&gt;' in markup


def test_size_table_formats_counts_and_ratios():
    model = train("banana_bandana_", Config(split="none"), merges=6)
    curves = {"a <b>": ("banana_bandana_", tokens_by_merge_count(model, "banana_bandana_"))}
    markup = size_table_html(size_table(curves, [ComparedSize(6, 0), ComparedSize(12, 6)]))
    rows = [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", markup)]
    assert rows == [
        ["vocabulary", "merges", "a &lt;b&gt;: tokens", "a &lt;b&gt;: chars/token"],
        ["6", "0", "15", "1.00"],
        ["12", "6", "3", "5.00"],
    ]  # banana_ban d ana_: 15 / 3
    big = size_table_html([{"vocabulary": 50_257, "x: tokens": 1_234_567, "x: chars/token": 4.256}])
    assert (
        '<td class="num" data-column="vocabulary">50,257</td><td class="num" data-column="x: tokens">1,234,567</td>'
        '<td class="num" data-column="x: chars/token">4.26</td>'
    ) in big
    # On a phone the header row hides and each cell names its column: one card per size, nothing to scroll.
    assert 'class="bpe-table bpe-st"' in big and "td::before{content:attr(data-column)" in big
