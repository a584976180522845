"""Tokenizer files in and out (session/model_io.py): reading uploads, exports and their refusals, and the
widgets on the Train, Encode, Merges and Compare pages under Streamlit's AppTest."""

from __future__ import annotations

import json
import lzma

import pytest
from streamlit.testing.v1 import AppTest
from support.banana import BANANA_BANDANA
from support.byte_level_text import spelled_pair
from support.pages import ok, session_model, shown, shown_ids, train_metric
from support.paths import APP_FILE
from support.wordpiece_file import WORDPIECE
from tokenizers import Tokenizer as HFTokenizer

from bpe_core import Config, load_gpt2, train
from bpe_core.formats import model_to_json, to_gpt2_files, to_hf_json
from bpe_core.formats.files import XZ_MAX_BYTES, unpack_xz
from bpe_core.pretrained import DATA as GPT2_DATA
from bpe_core.pretrained import load_pretrained
from pages.merges import state as merges_state
from pages.train import state as train_state
from session import state
from session.model_about import DEFAULT_MODEL_ABOUT, ModelAbout
from session.model_io import EXPORTS, describe_loaded, export_refusal, hf_json_text, model_origin
from session.page_registry import COMPARE, ENCODE, MERGES, TRAIN
from session.tokenizer_files import load_added, load_uploaded

GPT2_TEXT = "Hello, ByteLevel BPE!"
GPT2_IDS = [15496, 11, 30589, 4971, 347, 11401, 0]
MODEL_JSON, HF_JSON, GPT2_PAIR = EXPORTS
WORDPIECE_JSON = json.dumps(WORDPIECE).encode()


@pytest.fixture(scope="module")
def byte_level():
    return train("the cat sat on the mat with the hat " * 20, Config(split="gpt2", units="bytes"), merges=30)


def pairs(tok) -> list[str]:
    return [f"{left} {right}" for left, right in tok.merges]


# -- reading uploads ---------------------------------------------------------------


def test_our_model_json_loads_with_its_counts(banana):
    loaded = load_uploaded({"bpe_model.json": model_to_json(banana).encode()})
    assert pairs(loaded) == BANANA_BANDANA
    assert [step.count for step in loaded.steps] == [4, 2, 2, 2, 1, 1]  # worked out by hand, as in the textbook


def test_an_hf_tokenizer_json_loads_and_encodes_the_same(byte_level):
    loaded = load_uploaded({"tokenizer.json": hf_json_text(byte_level).encode()})
    assert loaded.merges == byte_level.merges
    assert loaded.encode("the bat sat") == byte_level.encode("the bat sat")
    assert loaded.name == "tokenizer.json" and not loaded.has_counts


def test_gpt2s_own_vocab_and_merges_files_load_as_gpt2():
    files = {
        "encoder.json": (GPT2_DATA / "encoder.json").read_bytes(),
        "vocab.bpe": (GPT2_DATA / "vocab.bpe").read_bytes(),
    }
    assert load_uploaded(files).encode(GPT2_TEXT) == GPT2_IDS


