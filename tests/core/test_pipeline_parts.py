"""The swappable parts of ``bpe_core.pipeline`` against HF tokenizers itself, the oracle.

Each HF part is built from the same JSON spec (inside an otherwise empty tokenizer.json) and
must give the same normalized text, the same pieces with the same offsets, the same decoded
text, on fixed hard cases and on random text.  Random text only uses characters assigned in
Python's ``unicodedata`` (Unicode 14.0 here): HF's Rust (Oniguruma, the std library) knows a
newer Unicode, and a character assigned since is a difference of Unicode versions, not of
behaviour.  Where HF's tables are older than Python's (normalization: Unicode 9.0; the
Punctuation pre-tokenizer: 8.0) and for the regex classes, every character is checked.
The open models' specs (``bpe_core.pretrained``'s tokenizer.json family) are checked the same way.
"""

from __future__ import annotations

import functools
import json
import lzma
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.awkward_text import KNOWN, fragments
from support.hf_document import tokenizer_document
from support.reference_libraries import hf_tokenizers

from bpe_core.bytelevel import BYTE_TO_CHAR
from bpe_core.pipeline.decoders import build_decoder
from bpe_core.pipeline.normalizers import build_normalizer
from bpe_core.pipeline.pre_tokenizers import build_piece_cutter, build_pre_tokenizer
from bpe_core.pipeline.spec import UnsupportedPart
from bpe_core.pretrained import DATA, PUBLISHED, TOKENIZER_JSON

OPEN_MODELS = [DATA / published.files[0] for published in PUBLISHED.values() if published.family == TOKENIZER_JSON]

HARD_CASES = [
    "",
    " ",
    "a",
    "Hello world",
    "  leading and trailing  ",
    "e\u0301 a\u0345\u0301 \u1e0b\u0323 o\u0308\u0304",
    "ﬁ ① ㍿ ½ ² Ⅻ ｶ ﹏",
    "한국어 \u1100\u1161\u11a8",
    "👩\u200d👩\u200d👧 👍🏽 🏳️\u200d🌈",
    "中文字符，日本語のテキスト カタカナ",
    "1234567890 ١٢٣٤ 12.5 ¹²³",
    "line\r\nbreak\n\n\r",
    "a  \t\n\u00a0\u3000\x1c\x1d\x1e\x1f\x85 b \u2028\u205f",
    "def f(x):\n    return x  # comment\n\tif x:\n\t\tpass\n",
    "DON'T I'm we'LL they'RE she's it'S you'Ve I'D 'M",
    "ΟΔΟΣ Σ σς İstanbul ß ẞ ſ K ǅ",
    "▁already▁spaced ▁",
    "<0x41> <0xE2><0x9C>",
    "a\u200db\u200cc",
    "\x00\x01",
    "㋿ ꟲ \U00011935\U00011930 \u0c3c a\u1ac0\u0301",
    "¿¡«»—…§ \u166d\U000111c9 \u2e43",
    "x² a¹b ¼",
    "   ",
    "tab\there",
    "end.",
    "abllb",
    "'s's 's",
    "ǈ Ǉ ǉ",
    "\U0001d400\U0001d41a",
    "ÀÉÎÕÜ àéîõü",
]
SUSPECTS = fragments("\u0345", "▁", "Ġ", "Σ", "ß", "ﬁ", "㋿")
any_text = st.lists(KNOWN | SUSPECTS, max_size=30).map("".join)


@functools.cache
def hf_part(role: str, spec_json: str):
    """HF's part for a spec, inside an otherwise empty tokenizer.json."""
    document = tokenizer_document({"type": "BPE", "vocab": {}, "merges": []}, **{role: json.loads(spec_json)})
    return getattr(hf_tokenizers().Tokenizer.from_str(json.dumps(document)), role)


def hf_normalize(spec: dict, text: str) -> str:
    return hf_part("normalizer", json.dumps(spec)).normalize_str(text)


def hf_pre_tokenize(spec: dict, text: str) -> list[tuple[str, int, int]]:
    return [
        (piece, start, end) for piece, (start, end) in hf_part("pre_tokenizer", json.dumps(spec)).pre_tokenize_str(text)
    ]


