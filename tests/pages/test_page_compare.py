"""The Compare page under Streamlit's AppTest: every tab, the default model, textbook models and GPT-2."""

from __future__ import annotations

import base64
import html
import re

import pytest
from apptest_helpers import APP_FILE, ok, session_model, shown, table_columns
from streamlit.testing.v1 import AppTest

from bpe_core import Config, load_gpt2, textbook, train
from bpe_core.languages import bundled_languages, bundled_texts
from pages.compare import state as compare_state
from pages.compare.tabs import TAB_LABELS
from pages.compare.views.data import ComparedSize
from session import state
from session.model_about import ModelAbout
from session.page_registry import COMPARE, TRAIN
from session.training_settings import DEFAULT_SETTINGS, TrainSettings

PAGE = COMPARE.path
TABS = TAB_LABELS  # by their names in the address; the first is open on a first visit
BANANA = "banana_bandana_"


def open_compare(
    model=None, corpus: str = "", tab: str | None = None, text: str | None = None, about: ModelAbout | None = None
) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    if model is not None:
        at.session_state[state.MODEL_KEY] = model
        at.session_state[state.CORPUS_KEY] = corpus
        at.session_state[state.ABOUT_KEY] = about or ModelAbout.loaded_file("model.json")  # not trained here
    if tab is not None:
        at.session_state[compare_state.TAB_KEY] = tab
    at.run()
    at.switch_page(PAGE).run()
    ok(at)
    if text is not None:
        at.text_area(key=compare_state.TEXT_KEY).set_value(text).run()
        ok(at)
    return at


def html_with(at: AppTest, marker: str) -> str:
    return next(element.value for element in at.get("html") if marker in element.value)


def size_rows(at: AppTest) -> dict[str, list[str]]:
    """The size table under the curves, column by column, as the reader sees its cells."""
    return table_columns(at, "bpe-st")


def markdown_texts(at: AppTest) -> str:
    """The markdown on the page as the reader sees it: escaping backslashes removed, one element a line."""
    return shown(at.main.markdown).replace(" | ", "\n")


def test_default_model_shows_curves_and_three_sizes():
    at = open_compare()
    # default sizes for the 2,000-merge default model, as vocabularies: 256 base symbols (it is byte-level: every
    # byte value, and no <unk>), then one new token a merge (vocabulary of 2,256 in the sidebar)
    assert size_values(at) == [256, 456, 2256] and not at.slider  # number boxes: a slider costs ~10 ms to draw
    assert not at.get("plotly_chart") and not at.table and not at.dataframe  # light HTML only, no chart to load
    table = size_rows(at)
    assert list(table) == [
        "vocabulary",
        "merges",
        "training corpus: tokens",
        "training corpus: chars/token",
        "your text: tokens",
        "your text: chars/token",
    ]
    assert table["vocabulary"] == ["256", "456", "2,256"] and table["merges"] == ["0", "200", "2,000"]


def curve_points(at: AppTest) -> list[str]:
    """The corners of each line in the two pictures of the curves (x,y in the plot area's units)."""
    pictures = re.findall(r'base64,([^"]+)"', html_with(at, 'class="bpe-cc"'))
    svgs = [base64.b64decode(picture).decode() for picture in pictures]
    return [points.split() for svg in svgs for points in re.findall(r'points="([^"]*)"', svg)]


def marks(at: AppTest) -> list[str]:
    return re.findall(r'<span class="mark"[^>]*>([^<]*)</span>', html_with(at, 'class="bpe-cc"'))


def test_default_model_curves_are_thinned_and_follow_the_sizes():
    at = open_compare()
    # 2,000 merges drawn with 400 points a line, round(2000 * i / 399): 0, 5, 10 ... 195, plus the marked 200, 201 ...;
    # a line holds its value until the next point: 2 x 401 - 1 corners; two texts in each of two panels
    assert [len(line) for line in curve_points(at)] == [801] * 4
    assert marks(at) == ["256", "456", "2,256"]  # the sizes as vocabularies: 256 bytes, one token a merge
    curves = html_with(at, 'class="bpe-cc"')
    corpus_tokens = size_rows(at)["training corpus: tokens"]
    # hovering at 456 names the count the table gives for 200 merges
    assert f"vocabulary 456 (200 merges)\ntraining corpus: {corpus_tokens[1]} tokens" in curves
    # the sample corpus is far longer than the text: its tokens are drawn as a share of its unmerged count
    assert "Tokens, % of unmerged" in curves
    at.number_input(key=compare_state.size_key(1)).set_value(556).run()  # 300 merges: new curves, not the kept ones
    assert marks(at) == ["256", "556", "2,256"] and size_rows(at)["merges"] == ["0", "300", "2,000"]
    assert "vocabulary 556 (300 merges)" in html_with(at, 'class="bpe-cc"')


