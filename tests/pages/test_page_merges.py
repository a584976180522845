"""The Merges page under Streamlit's AppTest: default model, textbook model, GPT-2."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest
from support.pages import ok
from support.paths import REPO_ROOT

from bpe_core import Config, load_gpt2, train
from drawing.published import PRETRAINED_TITLES
from pages.merges.state import TAB_KEY as MERGES_TAB_KEY
from pages.merges.state import TAB_LABELS
from session.model_about import ModelAbout
from session.page_registry import MERGES
from session.state import ABOUT_KEY, CORPUS_KEY, MODEL_KEY

APP_FILE = str(REPO_ROOT / "app.py")
PAGE = MERGES.path
BANANA = "banana_bandana_"
TABS = TAB_LABELS  # by their names in the address; only the open tab is drawn; the first is open on a first visit


def _open_merges(model=None, corpus: str = "", tab: str | None = None) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=90)
    if model is not None:
        at.session_state[MODEL_KEY] = model
        at.session_state[CORPUS_KEY] = corpus
        at.session_state[ABOUT_KEY] = ModelAbout.loaded_file("model.json")
    at.run()
    at.switch_page(PAGE).run()
    ok(at)
    return at if tab is None else _tab(at, tab)


def _tab(at: AppTest, tab: str) -> AppTest:
    """``at`` after opening one of the page's ``TABS``."""
    at.session_state[MERGES_TAB_KEY] = TABS[tab]
    at.run()
    ok(at)
    return at


