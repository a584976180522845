"""Odd corpora and odd model files, where the engine decides what happens.

Cases already covered elsewhere are not repeated here: empty and whitespace-only
corpora, lone surrogates, a vocabulary size below the base alphabet, a marker
that occurs in the corpus, empty or duplicate special tokens
(``test_core_textbook.py``) and malformed / WordPiece / Unigram / dangling-merge
tokenizer files (``test_formats.py``).
"""

from __future__ import annotations

import json
import random

import pytest

from bpe_core import Config, load_gpt2, train
from bpe_core.formats import load_any, model_to_json, to_hf_json

# Settings that keep every character, so a round trip must give the text back.
LOSSLESS = {
    "no split, characters": Config(split="none"),
    "gpt2 split, bytes": Config(split="gpt2", units="bytes"),
    "gpt4 split, bytes": Config(split="gpt4", units="bytes"),
}
AWKWARD_TEXTS = {
    "control characters": "ab\x00cd\r\nef\rgh\tij\x0bk",
    "emoji sequences": "family 👨\u200d👩\u200d👧 thumbs 👍🏽 flag 🇫🇷 keycap 1\ufe0f\u20e3",
    "combining marks": "e\u0301te\u0301 man\u0303ana Z\u0335\u0358a\u0337lgo",
    "right to left": "שלום עולם, مرحبا بالعالم (mixed 123)",
    "zero-width": "a\u200bb\u200cc\u200dd\ufeffe",
}


def test_a_single_character_corpus_makes_no_merge_and_says_why():
    tok = train("x", Config(), merges=10)
    assert tok.merges == [] and tok.stop_reason == "no_pairs"
    assert "no pair is left" in tok.stop_message
    assert tok.decode(tok.encode("x")) == "x"


def test_one_word_repeated_a_million_times_trains_to_the_word():
    corpus = " ".join(["hello"] * 1_000_000)  # pieces are counted once each (make bench times it)
    tok = train(corpus, Config(end_of_word="</w>"), merges=100)
    # h e l l o </w> is six symbols: five merges join them, then nothing is left.
    assert len(tok.merges) == 5 and tok.stop_reason == "no_pairs"
    assert tok.tokenize("hello") == ["hello</w>"]
    assert all(step.count == 1_000_000 for step in tok.steps)


def test_a_200_000_character_word_trains_with_progress():
    rng = random.Random(7)
    word = "".join(rng.choice("abcdefghij") for _ in range(200_000))
    reports: list[tuple[int, int]] = []
    tok = train(word, Config(), merges=2000, progress=lambda done, total: reports.append((done, total)))
    assert len(tok.merges) == 2000 and tok.stop_reason == "merges"
    assert len(reports) >= 10 and reports[-1] == (2000, 2000)
    reports.clear()  # 150 merges: one report each (150 // 100 = 1)
    train(word[:5000], Config(), merges=150, progress=lambda done, total: reports.append((done, total)))
    assert reports == [(done, 150) for done in range(1, 151)]
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)
    assert "".join(tok.tokenize(word[:5000])) == word[:5000]


@pytest.mark.parametrize("config_name", list(LOSSLESS))
@pytest.mark.parametrize("text_name", list(AWKWARD_TEXTS))
def test_awkward_characters_round_trip_in_lossless_settings(config_name, text_name):
    text = AWKWARD_TEXTS[text_name]
    tok = train(text * 3, LOSSLESS[config_name], merges=30)
    assert tok.decode(tok.encode(text)) == text
    spans = tok.encode_with_spans(text)
    assert all(0 <= token.start <= token.end <= len(text) for token in spans)
    assert max(token.end for token in spans) == len(text)  # every character is covered


def test_unseen_awkward_characters_are_unknown_or_bytes_never_an_error():
    chars = train("plain ascii text", Config(), merges=5)
    tokens = chars.encode_with_spans("👨\u200d👩 e\u0301")
    assert {token.kind for token in tokens} >= {"unknown"}
    fallback = train("plain ascii text", Config(split="none", unknown="byte_fallback"), merges=5)
    text = "👨\u200d👩 e\u0301 שלום"
    assert fallback.decode(fallback.encode(text)) == text