@pytest.mark.parametrize("tab", list(TABS.values())[1:])
def test_every_tab_renders_with_the_default_model(tab):
    at = open_compare(tab=tab)
    assert at.tabs[0].label == TABS["curves"]


def test_side_by_side_counts_worked_out_by_hand(banana):
    at = open_compare(banana, corpus=BANANA, tab=TABS["side"], text="bandana_banana_")
    assert size_values(at) == [6, 7, 12]  # vocabularies of 0, 1 and 6 merges (below)
    # The vocabulary: <unk> and b a n _ d (6), plus one token per merge. "bandana_banana_" cut by
    # 0 merges: 15 characters; by "a n": b an d an a _ b an an a _ (11);
    # by all six: ban d ana_ banana_ (4).
    assert shown(at.caption[:1]) == (
        "Session model: trained here, a vocabulary of 12 tokens, 6 of them made by merges, no split · built from "
        "characters · equal counts: the pair seen first wins."
    )
    assert markdown_texts(at).splitlines() == [
        "**Your text:** 15 tokens at vocabulary 6\u00a0· 11 at 7\u00a0· 4 at 12.",  # under the size boxes, on every tab
        "Vocabulary 6 (0 merges) — **15 tokens** (1.00 characters per token)",
        "Vocabulary 7 (1 merge) — **11 tokens** (1.36 characters per token)",
        "Vocabulary 12 (6 merges) — **4 tokens** (3.75 characters per token)",
    ]


def test_typed_sizes_reach_the_fewest_merges(banana):
    at = open_compare(banana, corpus=BANANA)
    at.number_input(key=compare_state.size_key(1)).set_value(10).run()  # 6 base tokens + 4 merges
    at.number_input(key=compare_state.size_key(2)).set_value(9).run()  # + 3 merges
    ok(at)
    table = size_rows(at)
    assert table["vocabulary"] == ["6", "10", "9"] and table["merges"] == ["0", "4", "3"]
    # banana_bandana_ after "a n", "b an", "an a": ban ana _ ban d ana _ (7); after "ana _" too: ban ana_ ban d ana_ (5)
    assert table["training corpus: tokens"] == ["15", "5", "7"]


def size_values(at: AppTest) -> list[int]:
    return [box.value for box in at.number_input if box.label.startswith("Size ")]


def test_a_size_beyond_the_model_trains_it_further_and_keeps_the_sizes():
    at = open_compare()  # the default model: the sample, 2,000 merges, vocabulary 2,256
    before = size_values(at)
    assert "a larger size trains it further on the same corpus and settings" in shown(at.caption)
    at.number_input(key=compare_state.size_key(2)).set_value(5000).run()
    ok(at)
    model = session_model(at)
    assert len(model.vocab) == 5000 and at.query_params["vocab_size"] == "5000"
    assert size_values(at) == [*before[:2], 5000]
    # Training stops where it is told: its first 2,000 merges are the 2,000-merge model's, so smaller sizes compare
    # the same as before.
    assert model.merges[:2000] == train(state.sample_text(), DEFAULT_SETTINGS.to_config(), merges=2000).merges


def test_a_corpus_that_runs_out_of_pairs_says_so_in_words(banana):
    """banana_bandana_ as one piece runs out after 8 merges, one token then: 6 base symbols + 8 = vocabulary 14."""
    settings = TrainSettings(split="none", units="chars", end_of_word="", tie_break="first", merges=6)  # banana's
    about = ModelAbout.trained("banana_bandana", settings, link={"preset": "banana_bandana", "merges": "6"})
    at = open_compare(banana, corpus=BANANA, about=about)
    at.number_input(key=compare_state.size_key(2)).set_value(100).run()
    ok(at)
    assert len(session_model(at).merges) == 8
    assert shown(at.info) == (
        "The corpus ran out of pairs to merge at a vocabulary of 14 (8 merges): a larger size needs more text."
    )
    assert size_values(at)[2] == 14
    assert "cannot be trained further here" in shown(at.caption)


