"""Exact outputs of the engine's smaller parts, each worked out by hand (or read from HF tokenizers),
where mutation testing showed that a changed operator or field went unnoticed."""

import base64
import json

import pytest
from support.banana import BANANA_BANDANA_MERGES
from support.reference_libraries import hf_tokenizers

from bpe_core import Config, Step, Token, load_gpt2, textbook, train
from bpe_core.explain import replace_pair
from bpe_core.formats import (
    ExportError,
    check_gpt2_exportable,
    from_gpt2_files,
    from_hf_json,
    load_any,
    model_to_dict,
    model_to_json,
    to_gpt2_files,
    to_hf_json,
)
from bpe_core.merge_index import merge_ids, pair_key, rank_table
from bpe_core.pretokenize import lines
from bpe_core.pretrained import DATA
from bpe_core.tokenizer import Tokenizer


@pytest.fixture
def aab():
    """ "aab" as one sequence, one merge: <unk> 0, a 1, b 2; the pairs (a a) and (a b) tie at 1,
    and (a a) occurs first, so it makes "aa" (id 3); the corpus is then "aa" "b"."""
    return train("aab", Config(split="none"), merges=1)


def test_the_model_file_holds_every_field(aab):
    expected = {
        "format": "bpe-explorer",
        "version": 2,
        "name": "",
        "config": Config(split="none").to_dict(),
        "vocab": {"<unk>": 0, "a": 1, "b": 2, "aa": 3},
        "merges": [["a", "a"]],
        "stop": {"reason": "merges", "message": "made the 1 merge asked for"},
        "warnings": [],
        "base_size": 3,
        "corpus_tokens": 2,
        "trace": {"counts": [1], "tied": [2], "top": [[[1, 1, 1], [1, 2, 1]]]},
    }
    assert model_to_dict(aab) == expected
    without_race = {**expected, "trace": {"counts": [1], "tied": [2]}}
    assert model_to_dict(aab, race=False) == without_race
    assert model_to_json(aab) == json.dumps(expected, ensure_ascii=False, separators=(",", ":"))


def test_the_model_file_keeps_text_as_text():
    tok = train("éé", Config(split="none"), merges=1)
    assert '"éé":' in model_to_json(tok)  # not "\\u00e9"


def test_gpt2_pair_files_are_in_id_order_and_unescaped():
    # pieces "a", " b", " a", " b": (Ġ b) twice, then (Ġ a) once
    tok = train("a b a b", Config(split="gpt2", units="bytes"), merges=2)
    vocab_text, merges_text = to_gpt2_files(tok)
    assert merges_text == "#version: 0.2\nĠ b\nĠ a\n"
    assert '"Ġb":' in vocab_text
    parsed = json.loads(vocab_text)
    assert list(parsed.values()) == list(range(258))  # the 256 bytes, then Ġb and Ġa
    assert list(parsed)[-2:] == ["Ġb", "Ġa"]


@pytest.mark.parametrize("config", [Config(split="gpt2"), Config(split="whitespace", units="bytes")])
def test_only_gpt2s_scheme_goes_into_the_gpt2_pair(config):
    with pytest.raises(
        ExportError,
        match="^vocab.json \\+ merges.txt carry no settings, and every reader assumes "
        "GPT-2's byte-level scheme with its regex",
    ):
        check_gpt2_exportable(train("a b", config, merges=1))


@pytest.mark.parametrize(
    "vocab_text, message",
    [
        ("[1]", "vocab.json: must be an object mapping each token to its id, not a list"),
        ('{"a": "x"}', r'vocab.json\["a"\]: id "x" is not a whole number from 0 to 4294967295'),
        ("{", "vocab.json is not valid JSON"),
    ],
)
def test_a_bad_gpt2_vocab_is_named(vocab_text, message):
    with pytest.raises(ValueError, match=f"^{message}"):
        from_gpt2_files(vocab_text, "#version: 0.2\n")


