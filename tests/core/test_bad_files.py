"""A tokenizer file with a wrong field is refused at load, naming the field, exactly where HF tokenizers
refuses it; where HF loads a file that would make ids mean two things, we refuse it too (said per case)."""

import json

import pytest
from support.reference_libraries import hf_tokenizers

from bpe_core.formats import from_gpt2_files, from_hf_json, load_any, model_to_dict
from bpe_core.formats.fields import MAX_ID

ADDED = {"id": 4, "content": "<s>", "single_word": False, "lstrip": False, "rstrip": False}
ADDED |= {"normalized": False, "special": True}


def document(**model) -> dict:
    """a, b, c and the merge a b -> ab: "abc" encodes as [3, 2]."""
    return {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": None,
        "post_processor": None,
        "decoder": None,
        "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "c": 2, "ab": 3}, "merges": [["a", "b"]], **model},
    }


def hf_refuses(text: str) -> bool:
    hf = hf_tokenizers()
    try:
        hf.Tokenizer.from_str(text)
    except BaseException:  # a merged token missing from the vocabulary makes HF panic (PanicException)
        return True
    return False


def with_added(*entries) -> dict:
    data = document()
    data["added_tokens"] = list(entries)
    return data


def without(entry: dict, field: str) -> dict:
    return {key: value for key, value in entry.items() if key != field}


HF_REFUSES = [
    # the file: "a" -5, "b" 99999999999; encoding "abc" gave only "b"
    (
        document(vocab={"a": -5, "b": 99999999999, "c": 2}),
        'model.vocab["a"]: id -5 is not a whole number from 0 to 4294967295',
    ),
    (
        document(vocab={"a": 0, "b": 2**32, "c": 2, "ab": 3}),
        f'model.vocab["b"]: id {2**32} is not a whole number from 0 to {MAX_ID}',
    ),
    (
        document(vocab={"a": 0.0, "b": 1, "c": 2, "ab": 3}),
        f'model.vocab["a"]: id 0.0 is not a whole number from 0 to {MAX_ID}',
    ),
    (
        document(vocab={"a": "0", "b": 1, "c": 2, "ab": 3}),
        f'model.vocab["a"]: id "0" is not a whole number from 0 to {MAX_ID}',
    ),
    (
        document(vocab={"a": True, "b": 0, "c": 2, "ab": 3}),
        f'model.vocab["a"]: id true is not a whole number from 0 to {MAX_ID}',
    ),
    (
        document(vocab={"a": None, "b": 1, "c": 2, "ab": 3}),
        f'model.vocab["a"]: id null is not a whole number from 0 to {MAX_ID}',
    ),
    (document(vocab=[["a", 0]]), "model.vocab: must be an object mapping each token to its id, not a list"),
    (document(merges=[["a", "x"]]), 'model.merges[0]: "x" is not in model.vocab'),
    (document(vocab={"a": 0, "b": 1, "c": 2}), 'model.merges[0]: "ab" is not in model.vocab'),
    (document(merges=[["a", "b", "c"]]), 'model.merges[0]: ["a", "b", "c"] is not two tokens'),
    (document(merges=["a b c"]), 'model.merges[0]: "a b c" is not two tokens'),
    (document(merges=["a  b"]), 'model.merges[0]: "a  b" is not two tokens'),
    (document(merges=[[0, 1]]), "model.merges[0]: [0, 1] is not two tokens"),
    (document(merges=[None]), "model.merges[0]: null is not two tokens"),
    (document(merges="a b"), 'model.merges: must be a list of merges, not "a b"'),
    (
        document(vocab={"a": 0, "b": 1, "c": 2, "ab": 3, "abc": 4}, merges=["a b", ["ab", "c"]]),
        'model.merges: mixes "a b" strings and ["a", "b"] lists; HF reads one spelling a file',
    ),
    (
        {"model": {"type": "BPE", "vocab": {"a": 0}}},
        "model.merges is missing: a BPE model needs its vocabulary and its merges",
    ),
    (
        {"model": {"type": "BPE", "merges": []}},
        "model.vocab is missing: a BPE model needs its vocabulary and its merges",
    ),
    (document(unk_token=5), "model.unk_token: 5 is not a string"),
    (document(end_of_word_suffix=5), "model.end_of_word_suffix: 5 is not a string"),
    (document(continuing_subword_prefix=["#"]), 'model.continuing_subword_prefix: ["#"] is not a string'),
    (document(byte_fallback="yes"), 'model.byte_fallback: "yes" is not true or false'),
    (document(fuse_unk=0), "model.fuse_unk: 0 is not true or false"),
    (document(ignore_merges=1), "model.ignore_merges: 1 is not true or false"),
    (document(dropout="0.1"), 'model.dropout: "0.1" is not a number from 0 to 1'),
    (document(dropout=2.0), "model.dropout: 2.0 is not a number from 0 to 1"),
    (with_added({**ADDED, "id": -1}), f"added_tokens[0].id: id -1 is not a whole number from 0 to {MAX_ID}"),
    (with_added({**ADDED, "id": 2**32}), f"added_tokens[0].id: id {2**32} is not a whole number from 0 to {MAX_ID}"),
    (with_added({**ADDED, "id": "4"}), f'added_tokens[0].id: id "4" is not a whole number from 0 to {MAX_ID}'),
    (with_added({**ADDED, "id": 4.0}), f"added_tokens[0].id: id 4.0 is not a whole number from 0 to {MAX_ID}"),
    (with_added({**ADDED, "content": 5}), "added_tokens[0].content: 5 is not a string"),
    (with_added({**ADDED, "special": "yes"}), 'added_tokens[0].special: "yes" is not true or false'),
    (with_added({**ADDED, "normalized": None}), "added_tokens[0].normalized: null is not true or false"),
    (with_added(without(ADDED, "id")), "added_tokens[0].id is missing"),
    (with_added(without(ADDED, "content")), "added_tokens[0].content is missing"),
    (with_added(without(ADDED, "lstrip")), "added_tokens[0].lstrip is missing"),
    (with_added(without(ADDED, "single_word")), "added_tokens[0].single_word is missing"),
    (with_added("<s>"), 'added_tokens[0]: "<s>" is not an object'),
    ({**document(), "added_tokens": None}, "added_tokens: must be a list of tokens, not null"),
    ({**document(), "added_tokens": {"<s>": 4}}, 'added_tokens: must be a list of tokens, not {"<s>": 4}'),
]