def test_the_stop_says_whether_the_minimum_frequency_or_the_text_itself_stopped_it():
    """min_frequency 2, words at spaces, no marker. "ab ab": a + b occurs twice and merges, then each word is one
    token. "ab ab cd": the same merge, then c + d, the best pair left, occurs once."""
    twice = Config(min_frequency=2)
    whole = train("ab ab", twice, merges=10)
    assert (whole.merges, whole.stop_reason) == ([("a", "b")], "no_pairs")
    assert whole.stop_message == (
        "stopped after 1 merge: every piece of the text is one token, no pair is left to merge (asked for 10 merges)"
    )
    rare = train("ab ab cd", twice, merges=10)
    assert (rare.merges, rare.stop_reason) == ([("a", "b")], "min_frequency")
    assert rare.stop_message == (
        "stopped after 1 merge: the best pair occurs once, below the minimum frequency 2 (asked for 10 merges)"
    )


def test_more_merges_than_possible_trains_what_is_possible_and_says_so():
    tok = train("hello", Config(), merges=100_000)
    assert len(tok.merges) == 4 and tok.stop_reason == "no_pairs"
    assert tok.stop_message == (
        "stopped after 4 merges: every piece of the text is one token, no pair is left to merge"
        " (asked for 100,000 merges)"
    )
    reports: list[tuple[int, int]] = []
    assert len(train("hello", Config(), merges=5, progress=lambda *report: reports.append(report)).merges) == 4
    assert reports == [(1, 5), (2, 5), (3, 5), (4, 5)]  # below 100 merges asked for, every merge is reported
    reports.clear()  # by vocabulary size: <unk> e h l o are the base, so 7 asks for 2 merges
    train("hello", Config(split="none"), vocab_size=7, progress=lambda *report: reports.append(report))
    assert reports == [(1, 2), (2, 2)]
    assert len(train("hello", Config(), merges=1_000_000).merges) == 4  # the largest size the message names
    with pytest.raises(ValueError, match="the size must be a whole number from 0 to 1,000,000, not 1000001"):
        train("hello", Config(), merges=1_000_001)


def test_a_special_token_in_the_corpus_is_recognised_and_never_merged():
    tok = train("a<s>b a<s>b a<s>b", Config(split="none", special_tokens=("<s>",)), merges=20)
    assert all("<" not in left + right and ">" not in left + right for left, right in tok.merges)
    assert [token.kind for token in tok.encode_with_spans("a<s>b")][1] == "special"
    assert tok.encode("<s>") == [tok.vocab["<s>"]] == [0]


def test_truncated_model_files_are_clear_errors():
    ours = train("hello world", Config(split="gpt2", units="bytes"), merges=5)
    own_text = model_to_json(ours)
    hf_text = json.dumps(to_hf_json(ours))
    for name, text in (("model.json", own_text), ("tokenizer.json", hf_text)):
        with pytest.raises(ValueError, match=f"{name}: not valid JSON"):
            load_any({name: text[: len(text) // 2]})
    for empty in ("", "null", "[]", '"text"'):
        with pytest.raises(ValueError, match="x.json"):
            load_any({"x.json": empty})


def test_a_large_tokenizer_file_loads():
    gpt2 = load_gpt2()
    text = json.dumps(to_hf_json(gpt2))
    assert len(text) > 1_000_000  # about the size of a real tokenizer.json
    tok = load_any({"tokenizer.json": text})
    assert tok.encode("Hello, ByteLevel BPE!") == [15496, 11, 30589, 4971, 347, 11401, 0]


def test_lone_surrogates_in_every_entry_point_are_value_errors():
    tok = train("hello", Config(), merges=2)
    for call in (
        lambda: train(["ok", "bad\udc80"], Config(), merges=1),
        lambda: tok.encode_with_spans("\ud83d"),
        lambda: tok.tokenize("x\udfffy"),
    ):
        with pytest.raises(ValueError, match="lone surrogate"):
            call()
