"""Our exports load in HF tokenizers and behave exactly like our encoder; imports are checked."""

import json
from pathlib import Path

import pytest
from support.reference_libraries import hf_tokenizers

from bpe_core import Config, load_gpt2, train
from bpe_core.formats import ExportError, from_gpt2_files, from_hf_json, load_any, to_gpt2_files, to_hf_json
from bpe_core.pretrained import DATA as GPT2_DATA

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "kjv_sample.txt"
PROBE = "In the beginning God created the heaven.\n  And Zürich, 日本 😀\ttab <s> end"

EXPORTABLE = {
    "gpt2 bytes": Config(split="gpt2", units="bytes", special_tokens=("<s>",)),
    "gpt4 bytes": Config(split="gpt4", units="bytes"),
    "gpt4o bytes": Config(split="gpt4o", units="bytes"),
    "chars gpt4o split": Config(split="gpt4o", unknown="byte_fallback"),
    "whitespace bytes": Config(split="whitespace", units="bytes"),
    "no split bytes": Config(split="none", units="bytes"),
    "sennrich glued </w>": Config(end_of_word="</w>", glue_marker=True, special_tokens=("<s>",)),
    "sennrich byte fallback": Config(end_of_word="</w>", glue_marker=True, unknown="byte_fallback"),
    "chars gpt2 split": Config(split="gpt2"),
    "chars space marker": Config(split="gpt2", space_marker=True, unknown="byte_fallback"),
    "chars no split": Config(split="none"),
}


@pytest.fixture(scope="module")
def sample() -> str:
    return SAMPLE.read_text(encoding="utf-8")[:200_000]


@pytest.mark.parametrize("name", list(EXPORTABLE))
def test_hf_export_loads_and_encodes_like_ours(name, sample):
    corpus = sample if EXPORTABLE[name].split != "none" else sample[:3000]
    tok = train(corpus, EXPORTABLE[name], merges=300)
    reference = hf_tokenizers().Tokenizer.from_str(json.dumps(to_hf_json(tok)))
    for text in (sample[:20_000], PROBE):
        ours = tok.encode(text)
        theirs = reference.encode(text)
        assert theirs.ids == ours
        assert theirs.tokens == [tok.token(i) for i in ours]
        assert reference.decode(theirs.ids, skip_special_tokens=False) == tok.decode(ours)
    assert from_hf_json(reference.to_str()).encode(PROBE) == tok.encode(PROBE)


def test_own_symbol_marker_is_refused_with_the_setting_that_would_export():
    tok = train("low lower lowest", Config(end_of_word="_"), merges=3)
    with pytest.raises(ExportError, match="retrain with the marker glued"):
        to_hf_json(tok)