def test_a_utf8_bom_is_accepted(banana):
    assert pairs(load_uploaded({"m.json": b"\xef\xbb\xbf" + model_to_json(banana).encode()})) == BANANA_BANDANA


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"latin.json": '{"é": 1}'.encode("latin-1")},
            "latin.json: this is not UTF-8 text (byte 0xE9 at position 2 is not valid UTF-8; Latin-1 or "
            "Windows-1252 perhaps?), please save it as UTF-8",
        ),
        (
            {"utf16.json": "{}".encode("utf-16")},
            "utf16.json: this is UTF-16 or UTF-32 text; please save it as UTF-8 and upload it again",
        ),
        (
            {"bert.json": WORDPIECE_JSON},
            "bert.json: this is a WordPiece tokenizer, not BPE: only BPE models can be loaded here",
        ),
        (
            {"vocab.json": b'{"a": 0, "b": 1}'},
            "vocab.json: this looks like a GPT-2 vocab.json: upload it together with its merges.txt"
            " (select both files)",
        ),
        (
            {"merges.txt": b"#version: 0.2\na b\n"},
            "merges.txt: this is a merges list: upload it together with its vocab.json (select both files)",
        ),
        (
            {"vocab.json": b'{"a": 0}', "merges.txt": b"a b\n"},
            'merges.txt, vocab.json: merges.txt line 1: "b" is not in vocab.json',
        ),
        ({"deep.json": b"[" * 100_000}, "deep.json: not valid JSON: it is nested too deeply"),
        (
            {"broken.json": b'{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "added_tokens": [{}]}'},
            "broken.json: added_tokens[0].id is missing",
        ),
        (
            {"a.json": b"{}", "b.json": b"{}"},
            "a.json, b.json: give one model file (.json), or a vocab.json with its merges.txt",
        ),
        ({"notes.json": b'{"hello": "world"}'}, "notes.json: neither a BPE Explorer model nor an HF tokenizer.json"),
    ],
    ids=[
        "latin-1",
        "utf-16",
        "wordpiece",
        "lone vocab",
        "lone merges",
        "unknown token",
        "nested",
        "malformed",
        "two models",
        "other json",
    ],
)
def test_unloadable_files_raise_a_value_error_naming_the_file(files, expected):
    with pytest.raises(ValueError) as error:
        load_uploaded(files)
    assert str(error.value) == expected


def test_files_added_to_an_uploader_load_alone_or_with_their_partner(banana, byte_level):
    # the uploader keeps earlier files: a newly added model replaces the one loaded before
    tok, names = load_added(
        {"new.json": hf_json_text(byte_level).encode()}, {"old.json": model_to_json(banana).encode()}
    )
    assert (tok.merges, names) == (byte_level.merges, ["new.json"])
    # a merges.txt added after its vocab.json loads with it
    vocab, merges = to_gpt2_files(byte_level)
    tok, names = load_added({"merges.txt": merges.encode()}, {"vocab.json": vocab.encode()})
    assert (tok.merges, names) == (byte_level.merges, ["merges.txt", "vocab.json"])
    # a refused new file reports its own reason, not the mix
    with pytest.raises(ValueError, match="^bert.json: this is a WordPiece tokenizer"):
        load_added({"bert.json": WORDPIECE_JSON}, {"old.json": model_to_json(banana).encode()})


def test_nothing_uploaded_is_an_error():
    with pytest.raises(ValueError, match="no file"):
        load_uploaded({})


def test_describe_and_origin():
    gpt2 = load_gpt2()
    assert describe_loaded(gpt2, "GPT-2") == (
        "Loaded GPT-2: a vocabulary of 50,257 tokens, 50,000 of them made by merges. It is now the model on every page."
    )
    assert model_origin(gpt2, ModelAbout.gpt2()) == "GPT-2's published tokenizer (OpenAI, 2019)"
    assert model_origin(gpt2, DEFAULT_MODEL_ABOUT) == "GPT-2's published tokenizer (OpenAI, 2019)"  # by its name
    assert model_origin(gpt2, ModelAbout.loaded_file("vocab.json, merges.txt")) == "Loaded from vocab.json, merges.txt"


# -- exports -------------------------------------------------------------------------


def test_a_byte_level_gpt2_split_model_exports_everywhere(byte_level):
    assert [export_refusal(byte_level, export) for export in EXPORTS] == [None, None, None]
    reference = HFTokenizer.from_str(HF_JSON.files[0].build(byte_level))
    assert reference.encode("the rat sat").ids == byte_level.encode("the rat sat")
    vocab_file, merges_file = GPT2_PAIR.files
    assert (vocab_file.file_name, merges_file.file_name) == ("vocab.json", "merges.txt")
    pair = {"vocab.json": vocab_file.build(byte_level).encode(), "merges.txt": merges_file.build(byte_level).encode()}
    assert load_uploaded(pair).merges == byte_level.merges
    assert (vocab_file.build(byte_level), merges_file.build(byte_level)) == to_gpt2_files(byte_level)
    assert json.loads(HF_JSON.files[0].build(byte_level)) == to_hf_json(byte_level)


def test_our_own_format_always_exports(banana):
    assert export_refusal(banana, MODEL_JSON) is None
    assert pairs(load_uploaded({"m.json": MODEL_JSON.files[0].build(banana).encode()})) == BANANA_BANDANA


