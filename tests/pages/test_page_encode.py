"""The Encode / Decode page under Streamlit's AppTest: encode, decode, errors, tokenizer choice."""

from __future__ import annotations

import re

import pytest
from streamlit.proto.LabelVisibility_pb2 import LabelVisibility
from streamlit.testing.v1 import AppTest
from support.open_model_references import hf_reference, qwen36_reference, tekken_ids, tekken_reference
from support.pages import has_table, ok, session_model, shown_ids, table_columns
from support.paths import REPO_ROOT

from bpe_core import Config, load_gpt2, train
from drawing.published import PRETRAINED_TITLES
from pages.encode import state as encode_state
from session import state
from session.page_registry import ENCODE, TRAIN

APP_FILE = str(REPO_ROOT / "app.py")
PAGE = ENCODE.path
GPT2_TEXT = "Hello, ByteLevel BPE!"
GPT2_IDS = [15496, 11, 30589, 4971, 347, 11401, 0]


def open_page(model=None) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    if model is not None:
        at.session_state["bpe_model"] = model
    at.run()
    at.switch_page(PAGE).run()
    ok(at)
    return at


def rerun(at: AppTest) -> AppTest:
    at.run()
    ok(at)
    return at


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def choose(at: AppTest, source: str) -> AppTest:
    at.selectbox(key="encode_source").set_value(source)
    return rerun(at)


def encode(at: AppTest, text: str) -> AppTest:
    at.text_area(key="encode_text").set_value(text)
    return rerun(at)


def open_section(at: AppTest, key: str) -> AppTest:
    """Open one of the sections drawn only while open (as a click on its expander does)."""
    at.session_state[key] = True
    return rerun(at)


SECTIONS = {
    encode_state.WHY_KEY: "Why this split? Replay how one piece is merged",
    encode_state.DECODE_KEY: "Decode: token ids back to text",
    encode_state.TABLE_KEY: "Token table: one row per token",
    encode_state.CUT_KEY: "Cut at N tokens: the longest beginning that fits",
}


def test_default_text_is_encoded_with_the_session_model():
    at = open_page()
    model = session_model(at)
    text = at.text_area(key="encode_text").value
    assert "\n" in text and "é" in text and "🙂" in text  # the example shows the interesting cases
    assert shown_ids(at) == model.encode(text)
    assert metric(at, "Tokens") == f"{len(model.encode(text)):,}"
    assert metric(at, "Characters") == f"{len(text):,}"
    tokens_html = at.html[0].value
    assert tokens_html.count('class="tok ') == len(model.encode(text))
    # the default model is byte-level: the é and the emoji are bytes, no box is <unk>, and nothing is lost
    assert "tok k-unknown" not in tokens_html and not at.warning
    assert at.success[0].value == "**Round trip OK**: `decode(encode(text)) == text`"


def test_a_word_level_model_loses_the_example_s_unseen_characters_and_says_how():
    words = train(state.sample_text(), Config(split="whitespace", end_of_word="</w>"), merges=200)
    at = open_page(words)
    # whitespace split (the newline becomes a space), and the Bible never has an é: both lost, and said
    warning = at.warning[0].value.split("\n")
    assert warning[:2] == [
        "**Round trip loses text**: `decode(encode(text)) != text`",
        r"- whitespace\: runs of spaces\/newlines became single spaces",
    ]
    assert warning[2].startswith(r"- characters never seen in training became \<unk\>\: \'")


def test_encoding_a_new_text_with_the_banana_model(banana):
    at = encode(open_page(banana), "bandana_")
    assert shown_ids(at) == banana.encode("bandana_")
    assert metric(at, "Characters per token") == f"{8 / 3:.2f}"
    assert at.success and "Round trip OK" in at.success[0].value