def hf_decode(spec: dict, tokens: list[str]) -> str:
    return hf_part("decoder", json.dumps(spec)).decode(tokens)


def check_normalizer(spec: dict, text: str) -> None:
    assert build_normalizer(spec)(text) == hf_normalize(spec, text)


def check_pre_tokenizer(spec: dict, text: str) -> None:
    """The pieces with their offsets, and the fast cutter's pieces alone (what encoding uses)."""
    expected = hf_pre_tokenize(spec, text)
    assert build_pre_tokenizer(spec)(text) == expected
    assert build_piece_cutter(spec)(text) == [piece for piece, _, _ in expected]


def split(pattern: str, behavior: str = "Isolated", invert: bool = False, kind: str = "Regex") -> dict:
    return {"type": "Split", "pattern": {kind: pattern}, "behavior": behavior, "invert": invert}


def replace(pattern: str, content: str, kind: str = "String") -> dict:
    return {"type": "Replace", "pattern": {kind: pattern}, "content": content}


def byte_level(prefix: bool, **use_regex: bool) -> dict:
    return {"type": "ByteLevel", "add_prefix_space": prefix, "trim_offsets": True, **use_regex}


def metaspace(scheme: str, split_: bool = True) -> dict:
    return {"type": "Metaspace", "replacement": "▁", "prepend_scheme": scheme, "split": split_}