def test_refusals_carry_the_engines_reason():
    own_marker = train("low lower lowest", Config(split="whitespace", end_of_word="</w>"), merges=3)
    assert "retrain with the marker glued" in export_refusal(own_marker, HF_JSON)
    assert "units 'bytes' and split 'gpt2'" in export_refusal(own_marker, GPT2_PAIR)
    glued = train("low lower lowest", Config(split="whitespace", end_of_word="</w>", glue_marker=True), merges=3)
    assert export_refusal(glued, HF_JSON) is None
    assert export_refusal(glued, GPT2_PAIR) is not None


def test_gpt2_itself_exports_everywhere():
    assert [export_refusal(load_gpt2(), export) for export in EXPORTS] == [None, None, None]


# -- the widgets on the pages (AppTest) ----------------------------------------------


def open_page(page: str = TRAIN.path, model=None) -> AppTest:
    """``page`` with its section of tokenizer files open (folded, it draws none of these widgets)."""
    at = AppTest.from_file(APP_FILE, default_timeout=90)
    for name in ("train", "merges", "encode"):  # the pages with a section of tokenizer files
        at.session_state[state.model_io_section_key(name)] = True
    if model is not None:
        at.session_state[state.MODEL_KEY] = model
        at.session_state[state.CORPUS_KEY] = ""
        at.session_state[state.ABOUT_KEY] = ModelAbout.loaded_file("model.json")
    ok(at.run())  # the root's page, Start, first: app.py gives the session its model
    return ok(at.switch_page(page).run())


def test_the_sections_are_folded_until_opened():
    """(That an open section stays open across pages is a browser test: AppTest does not carry it.)"""
    at = ok(ok(AppTest.from_file(APP_FILE, default_timeout=90).run()).switch_page(TRAIN.path).run())
    assert not at.get("download_button") and not at.get("file_uploader")  # Train's corpus box is not an uploader
    assert "Use GPT-2's real tokenizer" not in [button.label for button in at.button]
    at.session_state[state.model_io_section_key("train")] = True
    assert len(ok(at.run()).get("download_button")) == 4 and len(at.get("file_uploader")) == 1
    for page in (MERGES.path, ENCODE.path):
        assert not ok(at.switch_page(page).run()).get("file_uploader")  # each page's section is its own


def upload(at: AppTest, prefix: str, *files: tuple[str, bytes]) -> AppTest:
    widget = at.file_uploader(key=f"{prefix}_tokenizer_files")
    return ok(widget.set_value([(name, data, "application/octet-stream") for name, data in files]).run())


def press(at: AppTest, label: str) -> AppTest:
    return ok(next(button for button in at.button if button.label == label).click().run())


def downloads(at: AppTest) -> dict[str, bool]:
    """Download button label -> whether it can be pressed."""
    return {button.proto.label: not button.proto.disabled for button in at.get("download_button")}


def test_train_page_uploads_a_tokenizer_json_and_shows_it(byte_level):
    at = upload(open_page(), "train", ("tokenizer.json", hf_json_text(byte_level).encode()))
    assert session_model(at).merges == byte_level.merges
    assert at.session_state[state.CORPUS_KEY] == ""
    assert shown(at.success) == (  # the words' pairs run out after 17 merges: 256 bytes + 17 tokens
        "Loaded from a tokenizer.json (no training counts). | "
        "Loaded tokenizer.json: a vocabulary of 273 tokens, 17 of them made by merges. "
        "It is now the model on every page."
    )
    assert shown(at.markdown[:1]) == (
        "Loaded from tokenizer.json  \ngpt2 split · built from bytes · equal counts: the pair seen first wins"
    )
    assert train_metric(at, "Tokens per word") == "—"
    assert downloads(at) == dict.fromkeys(
        ["Download model JSON", "Download tokenizer.json", "Download vocab.json", "Download merges.txt"], True
    )
    assert dict(at.query_params) == {}  # a loaded model has no link that would rebuild it
    at.session_state[train_state.TABLE_WIDGET] = True  # the table of all merges is drawn only when opened
    assert list(ok(at.run()).dataframe[0].value["pair"]) == [spelled_pair(*merge) for merge in byte_level.merges]


