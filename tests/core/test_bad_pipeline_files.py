"""A tokenizer.json whose version, truncation, padding, normalizer, pre-tokenizer, post-processor, decoder or
model option is malformed is refused at load, naming the field's path, exactly where HF tokenizers refuses it;
where HF loads it, we load it too and encode as HF does (the cases where we differ say why)."""

import json
import subprocess
import sys

import pytest
from support.hf_document import tokenizer_document
from support.reference_libraries import hf_tokenizers

from bpe_core.formats import from_hf_json, load_any
from bpe_core.pipeline.spec import UnsupportedPart

TEXT = "abc ab, b12"


def document(**fields) -> dict:
    """a, b, c and the merge a b -> ab, with each top-level field set as given."""
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, " ": 4, ",": 5, "1": 6, "2": 7, "<s>": 8}
    return tokenizer_document({"type": "BPE", "vocab": vocab, "merges": [["a", "b"]]}, **fields)


def model(**options) -> dict:
    return document(model={**document()["model"], **options})


def split(pattern: dict, behavior="Isolated", invert=False) -> dict:
    return {"type": "Split", "pattern": pattern, "behavior": behavior, "invert": invert}


def in_sequence(role: str, *steps: dict) -> dict:
    key = {"normalizer": "normalizers", "pre_tokenizer": "pretokenizers", "decoder": "decoders"}.get(role, "processors")
    return document(**{role: {"type": "Sequence", key: list(steps)}})


BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True}
REPLACE = {"type": "Replace", "pattern": {"String": " "}, "content": "_"}
SINGLE = [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}]
S_TOKEN = {"id": "<s>", "ids": [8], "tokens": ["<s>"]}


def template(single=SINGLE, pair=(), specials=None) -> dict:
    specials = {"<s>": S_TOKEN} if specials is None else specials
    kind = {"type": "TemplateProcessing", "single": single, "pair": list(pair), "special_tokens": specials}
    return document(post_processor=kind)


TRUNCATION = {"max_length": 5, "strategy": "LongestFirst", "stride": 0}
PADDING = {"strategy": "BatchLongest", "direction": "Right", "pad_id": 0, "pad_type_id": 0, "pad_token": "a"}