def test_plus_and_minus_step_by_a_twentieth_of_the_range_rounded():
    at = open_compare()
    at.number_input(key=compare_state.size_key(1)).increment().run()  # 2,000 new tokens: a step of 100
    at.number_input(key=compare_state.size_key(2)).decrement().run()
    assert size_values(at) == [256, 556, 2156]
    assert size_rows(at)["merges"] == ["0", "300", "1,900"]


def open_tab(at: AppTest, tab: str) -> None:
    at.session_state[compare_state.TAB_KEY] = tab  # what a click on the tab sends
    at.run()
    ok(at)


def test_sizes_are_drawn_only_on_the_tabs_that_use_them(banana):
    at = open_compare(banana, corpus=BANANA, text=BANANA)
    for tab, sizes_shown in ((label, name != "pretok") for name, label in TABS.items()):  # Pre-tokenizers: none
        open_tab(at, tab)
        size_counts = [control for control in at.segmented_control if control.key == compare_state.SIZE_COUNT_KEY]
        assert len(size_counts) == sizes_shown, tab
        assert [box.label for box in at.number_input] == (
            ["Size 1", "Size 2", "Size 3"] if sizes_shown else ["Merges for both trainings"]
        )
        assert at.text_area(key=compare_state.TEXT_KEY).value == BANANA  # the text is on every tab


def test_sizes_chosen_survive_a_tab_without_them_and_a_page_switch(banana):
    at = open_compare(banana, corpus=BANANA)
    at.segmented_control(key=compare_state.SIZE_COUNT_KEY).set_value(4).run()
    # the three sizes stay, the fourth starts at the default for four sizes: all six merges, vocabulary 12
    assert size_values(at) == [6, 7, 12, 12]
    at.number_input(key=compare_state.size_key(3)).set_value(11).run()
    at.number_input(key=compare_state.size_key(1)).set_value(9).run()
    assert size_values(at) == [6, 9, 12, 11]
    open_tab(at, TABS["pretok"])  # Pre-tokenizers draws no size: Streamlit forgets the widgets' values
    assert size_values(at) == [] and len(at.segmented_control) == 0
    open_tab(at, TABS["curves"])
    assert at.segmented_control(key=compare_state.SIZE_COUNT_KEY).value == 4
    assert size_values(at) == [6, 9, 12, 11]
    # vocabularies 9 and 11 of banana's 6 base symbols: 3 and 5 merges
    assert size_rows(at)["merges"] == ["0", "3", "6", "5"]
    open_tab(at, TABS["pretok"])
    at.switch_page(TRAIN.path).run()
    at.switch_page(PAGE).run()
    ok(at)
    open_tab(at, TABS["side"])
    assert at.segmented_control(key=compare_state.SIZE_COUNT_KEY).value == 4 and size_values(at) == [6, 9, 12, 11]


def test_fewer_sizes(banana):
    at = open_compare(banana, corpus=BANANA)
    at.session_state[compare_state.SIZE_COUNT_KEY] = 2
    at.run()
    ok(at)
    assert size_values(at) == [6, 7]  # the first two of the three shown before


def test_tie_break_preset_reports_the_first_difference(banana):
    # the session model's config with tie-break first vs hf (the default pair), trained on its corpus
    at = open_compare(banana, corpus=BANANA, tab=TABS["pretok"], text=BANANA)
    at.radio(key=compare_state.PRETOK_PRESET_KEY).set_value("Tie-break rules").run()
    ok(at)
    rules = [at.selectbox(key=compare_state.custom_key("rule", side)).value for side in "AB"]
    assert rules == ["first", "hf"]
    assert "first differ at **step 2**: A merges `b + an`, B merges `a + _`" in markdown_texts(at)


def test_tie_break_preset_compares_the_rules_chosen(banana):
    at = open_compare(banana, corpus=BANANA, tab=TABS["pretok"], text=BANANA)
    at.radio(key=compare_state.PRETOK_PRESET_KEY).set_value("Tie-break rules").run()
    at.selectbox(key=compare_state.custom_key("rule", "B")).set_value("lex").run()
    ok(at)
    # Worked out by hand on banana_bandana_: both take "a n", "b an", "an a", "ana _"; then ban ana_ ban d ana_
    # has four pairs once each: first takes the earliest (ban, ana_), lex the greatest, (d, ana_).
    assert (
        "The merge lists agree for 4 steps and first differ at **step 5**: A merges `ban + ana_`, B merges `d + ana_`."
    ) in markdown_texts(at)