def test_load_any_names_the_files_and_the_model():
    vocab_text, merges_text = to_gpt2_files(train("a b a b", Config(split="gpt2", units="bytes"), merges=2))
    assert load_any({"vocab.json": vocab_text, "merges.txt": merges_text}).name == "vocab.json"
    with pytest.raises(ValueError, match="^a.json, b.json: give one model file"):
        load_any({"b.json": "{}", "a.json": "{}"})


def test_special_tokens_and_unknown_characters_have_their_spans_and_kinds():
    # <s> 0, <unk> 1, a 2, b 3, ab 4
    tok = train("ab", Config(split="none", special_tokens=("<s>",)), merges=1)
    assert tok.encode_with_spans("a<s>b") == [
        Token(2, "a", 0, 1, b"a"),
        Token(0, "<s>", 1, 4, b"<s>", "special"),
        Token(3, "b", 4, 5, b"b"),
    ]
    assert tok.encode_with_spans("a<s>b", special=False) == [
        Token(2, "a", 0, 1, b"a"),
        Token(1, "<unk>", 1, 2, b"<", "unknown"),
        Token(1, "<unk>", 2, 3, b"s", "unknown"),
        Token(1, "<unk>", 3, 4, b">", "unknown"),
        Token(3, "b", 4, 5, b"b"),
    ]
    assert tok.base_ids() == [2, 3]
    assert textbook.encode("a<s>b", [], tok.config) == ["a", "<s>", "b"]


def test_byte_level_tokens_are_normal_tokens():
    assert {token.kind for token in load_gpt2().encode_with_spans("héllo <|endoftext|>")} == {"normal", "special"}


def test_a_published_model_spells_its_trace_from_the_merges():
    hf_library = hf_tokenizers()
    hf = hf_library.Tokenizer(hf_library.models.BPE.from_file(str(DATA / "encoder.json"), str(DATA / "vocab.bpe")))
    fresh = from_hf_json(to_hf_json(load_gpt2()))  # a new tokenizer, whose trace is not built yet
    assert fresh.merge_tree("Ġt").count is None
    assert fresh.steps[:2] == [
        Step(1, "Ġ", "t", "Ġt", hf.token_to_id("Ġt"), count=None, tied=0),
        Step(2, "Ġ", "a", "Ġa", hf.token_to_id("Ġa"), count=None, tied=0),
    ]


def test_step_repr_and_hash():
    step = Step(1, "a", "b", "ab", 5, count=2, tied=1)
    assert repr(step) == "Step(step=1, left='a', right='b', new_token='ab', new_id=5, count=2, tied=1, top=())"
    assert hash(step) == hash(Step(1, "a", "b", "ab", 5, count=2, tied=1))
    assert step != Step(1, "a", "b", "ab", 5, count=3, tied=1)


def test_unknown_ids_and_missing_merge_parts_are_named(aab):
    with pytest.raises(ValueError, match=r"^id 99 is not in the vocabulary \(ids run from 0 to 3 with gaps allowed\)$"):
        aab.decode([99])
    with pytest.raises(ValueError, match=r"^merge 1 \('a' 'c'\) names 'c', which is not in the vocabulary$"):
        type(aab)(config=aab.config, vocab={"<unk>": 0, "a": 1, "ac": 2}, merges=[("a", "c")])


def test_replace_pair_at_the_end_of_the_list():
    assert replace_pair([1, 2, 1], 1, 2, 9) == [9, 1]
    assert replace_pair([1, 2], 1, 2, 9) == [9]


def test_a_text_ending_in_a_newline_has_no_empty_last_line():
    assert lines("a\n") == ["a\n"]
    assert lines("") == []


def test_a_prefix_says_what_it_is():
    tok = train("banana_bandana_", Config(split="none"), merges=6)
    tok.name = "banana"
    cut = tok.prefix(2)
    assert (cut.stop_reason, cut.stop_message, cut.name, cut.base_size) == (
        "prefix",
        "the first 2 of 6 merges",
        "banana",
        6,
    )  # <unk> _ a b d n
    assert [(step.step, step.count) for step in cut.steps] == [(1, 4), (2, 2)]