def form_values(at: AppTest) -> dict:
    return {
        name: at.session_state[f"train_{name}"] for name in ("split", "units", "end_of_word", "merges", "tie_break")
    }


def test_the_train_form_takes_over_a_loaded_models_settings_once(banana):
    at = open_page()
    assert form_values(at)["split"] == "gpt2"  # the default form: GPT-2's byte-level recipe
    at = upload(at, "train", ("banana.json", model_to_json(banana).encode()))
    assert form_values(at) == {"split": "none", "units": "chars", "end_of_word": "", "merges": 6, "tie_break": "first"}
    ok(at.selectbox(key="train_split").set_value("whitespace").run())  # the user's own change then stays
    ok(at.run())
    assert form_values(at)["split"] == "whitespace"
    at = press(at, "Use GPT-2's real tokenizer")
    assert form_values(at) == {
        "split": "gpt2",
        "units": "bytes",
        "end_of_word": "",
        "merges": 50000,
        "tie_break": "first",
    }
    assert at.session_state["train_special_tokens"] == "<|endoftext|>"


def test_train_page_keeps_the_model_when_a_file_is_refused():
    at = upload(open_page(), "train", ("bert.json", WORDPIECE_JSON))
    message = shown(at.error)
    assert "Could not load bert.json: this is a WordPiece tokenizer" in message and "current model is kept" in message
    assert len(session_model(at).merges) == 2000  # still the default model
    assert "It is now the model on every page" not in shown(at.success)


def test_an_upload_is_loaded_once_not_on_every_rerun(banana):
    at = upload(open_page(), "train", ("banana.json", model_to_json(banana).encode()))
    assert pairs(session_model(at)) == BANANA_BANDANA
    at = press(at, "Use GPT-2's real tokenizer")  # the upload is still in the widget
    ok(at.run())
    assert session_model(at) is load_gpt2()
    assert "Loaded banana.json" not in shown(
        at.success
    )  # the old "Loaded banana.json" is not shown for a model that is gone


def test_train_page_gpt2_button_and_refused_exports():
    words = train("low lower lowest", Config(split="whitespace", end_of_word="</w>"), merges=3)
    at = open_page(model=words)
    # a model that keeps </w> as its own symbol: only our format exports, the others say why
    assert downloads(at) == {
        "Download model JSON": True,
        "Download tokenizer.json": False,
        "Download vocab.json": False,
        "Download merges.txt": False,
    }
    notes = shown(at.info)
    assert "glued" in notes and "units 'bytes' and split 'gpt2'" in notes
    at = press(at, "Use GPT-2's real tokenizer")
    assert session_model(at) is load_gpt2()
    assert shown(at.markdown).startswith(
        "GPT-2's published tokenizer (OpenAI, 2019)  \ngpt2 split · built from bytes · "
    )
    assert train_metric(at, "Merges made") == "50,000"
    assert all(downloads(at).values())
    assert next(b for b in at.button if b.label == "Use GPT-2's real tokenizer").disabled


def test_encode_page_loads_a_model_file_and_gpt2(banana):
    at = upload(open_page(ENCODE.path), "encode", ("banana.json", model_to_json(banana).encode()))
    ok(at.text_area(key="encode_text").set_value("banana_bandana_").run())
    assert shown_ids(at) == banana.encode("banana_bandana_")
    assert shown(at.success[:1]) == (  # <unk>, b a n _ d and six merged tokens
        "Loaded banana.json: a vocabulary of 12 tokens, 6 of them made by merges. It is now the model on every page."
    )

    at = press(at, "Use GPT-2's real tokenizer")
    ok(at.text_area(key="encode_text").set_value(GPT2_TEXT).run())
    choice = at.selectbox(key="encode_source")
    assert choice.value == "model"  # the session's model, which is now GPT-2, and the labels say so
    assert choice.options[:2] == ["Session model: GPT-2", "Prefix of GPT-2"]  # plain text, not the published GPT-2's
    ok(choice.set_value("prefix").run())
    assert "Prefix of GPT-2: the first 50000 of 50000 merges" in shown(at.caption)  # named like the choice
    assert choice.options.count("GPT-2") == 1
    assert shown_ids(at) == GPT2_IDS