# HF refuses each of these at load; we refuse it naming the field (the message starts with its path).
HF_REFUSES = [
    (document(version="2.0"), "version"),
    (document(version=1), "version"),
    (document(truncation=5), "truncation"),
    (document(truncation={"strategy": "LongestFirst", "stride": 0}), "truncation.max_length is missing"),
    (document(truncation={**TRUNCATION, "max_length": -5}), "truncation.max_length: -5 is not"),
    (document(truncation={**TRUNCATION, "max_length": 5.0}), "truncation.max_length: 5.0 is not"),
    (document(truncation={"max_length": 5, "strategy": "LongestFirst"}), "truncation.stride is missing"),
    (document(truncation={**TRUNCATION, "strategy": "Longest"}), 'truncation.strategy: "Longest" is not one of'),
    (document(truncation={**TRUNCATION, "direction": "Up"}), 'truncation.direction: "Up" is not one of'),
    (document(padding=[]), "padding"),
    (document(padding={**PADDING, "strategy": "Fixed"}), 'padding.strategy: "Fixed" is not'),
    (document(padding={**PADDING, "strategy": {"Fixed": -1}}), "padding.strategy.Fixed: -1 is not"),
    (document(padding={k: v for k, v in PADDING.items() if k != "direction"}), "padding.direction is missing"),
    (document(padding={**PADDING, "direction": "Down"}), 'padding.direction: "Down" is not one of'),
    (document(padding={**PADDING, "pad_id": -1}), "padding.pad_id: -1 is not"),
    (document(padding={**PADDING, "pad_id": 2**32}), f"padding.pad_id: {2**32} is not"),
    (document(padding={**PADDING, "pad_token": 5}), "padding.pad_token: 5 is not a string"),
    (document(normalizer=5), "normalizer: 5 is not an object"),
    (document(normalizer="NFC"), 'normalizer: "NFC" is not an object'),
    (document(normalizer={}), "normalizer.type is missing"),
    (document(normalizer={"type": 3}), "normalizer.type: 3 is not a string"),
    (document(normalizer={"type": "Foo"}), 'normalizer.type: "Foo" is not a normalizer type'),
    (document(normalizer={"type": "Strip", "strip_left": True}), "normalizer.strip_right is missing"),
    (document(normalizer={"type": "Prepend", "prepend": 1}), "normalizer.prepend: 1 is not a string"),
    (document(normalizer={**REPLACE, "pattern": {"Regex": "("}}), 'normalizer.pattern.Regex: "(" does not compile'),
    (document(normalizer={**REPLACE, "pattern": {"Regex": 5}}), "normalizer.pattern.Regex: 5 is not a string"),
    (document(normalizer={**REPLACE, "pattern": {"Regexp": "a"}}), "normalizer.pattern: "),
    (document(normalizer={**REPLACE, "pattern": " "}), 'normalizer.pattern: " " is not an object'),
    (document(normalizer={"type": "Replace", "pattern": {"String": "a"}}), "normalizer.content is missing"),
    (document(normalizer={"type": "Sequence", "normalizers": {}}), "normalizer.normalizers: {} is not a list"),
    (in_sequence("normalizer", {"type": "NFC"}, None), "normalizer.normalizers[1]: null is not an object"),
    (in_sequence("normalizer", {"type": "NFC"}, {"type": "Strip"}), "normalizer.normalizers[1].strip_left is mis"),
    (document(pre_tokenizer={"type": "Foo"}), 'pre_tokenizer.type: "Foo" is not a pre_tokenizer type'),
    (document(pre_tokenizer=split({"Regex": "["})), 'pre_tokenizer.pattern.Regex: "[" does not compile'),
    (
        in_sequence("pre_tokenizer", {"type": "Whitespace"}, split({"Regex": "("})),
        'pre_tokenizer.pretokenizers[1].pattern.Regex: "(" does not compile',
    ),
    (document(pre_tokenizer=split({"String": "b"}, invert="no")), 'pre_tokenizer.invert: "no" is not true or false'),
    (document(pre_tokenizer=split({"String": "b"}, "removed")), 'pre_tokenizer.behavior: "removed" is not one of'),
    (document(pre_tokenizer={**BYTE_LEVEL, "use_regex": "x"}), 'pre_tokenizer.use_regex: "x" is not true or false'),
    (document(pre_tokenizer={"type": "ByteLevel"}), "pre_tokenizer.add_prefix_space is missing"),
    (document(pre_tokenizer={"type": "Metaspace", "replacement": ""}), 'pre_tokenizer.replacement: "" is not one'),
    (
        document(pre_tokenizer={"type": "Metaspace", "replacement": "_", "split": "yes"}),
        'pre_tokenizer.split: "yes" is not true or false',
    ),
    (
        document(pre_tokenizer={"type": "Metaspace", "replacement": "_", "prepend_scheme": "sometimes"}),
        'pre_tokenizer.prepend_scheme: "sometimes" is not one of',
    ),
    (document(pre_tokenizer={"type": "Digits", "individual_digits": 1}), "pre_tokenizer.individual_digits: 1 is not"),
    (
        document(pre_tokenizer={"type": "Punctuation", "behavior": "removed"}),
        'pre_tokenizer.behavior: "removed" is not one of',
    ),
    (document(pre_tokenizer={"type": "Sequence"}), "pre_tokenizer.pretokenizers is missing"),
    (document(decoder={"type": "Foo"}), 'decoder.type: "Foo" is not a decoder type'),
    (document(decoder={"type": "Strip", "content": " ", "start": 0, "stop": 2.0}), "decoder.stop: 2.0 is not"),
    (document(decoder={"type": "Strip", "content": " ", "start": -1, "stop": 0}), "decoder.start: -1 is not"),
    (document(decoder={"type": "Strip", "content": "ab", "start": 0, "stop": 0}), 'decoder.content: "ab" is not one'),
    (document(decoder={**REPLACE, "pattern": {"Regex": "("}}), 'decoder.pattern.Regex: "(" does not compile'),
    (document(decoder={"type": "ByteLevel"}), "decoder.add_prefix_space is missing"),
    (document(decoder={"type": "BPEDecoder"}), "decoder.suffix is missing"),
    (document(decoder={"type": "Metaspace", "replacement": "_", "split": 1}), "decoder.split: 1 is not true or false"),
    (in_sequence("decoder", {"type": "Fuse"}, {"type": "Foo"}), 'decoder.decoders[1].type: "Foo" is not a decoder'),
    (document(post_processor={"type": "Foo"}), 'post_processor.type: "Foo" is not a post_processor type'),
    (document(post_processor={"type": "ByteLevel"}), "post_processor.add_prefix_space is missing"),
    (document(post_processor={**BYTE_LEVEL, "use_regex": 3}), "post_processor.use_regex: 3 is not true or false"),
    (document(post_processor={"type": "BertProcessing", "cls": ["a", 0]}), "post_processor.sep is missing"),
    (
        document(post_processor={"type": "BertProcessing", "sep": ["b", -1], "cls": ["a", 0]}),
        "post_processor.sep[1]: id -1 is not",
    ),
    (
        document(post_processor={"type": "BertProcessing", "sep": ["b"], "cls": ["a", 0]}),
        'post_processor.sep: ["b"] is not a [token, id] pair',
    ),
    (in_sequence("post_processor", {"type": "ByteLevel"}), "post_processor.processors[0].add_prefix_space is mis"),
    (document(post_processor={"type": "Sequence"}), "post_processor.processors is missing"),
    (document(post_processor={"type": "TemplateProcessing", "single": SINGLE}), "post_processor.special_tokens is"),
    (template(single=[{"Sequence": {"id": "C", "type_id": 0}}]), 'post_processor.single[0].Sequence.id: "C" is no'),
    (template(single=[{"Sequence": {"id": "A"}}]), "post_processor.single[0].Sequence.type_id is missing"),
    (template(single=[{"Sequence": {"id": "A", "type_id": -1}}]), "post_processor.single[0].Sequence.type_id: -1"),
    (template(single=[{"Foo": {"id": "A", "type_id": 0}}]), 'post_processor.single[0]: {"Foo"'),
    (template(single="$A"), 'post_processor.single: "$A" is not a list'),
    (template(specials={"<s>": {**S_TOKEN, "ids": [-1]}}), 'post_processor.special_tokens["<s>"].ids[0]: id -1'),
    (template(specials={"<s>": {"id": "<s>", "ids": [8]}}), 'post_processor.special_tokens["<s>"].tokens is missing'),
    # the pages and their tests know this sentence: it names model.type's value rather than its path
    (model(type="WordPiece"), "this is a WordPiece tokenizer, not BPE"),
    (model(type=5), "model.type: 5 is not a string"),
    (model(type="bpe"), "this is a bpe tokenizer, not BPE"),  # HF reads the tag as written
]