def test_a_rank_file_becomes_a_byte_level_tokenizer():
    from bpe_core.formats.tiktoken_ranks import from_ranks, read_ranks

    # the 256 bytes in order, then "cd" (rank 256), " a" (257) and " ab" (258): by rank, not by bytes
    text = "".join(f"{base64.b64encode(bytes([byte])).decode()} {byte}\n" for byte in range(256))
    text += "Y2Q= 256\nIGE= 257\nIGFi 258\n"
    assert read_ranks(text)[b" ab"] == 258
    for cuts in (None, b"\x01\x01\x02"):
        tok = from_ranks(text, split="gpt2", special_tokens={"<|end|>": 300}, name="tiny", cuts=cuts)
        assert tok.encode("x abcd", special=False) == [ord("x"), 258, 256]
        assert "merges" not in vars(tok)  # encoding needs only the ranks: nothing is spelled out yet
        assert tok.merges == [("c", "d"), ("Ġ", "a"), ("Ġa", "b")]
        assert (tok.vocab["Ġab"], tok.vocab["<|end|>"], tok.name, tok.base_size) == (258, 300, "tiny", 256)
        assert tok.stop_message == "tiny's published ranks (merges recovered from them; no training counts)"
        assert tok.encode("x ab<|end|>cd") == [ord("x"), 258, 300, 256]
    with pytest.raises(ValueError, match="the cuts hold 1 merges for 3 tokens"):
        from_ranks(text, split="gpt2", special_tokens={}, name="tiny", cuts=b"\x01")
    for cuts, token in ((b"\x00\x01\x02", "cd"), (b"\x01\x01\x03", "Ġab")):  # a cut at an end leaves one part
        with pytest.raises(ValueError, match=f"^the cuts of tiny do not cut the token '{token}' into two parts$"):
            _ = from_ranks(text, split="gpt2", special_tokens={}, name="tiny", cuts=cuts).merges


def test_the_textbook_trainer_on_its_own_examples():
    assert textbook.train_merges("banana_bandana_", Config(split="none"), merges=6) == list(BANANA_BANDANA_MERGES)
    # "ab" twice, "cd" once: with min_frequency 2 only (a b) is worth a token
    assert textbook.learn(["ab cd", "ab"], Config(min_frequency=2), merges=5) == (
        [("a", "b")],
        {"<unk>": 0, "a": 1, "b": 2, "c": 3, "d": 4, "ab": 5},
    )


def test_the_race_is_left_out_of_files_when_asked(aab, tmp_path):
    assert json.loads(model_to_json(aab, race=False))["trace"] == {"counts": [1], "tied": [2]}
    from bpe_core import save_model

    save_model(aab, tmp_path / "m.json", race=False)
    assert json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["trace"] == {"counts": [1], "tied": [2]}


def test_load_any_names_an_hf_file_after_the_file_and_says_what_it_is_not(aab):
    assert (
        load_any(
            {"tok.json": json.dumps(to_hf_json(train("ab ab", Config(split="gpt2", units="bytes"), merges=1)))}
        ).name
        == "tok.json"
    )
    with pytest.raises(
        ValueError, match="^m.txt: a .txt or .bpe file is read as a merges list, which needs its vocab.json beside it$"
    ):
        load_any({"m.txt": "#version: 0.2\n"})
    with pytest.raises(ValueError, match="^x.json: neither a BPE Explorer model nor an HF tokenizer.json$"):
        load_any({"x.json": '{"a": 1}'})


def test_gpt2_pair_reading_in_detail():
    from bpe_core.formats import read_merges_txt

    assert read_merges_txt("a b\nc d\n") == [("a", "b"), ("c", "d")]  # a first line that is a merge
    for bad in ("a  b", "ab", "a b c"):
        with pytest.raises(ValueError, match=f'^merges.txt line 1: "{bad}" is not two tokens separated by one space$'):
            read_merges_txt(bad)
    # special tokens are the tokens no merge makes, in id order
    vocab = {"<a>": 258, "a": 0, "<b>": 257, "ab": 256}
    tok = from_gpt2_files(
        json.dumps({**{c: 1000 + i for i, c in enumerate("bcdefg")}, **vocab}), "#version: 0.2\na b\n"
    )
    assert tok.config.special_tokens == ("<b>", "<a>")  # id order, not alphabetical
    assert (tok.name, tok.stop_message) == ("", "loaded from vocab.json + merges.txt (no training counts)")