def test_invalid_custom_configuration_is_an_error_not_a_traceback():
    at = open_compare(tab=TABS["pretok"])
    at.radio(key=compare_state.PRETOK_PRESET_KEY).set_value("Custom").run()
    at.selectbox(key=compare_state.custom_key("split", "A")).set_value("gpt2").run()
    at.selectbox(key=compare_state.custom_key("end_of_word", "A")).set_value("</w>").run()
    ok(at)
    assert shown(at.error) == (
        "Configuration A is not valid: an end-of-word marker needs whitespace pre-tokenization: with other splits a "
        "piece is not a word (use the space marker or bytes instead)"
    )


def test_real_tokenizers_tab_shows_every_count_as_tiktoken_gives_it(banana, tiktoken_module):
    text = "Hello, ByteLevel BPE!"
    at = open_compare(banana, corpus=BANANA, tab=TABS["real"], text=text)
    shown_text = markdown_texts(at)
    assert "GPT-2 — **7 tokens**" in shown_text  # [15496, 11, 30589, 4971, 347, 11401, 0]
    for name, title in (("cl100k_base", "GPT-4 (cl100k_base)"), ("o200k_base", "GPT-4o and GPT-5 (o200k_base)")):
        assert f"{title} — **{len(tiktoken_module.get_encoding(name).encode_ordinary(text))} tokens**" in shown_text
    summary = table_columns(at, "bpe-counts")  # tokens, characters per token and vocabulary size of each
    assert at.selectbox(key=compare_state.REAL_SIZE_KEY).value == ComparedSize(12, 6)  # the largest size
    assert at.selectbox(key=compare_state.REAL_SIZE_KEY).options == [
        "Vocabulary 6 (0 merges)",
        "Vocabulary 7 (1 merge)",
        "Vocabulary 12 (6 merges)",
    ]
    assert list(summary["Tokenizer"]) == [  # yours at every size compared: "500, 5000 and GPT-4" in one table
        "Your model at 6",
        "Your model at 7",
        "Your model at 12",
        "GPT-2",
        "GPT-4 (cl100k_base)",
        "GPT-4o and GPT-5 (o200k_base)",
        "Llama 3",
    ]
    mine = [len(textbook.encode(text, banana.merges[:merges], banana.config)) for merges in (0, 1, 6)]
    assert summary["Tokens"][:3] == [str(count) for count in mine] and summary["Vocabulary"][:3] == ["6", "7", "12"]
    assert summary["Tokens"][3] == "7" and summary["Vocabulary"][3] == "50,257"
    table = table_columns(at, "bpe-costs")
    assert list(table) == ["Tokenizer", "English", "Russian", "Chinese", "Python code"]  # fits a projector
    assert list(table["Tokenizer"]) == [
        "Characters",
        "Your model",
        "GPT-2",
        "GPT-4 (cl100k_base)",
        "GPT-4o and GPT-5 (o200k_base)",
        "Llama 3",
    ]
    assert len(at.get("plotly_chart")) == 1  # the tokens chart


def test_real_tokenizers_can_be_narrowed_to_gpt4o_alone(banana, tiktoken_module):
    text = "Токенизатор режет текст"
    at = open_compare(banana, corpus=BANANA, tab=TABS["real"], text=text)
    at.multiselect(key=compare_state.REAL_CHOICE_KEY).set_value(["o200k_base"]).run()
    shown_text = markdown_texts(at)
    count = len(tiktoken_module.get_encoding("o200k_base").encode_ordinary(text))
    assert f"GPT-4o and GPT-5 (o200k_base) — **{count} tokens**" in shown_text
    assert "GPT-2 —" not in shown_text and "GPT-4 (cl100k_base) —" not in shown_text
    assert table_columns(at, "bpe-costs")["Tokenizer"] == ["Characters", "Your model", "GPT-4o and GPT-5 (o200k_base)"]