# HF loads these, and we refuse each on purpose (the message names the part or field).
HF_LOADS_WE_REFUSE = [
    # parts HF knows and this engine does not run: named as unsupported (UnsupportedPart)
    (document(normalizer={"type": "StripAccents"}), "normalizer"),
    (document(pre_tokenizer={"type": "UnicodeScripts"}), "pre_tokenizer"),
    (document(pre_tokenizer={"type": "FixedLength"}), "pre_tokenizer"),
    (document(decoder={"type": "WordPiece", "prefix": "##", "cleanup": True}), "decoder"),
    (
        in_sequence("pre_tokenizer", {"type": "Whitespace"}, {"type": "UnicodeScripts"}),
        "pre_tokenizer.pretokenizers[1]",
    ),
    # HF loads a stride as long as the text it keeps, then fails (a Rust panic) on every text it has to cut
    (document(truncation={**TRUNCATION, "max_length": 2, "stride": 5}), "truncation.stride: 5 is not less than"),
    # HF loads a template naming a special token it lacks, then fails on every text it encodes with it
    (template(specials={}), 'post_processor.single[0]: "<s>" is not in post_processor.special_tokens'),
    # BPE dropout: ids would change from run to run
    (model(dropout=0.5), "model.dropout: BPE dropout"),
]

