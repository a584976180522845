"""Compare's Languages view (pages/compare/views/languages.py): rows, tables and the dot plot from counts worked out
by hand, and GPT-2's row of Burmese from tiktoken's own counts of the bundled preambles."""

import re

from bpe_core.languages import bundled_languages, bundled_texts
from bpe_core.premium import token_counts
from bpe_core.pretrained import load_pretrained
from pages.compare.views.languages import (
    ALL_SCRIPTS,
    OWN_SCRIPT,
    PHONE_TABLE,
    WIDE_TABLE,
    YOURS,
    Label,
    all_tokenizers_rows,
    costliest_sentence,
    dot_key_html,
    dot_styles,
    language_labels,
    one_tokenizer_rows,
    premium_figure,
    premiums_by_tokenizer,
    scripts,
    shown_languages,
    tables_html,
)

TEXTS = {"eng": "the cat", "rus": "кошка", "hin": "बिल्ली", YOURS: "<b>kat</b>"}
LABELS = {
    "eng": Label("English", "Latin"),
    "rus": Label("Russian", "Cyrillic"),
    "hin": Label("Hindi", "Devanagari"),
    YOURS: Label("<b>Scots</b> (your text)", OWN_SCRIPT),
}
# Two made-up tokenizers: A charges English 4 tokens, Russian 6, Hindi 12, the user's text 2; B 2, 2, 3 and 5
COUNTS = {"A": {"eng": 4, "rus": 6, "hin": 12, YOURS: 2}, "B": {"eng": 2, "rus": 2, "hin": 3, YOURS: 5}}


def cells(markup: str, table_class: str) -> list[list[str]]:
    """The body cells of the table of that class, row by row."""
    table = re.search(rf'class="bpe-table {table_class} tall".*?</table>', markup, re.S).group(0)
    return [re.findall(r">([^<]*)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", table)[1:]]


def test_each_tokenizer_s_premiums_sorted_cheapest_first():
    premiums = premiums_by_tokenizer(COUNTS, TEXTS, "eng")
    # A: 2/4, 4/4, 6/4, 12/4; B: 2/2, 2/2, 3/2, 5/2 (a tie by code: eng before rus)
    assert [(code, row.premium) for code, row in premiums["A"].items()] == [
        (YOURS, 0.5),
        ("eng", 1.0),
        ("rus", 1.5),
        ("hin", 3.0),
    ]
    assert [(code, row.premium) for code, row in premiums["B"].items()] == [
        ("eng", 1.0),
        ("rus", 1.0),
        ("hin", 1.5),
        (YOURS, 2.5),
    ]


def test_another_reference_divides_by_its_tokens():
    premiums = premiums_by_tokenizer(COUNTS, TEXTS, "hin")
    assert {code: row.premium for code, row in premiums["A"].items()} == {
        YOURS: 2 / 12,
        "eng": 4 / 12,
        "rus": 0.5,
        "hin": 1.0,
    }


def test_a_script_filter_keeps_that_script_and_the_user_s_text_in_the_tokenizer_s_order():
    order = premiums_by_tokenizer(COUNTS, TEXTS, "eng")["B"]
    assert shown_languages(order, LABELS, ALL_SCRIPTS) == ["eng", "rus", "hin", YOURS]
    assert shown_languages(order, LABELS, "Cyrillic") == ["rus", YOURS]
    assert shown_languages(order, LABELS, "Thai") == [YOURS]


def test_the_tables_one_tokenizer_on_a_phone_every_one_on_a_wide_screen_names_escaped():
    premiums = premiums_by_tokenizer(COUNTS, TEXTS, "eng")
    codes = shown_languages(premiums["A"], LABELS, ALL_SCRIPTS)
    markup = tables_html(premiums, "A", codes, LABELS)
    assert cells(markup, PHONE_TABLE) == [
        ["&lt;b&gt;Scots&lt;/b&gt; (your text)", "your text", "2", "0.50×"],
        ["English", "Latin", "4", "1.00×"],
        ["Russian", "Cyrillic", "6", "1.50×"],
        ["Hindi", "Devanagari", "12", "3.00×"],
    ]
    assert cells(markup, WIDE_TABLE)[3] == ["Hindi", "Devanagari", "12 (3.00×)", "3 (1.50×)"]
    assert "<b>Scots" not in markup
    # each table hidden where the other is shown: every tokenizer's up to a projector's 853 px and a laptop's
    # main area beside the sidebar (1,000 px), the one tokenizer's on a wider screen
    assert f"@media (max-width:1000px){{.{WIDE_TABLE}{{display:none}}" in markup
    assert f"@media (min-width:1001px){{.{PHONE_TABLE}{{display:none}}}}" in markup