def test_usage_tab_counts_never_used_tokens(banana):
    at = open_compare(banana, corpus=BANANA, tab=TABS["usage"], text=BANANA)
    metrics = {m.label: m.value for m in at.metric}
    # banana_bandana_ at 6 merges is banana_ban | d | ana_: 3 of 11 entries used
    assert metrics == {"Vocabulary entries": "11", "Used at least once": "3", "Never used": "8"}
    assert len(at.get("plotly_chart")) == 1
    assert at.expander[0].label == "Merged tokens this text never uses (4)"
    table = at.expander[0].dataframe[0].value
    assert list(table["step"]) == [1, 2, 3, 5] and list(table["token"]) == ["an", "ban", "ana", "banana_"]
    at.selectbox(key=compare_state.USAGE_SIZE_KEY).set_value(ComparedSize(7, 1)).run()
    assert at.selectbox(key=compare_state.USAGE_SIZE_KEY).value == ComparedSize(7, 1)
    assert at.selectbox(key=compare_state.USAGE_SIZE_KEY).options[1] == "Vocabulary 7 (1 merge)"
    # after "a n" alone: b an an a _ b an d an a _ uses b, an, a, _, d of the 6 entries (<unk> left out), not n
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {"Vocabulary entries": "6", "Used at least once": "5", "Never used": "1"}


@pytest.mark.parametrize("tab", TABS.values())
def test_gpt2_as_the_session_model(tab):
    # GPT-2 has no corpus and no training counts
    at = open_compare(load_gpt2(), corpus="", tab=tab)
    ok(at)


def test_model_without_merges():
    at = open_compare(train(BANANA, Config(split="none"), merges=0), corpus=BANANA, tab=TABS["side"], text=BANANA)
    assert [i.value for i in at.info][0] == (
        "This model has no merges, so there is only one size: train one with merges."
    )
    link = at.get("page_link")[0].proto
    assert (link.page, link.label) == ("Train", "Go to Train")  # Train's address (the root is Start's)
    assert "Vocabulary 6 (0 merges) — **15 tokens**" in markdown_texts(at)


def test_the_byte_level_side_writes_spaces_as_the_boxes_do(banana):
    """The default preset puts words + </w> beside GPT-2 byte-level: on "ab ab" B's first merge is a b (twice),
    then ␣ + ab (GPT-2's regex keeps the space with the word), never written Ġ; each side keys its own marks."""
    at = open_compare(banana, corpus="ab ab", tab=TABS["pretok"], text="ab")
    at.number_input(key=compare_state.PRETOK_MERGES_KEY).set_value(2).run()
    ok(at)
    sides = [frame.value.to_dict("records") for frame in at.dataframe]
    assert sides[1][0]["new token"] == "␣ab" and not any("Ġ" in str(row) for side in sides for row in side)
    captions = shown(at.main.caption)
    assert "Key: ␣ a space." in captions and "</w> the end of a word" in captions


def test_where_they_cut_differently_lines_up_openai_s_three_first(banana, tiktoken_module):
    """By hand, checked with tiktoken: GPT-2 and GPT-4 cut "I don't" as I|Ġdon|'t, GPT-4o as I|Ġdon't; all three
    cut at 0, 1 and 7, so of the two stretches the second (6 characters) is cut differently."""
    text = "I don't"
    for name, pieces in (
        ("gpt2", ["I", " don", "'t"]),
        ("cl100k_base", ["I", " don", "'t"]),
        ("o200k_base", ["I", " don't"]),
    ):
        encoding = tiktoken_module.get_encoding(name)
        assert [encoding.decode([token]) for token in encoding.encode(text)] == pieces
    at = open_compare(banana, corpus=BANANA, tab=TABS["real"], text=text)
    assert at.multiselect(key=compare_state.LINE_UP_KEY).value == ["gpt2", "cl100k_base", "o200k_base"]
    assert (
        "GPT-2, GPT-4 (cl100k_base) and GPT-4o/GPT-5 (o200k_base) cut 1 of 2 stretches differently "
        "(6 of 7 characters)" in markdown_texts(at)
    )
    assert html_with(at, 'class="bpe-al"').count('class="st differs"') == 1
    at.multiselect(key=compare_state.LINE_UP_KEY).set_value(["gpt2", "cl100k_base"]).run()
    assert "GPT-2 and GPT-4 (cl100k_base) cut this text in the same places." in markdown_texts(at)
    assert at.query_params["line"] == "gpt2,cl100k_base"