BEHAVIORS = ["Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous"]
LLAMA3_REGEX = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
NORMALIZERS = (
    [{"type": form} for form in ("NFC", "NFD", "NFKC", "NFKD", "Lowercase")]
    + [{"type": "Strip", "strip_left": left, "strip_right": right} for left in (True, False) for right in (True, False)]
    + [
        {"type": "Prepend", "prepend": "▁"},
        replace(" ", "▁"),
        replace("", "X"),
        replace("ab", ""),
        replace(r"\s+", " ", "Regex"),
        replace("b*", "X", "Regex"),
        replace(r"(\d)", "$1\\1", "Regex"),
        replace(r"(?i:ss)|\w$", "#", "Regex"),
        {"type": "Sequence", "normalizers": []},
        {
            "type": "Sequence",
            "normalizers": [
                {"type": "NFKD"},
                {"type": "Lowercase"},
                replace(r"\p{M}", "", "Regex"),
                {"type": "Strip", "strip_left": True, "strip_right": True},
            ],
        },
    ]
)
PRE_TOKENIZERS = [
    *(split(" ", behavior, invert, "String") for behavior in BEHAVIORS for invert in (False, True)),
    *(split(r"\p{N}+|\s", behavior) for behavior in BEHAVIORS),
    split(LLAMA3_REGEX),
    split(r"\p{N}{1,3}"),
    split("[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+"),
    split(
        r"[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*"
    ),
    split(""),
    split("x*|a"),
    split("x*|a", "Removed"),
    split("a|x*|ll"),
    split(r"a|(?=\s)"),
    split("|a"),
    split(r"\b"),
    split("$"),
    split("^"),
    split(r"\Z"),
    split(r"\w+", "Removed", True),
    split(r"\h+|[[:punct:]]+|[[:digit:]]"),
    split(r"(?m:.)\z"),
    split(r"\x{41}"),
    byte_level(False),
    byte_level(True),
    byte_level(False, use_regex=False),
    byte_level(True, use_regex=False),
    *(metaspace(scheme, split_) for scheme in ("always", "never", "first") for split_ in (True, False)),
    {"type": "Metaspace", "replacement": "_", "add_prefix_space": True},
    {"type": "Metaspace", "replacement": " "},
    {"type": "Whitespace"},
    {"type": "WhitespaceSplit"},
    {"type": "Digits", "individual_digits": False},
    {"type": "Digits", "individual_digits": True},
    {"type": "Punctuation"},
    *({"type": "Punctuation", "behavior": behavior} for behavior in BEHAVIORS),
    {"type": "Sequence", "pretokenizers": []},
    {"type": "Sequence", "pretokenizers": [split(" ", "Removed", kind="String"), metaspace("first")]},
    {"type": "Sequence", "pretokenizers": [metaspace("always"), split("l", "MergedWithNext", kind="String")]},
    {"type": "Sequence", "pretokenizers": [byte_level(True, use_regex=False), split("Ã", kind="String")]},
    {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": True}, byte_level(True)]},
    {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"}, metaspace("first"), {"type": "Punctuation"}]},
]
DECODERS = [
    byte_level(True),
    metaspace("always"),
    metaspace("never"),
    metaspace("first"),
    replace("▁", " "),
    replace("b*", "-", "Regex"),
    {"type": "ByteFallback"},
    {"type": "Fuse"},
    {"type": "Strip", "content": " ", "start": 1, "stop": 0},
    {"type": "Strip", "content": "a", "start": 2, "stop": 1},
    {"type": "BPEDecoder", "suffix": "</w>"},
    {"type": "BPEDecoder", "suffix": ""},
    {
        "type": "Sequence",
        "decoders": [
            replace("▁", " "),
            {"type": "ByteFallback"},
            {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0},
        ],
    },
    {
        "type": "Sequence",
        "decoders": [
            {"type": "ByteFallback"},
            metaspace("always"),
            {"type": "Strip", "content": "�", "start": 1, "stop": 2},
        ],
    },
]
TOKEN_LISTS = [
    [],
    [""],
    ["▁Hello", "▁w", "orld"],
    ["Hello", "Ġworld", "ĊĠĠ", "Ã©"],
    ["<0xE2>", "<0x9C>", "<0x93>", "▁ok"],
    ["<0xE2>", "<0x9C>", "x", "<0xFF>"],
    ["<0x+A>", "<0x-1>", "<0xg1>", "<0x4>", "<0x041>", "<0x4a>", "<0xé>"],
    ["ab</w>", "c</w>d", "</w>"],
    ["â", "ĺ", "Ģ", "é", "Ġa"],
    ["a", "aa", "aab", "baa", "▁a▁", "▁▁"],
    ["Ġ", "ð", "Ł"],
]
token_lists = st.lists(
    st.sampled_from(
        [
            "▁",
            " ",
            "a",
            "aa",
            "</w>",
            "Ġ",
            "Ã",
            "©",
            "ð",
            "Ł",
            "<0xE2>",
            "<0x9C>",
            "<0x93>",
            "<0x41>",
            "<0xFF>",
            "<0x+5>",
            "é",
        ]
    )
    | KNOWN,
    max_size=12,
)


def ids(specs: list[dict]) -> list[str]:
    """Plain test ids (number and type): JSON in an id does not survive being passed back to pytest
    by name in the same process, as mutmut does."""
    return [f"{index}-{spec['type']}" for index, spec in enumerate(specs)]


@functools.cache
def known_characters() -> str:
    """Every character assigned in Python's Unicode (except U+0000, the separator below)."""
    return "".join(chr(code) for code in range(1, 0x110000) if unicodedata.category(chr(code)) not in ("Cn", "Cs"))


@pytest.mark.parametrize("form", ["NFC", "NFD", "NFKC", "NFKD"])
def test_unicode_normalization_uses_hf_tables_for_every_character(form):
    """Every character normalization touches, alone, before and after marks, and every composition pair."""
    touched = [char for char in known_characters() if unicodedata.decomposition(char) or unicodedata.combining(char)]
    pairs = [
        unicodedata.normalize("NFD", char) for char in touched if unicodedata.decomposition(char)[:1] not in ("<", "")
    ]
    texts = pairs + [probe for char in touched for probe in (char, "a\u0345" + char, "a\u0301" + char + "\u0334")]
    joined = "\x00".join(texts)
    assert build_normalizer({"type": form})(joined).split("\x00") == hf_normalize({"type": form}, joined).split("\x00")


def test_lowercase_of_every_known_character():
    check_normalizer({"type": "Lowercase"}, "\x00".join(known_characters()))


@pytest.mark.parametrize(
    "pattern",
    [
        r"\s",
        r"\S",
        r"\w",
        r"\W",
        r"\d",
        r"\h",
        r"\H",
        r"[[:punct:]]",
        r"[[:digit:]]",
        r"[[:alnum:]]",
        r"[[:word:]]",
        r"[[:alpha:]]",
        r"[\w\h]",
        r"\p{L}",
        r"\p{N}",
        r"\p{P}",
        r"\p{S}",
        r"\p{M}",
        r"[^\s\p{L}\p{N}]",
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)",
    ],
)
def test_regex_classes_mean_what_they_mean_in_oniguruma(pattern):
    """Each known character (with a "'" before it, for the contractions) taken out or kept as HF's Oniguruma does."""
    text = "'".join(known_characters()) if "'" in pattern else known_characters()
    check_pre_tokenizer(split(pattern, "Removed"), text)


@pytest.mark.parametrize("spec", [{"type": "Punctuation", "behavior": "Removed"}, {"type": "WhitespaceSplit"}])
def test_character_classes_of_every_code_point(spec):
    """HF's punctuation (Unicode 8.0) and White_Space hold on every code point the regex module knows (17.0)."""
    check_pre_tokenizer(spec, "".join(chr(code) for code in range(1, 0x110000) if not 0xD800 <= code < 0xE000))


@pytest.mark.parametrize("spec", [{"type": "Whitespace"}, {"type": "Digits", "individual_digits": True}])
def test_character_classes_of_every_known_character(spec):
    check_pre_tokenizer(spec, known_characters())


def test_metaspace_first_prepends_only_at_the_start_of_the_original_text():
    """A section after an added token is not at the text start: HF pre-tokenizes it as with "never"."""
    first = build_pre_tokenizer(metaspace("first"))
    for text in HARD_CASES:
        assert first(text, at_text_start=False) == hf_pre_tokenize(metaspace("never"), text)
        assert first(text) == hf_pre_tokenize(metaspace("first"), text)


def decode_or_error(decode, tokens: list[str]) -> str | type:
    try:
        return decode(tokens)
    except BaseException as error:  # HF's Rust panics surface as PanicException, a BaseException
        if isinstance(error, (KeyboardInterrupt, SystemExit, pytest.skip.Exception)):  # the last: HF is missing
            raise
        return ValueError if isinstance(error, ValueError) or "Panic" in type(error).__name__ else type(error)


def check_decoder(spec: dict | None, tokens: list[str]) -> None:
    hf = decode_or_error(lambda t: hf_decode(spec, t) if spec else " ".join(t), tokens)
    assert decode_or_error(build_decoder(spec), tokens) == hf


# Each part kind: how it is checked against HF, its parts, its hard cases and its random inputs.
KINDS = {
    "normalizer": (check_normalizer, NORMALIZERS, HARD_CASES, any_text),
    "pre-tokenizer": (check_pre_tokenizer, PRE_TOKENIZERS, HARD_CASES, any_text),
    "decoder": (check_decoder, DECODERS, TOKEN_LISTS, token_lists),
}
PARTS = [(kind, spec) for kind, (_, specs, _, _) in KINDS.items() for spec in specs]
PART_IDS = [f"{kind}-{part_id}" for kind, (_, specs, _, _) in KINDS.items() for part_id in ids(specs)]


@pytest.mark.parametrize(("kind", "spec"), PARTS, ids=PART_IDS)
def test_parts_equal_hf_on_hard_cases(kind, spec):
    check, _, hard_cases, _ = KINDS[kind]
    for case in hard_cases:
        check(spec, case)


@pytest.mark.parametrize(("kind", "spec"), PARTS, ids=PART_IDS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_parts_equal_hf_on_random_input(kind, spec, data):
    check, _, _, inputs = KINDS[kind]
    check(spec, data.draw(inputs))


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=24), cuts=st.lists(st.integers(0, 24), max_size=6))
def test_byte_level_decoder_replaces_invalid_utf8_as_rust_does(data, cuts):
    """Python's errors="replace" and Rust's from_utf8_lossy put a U+FFFD at the same places."""
    symbols = "".join(BYTE_TO_CHAR[byte] for byte in data)
    bounds = sorted({0, len(symbols), *(cut for cut in cuts if cut < len(symbols))})
    tokens = [symbols[a:b] for a, b in zip(bounds, bounds[1:])]
    check_decoder(byte_level(True), tokens)
    check_decoder({"type": "ByteFallback"}, [f"<0x{byte:02X}>" for byte in data])