def test_gpt2_choice_gives_the_reference_ids():
    at = encode(choose(open_page(), "gpt2"), GPT2_TEXT)
    assert shown_ids(at) == GPT2_IDS
    assert "GPT-2" in " ".join(c.value for c in at.caption)


def test_prefix_slider_changes_the_token_count():
    at = choose(open_page(), "prefix")
    model = session_model(at)
    text = at.text_area(key="encode_text").value
    slider = at.slider(key="encode_prefix_merges")
    assert slider.max == len(model.merges) and slider.value == len(model.merges)
    full_count = len(shown_ids(at))
    slider.set_value(0)
    rerun(at)
    assert shown_ids(at) == model.prefix(0).encode(text)
    assert len(shown_ids(at)) > full_count
    at.slider(key="encode_prefix_merges").set_value(100)
    rerun(at)
    assert shown_ids(at) == model.prefix(100).encode(text)


def test_prefix_slider_clamps_when_the_model_shrinks(banana):
    at = choose(open_page(), "prefix")
    at.session_state["bpe_model"] = banana
    rerun(at)
    assert at.slider(key="encode_prefix_merges").value == len(banana.merges) == 6


def test_decode_ids():
    at = open_section(choose(open_page(), "gpt2"), encode_state.DECODE_KEY)
    at.text_input(key="encode_ids").set_value("[15496, 11, 30589 4971 347, 11401, 0]")
    rerun(at)
    assert at.code[-1].value == GPT2_TEXT
    assert not at.error


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        # the message is Markdown-escaped: punctuation from the typed text shows literally
        ("15496, hello", r"item 2\, \'hello\'\, is not a token id"),
        ("15496 -3", r"item 2\, \-3\, is negative"),
        ("15496, 999999", "999999 is not in the vocabulary"),
    ],
)
def test_bad_ids_name_the_offending_item(typed, message):
    at = open_section(choose(open_page(), "gpt2"), encode_state.DECODE_KEY)
    at.text_input(key="encode_ids").set_value(typed)
    rerun(at)
    assert len(at.error) == 1 and message in at.error[0].value
    assert shown_ids(at) == load_gpt2().encode(at.text_area(key="encode_text").value)  # the rest stays


def test_use_ids_button_round_trips_the_text(banana):
    at = open_section(encode(open_page(banana), "banana_bandana_"), encode_state.DECODE_KEY)
    at.button(key="encode_fill_ids").click()
    rerun(at)
    assert at.text_input(key="encode_ids").value == ", ".join(map(str, banana.encode("banana_bandana_")))
    assert at.code[-1].value == "banana_bandana_"


def test_token_table_has_one_row_per_token(banana):
    at = encode(open_page(banana), "bandana_")
    assert not has_table(at, "bpe-tt")
    open_section(at, encode_state.TABLE_KEY)
    table = table_columns(at, "bpe-tt")
    assert table["id"] == [str(id) for id in banana.encode("bandana_")]
    assert table["token"] == ["ban", "d", "ana_"] and table["span"] == ["0–3", "3–4", "4–8"]


def test_a_long_texts_token_table_comes_a_page_of_500_rows_at_a_time(banana):
    at = open_section(encode(open_page(banana), "b" * 1200), encode_state.TABLE_KEY)  # b matches no merge: 1,200 tokens
    pages = at.selectbox(key=encode_state.TABLE_PAGE_KEY)
    assert pages.options == ["tokens 1–500 of 1,200", "tokens 501–1,000 of 1,200", "tokens 1,001–1,200 of 1,200"]
    assert table_columns(at, "bpe-tt")["position"] == [str(position) for position in range(500)]
    pages.set_value(1000)
    rerun(at)
    assert table_columns(at, "bpe-tt")["span"] == [f"{start}–{start + 1}" for start in range(1000, 1200)]
    rerun(encode(at, "bandana_"))  # a short text: one page, no choice, all its rows
    assert [box.key for box in at.selectbox] == ["encode_source"]
    assert table_columns(at, "bpe-tt")["token"] == ["ban", "d", "ana_"]