def test_rows_give_thousands_separators():
    premiums = premiums_by_tokenizer({"A": {"eng": 1000, "hin": 12_500}}, TEXTS, "eng")
    assert one_tokenizer_rows(premiums["A"], ["hin"], LABELS)[0]["Tokens"] == "12,500"
    assert all_tokenizers_rows(premiums, ["hin"], LABELS)[0]["A"] == "12,500 (12.50×)"


def test_the_sentence_names_the_dearest_and_the_cheapest():
    premiums = premiums_by_tokenizer(COUNTS, TEXTS, "eng")
    assert costliest_sentence("A", premiums["A"], LABELS, "eng") == (
        "Under A, Hindi needs the most tokens for the same text: 12, 3.00× as many as English (4). "
        "<b>Scots</b> (your text) needs the fewest."
    )


def test_gpt2_s_burmese_row_follows_tiktoken_s_counts(tiktoken_module):
    texts = bundled_texts()
    reference = tiktoken_module.get_encoding("gpt2")
    english, burmese = (len(reference.encode_ordinary(texts[code])) for code in ("eng", "mya"))
    premiums = premiums_by_tokenizer({"GPT-2": token_counts(load_pretrained("gpt2"), texts)}, texts, "eng")
    codes = shown_languages(premiums["GPT-2"], language_labels(), "Myanmar")
    assert codes == ["mya"]
    row = one_tokenizer_rows(premiums["GPT-2"], codes, language_labels())[0]
    assert row == {
        "Language": "Burmese",
        "Script": "Myanmar",
        "Tokens": f"{burmese:,}",
        "Premium": f"{burmese / english:.2f}×",
    }


def test_the_labels_name_every_bundled_language_and_the_user_s_text_once_named():
    assert len(language_labels()) == 58 and YOURS not in language_labels("   ")
    assert language_labels(" Scots ")[YOURS] == Label("Scots (your text)", OWN_SCRIPT)
    assert language_labels()["cmn"] == Label("Chinese (Mandarin)", "Han")


def test_the_scripts_are_the_data_s_27_latin_first():
    listed = scripts()
    assert sorted(listed) == sorted({language.script for language in bundled_languages()}) and len(listed) == 27
    assert listed[:2] == ["Latin", "Cyrillic"]  # 23 languages, then 4


def test_the_dot_plot_puts_each_tokenizer_s_premiums_on_the_language_rows_the_chosen_one_large():
    premiums = premiums_by_tokenizer(COUNTS, TEXTS, "eng")
    codes = shown_languages(premiums["B"], LABELS, ALL_SCRIPTS)  # eng, rus, hin, yours
    styles = dot_styles(["A", "B"], own=["A"])
    fig = premium_figure(premiums, codes, LABELS, "eng", "B", styles)
    assert [trace.name for trace in fig.data] == ["A", "B"]
    assert list(fig.data[0].x) == [1.0, 1.5, 3.0, 0.5] and list(fig.data[1].x) == [1.0, 1.0, 1.5, 2.5]
    assert list(fig.layout.yaxis.ticktext) == ["English", "Russian", "Hindi", "&lt;b&gt;Scots&lt;/b&gt; (your text)"]
    assert list(fig.layout.yaxis.range) == [3.5, -0.7]  # the first row at the top
    assert (fig.data[0].marker.size, fig.data[1].marker.size) == (7, 12)
    assert fig.data[0].marker.symbol == "circle" and fig.data[1].marker.symbol == "diamond"
    assert fig.layout.xaxis.type == "log" and fig.layout.xaxis.title.text == "tokens ÷ English's tokens"
    hover = fig.data[1].hovertext[3]  # the user's text under B: 5 tokens, 10 bytes ("<b>kat</b>"), 2.5× English
    assert hover == (
        "<b>&lt;b&gt;Scots&lt;/b&gt; (your text)</b> (your text) · B<br>5 tokens, 2.50× English<br>"
        "2.00 bytes, 2.00 characters a token"
    )


def test_the_key_names_each_tokenizer_escaped_with_its_symbol():
    markup = dot_key_html(dot_styles(["Mine at 7", "<i>GPT</i>"], own=["Mine at 7"]))
    assert re.findall(r'aria-hidden="true">(.)</span> ([^<]*)</span>', markup) == [
        ("●", "Mine at 7"),
        ("◆", "&lt;i&gt;GPT&lt;/i&gt;"),
    ]