def _specs(at: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _step_card(at: AppTest) -> str:
    return at.get("html")[0].proto.body


def _segmentation(at: AppTest) -> str:
    return at.get("html")[1].proto.body


def _boxes(at: AppTest) -> list[tuple[str, bool]]:
    """The step view's token boxes (text, outlined as just made), in order; these tests' tokens hold no markup."""
    return [
        (text, " new" in classes)
        for classes, text in re.findall(r'<span class="(tok [^"]*)"[^>]*>([^<]*)</span>', _segmentation(at))
    ]


def test_default_model_page_has_animated_race(banana):
    at = _open_merges()
    assert not _specs(at)  # the step tab draws no chart; the others are not drawn until opened
    assert ">t + h</div>" in _step_card(at)
    assert at.slider[0].max == 2000
    (race,) = _specs(_tab(at, "race"))
    assert len(race["frames"]) == 50 and race["frames"][0]["name"] == "1"
    assert len(race["layout"]["sliders"][0]["steps"]) == 50
    assert [b["label"] for b in race["layout"]["updatemenus"][0]["buttons"]] == ["▶ Play", "❚❚ Pause"]
    assert race["layout"]["title"]["text"].startswith("<b>step 1: t + h → th (count ")
    (tree,) = _specs(_tab(at, "tree"))
    root = tree["layout"]["annotations"][0]["text"]
    # the tree of the chosen token (the default model is byte-level: the tree writes its Ġ, a space, as ␣)
    assert root == at.selectbox(key="merges_tree_token").value.replace("<", "&lt;").replace(">", "&gt;").replace(
        "Ġ", "␣"
    )
    forest, curve = _specs(_tab(at, "overview"))
    assert forest["layout"]["meta"] == {"shown": 2000, "total": 2000} and curve["data"][0]["mode"] == "lines"


def test_textbook_model_first_and_last_step(banana):
    at = _open_merges(banana, corpus=BANANA, tab="race")
    race = _specs(at)[0]
    assert [frame["name"] for frame in race["frames"]] == ["1", "2", "3", "4", "5", "6"]
    assert "the pair seen first wins" in race["layout"]["annotations"][0]["text"]
    _tab(at, "steps")
    assert at.slider[0].value == 1 and at.slider[0].max == 6
    assert ">a + n</div>" in _step_card(at)
    # After step 1: b an an a _ b an d an a _, the 4 `an` outlined
    assert _boxes(at) == [
        ("b", False),
        ("an", True),
        ("an", True),
        ("a", False),
        ("_", False),
        ("b", False),
        ("an", True),
        ("d", False),
        ("an", True),
        ("a", False),
        ("_", False),
    ]

    at.slider[0].set_value(6).run()
    ok(at)
    assert ">banana_ + ban</div>" in _step_card(at) and ">banana_ban  (id 11)</div>" in _step_card(at)
    assert _boxes(at) == [("banana_ban", True), ("d", False), ("ana_", False)]


def test_race_axis_follows_the_step_unless_fixed(banana):
    # banana_bandana_'s top counts before steps 1 to 6: 4, 2, 2, 2, 1, 1; the axis runs to 1.45 times the count
    at = _open_merges(banana, corpus=BANANA, tab="race")
    toggle = at.toggle(key="merges_race_fixed_axis")
    assert toggle.label == "Fix the count axis at the highest count of the steps shown" and toggle.value is False
    ends = [frame["layout"]["xaxis"]["range"][1] for frame in _specs(at)[0]["frames"]]
    assert ends == [4 * 1.45, 2 * 1.45, 2 * 1.45, 2 * 1.45, 1.45, 1.45]
    toggle.set_value(True).run()
    ends = [frame["layout"]["xaxis"]["range"][1] for frame in _specs(at)[0]["frames"]]
    assert ends == [4 * 1.45] * 6
    _tab(_tab(at, "tree"), "race")  # kept while the tab is closed
    assert at.toggle(key="merges_race_fixed_axis").value is True


def test_previous_and_next_buttons(banana):
    at = _open_merges(banana, corpus=BANANA)
    at.button(key="merges_previous").click().run()
    assert at.slider[0].value == 1  # cannot go below the first step
    at.button(key="merges_next").click().run()
    at.button(key="merges_next").click().run()
    assert at.slider[0].value == 3 and ">an + a</div>" in _step_card(at)
    at.slider[0].set_value(6).run()
    at.button(key="merges_next").click().run()
    assert at.slider[0].value == 6 and not at.exception


def test_tree_defaults_to_a_long_token_and_can_change(banana):
    at = _open_merges(banana, corpus=BANANA, tab="tree")
    assert at.selectbox(key="merges_tree_token").value == "banana_ban"
    assert len(_specs(at)[0]["layout"]["annotations"]) == 19
    at.selectbox(key="merges_tree_token").select("ana_").run()
    ok(at)
    labels = [box["text"] for box in _specs(at)[0]["layout"]["annotations"]]
    assert labels == ["ana_", "ana", "an", "a", "n", "a", "_"]


def test_window_start_moves_the_animation():
    at = _open_merges(tab="race")
    at.number_input[0].set_value(1990).run()
    ok(at)
    frames = _specs(at)[0]["frames"]
    assert frames[0]["name"] == "1951" and frames[-1]["name"] == "2000"  # clamped to a full window
    _tab(at, "steps").slider[0].set_value(500).run()
    _tab(at, "race")
    next(b for b in at.button if b.label.startswith("Centre")).click().run()  # centre the window on the scrubber's step
    assert at.number_input[0].value == 475
    assert _specs(at)[0]["frames"][0]["name"] == "475"


def test_switching_to_a_smaller_model_keeps_the_step_in_range(banana):
    at = _open_merges()
    at.slider[0].set_value(1500).run()
    at.session_state[MODEL_KEY] = banana
    at.session_state[CORPUS_KEY] = BANANA
    at.run()
    ok(at)
    assert at.slider[0].value == 6 and _tab(at, "tree").selectbox(key="merges_tree_token").value == "banana_ban"


def test_gpt2_shows_trees_and_forest_without_counts():
    at = _open_merges(load_gpt2(), corpus="", tab="race")
    assert "no training counts" in " ".join(info.value for info in at.info) and not _specs(at)  # no race
    (tree,) = _specs(_tab(at, "tree"))
    assert "frames" not in tree
    (forest,) = _specs(_tab(at, "overview"))  # no count curve
    assert "count curve needs training counts" in " ".join(info.value for info in at.info)
    assert "Showing 2,000 of 50,000 merges" in " ".join(caption.value for caption in at.caption)
    _tab(at, "steps")
    assert ">n/a (no training counts)</div>" in _step_card(at)
    assert "sample text instead" in " ".join(caption.value for caption in at.caption)
    at.slider[0].set_value(50_000).run()
    ok(at)
    last = load_gpt2().steps[-1]
    assert ">50000<" in _step_card(at) and f"(id {last.new_id})" in _step_card(at)


def test_model_with_one_merge_has_no_slider():
    tok = train("ab", Config(split="none"), merges=1)
    at = _open_merges(tok, corpus="ab")
    assert not at.slider and ">a + b</div>" in _step_card(at)
    assert [frame["name"] for frame in _specs(_tab(at, "race"))[0]["frames"]] == ["1"]


def _choose_source(at: AppTest, source: str) -> AppTest:
    at.selectbox(key="merges_source").set_value(source).run()
    ok(at)
    return at


def test_gpt4_tree_is_found_by_typing_its_text():
    at = _choose_source(_open_merges(tab="race"), "cl100k_base")
    assert at.selectbox(key="merges_source").options == ["Trained model", *PRETRAINED_TITLES.values()]
    captions = " ".join(caption.value for caption in at.caption)
    assert "The tokenizer of GPT-4, GPT-3.5 Turbo" in captions
    assert r"GPT\-4 \(cl100k\_base\): a vocabulary of 100,261 tokens, 100,000 of them made by merges" in captions
    infos = " ".join(info.value for info in at.info)
    assert r"GPT\-4 \(cl100k\_base\) has no training counts" in infos and "GPT-2" not in infos  # its own name
    _tab(at, "overview")
    assert "count curve needs training counts" in " ".join(info.value for info in at.info)
    _tab(at, "tree")
    # it opens on a common word built by several merges, not on a run of spaces; one search box (the text box)
    assert at.selectbox(key="merges_tree_token").value == "Ġunderstanding"
    assert len(at.text_input) == 1 and at.selectbox(key="merges_tree_token").label == "Token"  # it takes no typing
    assert "filter_mode: FILTER_MODE_NONE" in str(at.selectbox(key="merges_tree_token").proto)
    at.text_input(key="merges_tree_search").set_value(" understanding").run()
    ok(at)
    assert at.selectbox(key="merges_tree_token").options == ["␣understanding"]  # as the token boxes write it
    assert at.selectbox(key="merges_tree_token").label == "Token (1 found)"
    (tree,) = _specs(at)
    labels = [box["text"] for box in tree["layout"]["annotations"]]
    leaves = ["␣", "u", "n", "d", "e", "r", "s", "t", "a", "n", "d", "i", "n", "g"]  # " understanding", byte by byte
    assert labels[0] == "␣understanding" and [label for label in labels if label in set(leaves)] == leaves
    # one token: no split shown, only the style of the tree's box (it scrolls sideways on a narrow screen)
    assert [html.proto.body.startswith("<style>.st-key-merges_tree_box{") for html in at.get("html")] == [True]


def test_a_text_that_is_not_one_token_shows_its_split_and_links_to_encode():
    at = _choose_source(_open_merges(tab="tree"), "cl100k_base")
    at.text_input(key="merges_tree_search").set_value(" tokenizations<b>").run()
    ok(at)
    assert "No token of this tokenizer contains that text." in [info.value for info in at.info]
    (note,) = [html.proto.body for html in at.get("html")]
    assert "“␣tokenizations&lt;b&gt;” is not one token of GPT-4 (cl100k_base): it cuts that text into" in note
    assert "cuts that text into 4 tokens" in note and note.count('class="tok ') == 4  # ␣token izations <b >
    assert "<b>" not in note.split("</style>", 1)[1]
    link = re.search(r'<a href="([^"]*)" target="_blank" rel="noopener">Why this split\? Open it on Encode</a>', note)
    assert link.group(1) == "Encode?tokenizer=cl100k_base&amp;input=+tokenizations%3Cb%3E&amp;open=why"
    # two tokens contain "understandin" but it is none itself: the tokens found, and its split (under stand in)
    at.text_input(key="merges_tree_search").set_value("understandin").run()
    found = at.selectbox(key="merges_tree_token")
    assert not at.info and found.options == ["␣understanding", "␣misunderstanding"]
    assert "cuts that text into 3 tokens" in at.get("html")[0].proto.body


def test_search_finds_nothing_and_says_so():
    at = _choose_source(_open_merges(tab="tree"), "o200k_base")
    at.text_input(key="merges_tree_search").set_value("zzzzzzzzzzzzzzzz").run()
    ok(at)
    assert "No token of this tokenizer contains that text." in [info.value for info in at.info]
    assert "is not one token of GPT-4o and GPT-5 (o200k_base)" in at.get("html")[0].proto.body


def test_back_to_the_session_model_lists_its_tokens(banana):
    at = _choose_source(_open_merges(banana, corpus=BANANA, tab="tree"), "gpt2")
    assert at.text_input(key="merges_tree_search").value == ""  # GPT-2's 50,000 tokens are searched ...
    _choose_source(at, "model")
    assert not at.text_input  # ... the banana model's 6 are listed
    assert at.selectbox(key="merges_tree_token").value == "banana_ban" and _tab(at, "steps").slider[0].max == 6


def _captions(at: AppTest) -> str:
    """The captions as read on the page (without Markdown's escapes)."""
    return " ".join(caption.value for caption in at.caption).replace("\\", "")


def test_each_tab_keys_the_glyphs_its_tokens_show():
    """GPT-2's first merge is Ġ + t, written ␣ + t: the step card is keyed; a step of letters still is, for the text
    boxes under its card write spaces as ␣; banana's a + n needs no key, but its tree and race show the _ marker as a
    letter, never keyed as a space."""
    at = _open_merges(load_gpt2(), corpus="", tab="steps")
    assert "␣ + t" in _step_card(at) and "Key: ␣ a space." in _captions(at)
    letters = next(
        step for step, pair in enumerate(load_gpt2().merges, 1) if "".join(pair).isascii() and "".join(pair).isalpha()
    )
    at.slider[0].set_value(letters).run()
    assert "␣" not in _step_card(at) and "Key: ␣ a space." in _captions(at)  # the boxes' ␣, under the card
    space_pairs = train("ab ab ab", Config(split="none"), merges=3)
    at = _open_merges(space_pairs, corpus="ab ab ab", tab="race")
    assert "Key: ␣ a space." in _captions(at)  # a␣ and ␣a race from step 1
    assert "Key:" not in _captions(_tab(_open_merges(train(BANANA, Config(), merges=6), BANANA), "race"))


@pytest.mark.parametrize(
    "name, note",
    [
        ("o200k_harmony", "The tokenizer of gpt-oss"),
        ("qwen3.6", "Alibaba's Qwen3.5 and Qwen3.6"),
        ("deepseek-v4", "DeepSeek-V4 (2026"),
        ("mistral-tekken-v3", "Mistral's Tekken v3"),
    ],
)
def test_the_2026_tokenizers_show_their_note_and_a_merge_tree(name, note):
    at = _choose_source(_open_merges(tab="tree"), name)
    assert note in " ".join(caption.value for caption in at.caption).replace("\\", "")
    at.text_input(key="merges_tree_search").set_value(" understanding").run()
    ok(at)
    assert "␣understanding" in at.selectbox(key="merges_tree_token").options
    at.selectbox(key="merges_tree_token").set_value("␣understanding").run()
    (tree,) = _specs(at)
    labels = [box["text"] for box in tree["layout"]["annotations"]]
    leaves = ["␣", "u", "n", "d", "e", "r", "s", "t", "a", "n", "d", "i", "n", "g"]  # " understanding", byte by byte
    assert labels[0] == "␣understanding" and [label for label in labels if label in set(leaves)] == leaves