def test_presenting_keeps_the_header_short_and_moves_the_rest_under_the_tokens(banana):
    """A projector's first screen must reach the tokens: what the header leaves out is moved, never dropped."""
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.session_state["bpe_model"], at.session_state[state.PRESENT_KEY] = banana, True
    at.run()
    at = encode(rerun(at.switch_page(PAGE)), "bandana_")
    assert at.title[0].proto.help.startswith("Type text and see it cut into tokens.")  # the intro, one click away
    assert at.text_area(key="encode_text").label_visibility.value == LabelVisibility.LabelVisibilityOptions.COLLAPSED
    assert not any(caption.value.startswith("Type text") for caption in at.caption)
    walk = list(at.main)  # every element in the page's order
    place = lambda found: next(index for index, element in enumerate(walk) if found(element))  # noqa: E731
    tokens = place(lambda element: element.type == "html" and 'class="bpe-tv"' in element.value)
    round_trip = place(lambda element: element.type == "success")
    described = place(
        lambda element: element.type == "caption" and element.value.startswith("Trained model: a vocabulary of 12")
    )
    load = place(lambda element: element.type == "expander" and element.label == "Load a tokenizer")
    assert tokens < round_trip < described < load  # under the tokens, not gone


def test_why_this_split_replays_the_merges(banana):
    at = open_section(encode(choose(open_page(), "gpt2"), "the unbelievable cat"), encode_state.WHY_KEY)
    piece = at.selectbox(key="encode_piece")
    assert piece.options == ["the", "␣unbelievable", "␣cat"]
    assert piece.value == " unbelievable"  # the longest piece is picked first
    replay = at.html[-1].value
    steps = load_gpt2().explain(" unbelievable")
    assert replay.count('class="step-row"') == len(steps)
    assert f"step {steps[-1][0]}:" in replay and "pair seen" not in replay  # GPT-2 has no counts
    # the replay writes GPT-2's symbols as the text they spell (␣unbelievable), as the list of pieces does: its key
    # names ␣, and only what the replay shows
    shown = re.sub(r"<[^>]+>", "", replay.split("</style>")[-1])  # what the reader sees, tooltips aside
    assert "␣unbelievable" in shown and "Ġ" not in shown
    assert keys(at) == ["Key: ␣ a space."]
    at.selectbox(key="encode_piece").set_value("the")
    assert keys(rerun(at)) == []


def keys(at: AppTest) -> list[str]:
    """The glyph keys among the captions, as the reader sees them (Markdown's escapes removed)."""
    return [text for text in (caption.value.replace("\\", "") for caption in at.caption) if text.startswith("Key:")]


def test_text_survives_a_visit_to_another_page(banana):
    at = encode(open_page(banana), "bandana_ banana_")
    at.switch_page(TRAIN.path).run()
    at.switch_page(PAGE).run()
    ok(at)
    assert at.text_area(key="encode_text").value == "bandana_ banana_"


@pytest.mark.parametrize(
    ("source", "ids", "note"),
    [
        # tiktoken's ids for "Hello, world!"
        ("cl100k_base", [9906, 11, 1917, 0], "The tokenizer of GPT-4, GPT-3.5 Turbo"),
        ("o200k_base", [13225, 11, 2375, 0], "The tokenizer of GPT-4o, GPT-4o mini"),
    ],
)
def test_gpt4_and_gpt4o_give_tiktoken_ids(source, ids, note):
    at = encode(choose(open_page(), source), "Hello, world!")
    assert at.selectbox(key="encode_source").options == [
        "Trained model",
        "Prefix of the trained model",
        *PRETRAINED_TITLES.values(),
    ]
    assert shown_ids(at) == ids
    assert metric(at, "Tokens") == "4"
    assert metric(at, "Characters per token") == "3.25"  # 13 characters / 4 tokens
    assert any(note in caption.value for caption in at.caption)