def merges_tab(at: AppTest, label: str) -> AppTest:
    """The Merges page with the tab ``label`` open (only the open tab is drawn)."""
    at.session_state[merges_state.TAB_KEY] = label
    return ok(at.run())


def test_merges_page_with_gpt2_shows_trees_and_explains_the_missing_counts():
    at = press(open_page(MERGES.path), "Use GPT-2's real tokenizer")
    assert "no training counts" in shown(merges_tab(at, ":material/leaderboard: Pair race").info)
    assert "count curve needs training counts" in shown(merges_tab(at, ":material/scatter_plot: All merges").info)
    assert len(at.get("plotly_chart")) == 1  # the forest, no count curve
    assert len(merges_tab(at, ":material/account_tree: Merge tree").get("plotly_chart")) == 1  # the tree
    assert at.selectbox(key="merges_tree_token").value is not None  # a token to draw


def test_merges_and_compare_pages_with_an_uploaded_model(byte_level):
    loaded = load_uploaded({"tokenizer.json": hf_json_text(byte_level).encode()})
    at = open_page(MERGES.path, model=loaded)
    assert "no training counts" in shown(merges_tab(at, ":material/leaderboard: Pair race").info)
    ok(at.switch_page(COMPARE.path).run())
    assert session_model(at) is loaded


def test_a_file_name_with_markdown_shows_literally(byte_level):
    name = "[x](javascript:alert(1))*bold*.json"
    at = upload(open_page(ENCODE.path), "encode", (name, hf_json_text(byte_level).encode()))
    captions = [c.value for c in at.caption]
    assert any(c.startswith("\\[x\\]\\(javascript\\:alert\\(1\\)\\)\\*bold\\*\\.json: ") for c in captions), captions
    ok(at.switch_page(MERGES.path).run())
    assert any(c.value.startswith("\\[x\\]\\(javascript") for c in at.caption)


# -- xz-compressed uploads (a tokenizer.json over the 10 MB upload limit) ------------------


def test_an_xz_upload_is_unpacked_and_named_without_xz(byte_level):
    packed = lzma.compress(hf_json_text(byte_level).encode())
    assert unpack_xz("tokenizer.json.xz", packed) == ("tokenizer.json", hf_json_text(byte_level).encode())
    assert load_uploaded({"tokenizer.json.xz": packed}).merges == byte_level.merges
    assert unpack_xz("plain.json", b"{}") == ("plain.json", b"{}")  # any other file as it is
    assert XZ_MAX_BYTES == 64 * 2**20


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{}", "m.json.xz: this is not an xz file (make one with: xz -k tokenizer.json)"),
        (lzma.compress(b"x" * 100)[:-20], "m.json.xz: the xz file ends too early (was the upload cut short?)"),
        (
            lzma.compress(b"x" * 101),
            "m.json.xz: it unpacks to more than 100 bytes, more than this app reads from one file",
        ),
    ],
)
def test_a_bad_xz_upload_is_refused_with_a_clear_message(data, message):
    with pytest.raises(ValueError) as error:
        unpack_xz("m.json.xz", data, limit=100)
    assert str(error.value) == message


def test_an_xz_bomb_stops_at_the_limit_of_64_mb():
    bomb = lzma.compress(b"\0" * (XZ_MAX_BYTES + 1))  # a few kilobytes that unpack to 64 MB and one byte
    with pytest.raises(ValueError, match="unpacks to more than 64 MB"):
        load_uploaded({"tokenizer.json.xz": bomb})


def test_exactly_the_limit_is_accepted():
    assert unpack_xz("a.xz", lzma.compress(b"y" * 100), limit=100) == ("a", b"y" * 100)


def test_an_open_model_cannot_be_saved_as_our_model_json_and_says_why():
    refusal = export_refusal(load_pretrained("llama2"), EXPORTS[0])
    assert (
        refusal.startswith("Llama 2 runs the parts of an HF tokenizer.json") and "keep it as tokenizer.json" in refusal
    )
    assert export_refusal(load_pretrained("llama2"), EXPORTS[1]) is None
