"""The open models on the pages (AppTest): Encode's steps, boxes and replays, a Merges tree found in Gemma 3's
262k vocabulary, Compare's real tokenizers with all of them, and each tokenizer.json uploaded as .xz. Ids and token
counts come from HF tokenizers running the same files."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest
from support.open_model_references import SHIPPED, hf_reference
from support.pages import ok, open_model_io, shown, shown_ids, table_columns
from support.paths import APP_FILE

from bpe_core.pretrained import OPEN_MODELS, load_pretrained
from pages.compare import state as compare_state
from pages.encode import state as encode_state
from pages.merges import state as merges_state
from session.page_registry import COMPARE, ENCODE, MERGES

pytest.importorskip("tokenizers")  # the reference
TEXT = "ﬁne 🦙 day, tokenizers"


def open_page(path: str) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    ok(at.run())
    return ok(at.switch_page(path).run())


def encode_with(name: str, text: str = TEXT) -> AppTest:
    at = open_page(ENCODE.path)
    at.session_state[encode_state.WHY_KEY] = True  # "Why this split?" is drawn only while open
    ok(at.selectbox(key=encode_state.SOURCE_KEY).set_value(name).run())
    return ok(at.text_area(key=encode_state.TEXT_KEY).set_value(text).run())


def boxes(at: AppTest) -> str:
    return next(element.value for element in at.get("html") if 'class="bpe-scroll"' in element.value)


def test_encode_llama2_shows_the_normalized_text_byte_fallback_and_the_steps():
    at = encode_with("llama2")
    hf = hf_reference("llama2").encode(TEXT, add_special_tokens=False)
    assert shown_ids(at) == hf.ids
    steps = shown(at.markdown)
    assert "Normalizer: spaces became ▁ (3×); ▁ put in front of the text" in steps
    assert "Pre-tokenizer: none, so the whole text is one piece" in steps
    assert "4 byte-fallback tokens" in steps and "<s> is put first" in steps
    html = boxes(at)
    assert all(f"&lt;0x{byte:02X}&gt;</span>" in html for byte in "🦙".encode())  # each byte by its name
    assert '<span class="char">=🦙</span>' in html and '<span class="cut"' not in html
    assert at.selectbox(key=encode_state.PIECE_KEY).options == ["▁ﬁne", "▁🦙▁day,", "▁tokenizers"]
    assert "Round trip OK" in shown(at.success)


def test_encode_llama3_marks_whole_word_hits_and_says_so_in_why_this_split():
    at = encode_with("llama3", "Hi tokenizers")  # HF: Hi (a token, taken whole) | Ġtokenizers (merged: Ġtoken izers)
    assert shown_ids(at) == hf_reference("llama3").encode("Hi tokenizers", add_special_tokens=False).ids
    assert "1 piece was already a token and was taken whole" in shown(at.markdown)
    assert boxes(at).count(' hit"') == 1 and boxes(at).count('class="cut"') == 1
    piece = at.selectbox(key=encode_state.PIECE_KEY)
    assert piece.options == ["Hi", "␣tokenizers"]
    ok(piece.set_value("Hi").run())
    assert "Whole-word hit (ignore_merges)" in shown(at.info)


def test_encode_claude_says_the_round_trip_gives_the_nfkc_text():
    at = encode_with("claude-legacy", "ﬁne")
    assert shown_ids(at) == hf_reference("claude-legacy").encode("ﬁne", add_special_tokens=False).ids
    assert "Normalizer: ﬁ → fi" in shown(at.markdown)
    assert "Round trip gives the text as the model saw it" in shown(at.info)
    assert at.selectbox(key=encode_state.PIECE_KEY).options == ["fine"]


@pytest.mark.slow  # several seconds
def test_merges_tree_of_a_gemma3_token_found_by_typing():
    at = open_page(MERGES.path)
    at.session_state[merges_state.TAB_KEY] = ":material/account_tree: Merge tree"  # only the open tab is drawn
    ok(at.selectbox(key=merges_state.SOURCE_KEY).set_value("gemma3").run())
    assert f"made by {len(load_pretrained('gemma3').merges):,} merges" in shown(at.caption)  # Merges' line on Gemma 3
    ok(at.text_input(key=merges_state.TREE_SEARCH_KEY).set_value(" tokenizer").run())
    choice = at.selectbox(key=merges_state.TREE_TOKEN_KEY)
    assert choice.options[0] == "▁tokenizer" and choice.value == "▁tokenizer"
    labels = [box["text"] for box in json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]["annotations"]]
    assert labels[0] == "▁tokenizer"
    vocab = hf_reference("gemma3").get_vocab()
    assert all(label in vocab for label in labels)  # every box is a token of the file


def test_compare_real_tokenizers_with_every_open_model_counts_as_hf_does():
    at = open_page(COMPARE.path)
    at.session_state[compare_state.TAB_KEY] = ":material/smart_toy: Real tokenizers"
    ok(at.text_area(key=compare_state.TEXT_KEY).set_value(TEXT).run())
    ok(at.multiselect(key=compare_state.REAL_CHOICE_KEY).set_value(list(OPEN_MODELS)).run())
    text = shown(at.markdown)
    columns = table_columns(at, "bpe-counts")
    rows = {row[0]: dict(zip(columns, row)) for row in zip(*columns.values())}  # by tokenizer
    for name, title in OPEN_MODELS.items():
        count = len(hf_reference(name).encode(TEXT, add_special_tokens=False).ids)
        assert f"{title} — **{count} tokens**" in text
        assert rows[title]["Tokens"] == f"{count:,}"
        assert rows[title]["Vocabulary"] == f"{hf_reference(name).get_vocab_size():,}"
        assert rows[title]["Characters per token"] == f"{len(TEXT) / count:.2f}"
    assert columns["Tokenizer"][:3] == ["Your model at 256", "Your model at 456", "Your model at 2,256"]  # each size
    assert columns["Vocabulary"][2] == "2,256"  # the default model at its largest size: 256 bytes + 2,000 merges
    assert table_columns(at, "bpe-costs")["Tokenizer"][1:] == ["Your model", *OPEN_MODELS.values()]
    assert len(at.get("plotly_chart")) == 1


@pytest.mark.slow  # several seconds
@pytest.mark.parametrize("name", list(OPEN_MODELS))
def test_each_open_models_tokenizer_json_xz_uploads_on_the_encode_page(name):
    at = open_page(ENCODE.path)
    data = (SHIPPED / f"{name}.tokenizer.json.xz").read_bytes()
    uploader = open_model_io(at, "encode").file_uploader(key="encode_tokenizer_files")
    ok(uploader.set_value([(f"{name}.tokenizer.json.xz", data, "application/x-xz")]).run())
    assert shown(at.success[:1]).startswith(f"Loaded {name}.tokenizer.json.xz: ")  # named as uploaded
    assert at.selectbox(key=encode_state.SOURCE_KEY).value == "model"
    ok(at.text_area(key=encode_state.TEXT_KEY).set_value(TEXT).run())
    assert shown_ids(at) == hf_reference(name).encode(TEXT, add_special_tokens=False).ids
    assert shown_ids(at) == load_pretrained(name).encode(TEXT)