CHAT_TEXT = "<|start|>user<|message|>[INST]<think>Hé, 日本語 123!</think><|im_end|>"


def publishers_ids(source: str, text: str, special: bool, tiktoken_module) -> list[int]:
    """The ids the publisher's library gives ``text``, with its special tokens read in text or not."""
    if source == "o200k_harmony":  # tiktoken's o200k_harmony: gpt-oss's special tokens
        encoding = tiktoken_module.get_encoding(source)
        return encoding.encode(text, allowed_special="all") if special else encoding.encode_ordinary(text)
    if source == "qwen3.6":
        return qwen36_reference().encode(text, allowed_special="all" if special else set(), disallowed_special=())
    if source == "mistral-tekken-v3":
        return tekken_ids(text) if special else tekken_reference().encode(text, bos=False, eos=False)
    hf = hf_reference(source)
    hf.encode_special_tokens = not special
    try:
        return hf.encode(text, add_special_tokens=False).ids
    finally:
        hf.encode_special_tokens = False


@pytest.mark.parametrize("source", ["o200k_harmony", "qwen3.6", "deepseek-v4", "mistral-tekken-v3"])
def test_the_2026_tokenizers_give_their_publishers_ids_with_and_without_special_tokens(source, tiktoken_module):
    at = encode(choose(open_page(), source), CHAT_TEXT)
    assert shown_ids(at) == publishers_ids(source, CHAT_TEXT, True, tiktoken_module)
    at.toggle(key="encode_match_special").set_value(False)
    rerun(at)
    assert shown_ids(at) == publishers_ids(source, CHAT_TEXT, False, tiktoken_module)
    assert at.success and "Round trip OK" in at.success[0].value


def test_special_token_toggle_encodes_its_text_as_ordinary_text():
    at = open_section(encode(choose(open_page(), "cl100k_base"), "<|endoftext|>"), encode_state.WHY_KEY)
    assert shown_ids(at) == [100257]  # tiktoken: allowed_special="all"
    assert [box.key for box in at.selectbox] == ["encode_source"]  # one special token: no piece to replay
    at.toggle(key="encode_match_special").set_value(False)
    rerun(at)
    assert shown_ids(at) == [27, 91, 8862, 728, 428, 91, 29]  # tiktoken: disallowed_special=()
    assert at.selectbox(key="encode_piece").options == ["<|", "endoftext", "|>"]  # GPT-4's pattern's pieces
    assert at.success and "Round trip OK" in at.success[0].value


def captions(at: AppTest) -> list[str]:
    return [caption.value for caption in at.caption]


def test_cut_at_n_tokens_keeps_the_longest_beginning_that_fits(banana):
    """By hand (banana's merges): "banana_band" is banana_ban|d, 2 tokens; every longer beginning takes 3."""
    at = open_section(encode(open_page(banana), "banana_bandana_"), encode_state.CUT_KEY)
    at.number_input(key=encode_state.CUT_TOKENS_KEY).set_value(2)
    rerun(at)
    assert at.code[-1].value == "banana_band"  # to copy
    assert "Keeps 11 of 15 characters (2 of the 2 tokens allowed); the rest, faded, is cut." in captions(at)
    assert at.html[-1].value.endswith(
        "<span>banana_band</span><s " + 'style="color:#585b65;text-decoration:line-through">ana_</s></div>'
    )
    at.number_input(key=encode_state.CUT_TOKENS_KEY).set_value(3)
    rerun(at)
    assert "The whole text fits: 3 of the 3 tokens allowed." in captions(at)


def test_special_token_toggle_is_disabled_for_a_model_without_special_tokens(banana):
    at = open_page(banana)
    assert at.toggle(key="encode_match_special").disabled