HF_LOADS = [
    document(version="1.0"),
    {key: value for key, value in document().items() if key != "version"},  # no version: HF reads it as 1.0
    document(truncation={**TRUNCATION, "max_length": 50, "direction": "Left"}),
    document(padding={**PADDING, "pad_to_multiple_of": None}),
    document(padding={**PADDING, "strategy": {"Fixed": 2}}),  # no longer than the text: nothing added
    document(normalizer={"type": "NFC", "unknown": 1}),  # a field HF does not know is ignored, as HF ignores it
    document(normalizer={"type": "Prepend", "prepend": ""}),
    document(normalizer={**REPLACE, "pattern": {"Regex": "b+"}}),
    in_sequence("normalizer", {"type": "Lowercase"}, REPLACE),
    document(pre_tokenizer=split({"Regex": r"\d+"}, "Removed")),
    document(pre_tokenizer={"type": "Punctuation", "behavior": "Removed"}),
    document(pre_tokenizer={"type": "Metaspace", "replacement": "_", "prepend_scheme": "never", "split": False}),
    document(pre_tokenizer={**BYTE_LEVEL, "use_regex": False}),
    in_sequence("pre_tokenizer", {"type": "Whitespace"}, {"type": "Digits", "individual_digits": True}),
    document(decoder={"type": "Fuse", "x": 1}),
    document(decoder={"type": "Strip", "content": " ", "start": 0, "stop": 0}),
    document(post_processor={**BYTE_LEVEL, "use_regex": False}),
    document(post_processor={"type": "BertProcessing", "sep": ["b", 1], "cls": ["zz", 7]}),
    document(post_processor={"type": "RobertaProcessing", "sep": ["b", 1], "cls": ["a", 0], "trim_offsets": "x"}),
    template(),
    template(specials={"<s>": {**S_TOKEN, "ids": [8, 2]}}),
    template(pair=[{"SpecialToken": {"id": "<x>", "type_id": 0}}]),  # the pair template is not used when encoding
    in_sequence("post_processor", {**BYTE_LEVEL, "add_prefix_space": True}),
    model(type="BPE", dropout=None, unk_token=None, continuing_subword_prefix=None, end_of_word_suffix=None),
    model(dropout=0.0, fuse_unk=False, byte_fallback=False, ignore_merges=True),
    model(end_of_word_suffix="", continuing_subword_prefix=""),
]


def hf_verdict(text: str):
    """HF's tokenizer for the file, or None when it refuses it."""
    hf = hf_tokenizers()
    try:
        return hf.Tokenizer.from_str(text)
    except BaseException:  # some refusals are Rust panics (PanicException)
        return None


@pytest.mark.parametrize("data, named", HF_REFUSES, ids=[named for _, named in HF_REFUSES])
def test_a_field_hf_refuses_is_refused_naming_its_path(data, named):
    text = json.dumps(data)
    assert hf_verdict(text) is None
    with pytest.raises(ValueError) as error:
        from_hf_json(text)
    assert str(error.value).startswith(named) and "\n" not in str(error.value)


@pytest.mark.parametrize("data, named", HF_LOADS_WE_REFUSE, ids=[named for _, named in HF_LOADS_WE_REFUSE])
def test_a_file_hf_loads_but_we_cannot_run_as_hf_is_refused_by_name(data, named):
    text = json.dumps(data)
    assert hf_verdict(text) is not None
    with pytest.raises(ValueError) as error:
        from_hf_json(text)
    assert str(error.value).startswith(named) and "\n" not in str(error.value)


def test_unsupported_parts_are_told_apart_from_broken_ones():
    with pytest.raises(UnsupportedPart, match=r"^pre_tokenizer\.pretokenizers\[1\] 'UnicodeScripts' is not supported"):
        from_hf_json(in_sequence("pre_tokenizer", {"type": "Whitespace"}, {"type": "UnicodeScripts"}))
    with pytest.raises(ValueError) as error:
        from_hf_json(document(pre_tokenizer={"type": "Unicode"}))
    assert not isinstance(error.value, UnsupportedPart)


@pytest.mark.parametrize("data", HF_LOADS)
def test_a_field_hf_accepts_loads_and_encodes_as_hf(data):
    text = json.dumps(data)
    hf = hf_verdict(text)
    assert hf is not None
    ours = from_hf_json(text)
    assert ours.encode(TEXT) == hf.encode(TEXT, add_special_tokens=False).ids
    assert ours.with_model_specials(ours.encode(TEXT)) == hf.encode(TEXT).ids


@pytest.mark.parametrize("command", ["import", "encode"])
def test_the_command_line_says_the_one_sentence_and_fails(tmp_path, command):
    bad = tmp_path / "tokenizer.json"
    bad.write_text(json.dumps(in_sequence("pre_tokenizer", {"type": "Whitespace"}, split({"Regex": "("}))))
    args = [str(bad), "-o", str(tmp_path / "out.json")] if command == "import" else [str(bad), "abc"]
    result = subprocess.run(
        [sys.executable, "-m", "bpe_core", command, *args], capture_output=True, text=True, check=False
    )
    assert result.returncode == 1
    assert result.stderr.startswith('error: tokenizer.json: pre_tokenizer.pretokenizers[1].pattern.Regex: "(" does no')
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    with pytest.raises(ValueError, match=r"^tokenizer\.json: pre_tokenizer\.pretokenizers\[1\]\.pattern"):
        load_any({"tokenizer.json": bad.read_text()})
