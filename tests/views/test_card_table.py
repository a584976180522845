"""The shared HTML table (cards on a phone): every cell escaped, numbers marked, the phone's CSS."""

from __future__ import annotations

import re

from drawing.card_table import card_table_html


def cells(markup: str) -> list[list[str]]:
    return [re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", markup)]


def test_rows_become_a_head_and_a_body_with_every_text_escaped():
    markup = card_table_html(
        [{"name": "<img src=x>", "count": 1234}, {"name": 'say "hi" & go', "count": 5}], "Counts", numeric={"count"}
    )
    assert cells(markup) == [["name", "count"], ["&lt;img src=x&gt;", "1234"], ["say &quot;hi&quot; &amp; go", "5"]]
    assert "<img" not in markup.split("</style>")[1]
    assert '<th class="num">count</th>' in markup and '<td class="num" data-column="count">5</td>' in markup


def test_each_cell_names_its_column_for_the_phones_cards():
    markup = card_table_html([{'a "b" <c>': "x"}], "Cells")
    assert '<td data-column="a &quot;b&quot; &lt;c&gt;">x</td>' in markup
    # at most 520 px wide the head hides, each row is a block and each cell shows its column before its value
    phone = markup[markup.index("@media (max-width:520px)") :]
    assert ".bpe-table thead{display:none}" in phone and "td::before{content:attr(data-column)" in phone


def test_a_table_names_its_class_and_a_tall_one_scrolls_in_its_own_box():
    named = '<div class="bpe-table" tabindex="0" role="region" aria-label="A &lt;b&gt;">'
    assert named in card_table_html([{"a": 1}], "A <b>")  # Tab reaches the box, and a screen reader names it
    assert '<div class="bpe-table bpe-tt tall" tabindex="0"' in card_table_html(
        [{"a": 1}], "T", name="bpe-tt", tall=True
    )
    assert ".bpe-table.tall{max-height:26rem;overflow-y:auto}" in card_table_html([], "T")


def test_no_rows_give_an_empty_table():
    assert cells(card_table_html([], "Empty")) == [[]]