# HF loads these, and each would make us differ from HF or make an id mean two things: refused.
HF_LOADS = [
    # two tokens, one id: HF keeps one of them for decoding, which one is the hash map's choice
    (
        document(vocab={"a": 0, "b": 0, "c": 2, "ab": 3}),
        'model.vocab: "a" and "b" share the id 0; each token needs its own id',
    ),
    (with_added({**ADDED, "id": 0}), 'added_tokens[0].id: 0 is already the id of "a"'),
    (with_added(ADDED, {**ADDED, "content": "</s>"}), 'added_tokens[1].id: 4 is already the id of "<s>"'),
    # HF gives "a" the vocabulary's 0, not the file's 7: the file says two things
    (with_added({**ADDED, "id": 7, "content": "a"}), 'added_tokens[0].id: "a" has the id 0 in model.vocab, not 7'),
    # listed twice with two ids: HF uses the first id for matching, either for decoding
    (with_added(ADDED, {**ADDED, "id": 5}), 'added_tokens[1]: "<s>" is listed twice (also at added_tokens[0])'),
    # an empty added token never matches in HF; it means nothing
    (with_added({**ADDED, "content": ""}), "added_tokens[0].content: an added token cannot be empty"),
    # "" + "a" makes "a" again: a merge that means nothing
    (
        document(vocab={"a": 0, "b": 1, "c": 2, "ab": 3, "": 4}, merges=[["a", "b"], ["", "a"]]),
        'model.merges[1]: ["", "a"] is not two tokens',
    ),
    # dropout makes ids change from run to run
    (
        document(dropout=0.5),
        "model.dropout: BPE dropout (random merges while encoding) is not supported: ids would change from run to run",
    ),
]


@pytest.mark.parametrize("data, message", HF_REFUSES)
def test_a_field_hf_refuses_is_refused_naming_the_field(data, message):
    text = json.dumps(data)
    assert hf_refuses(text)
    with pytest.raises(ValueError) as error:
        from_hf_json(text)
    assert str(error.value) == message


@pytest.mark.parametrize("data, message", HF_LOADS)
def test_a_field_hf_loads_but_that_would_mislead_is_refused_too(data, message):
    text = json.dumps(data)
    assert not hf_refuses(text)
    with pytest.raises(ValueError) as error:
        from_hf_json(text)
    assert str(error.value) == message


@pytest.mark.parametrize(
    "data",
    [
        document(),
        document(vocab={"a": 0, "b": MAX_ID, "c": 2, "ab": 3}),  # the largest id HF reads
        document(fuse_unk=None, byte_fallback=None, ignore_merges=None, unk_token=None, dropout=None),
        document(merges=["a b"]),
        document(merges=[]),
        with_added({**ADDED, "id": 0, "content": "a"}),  # an added token that is the vocabulary's own
        with_added({**ADDED, "extra": 1}),  # fields HF does not know are ignored, as HF ignores them
    ],
)
def test_a_good_file_loads_and_encodes_as_hf(data):
    text = json.dumps(data)
    assert from_hf_json(text).encode("abc<s>") == hf_tokenizers().Tokenizer.from_str(text).encode("abc<s>").ids