def test_no_decoder_joins_with_spaces():
    for tokens in TOKEN_LISTS:
        check_decoder(None, tokens)


@functools.cache
def open_model(path: Path) -> dict:
    """One open model's parts, and a sample of its vocabulary for decoding (read once per run)."""
    document = json.loads(lzma.open(path).read().decode())
    vocab = sorted(document["model"]["vocab"], key=document["model"]["vocab"].get)
    return {
        "normalizer": document["normalizer"],
        "pre_tokenizer": document["pre_tokenizer"],
        "decoder": document["decoder"],
        "vocab": vocab[:600] + vocab[600::97],
    }


@pytest.mark.parametrize("path", OPEN_MODELS, ids=[path.name.split(".")[0] for path in OPEN_MODELS])
def test_open_models_parts_on_hard_cases(path):
    parts = open_model(path)
    normalize = build_normalizer(parts["normalizer"]) or (lambda text: text)
    for text in HARD_CASES:
        if parts["normalizer"]:
            check_normalizer(parts["normalizer"], text)
        if parts["pre_tokenizer"]:
            check_pre_tokenizer(parts["pre_tokenizer"], normalize(text))
    for tokens in [*TOKEN_LISTS, parts["vocab"][:300], parts["vocab"][300:]]:
        check_decoder(parts["decoder"], tokens)