def test_gpt2_files_round_trip_and_load_in_hf(tmp_path):
    tok = train(
        "hello world, hello there<|endoftext|>",
        Config(split="gpt2", units="bytes", special_tokens=("<|endoftext|>",)),
        merges=12,
    )
    vocab, merges = to_gpt2_files(tok)
    (tmp_path / "vocab.json").write_text(vocab, encoding="utf-8")
    (tmp_path / "merges.txt").write_text(merges, encoding="utf-8")
    back = from_gpt2_files(vocab, merges)
    assert back.merges == tok.merges and back.vocab == tok.vocab
    assert back.config.special_tokens == ("<|endoftext|>",)
    hf = hf_tokenizers()
    reference = hf.Tokenizer(hf.models.BPE.from_file(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")))
    reference.pre_tokenizer = hf.pre_tokenizers.ByteLevel(add_prefix_space=False)
    assert reference.encode("hello there world").ids == tok.encode("hello there world")
    with pytest.raises(ExportError, match="byte-level"):
        to_gpt2_files(train("abc", Config(), merges=1))


def test_gpt2_shipped_files_import_like_load_gpt2():
    files = {name: (GPT2_DATA / name).read_text(encoding="utf-8") for name in ("encoder.json", "vocab.bpe")}
    tok = load_any(files)
    assert tok.encode("Hello, ByteLevel BPE!") == load_gpt2().encode("Hello, ByteLevel BPE!")
    assert tok.config.special_tokens == ("<|endoftext|>",)


def test_both_merge_spellings_are_read():
    tok = train("banana bandana", Config(split="gpt2", units="bytes"), merges=4)
    data = to_hf_json(tok)
    data["model"]["merges"] = [" ".join(pair) for pair in data["model"]["merges"]]
    assert from_hf_json(data).merges == tok.merges


@pytest.mark.parametrize(
    "document, message",
    [
        ("{not json", "not valid JSON"),
        ('{"model": {"type": "WordPiece", "vocab": {}}}', "this is a WordPiece tokenizer, not BPE"),
        ('{"model": {"type": "Unigram", "vocab": []}}', "this is a Unigram tokenizer, not BPE"),
        (
            '{"model": {"type": "BPE", "vocab": {"a": 0, "<unk>": 1}, "merges": [["a", "b"]], "unk_token": "<unk>"}}',
            r'model.merges\[0\]: "b" is not in model.vocab',
        ),
        ('{"model": {"type": "BPE", "vocab": {"a": 0}}}', "model.merges is missing"),
        ('{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a"]}}', r'model.merges\[0\]: "a" is not two tokens'),
        (
            '{"pre_tokenizer": {"type": "BertPreTokenizer"}, "model": {"type": "BPE", "vocab": {}, "merges": []}}',
            "pre_tokenizer 'BertPreTokenizer' is not supported here",
        ),
        ("[1, 2]", "not an HF tokenizer.json"),
    ],
)
def test_bad_tokenizer_files_give_clear_errors(document, message):
    with pytest.raises(ValueError, match=message):
        from_hf_json(document)


def test_load_any_explains_what_it_accepts():
    with pytest.raises(ValueError, match="neither a BPE Explorer model nor an HF tokenizer.json"):
        load_any({"x.json": "{}"})
    with pytest.raises(ValueError, match="give one model file"):
        load_any({"a.json": "{}", "b.json": "{}"})


@pytest.mark.parametrize(
    "files, message",
    [
        ({"deep.json": "[" * 100_000}, "nested too deeply"),
        (
            {"x.json": '{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}, "added_tokens": [{}]}'},
            r"added_tokens\[0\].id is missing",
        ),
        ({"merges.txt": "#version: 0.2\na b\n"}, "needs its vocab.json beside it"),
        (
            {"m.json": '{"format": "bpe-explorer", "version": 1, "config": {}, "vocab": {"a": "x"}, "merges": []}'},
            r'vocab\["a"\]: id "x" is not a whole number from 0 to 4294967295',
        ),
        (
            {"m.json": '{"format": "bpe-explorer", "version": 1, "config": {}, "vocab": {"a": -1}, "merges": []}'},
            r'vocab\["a"\]: id -1 is not a whole number from 0 to 4294967295',
        ),
        (
            {
                "m.json": '{"format": "bpe-explorer", "version": 1, "config": {"unknown": "byte_fallback"}, "vocab": '
                '{"a": 0, "b": 1, "ab": 2}, "merges": [["a", "b"]], '
                '"steps": [{"count": 1, "tied": 1, "top": [[0, 9, 1]]}]}'
            },
            "trace names unknown ids",
        ),
    ],
)
def test_odd_files_are_value_errors_with_a_reason(files, message):
    with pytest.raises(ValueError, match=message):
        load_any(files)


@pytest.mark.parametrize("decoder", [False, True])  # with a decoder our settings describe it: our own byte units
def test_a_byte_level_file_without_the_full_byte_alphabet_encodes_like_hf(decoder):
    """Trained without initial_alphabet, the vocabulary holds only the bytes seen: HF drops the others."""
    hf = hf_tokenizers()
    reference = hf.Tokenizer(hf.models.BPE())
    reference.pre_tokenizer = hf.pre_tokenizers.ByteLevel(add_prefix_space=False)
    if decoder:
        reference.decoder = hf.decoders.ByteLevel()
    reference.train_from_iterator(["hello world hello"], hf.trainers.BpeTrainer(vocab_size=30, show_progress=False))
    tok = from_hf_json(reference.to_str())
    for text in ("hello zebra é!", "zz", "ell😀o", ""):
        assert tok.encode(text) == reference.encode(text).ids
        assert [token.id for token in tok.encode_with_spans(text)] == reference.encode(text).ids
    # A dropped byte rides with the token before it (the first, at a piece's start); a piece of
    # dropped bytes only ("!") has no token.  The piece " zebra" keeps the space, e and r: z rides
    # with the space, b with e, a with r.
    assert [token.raw for token in tok.encode_with_spans("hello zebra é!")] == [
        b"hello",
        b" z",
        b"eb",
        b"ra",
        " é".encode(),
    ]


def test_a_version_1_model_file_still_loads():
    """Version 1 stored one object per step; written by hand for banana_bandana_ after one merge."""
    from bpe_core.formats import model_from_json

    version_1 = json.dumps(
        {
            "format": "bpe-explorer",
            "version": 1,
            "name": "",
            "config": Config(split="none").to_dict(),
            "vocab": {"<unk>": 0, "_": 1, "a": 2, "b": 3, "d": 4, "n": 5, "an": 6},
            "merges": [["a", "n"]],
            "stop": {"reason": "merges", "message": "made the 1 merge asked for"},
            "warnings": [],
            "steps": [{"count": 4, "tied": 1, "top": [[2, 5, 4], [5, 2, 3]]}],
        }
    )
    tok = model_from_json(version_1)
    assert tok.tokenize("banana_") == ["b", "an", "an", "a", "_"]
    assert (tok.steps[0].count, tok.steps[0].top) == (4, (("a", "n", 4), ("n", "a", 3)))


def test_a_tokenizer_json_is_written_only_with_parts_and_options_hf_knows():
    """A misspelled part or option would be written as a field HF ignores (the part left out): refused instead."""
    from bpe_core.formats.hf_json import bpe_document

    document = bpe_document([], {"pre_tokenizer": {"type": "Whitespace"}}, {"a": 0}, [], byte_fallback=True)
    assert document["pre_tokenizer"] == {"type": "Whitespace"} and document["normalizer"] is None
    assert document["model"]["byte_fallback"] is True and document["model"]["ignore_merges"] is False
    with pytest.raises(TypeError, match=r"not a part of a tokenizer.json: \['pre_tokenizers'\]"):
        bpe_document([], {"pre_tokenizers": {"type": "Whitespace"}}, {"a": 0}, [])
    with pytest.raises(TypeError, match=r"not an option of HF's BPE model: \['byte_fallbak'\]"):
        bpe_document([], {}, {"a": 0}, [], byte_fallbak=True)