def test_ids_and_plain_text_round_trips():
    with pytest.raises(ValueError) as error:
        train("ab", Config(), merges=1).decode([7])
    assert error.value.token_id == 7
    tok = train("aĠb", Config(split="none"), merges=1)  # no space marker: Ġ is a letter like any other
    assert tok.decode(tok.encode("aĠb")) == "aĠb"


def test_a_prefix_of_a_model_whose_trace_was_never_read():
    fresh = from_hf_json(to_hf_json(train("ab ab ab", Config(split="gpt2", units="bytes"), merges=2)))
    assert fresh.prefix(1).merges == [("a", "b")] and fresh.prefix(1).steps[0].count is None


def test_gpt2_exports_keep_the_split_in_hf():
    """Two spaces then a letter: with GPT-2's split they stay apart; without it the learned (Ġ Ġ) would join them."""
    tok = train("   ", Config(split="gpt2", units="bytes"), merges=1)
    assert tok.merges == [("Ġ", "Ġ")]
    reference = hf_tokenizers().Tokenizer.from_str(json.dumps(to_hf_json(tok)))
    assert reference.encode("  x").tokens == tok.tokenize("  x") == ["Ġ", "Ġ", "x"]


@pytest.mark.parametrize("config", [Config(split="gpt4"), Config(split="gpt4o", units="bytes")])
def test_an_exported_split_comes_back_on_import(config):
    assert from_hf_json(to_hf_json(train("ab ab", config, merges=1))).config.split == config.split


def test_imports_refuse_what_they_cannot_represent():
    data = to_hf_json(train("ab ab", Config(split="gpt2"), merges=1))
    with pytest.raises(ValueError, match="^normalizer 'BertNormalizer' is not supported here$"):
        from_hf_json({**data, "normalizer": {"type": "BertNormalizer"}})
    with pytest.raises(ValueError, match=r'model.merges\[0\]: \["a", ""\] is not two tokens'):
        from_hf_json({**data, "model": {**data["model"], "merges": [["a", ""]]}})
    no_unk = {**data, "added_tokens": [], "model": {**data["model"], "vocab": {"a": 0, "b": 1, "ab": 2}}}
    assert from_hf_json(no_unk).vocab["<unk>"] == 3  # the next id: HF would drop unknown characters silently


def test_rank_files_must_be_strict_base64():
    from bpe_core.formats.tiktoken_ranks import read_ranks

    with pytest.raises(ValueError, match="line 1 of the rank file"):
        read_ranks("Y!Q== 0\n")


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda data: data.update(base_size="3"),
            r'base_size: "3" is not a whole number from 0 to the vocabulary size',
        ),
        (lambda data: data.update(corpus_tokens=-1), "corpus_tokens: -1 is not a whole number of at least 0"),
        (lambda data: data["trace"].update(tied=["x"]), "trace: a count or tie must be a whole number, not 1 / 'x'"),
        (lambda data: data["trace"].update(counts=["1"]), "trace: a count or tie must be a whole number, not '1' / 2"),
        (lambda data: data.update(merges=[["a", 1]]), r'merges\[0\]: \["a", 1\] is not a list of two texts'),
    ],
)
def test_model_file_fields_are_checked(aab, change, message):
    from bpe_core.formats import model_from_dict

    data = json.loads(model_to_json(aab))
    change(data)
    with pytest.raises(ValueError, match=message):
        model_from_dict(data)


def test_the_smallest_values_a_model_file_may_hold():
    from bpe_core.formats import model_from_dict

    empty = train("", Config(units="bytes"), merges=1)
    assert model_from_dict(json.loads(model_to_json(empty))).corpus_tokens == 0
    nothing = {
        "format": "bpe-explorer",
        "version": 2,
        "config": Config(units="bytes").to_dict(),
        "vocab": {},
        "merges": [],
        "base_size": 0,
    }
    assert model_from_dict(nothing).base_size == 0


