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
from support.hf_document import tokenizer_document
from support.paths import REPO_ROOT
from support.reference_libraries import hf_tokenizers

from bpe_core.formats import load_any
from bpe_core.pipeline import oniguruma

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
    ours, hf = load_any({"tokenizer.json": text}), hf_tokenizers().Tokenizer.from_str(text)
    for sample in ("xxxy", "xyxxxxy x", "yyy"):
        assert ours.encode(sample) == hf.encode(sample, add_special_tokens=False).ids


def test_the_command_line_says_which_field_and_exits_1(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(document(**CASES["normalizer.pattern"]), encoding="utf-8")
    command = [sys.executable, "-m", "bpe_core", "encode", str(path), SLOW_TEXT]
    environment = {**os.environ, "BPE_PATTERN_SECONDS": "0.1"}
    result = subprocess.run(command, cwd=REPO_ROOT, env=environment, capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "normalizer.pattern: one search took longer than 0.1 s on this text" in result.stderr


def encode_page_with(data: bytes):
    """The Encode page (Streamlit's AppTest) with the tokenizer.json ``data`` uploaded, and the helper that checks a
    run; the test skips where Streamlit is not installed (the engine's tests run without it)."""
    testing = pytest.importorskip("streamlit.testing.v1")
    from support.pages import ok, open_model_io
    from support.paths import APP_FILE

    from session.page_registry import ENCODE

    at = testing.AppTest.from_file(APP_FILE, default_timeout=120)
    ok(at.run())
    at = ok(at.switch_page(ENCODE.path).run())
    uploader = open_model_io(at, "encode").file_uploader(key="encode_tokenizer_files")
    ok(uploader.set_value([("tokenizer.json", data, "application/json")]).run())
    return at, ok


def test_the_encode_page_says_so_and_keeps_the_tokenizer():
    at, ok = encode_page_with(document(**CASES["pre_tokenizer.pattern"]).encode())
    at.text_area[0].set_value(SLOW_TEXT)
    ok(at.run())
    said = " ".join(str(error.value) for error in at.error).replace("\\", "")
    assert "This text cannot be encoded: pre_tokenizer.pattern: one search took longer than" in said
    at.text_area[0].set_value("xxxy")
    ok(at.run())
    assert not at.error


# -- one call's searches together: ENCODE_SECONDS ---------------------------------------------------------------

BAR = {"id": 4, "content": "|", "single_word": False, "lstrip": False, "rstrip": False, "normalized": False}
MANY_STRETCHES = "|".join(["xxy"] * 40)  # 40 stretches between added tokens, one quick search each


class Clock:
    """The time as oniguruma reads it: each reading one second after the last, so a call's budget runs out after a
    known number of searches, however fast this machine is."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1
        return self.now


def many_stretches_tokenizer():
    added = [{**BAR, "special": True}]
    return load_any({"tokenizer.json": document(pre_tokenizer=split("Isolated"), added_tokens=added)})


def test_many_quick_searches_add_up_to_the_calls_budget(monkeypatch):
    tokenizer = many_stretches_tokenizer()
    hf = hf_tokenizers().Tokenizer.from_str(
        document(pre_tokenizer=split("Isolated"), added_tokens=[{**BAR, "special": True}])
    )
    assert tokenizer.encode(MANY_STRETCHES) == hf.encode(MANY_STRETCHES, add_special_tokens=False).ids
    monkeypatch.setattr(oniguruma, "time", Clock())  # 10 s of budget: 9 searches, then the 10th reading is past
    monkeypatch.setattr(oniguruma, "ENCODE_SECONDS", 10)
    said = (
        "this took longer than 10 s in all (the tokenizer's patterns ran on many parts of the text): give it a "
        "shorter text (the server's BPE_ENCODE_SECONDS sets the limit)"
    )
    for call in (tokenizer.encode, tokenizer.encode_with_spans, tokenizer.pieces):  # each runs the pre-tokenizer
        with pytest.raises(ValueError, match="^" + re.escape(said) + "$"):
            call(MANY_STRETCHES)


def test_a_search_gets_only_what_is_left_of_the_budget(monkeypatch):
    monkeypatch.setattr(oniguruma, "PATTERN_SECONDS", 1000)  # a search alone would run for days
    monkeypatch.setattr(oniguruma, "ENCODE_SECONDS", 0.2)
    tokenizer = load_any({"tokenizer.json": document(**CASES["pre_tokenizer.pattern"])})
    with pytest.raises(ValueError, match=r"^this took longer than 0\.2 s in all"):
        tokenizer.encode(SLOW_TEXT)


def test_a_call_inside_another_shares_its_budget(monkeypatch):
    """encode_iterable, tokenize and the pages' helpers call encode: one budget for the outer call, not one each."""
    tokenizer = many_stretches_tokenizer()
    monkeypatch.setattr(oniguruma, "time", Clock())
    monkeypatch.setattr(oniguruma, "ENCODE_SECONDS", 30)  # more than one call takes, less than the ten together
    texts = [MANY_STRETCHES[:20]] * 10  # 5 searches each if each call had its own budget
    with pytest.raises(ValueError, match="^this took longer than 30 s in all"):
        oniguruma.within_budget(lambda: [tokenizer.encode(text) for text in texts])()


def test_the_encode_page_says_when_the_budget_is_spent(monkeypatch):
    at, ok = encode_page_with(
        document(pre_tokenizer=split("Isolated"), added_tokens=[{**BAR, "special": True}]).encode()
    )
    monkeypatch.setattr(oniguruma, "ENCODE_SECONDS", 0)  # spent before the first search
    at.text_area[0].set_value(MANY_STRETCHES)
    ok(at.run())
    said = " ".join(str(error.value) for error in at.error).replace("\\", "")
    assert "This text cannot be encoded: this took longer than 0 s in all" in said
    assert "(the server's BPE_ENCODE_SECONDS sets the limit)" in said


@pytest.mark.parametrize(("variable", "value"), [("BPE_PATTERN_SECONDS", "soon"), ("BPE_ENCODE_SECONDS", "0")])
def test_a_time_limit_that_makes_no_sense_is_said_and_the_default_kept(variable, value):
    """The command line (and a server) starts with a warning naming the variable, and stays bounded by the default."""
    environment = {**os.environ, variable: value}
    default = {"BPE_PATTERN_SECONDS": "2", "BPE_ENCODE_SECONDS": "10"}[variable]
    result = subprocess.run(
        [sys.executable, "-m", "bpe_core", "encode", "llama3", "hi"],
        cwd=REPO_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0 and json.loads(result.stdout)["ids"] == [6151]  # Llama 3's "hi"
    assert f"{variable}={value}: not a number of seconds above 0; {default} s is used" in result.stderr
    assert "Traceback" not in result.stderr