@pytest.mark.parametrize("path", OPEN_MODELS, ids=[path.name.split(".")[0] for path in OPEN_MODELS])
@settings(max_examples=40, deadline=None)
@given(text=any_text, picks=st.lists(st.integers(0, 10**6), max_size=15))
def test_open_models_parts_on_random_text(path, text, picks):
    parts = open_model(path)
    if parts["normalizer"]:
        check_normalizer(parts["normalizer"], text)
        text = hf_normalize(parts["normalizer"], text)
    if parts["pre_tokenizer"]:
        check_pre_tokenizer(parts["pre_tokenizer"], text)
    vocab = parts["vocab"]
    check_decoder(parts["decoder"], [vocab[pick % len(vocab)] for pick in picks])


UNSUPPORTED = [
    ("normalizer", {"type": "BertNormalizer"}),
    ("normalizer", {"type": "Precompiled"}),
    ("pre_tokenizer", {"type": "BertPreTokenizer"}),
    ("pre_tokenizer", {"type": "UnicodeScripts"}),
    ("decoder", {"type": "WordPiece"}),
    ("decoder", {"type": "CTC"}),
]
BUILDERS = {"normalizer": build_normalizer, "pre_tokenizer": build_pre_tokenizer, "decoder": build_decoder}


@pytest.mark.parametrize(("role", "spec"), UNSUPPORTED, ids=[spec["type"] for _, spec in UNSUPPORTED])
def test_an_unsupported_type_is_refused_by_name(role, spec):
    with pytest.raises(UnsupportedPart, match=f"^{role} '{spec['type']}' is not supported here"):
        BUILDERS[role](spec)