def test_spans_of_dropped_and_fallback_bytes():
    from bpe_core.units import ByteUnits, CharUnits

    # two missing bytes before the first kept one ride with it
    assert ByteUnits().base_encoder({"a": 0}, {})("zza") == ([0], [3])
    # byte fallback of an unseen "é" with a glued marker: the marker's bytes cover no input
    units = CharUnits(Config(end_of_word="</w>", glue_marker=True, unknown="byte_fallback"))
    vocab = {f"<0x{byte:02X}>": byte for byte in range(256)} | {"a": 256}
    assert units.base_encoder(vocab, {})("aé") == ([256, 0xC3, 0xA9, 0x3C, 0x2F, 0x77, 0x3E], [1, 1, 1, 0, 0, 0, 0])


def test_the_merge_table_is_read_by_pair_key():
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4, "ca": 5}
    left_ids, right_ids, _, merged_ids = merge_ids([("a", "b"), ("ab", "c"), ("c", "a")], vocab)
    table = rank_table(left_ids, right_ids, merged_ids)
    found = {
        (left, right): table[pair_key(left, right)]
        for left in range(6)
        for right in range(6)
        if pair_key(left, right) in table
    }
    assert found == {(0, 1): (0, 3), (3, 2): (1, 4), (2, 0): (2, 5)}  # (rank, merged id), by hand


def test_two_tokens_sharing_an_id_are_refused():
    with pytest.raises(ValueError, match="'a' and 'b' share the id 1"):
        Tokenizer(config=Config(split="none"), vocab={"<unk>": 0, "a": 1, "b": 1}, merges=[])


@pytest.mark.parametrize(
    "config, vocab, text, spans",
    [
        # a loaded model (no base size): merged ids come after the last id no merge makes
        (
            Config(split="whitespace"),
            {"<unk>": 0, "a": 1, "b": 2, "c": 3, "ab": 4, "abc": 5},
            "abc ab c",
            [("abc", 0, 3), ("ab", 4, 6), ("c", 7, 8)],
        ),
        # an end-of-word marker of its own is a base symbol that covers no character
        (
            Config(split="whitespace", end_of_word="</w>"),
            {"<unk>": 0, "</w>": 1, "a": 2, "b": 3, "c": 4, "ab": 5, "abc": 6},
            "abca ab",
            [("abc", 0, 3), ("a", 3, 4), ("</w>", 4, 4), ("ab", 5, 7), ("</w>", 7, 7)],
        ),
    ],
)
def test_spans_of_a_loaded_model_by_hand(config, vocab, text, spans):
    tok = Tokenizer(config=config, vocab=vocab, merges=[("a", "b"), ("ab", "c")])
    assert tok.created_at == {vocab["ab"]: 0, vocab["abc"]: 1}
    assert [(token.token, token.start, token.end) for token in tok.encode_with_spans(text)] == spans
    assert "abc" not in tok.prefix(1).vocab


def test_merged_byte_fallback_tokens_span_their_character_as_in_hf():
    # a tokenizer.json our settings describe, with a merge of two byte tokens (é's UTF-8 bytes)
    data = to_hf_json(train("ab ab", Config(split="whitespace", unknown="byte_fallback"), merges=1))
    data["model"]["vocab"]["<0xC3><0xA9>"] = len(data["model"]["vocab"])
    data["model"]["merges"].append(["<0xC3>", "<0xA9>"])
    ours, reference = from_hf_json(data), hf_tokenizers().Tokenizer.from_str(json.dumps(data))
    assert type(ours) is Tokenizer
    for text in ("éab é", "aé😀b"):
        expected = reference.encode(text)
        assert [(token.id, token.start, token.end) for token in ours.encode_with_spans(text)] == [
            (index, start, end) for index, (start, end) in zip(expected.ids, expected.offsets)
        ]