def language_table(at: AppTest, table_class: str) -> dict[str, list[str]]:
    """One of the Languages tab's two tables (every tokenizer, or the one a phone shows), by column."""
    markup = next(element.value for element in at.get("html") if f"bpe-table {table_class}" in element.value)
    table = re.search(rf'class="bpe-table {table_class} tall".*?</table>', markup, re.S).group(0)
    rows = [
        [html.unescape(cell) for cell in re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", table)
    ]
    return {column: [row[index] for row in rows[1:]] for index, column in enumerate(rows[0])}


def test_languages_tab_gives_each_language_s_premium_under_every_tokenizer(banana, tiktoken_module):
    at = open_compare(banana, corpus=BANANA, tab=TABS["languages"], text="banana")
    every = language_table(at, "bpe-lang-all")
    assert list(every) == [
        "Language",
        "Script",
        "Your model at 6",
        "Your model at 7",
        "Your model at 12",
        "GPT-2",
        "GPT-4 (cl100k_base)",
        "GPT-4o and GPT-5 (o200k_base)",
        "Llama 3",
    ]
    texts = bundled_texts()
    gpt2 = {code: len(tiktoken_module.get_encoding("gpt2").encode_ordinary(text)) for code, text in texts.items()}
    by_premium = sorted(gpt2, key=lambda code: (gpt2[code] / gpt2["eng"], code))  # sorted by GPT-2 at first
    names = {language.code: language.name for language in bundled_languages()}
    phone = language_table(at, "bpe-lang-one")
    assert phone["Language"] == every["Language"] == [names[code] for code in by_premium]
    assert phone["Tokens"][-1] == f"{gpt2['mya']:,}" and phone["Premium"][-1] == f"{gpt2['mya'] / gpt2['eng']:.2f}×"
    # the banana model knows b a n d _ : every other character of a preamble is one <unk> token, at any size
    mine = {code: len(textbook.encode(texts[code], banana.merges, banana.config)) for code in ("eng", "hin")}
    hindi = every["Language"].index("Hindi")
    assert every["Your model at 12"][hindi] == f"{mine['hin']:,} ({mine['hin'] / mine['eng']:.2f}×)"
    assert (
        f"Under GPT-2, Burmese needs the most tokens for the same text: {gpt2['mya']:,}, "
        f"{gpt2['mya'] / gpt2['eng']:.2f}× as many as English ({gpt2['eng']})." in markdown_texts(at)
    )
    assert len(at.get("plotly_chart")) == 1 and "UDHR in Unicode" in shown(at.caption)


def test_languages_tab_adds_the_user_s_text_filters_by_script_and_changes_reference(banana):
    at = open_compare(banana, corpus=BANANA, tab=TABS["languages"], text="bandana banana")
    at.text_input(key=compare_state.LANG_OWN_KEY).set_value("Bananish").run()
    at.selectbox(key=compare_state.LANG_TOKENIZER_KEY).set_value("Your model at 12").run()
    at.selectbox(key=compare_state.LANG_SCRIPT_KEY).set_value("Cyrillic").run()
    at.selectbox(key=compare_state.LANG_REFERENCE_KEY).set_value("rus").run()
    ok(at)
    phone = language_table(at, "bpe-lang-one")
    texts = bundled_texts(["rus", "ukr", "bul", "kaz"])
    # all six merges: "bandana banana" is ban d ana ␣ ban ana (the space an <unk>; no _ for ana_): 6 tokens; each
    # Cyrillic letter one
    counts = {code: len(textbook.encode(text, banana.merges, banana.config)) for code, text in texts.items()}
    counts["yours"] = len(textbook.encode("bandana banana", banana.merges, banana.config))
    assert counts["yours"] == 6
    by_premium = sorted(counts, key=lambda code: (counts[code] / counts["rus"], code))
    names = {language.code: language.name for language in bundled_languages()} | {"yours": "Bananish (your text)"}
    assert phone["Language"] == [names[code] for code in by_premium]
    assert phone["Premium"][phone["Language"].index("Russian")] == "1.00×"
    assert phone["Script"][0] == "your text" and phone["Tokens"][0] == "6"  # the fewest


def test_languages_tab_asks_for_a_text_before_it_makes_it_a_row(banana):
    at = open_compare(banana, corpus=BANANA, tab=TABS["languages"], text="")
    at.text_input(key=compare_state.LANG_OWN_KEY).set_value("Scots").run()
    ok(at)
    assert [info.value for info in at.info] == ["Type your text above to add it as a row."]
    assert len(language_table(at, "bpe-lang-one")["Language"]) == 58