def hf_reads_pair(tmp_path, vocab_text: str, merges_text: str) -> bool:
    (tmp_path / "vocab.json").write_text(vocab_text, encoding="utf-8")
    (tmp_path / "merges.txt").write_text(merges_text, encoding="utf-8")
    hf = hf_tokenizers()
    try:
        hf.models.BPE.from_file(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt"))
    except BaseException:
        return False
    return True


@pytest.mark.parametrize(
    "vocab, merges, message, hf_loads",
    [
        (
            {"a": -1, "b": 1, "ab": 2},
            "a b\n",
            f'vocab.json["a"]: id -1 is not a whole number from 0 to {MAX_ID}',
            False,
        ),
        (
            {"a": "0", "b": 1, "ab": 2},
            "a b\n",
            f'vocab.json["a"]: id "0" is not a whole number from 0 to {MAX_ID}',
            False,
        ),
        (
            {"a": True, "b": 0, "ab": 2},
            "a b\n",
            f'vocab.json["a"]: id true is not a whole number from 0 to {MAX_ID}',
            False,
        ),
        ([["a", 0]], "a b\n", "vocab.json: must be an object mapping each token to its id, not a list", False),
        ({"a": 0, "b": 1, "ab": 2}, "#version: 0.2\na x\n", 'merges.txt line 2: "x" is not in vocab.json', False),
        ({"a": 0, "b": 1}, "a b\n", 'merges.txt line 1: "ab" is not in vocab.json', False),
        (
            {"a": 0, "b": 1, "ab": 2},
            "a b c\n",
            'merges.txt line 1: "a b c" is not two tokens separated by one space',
            False,
        ),
        (
            {"a": 0, "b": 1, "ab": 2},
            "#version: 0.2\n\na b\n",
            'merges.txt line 2: "" is not two tokens separated by one space',
            False,
        ),
        # HF loads these: 2**32 wraps round to the id 0, and a shared id decodes to either token
        (
            {"a": 2**32, "b": 1, "ab": 2},
            "a b\n",
            f'vocab.json["a"]: id {2**32} is not a whole number from 0 to {MAX_ID}',
            True,
        ),
        (
            {"a": 0, "b": 0, "ab": 2},
            "a b\n",
            'vocab.json: "a" and "b" share the id 0; each token needs its own id',
            True,
        ),
    ],
)
def test_a_bad_gpt2_pair_is_refused_naming_the_field(tmp_path, vocab, merges, message, hf_loads):
    assert hf_reads_pair(tmp_path, json.dumps(vocab), merges) == hf_loads
    with pytest.raises(ValueError) as error:
        from_gpt2_files(json.dumps(vocab), merges)
    assert str(error.value) == message


def test_a_good_gpt2_pair_loads_as_hf_reads_it(tmp_path):
    assert hf_reads_pair(tmp_path, '{"a": 0, "b": 1, "ab": 2}', "#version: 0.2\na b\n")
    assert from_gpt2_files('{"a": 0, "b": 1, "ab": 2}', "#version: 0.2\na b\n").merges == [("a", "b")]


def banana() -> dict:
    from bpe_core import Config, train

    return model_to_dict(train("banana bandana", Config(split="none"), merges=2))


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda data: data["vocab"].update(a=2**32),
            f'vocab["a"]: id {2**32} is not a whole number from 0 to {MAX_ID}',
        ),
        (lambda data: data["vocab"].update(a=1.0), f'vocab["a"]: id 1.0 is not a whole number from 0 to {MAX_ID}'),
        (lambda data: data.update(vocab=["a"]), "vocab: must be an object mapping each token to its id, not a list"),
        (lambda data: data.update(merges="a n"), 'merges: must be a list of merges, not "a n"'),
        (lambda data: data.update(name=5), "name: 5 is not a string"),
        (lambda data: data.update(warnings="check"), 'warnings: must be a list of texts, not "check"'),
        (lambda data: data.update(warnings=[1]), "warnings[0]: 1 is not a string"),
        (lambda data: data.update(stop="merges"), 'stop: "merges" is not an object'),
        (lambda data: data["stop"].update(message=None), "stop.message: null is not a string"),
        (
            lambda data: data["config"].update(split="words"),
            "config: unknown pre-tokenization 'words': choose one of none, whitespace, gpt2, gpt4, gpt4o",
        ),
    ],
)
def test_a_bad_field_of_our_model_file_is_named(change, message):
    data = banana()
    change(data)
    with pytest.raises(ValueError) as error:
        load_any({"m.json": json.dumps(data)})
    assert str(error.value) == f"m.json: {message}"
