"""Every pattern read from a tokenizer.json runs bounded: one search that takes longer than PATTERN_SECONDS (a
pattern that backtracks without end, such as "(x|x)+y") is a ValueError naming the field the pattern came from, in
the engine, the command line and the Encode page; a pattern that behaves is not affected."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from apptest_helpers import APP_FILE, ok, open_model_io
from hf_document import tokenizer_document
from streamlit.testing.v1 import AppTest
from tokenizers import Tokenizer as HfTokenizer

from bpe_core.formats import load_any
from bpe_core.pipeline import oniguruma
from tests.core.test_cli import ROOT
from viz.page_registry import ENCODE

BACKTRACKS = {"Regex": "(x|x)+y"}  # each "x" doubles the time of a search that fails
SLOW_TEXT = "x" * 40  # about 2.7 days of a core, unbounded
MODEL = {"type": "BPE", "vocab": {"x": 0, "y": 1, "xx": 2, SLOW_TEXT: 3}, "merges": [["x", "x"]]}


def split(behavior: str, pattern: dict = BACKTRACKS) -> dict:
    return {"type": "Split", "pattern": pattern, "behavior": behavior, "invert": False}


CASES = {  # where the pattern sits -> the field named
    "pre_tokenizer.pattern": {"pre_tokenizer": split("Isolated")},  # the fast path: one C-level split
    "pre_tokenizer.pretokenizers[1].pattern": {
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [split("Isolated", {"String": " "}), split("Removed")]}
    },
    "normalizer.pattern": {"normalizer": {"type": "Replace", "pattern": BACKTRACKS, "content": "z"}},
}


@pytest.fixture(autouse=True)
def quick_timeout(monkeypatch):
    """A tenth of a second a search, so that the tests wait less for each timeout (read when a search starts)."""
    monkeypatch.setattr(oniguruma, "PATTERN_SECONDS", 0.1)


def document(**parts) -> str:
    return json.dumps(tokenizer_document(MODEL, **parts))


@pytest.mark.parametrize("field", CASES)
def test_a_pattern_that_backtracks_without_end_stops_and_names_its_field(field):
    tokenizer = load_any({"tokenizer.json": document(**CASES[field])})
    with pytest.raises(ValueError, match="^" + re.escape(f"{field}: one search took longer")):
        tokenizer.encode(SLOW_TEXT)  # unbounded, days


def test_a_decoders_pattern_is_bounded_too():
    decoder = {"type": "Replace", "pattern": BACKTRACKS, "content": "z"}
    tokenizer = load_any({"tokenizer.json": document(decoder=decoder)})
    with pytest.raises(ValueError, match=r"^decoder\.pattern: one search took longer"):
        tokenizer.decode([3])  # the decoder's Replace runs on each token


@pytest.mark.parametrize("field", CASES)
def test_a_pattern_that_behaves_gives_hfs_ids(field):
    text = document(**CASES[field])
    ours, hf = load_any({"tokenizer.json": text}), HfTokenizer.from_str(text)
    for sample in ("xxxy", "xyxxxxy x", "yyy"):
        assert ours.encode(sample) == hf.encode(sample, add_special_tokens=False).ids


def test_the_command_line_says_which_field_and_exits_1(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(document(**CASES["normalizer.pattern"]), encoding="utf-8")
    command = [sys.executable, "-m", "bpe_core", "encode", str(path), SLOW_TEXT]
    environment = {**os.environ, "BPE_PATTERN_SECONDS": "0.1"}
    result = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "normalizer.pattern: one search took longer than 0.1 s on this text" in result.stderr


def test_the_encode_page_says_so_and_keeps_the_tokenizer():
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    ok(at.run())
    at = ok(at.switch_page(ENCODE.path).run())
    uploader = open_model_io(at, "encode").file_uploader(key="encode_tokenizer_files")
    data = document(**CASES["pre_tokenizer.pattern"]).encode()
    ok(uploader.set_value([("tokenizer.json", data, "application/json")]).run())
    at.text_area[0].set_value(SLOW_TEXT)
    ok(at.run())
    said = " ".join(str(error.value) for error in at.error).replace("\\", "")
    assert "This text cannot be encoded: pre_tokenizer.pattern: one search took longer than" in said
    at.text_area[0].set_value("xxxy")
    ok(at.run())
    assert not at.error