def test_secondary_sections_are_drawn_only_when_open(banana):
    at = encode(open_page(banana), "bandana_")
    assert [expander.label for expander in at.expander][-len(SECTIONS) :] == list(SECTIONS.values())
    # closed: their widgets and drawings are not sent at all (only the tokens and the legend are HTML)
    assert [box.key for box in at.selectbox] == ["encode_source"]
    assert not at.text_input and not has_table(at, "bpe-tt") and len(at.html) == 2
    open_section(at, encode_state.WHY_KEY)
    assert at.selectbox(key="encode_piece").value == "bandana_"  # one piece: split="none"
    assert len(at.html) == 3 and 'class="step-row"' in at.html[-1].value
    assert not at.text_input and not has_table(at, "bpe-tt")  # the others stay closed


def test_open_sections_and_their_inputs_outlive_a_visit_to_another_page():
    at = choose(open_page(), "gpt2")
    at = open_section(encode(at, "the unbelievable cat<|endoftext|>"), encode_state.WHY_KEY)
    at.selectbox(key="encode_piece").set_value(" cat")  # not the longest piece, picked first
    at.toggle(key="encode_match_special").set_value(False)
    rerun(open_section(at, encode_state.DECODE_KEY))
    at.text_input(key="encode_ids").set_value("15496, 11")
    rerun(at)
    at.switch_page(TRAIN.path).run()
    at.switch_page(PAGE).run()
    ok(at)
    assert at.selectbox(key="encode_piece").value == " cat"
    assert not at.toggle(key="encode_match_special").value
    assert shown_ids(at) == load_gpt2().encode("the unbelievable cat<|endoftext|>", special=False)
    assert at.text_input(key="encode_ids").value == "15496, 11"
    assert at.code[-1].value == "Hello,"  # GPT-2: 15496 Hello, 11 ','
    assert not has_table(at, "bpe-tt")  # the table was never opened


def test_a_piece_no_longer_in_the_text_gives_way_to_the_longest():
    at = open_section(encode(choose(open_page(), "gpt2"), "the unbelievable cat"), encode_state.WHY_KEY)
    at.selectbox(key="encode_piece").set_value(" cat")
    rerun(at)
    assert encode(at, "a cat sat").selectbox(key="encode_piece").value == " cat"  # still a piece: kept
    assert encode(at, "a dog sat").selectbox(key="encode_piece").value == " dog"  # gone: the longest (first of two)


def drawn_in_order(node) -> list[str]:
    """The main area's elements in page order, as their types (an expander as ``expander:<label>``)."""
    if node.type == "expander":
        return [f"expander:{node.label}"]  # what it holds is folded away
    children = getattr(node, "children", None)
    if children is None:
        return [node.type]
    return [kind for index in sorted(children) for kind in drawn_in_order(children[index])]


def test_the_tokens_come_right_under_the_text_box_and_the_ids_are_folded_below(banana):
    at = encode(open_page(banana), "bandana_")
    order = drawn_in_order(at.main)
    after_text = order[order.index("text_area") :]
    # the text box, the live-typing component, the three counts in a row, then the boxes and their key
    assert [kind for kind in after_text if kind != "bidi_component"][:6] == [
        "text_area",
        "metric",
        "metric",
        "metric",
        "html",
        "html",
    ]
    assert 'class="tok ' in at.html[0].value and "stMetricValue" in at.html[0].value  # with the counts' CSS
    expanders = [kind for kind in after_text if kind.startswith("expander:")]
    assert expanders == ["expander:Token ids", *(f"expander:{label}" for label in SECTIONS.values())]
    assert after_text.index("expander:Token ids") > after_text.index("success")  # under the round trip's verdict
    assert shown_ids(at) == banana.encode("bandana_")  # drawn while folded: Decode's example, a quick look
    assert "open" not in dict(at.query_params)
    at.session_state[encode_state.IDS_OPEN_KEY] = True  # as a click on its heading
    assert dict(rerun(at).query_params)["open"] == "ids"