MALFORMED = [
    ("normalizer", {"type": "Strip", "strip_left": True}, "normalizer.strip_right is missing"),
    ("normalizer", {"type": "Replace", "pattern": {"String": "a"}}, "normalizer.content is missing"),
    ("normalizer", {"type": "Replace", "pattern": "a", "content": ""}, 'normalizer.pattern: "a" is not an object'),
    ("normalizer", {"type": "Prepend", "prepend": 1}, "normalizer.prepend: 1 is not a string"),
    ("normalizer", {"type": "Sequence"}, "normalizer.normalizers is missing"),
    (
        "normalizer",
        {"type": "Sequence", "normalizers": [{"type": "Strip"}]},
        r"normalizer.normalizers\[0\].strip_left is missing",
    ),
    ("pre_tokenizer", split("(", "Isolated"), 'pre_tokenizer.pattern.Regex: "\\(" does not compile'),
    ("pre_tokenizer", split("a\\", "Isolated"), 'pre_tokenizer.pattern.Regex: "a'),  # ends in a lone backslash
    (
        "pre_tokenizer",
        {"type": "Split", "pattern": {"Regex": "a"}, "behavior": "Isolated"},
        "pre_tokenizer.invert is missing",
    ),
    ("pre_tokenizer", split("a", "isolated"), 'pre_tokenizer.behavior: "isolated" is not one of'),
    (
        "pre_tokenizer",
        {"type": "Split", "pattern": {"Regex": "a", "String": "a"}, "behavior": "Isolated", "invert": False},
        "pre_tokenizer.pattern: {",
    ),
    ("pre_tokenizer", {"type": "ByteLevel"}, "pre_tokenizer.add_prefix_space is missing"),
    (
        "pre_tokenizer",
        {"type": "ByteLevel", "add_prefix_space": 1, "trim_offsets": True},
        "pre_tokenizer.add_prefix_space: 1 is not true or false",
    ),
    (
        "pre_tokenizer",
        {"type": "Metaspace", "replacement": "ab"},
        'pre_tokenizer.replacement: "ab" is not one character',
    ),
    (
        "pre_tokenizer",
        {"type": "Metaspace", "replacement": "▁", "add_prefix_space": False},
        "pre_tokenizer.add_prefix_space: false contradicts",
    ),
    ("pre_tokenizer", {"type": "Digits"}, "pre_tokenizer.individual_digits is missing"),
    ("decoder", {"type": "Strip", "content": " ", "start": -1, "stop": 0}, "decoder.start: -1 is not a whole number"),
    (
        "decoder",
        {"type": "Strip", "content": " ", "start": True, "stop": 0},
        "decoder.start: true is not a whole number",
    ),
    ("decoder", {"type": "BPEDecoder"}, "decoder.suffix is missing"),
    ("decoder", {"type": "Metaspace"}, "decoder.replacement is missing"),
    ("decoder", {"type": "ByteLevel", "add_prefix_space": True}, "decoder.trim_offsets is missing"),
    (
        "decoder",
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "sometimes"},
        'decoder.prepend_scheme: "sometimes" is not one of',
    ),
]


# Ids without the problems' regex backslashes: pytest escapes a backslash in an id differently when it collects a
# second time in the same process (as mutmut does), and the test would not be found by its name.
@pytest.mark.parametrize(
    ("role", "spec", "problem"), MALFORMED, ids=[problem.replace("\\", "") for *_, problem in MALFORMED]
)
def test_a_malformed_spec_is_a_value_error_naming_the_field_as_in_hf(role, spec, problem):
    with pytest.raises(Exception):  # noqa: B017  HF's own errors have no Python type of their own
        hf_part(role, json.dumps(spec))
    with pytest.raises(ValueError, match=f"^{problem}"):  # one sentence, starting with the field's path
        BUILDERS[role](spec)


@pytest.mark.parametrize("role", BUILDERS)
@pytest.mark.parametrize("spec", [[], {"no": "type"}, {"type": 3}])
def test_a_spec_that_is_not_a_typed_object_is_a_value_error(role, spec):
    with pytest.raises(ValueError, match=f"^{role}(\\.type)?[: ]"):
        BUILDERS[role](spec)


@pytest.mark.parametrize(
    ("role", "spec"),
    [
        ("pre_tokenizer", {"type": "Metaspace", "replacement": "▁"}),
        ("pre_tokenizer", {"type": "Punctuation"}),
        ("pre_tokenizer", {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False}),
        ("decoder", {"type": "Metaspace", "replacement": "_", "add_prefix_space": True}),
        ("normalizer", {"type": "NFC", "unknown": 1}),
    ],
)
def test_the_defaults_hf_fills_in_are_filled_in(role, spec):
    built = BUILDERS[role](spec)
    for text in HARD_CASES:
        if role == "normalizer":
            assert built(text) == hf_normalize(spec, text)
        elif role == "pre_tokenizer":
            assert built(text) == hf_pre_tokenize(spec, text)
        else:
            assert built(text.split()) == hf_decode(spec, text.split())


@pytest.mark.parametrize(
    ("pattern", "construct"),
    [
        (r"[[:^digit:]]", "nested or negated"),
        (r"[a[bc]]", "nested"),
        (r"[a-z&&[^c]]", "intersection"),
        (r"[\W]", r"\\W inside"),
    ],
)
def test_an_oniguruma_construct_we_cannot_translate_is_refused_by_name(pattern, construct):
    hf_part("pre_tokenizer", json.dumps(split(pattern)))  # HF runs it
    with pytest.raises(UnsupportedPart, match=f"pre_tokenizer 'Split'.*{construct}"):
        build_pre_tokenizer(split(pattern))
