"""Tokenizer files in a real browser: download tokenizer.json from the Train page, load it in HF tokenizers,
upload it back on the Encode page, see a WordPiece file refused, and switch to GPT-2."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest
from support.browser import click_nav, exception_texts, open_app, open_section, open_tab, wait_for_app
from support.wordpiece_file import WORDPIECE
from tokenizers import Tokenizer as HFTokenizer

from bpe_core import Config, train

pytestmark = pytest.mark.browser

MAIN = '[data-testid="stMain"]'
CORPUS = "the cat sat on the mat; the rat sat on the hat. That cat? The best cats sit."
MERGES = 25
SENTENCE = "The rat and the cat sat, that is that."
GPT2_TEXT = "Hello, ByteLevel BPE!"
GPT2_IDS = "15496, 11, 30589, 4971, 347, 11401, 0"


def assert_clean(page) -> None:
    assert exception_texts(page) == [] and page.page_errors == [] and page.dialogs == []


def byte_level_link() -> str:
    """A Train page link that trains CORPUS with GPT-2's byte-level settings on arrival."""
    settings = {
        "preset": "paste",
        "text": CORPUS,
        "merges": MERGES,
        "split": "gpt2",
        "eow": "",
        "units": "bytes",
        "tie": "hf",
    }
    return "Train?" + urlencode(settings)


def shown_ids(page) -> list[int]:
    """The ids of the token boxes on the Encode page, read from their details ("id 123 ...")."""
    titles = page.locator(".bpe-scroll .tok").evaluate_all("(boxes) => boxes.map((box) => box.dataset.details)")
    return [int(re.match(r"id (\d+)", title).group(1)) for title in titles]


def encode_text(page, text: str) -> None:
    box = page.get_by_label("Text to encode")
    box.fill(text)
    box.press("Control+Enter")
    wait_for_app(page)


def upload(page, *paths) -> None:
    page.locator(f'{MAIN} [data-testid="stExpander"] input[type="file"]').set_input_files(list(paths))
    wait_for_app(page)


def test_tokenizer_json_round_trip_and_gpt2(app_server, page, screenshot, tmp_path):
    open_app(page, app_server, "Train?preset=documents")
    open_section(page, "Save or load a tokenizer")
    # the textbook's documents keep </w> as a symbol of its own: HF and GPT-2 exports are refused with the reason
    assert page.get_by_role("button", name="Download tokenizer.json").is_disabled()
    assert "retrain with the marker glued" in page.locator(f'{MAIN} [data-testid="stAlert"]').all_inner_texts()[-2]
    screenshot(page, "train_refused")

    open_app(page, app_server, byte_level_link())
    open_section(page, "Save or load a tokenizer")
    expected = train(CORPUS, Config(split="gpt2", units="bytes", tie_break="hf"), merges=MERGES)
    with page.expect_download() as download:
        page.get_by_role("button", name="Download tokenizer.json").click()
    saved = tmp_path / "tokenizer.json"
    download.value.save_as(saved)
    assert download.value.suggested_filename == "tokenizer.json"
    assert HFTokenizer.from_file(str(saved)).encode(SENTENCE).ids == expected.encode(SENTENCE)
    screenshot(page, "train_byte_level", whole=True)

    click_nav(page, "Encode / Decode")
    open_section(page, "Load a tokenizer")
    upload(page, saved)
    loaded = page.locator(f'{MAIN} [data-testid="stAlert"]').first.inner_text()
    assert "Loaded tokenizer.json: a vocabulary of " in loaded and f"{MERGES} of them made by merges" in loaded
    encode_text(page, SENTENCE)
    assert shown_ids(page) == expected.encode(SENTENCE)
    assert f"tokenizer.json: a vocabulary of {256 + MERGES} tokens, {MERGES} of them" in page.locator(MAIN).inner_text()
    screenshot(page, "encode_uploaded")

    bert = tmp_path / "bert.json"
    bert.write_text(json.dumps(WORDPIECE), encoding="utf-8")
    upload(page, bert)
    error = page.locator(f'{MAIN} [data-testid="stAlert"]').filter(has_text="Could not load")
    assert "bert.json: this is a WordPiece tokenizer, not BPE" in error.inner_text()
    assert shown_ids(page) == expected.encode(SENTENCE)  # the uploaded model is kept
    screenshot(page, "encode_wordpiece_refused")

    # HF refuses a vocabulary id of -5 at load (u32); so do we, naming the field, and the model is kept
    negative = json.loads(saved.read_text(encoding="utf-8"))
    negative["model"]["vocab"]["a"] = -5
    with pytest.raises(Exception, match="-5"):
        HFTokenizer.from_str(json.dumps(negative))
    bad_id = tmp_path / "negative-id.json"
    bad_id.write_text(json.dumps(negative), encoding="utf-8")
    upload(page, bad_id)
    error = page.locator(f'{MAIN} [data-testid="stAlert"]').filter(has_text="Could not load")
    assert 'model.vocab["a"]: id -5 is not a whole number from 0 to 4294967295' in error.inner_text()
    assert shown_ids(page) == expected.encode(SENTENCE)

    page.get_by_role("button", name="Use GPT-2's real tokenizer").click()
    wait_for_app(page)
    encode_text(page, GPT2_TEXT)
    ids = page.locator(f'{MAIN} .st-key-encode_token_ids [data-testid="stCode"]').text_content()  # folded
    assert ids.strip() == GPT2_IDS
    assert "GPT-2: a vocabulary of 50,257 tokens, 50,000 of them made by merges" in page.locator(MAIN).inner_text()
    assert page.get_by_role("button", name="Use GPT-2's real tokenizer").is_disabled()
    assert_clean(page)
    screenshot(page, "encode_gpt2")

    click_nav(page, "Train")
    assert "GPT-2's published tokenizer" in page.locator(MAIN).inner_text()
    assert page.get_by_role("button", name="Download tokenizer.json").is_enabled()  # the section is still open
    assert not page.get_by_role("button", name="Download merges.txt").is_disabled()
    assert_clean(page)
    screenshot(page, "train_gpt2", whole=True)

    click_nav(page, "Merges")
    open_tab(page, "All merges")
    text = page.locator(MAIN).inner_text()
    assert "GPT-2: a vocabulary of 50,257 tokens, 50,000 of them" in text
    assert "count curve needs training counts" in text
    assert page.locator(f'{MAIN} [data-testid="stPlotlyChart"]').count() == 1  # the forest, and no count curve
    open_tab(page, "Pair race")
    assert "no training counts" in page.locator(MAIN).inner_text()
    open_tab(page, "Step by step")  # step 1 is Ġ + t, written as the boxes write it, with the key under it
    text = page.locator(MAIN).inner_text()
    assert "␣ + t" in text and "Key: ␣ a space." in text and "Ġ" not in text
    assert_clean(page)
    screenshot(page, "merges_gpt2", whole=True)
