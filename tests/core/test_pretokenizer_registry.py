"""Each pre-tokenizer's record against behaviour: its tokenizer.json form cuts like its cutter in HF
tokenizers and reads back as the same split, its flags say what its pieces do, and an unknown name is
the same clear error wherever a split is looked up."""

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.reference_libraries import hf_tokenizers

from bpe_core import Config, train
from bpe_core.blocks import cut_rule, next_cut
from bpe_core.bytelevel import BYTE_TO_CHAR
from bpe_core.formats import from_hf_json, to_hf_json
from bpe_core.pretokenize import SPLITS, split_spans, split_text
from bpe_core.pretokenizers import PRETOKENIZERS, pretokenizer
from bpe_core.streaming import last_safe_cut

# Texts on which the splits differ: contractions in both cases, digit runs, capitals inside a word,
# punctuation before a word, line ends, runs of spaces, White_Space beyond ASCII and the separator
# U+001F that str.split() takes but White_Space does not.
SAMPLES = [
    "Hello world's  end!\n 12345 apples",
    "HelloWorld's CAT (I'LL) don't\r\n\tx  \n\n y/z",
    "Zürich 日本語 😀 e\u0301 a\u00a0b\u3000c a\x1fb",
]
UNKNOWN = "unknown pre-tokenization 'words': choose one of none, whitespace, gpt2, gpt4, gpt4o"
NAMES = [record.name for record in PRETOKENIZERS]


def hf_pieces(tok) -> list:
    """How HF tokenizers cuts each sample when it loads ``tok``'s export (no pre-tokenizer: one piece)."""
    reference = hf_tokenizers().Tokenizer.from_str(json.dumps(to_hf_json(tok)))
    if reference.pre_tokenizer is None:
        return [[text] for text in SAMPLES]
    return [[piece for piece, _ in reference.pre_tokenizer.pre_tokenize_str(text)] for text in SAMPLES]


def test_the_splits_keep_their_names_and_order():
    assert SPLITS == ("none", "whitespace", "gpt2", "gpt4", "gpt4o")


@pytest.mark.parametrize("name", NAMES)
def test_a_characters_export_cuts_in_hf_like_the_cutter_and_reads_back(name):
    record = pretokenizer(name)
    tok = train(" ".join(SAMPLES), Config(split=name), merges=5)
    assert hf_pieces(tok) == [record.pieces(text) for text in SAMPLES]
    assert [[text[start:end] for start, end in record.spans(text)] for text in SAMPLES] == hf_pieces(tok)
    document = to_hf_json(tok)
    back = from_hf_json(json.dumps(document))
    assert (back.config.split, back.config.units) == (name, "chars")
    assert to_hf_json(back)["pre_tokenizer"] == document["pre_tokenizer"]


@pytest.mark.parametrize("name", NAMES)
def test_a_byte_level_export_cuts_in_hf_like_the_cutter_and_reads_back(name):
    """gpt2's export is HF's ByteLevel step alone (its regex is GPT-2's); the others put theirs before it."""
    record = pretokenizer(name)
    tok = train(" ".join(SAMPLES), Config(split=name, units="bytes"), merges=5)
    as_bytes = [
        ["".join(BYTE_TO_CHAR[byte] for byte in piece.encode("utf-8")) for piece in record.pieces(text)]
        for text in SAMPLES
    ]
    assert hf_pieces(tok) == as_bytes
    document = to_hf_json(tok)
    back = from_hf_json(json.dumps(document))
    assert (back.config.split, back.config.units) == (name, "bytes")
    assert to_hf_json(back)["pre_tokenizer"] == document["pre_tokenizer"]


def test_an_export_is_a_copy_of_the_records_form():
    """Editing an exported document leaves the next export as it was."""
    tok = train(" ".join(SAMPLES), Config(split="gpt4"), merges=5)
    first = to_hf_json(tok)
    first["pre_tokenizer"]["pattern"]["Regex"] = "x"
    assert to_hf_json(tok)["pre_tokenizer"]["pattern"]["Regex"] != "x"


@pytest.mark.parametrize("name", NAMES)
def test_the_word_and_whitespace_flags_say_what_the_pieces_are(name):
    record = pretokenizer(name)
    text = "Hello world's  end!\n\tbye"
    assert (record.pieces(text) == ["Hello", "world's", "end!", "bye"]) == record.pieces_are_words
    assert ("".join(record.pieces(text)) == text) == record.keeps_whitespace


def cuts_between_non_spaces(text: str) -> list[int]:
    """Before a space, or after a single newline, with a non-space on each side (not a "/" after the newline)."""
    return [
        i
        for i in range(1, len(text) - 1)
        if (text[i] == " " and not text[i - 1].isspace() and not text[i + 1].isspace())
        or (text[i - 1] == "\n" and i >= 2 and not text[i - 2].isspace() and not text[i].isspace() and text[i] != "/")
    ]


mixed_text = st.lists(
    st.sampled_from(
        [
            "a",
            "B",
            " ",
            " ",
            "\n",
            "'s",
            "'LL",
            "12",
            "1234",
            "!",
            "/",
            "(",
            "é",
            "日",
            "😀",
            "\u0301",
            "\u00a0",
            "\u3000",
            "\t",
            "\r",
            "\x1f",
        ]
    )
    | st.characters(blacklist_categories=("Cs", "Cn")),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=mixed_text)
@pytest.mark.parametrize("name", [record.name for record in PRETOKENIZERS if record.may_cut_at_spaces])
def test_a_split_that_may_be_cut_at_spaces_cuts_the_halves_like_the_whole(name, text):
    record = pretokenizer(name)
    for cut in cuts_between_non_spaces(text):
        assert record.pieces(text[:cut]) + record.pieces(text[cut:]) == record.pieces(text), cut


@pytest.mark.parametrize("name", [record.name for record in PRETOKENIZERS if not record.may_cut_at_spaces])
def test_a_split_that_may_not_be_cut_at_spaces_cuts_the_halves_otherwise(name):
    record = pretokenizer(name)
    assert cuts_between_non_spaces("one two") == [3]
    assert record.pieces("one") + record.pieces(" two") != record.pieces("one two")


@pytest.mark.parametrize("name", NAMES)
def test_streaming_and_blocks_cut_at_a_space_only_when_the_record_allows(name):
    allowed = pretokenizer(name).may_cut_at_spaces
    assert last_safe_cut("one two", split=name, specials=()) == (3 if allowed else 0)
    if allowed:
        assert next_cut(io.BytesIO(b"one two"), 1, cut_rule(name, lines=False)) == 3
    else:
        with pytest.raises(ValueError, match="cannot be counted in blocks"):
            cut_rule(name, lines=False)
        assert next_cut(io.BytesIO(b"one two\nthree"), 1, cut_rule(name, lines=True)) == 8


def test_an_unknown_split_is_the_same_clear_error_everywhere():
    with pytest.raises(ValueError, match=UNKNOWN):
        pretokenizer("words")
    with pytest.raises(ValueError, match=UNKNOWN):
        split_text("one two", "words")
    with pytest.raises(ValueError, match=UNKNOWN):
        split_spans("one two", "words")
    with pytest.raises(ValueError, match=UNKNOWN):
        Config(split="words")
    with pytest.raises(ValueError, match=UNKNOWN):
        cut_rule("words", lines=False)
    with pytest.raises(ValueError, match=UNKNOWN):
        cut_rule("words", lines=True)
    with pytest.raises(ValueError, match=UNKNOWN):
        last_safe_cut("one two", split="words", specials=())


def test_exporting_a_model_whose_split_is_unknown_is_the_clear_error():
    """Config refuses an unknown name, so only settings that got past that check (as here) carry one;
    the export names the problem (it was a KeyError)."""
    tok = train("one two one", Config(), merges=1)
    unchecked = Config()
    object.__setattr__(unchecked, "split", "words")
    tok.config = unchecked
    with pytest.raises(ValueError, match=UNKNOWN):
        to_hf_json(tok)


def test_no_cut_before_a_slash_after_a_newline():
    """GPT-4o's punctuation piece takes the line end and the slashes after it: "!\\n/a" is "!\\n/" + "a" (o200k's
    pattern ends that branch with [\\r\\n/]*), so a cut after the newline would change the pieces."""
    assert pretokenizer("gpt4o").pieces("!\n/a") == ["!\n/", "a"]
    assert last_safe_cut("!\n/a", split="gpt4o", specials=()) == 0
    assert next_cut(io.BytesIO(b"!\n/a b"), 1, cut_rule("gpt4o", lines=False)) == 4  # before the space instead
    assert last_safe_cut("!\nab c", split="gpt4o", specials=()) == 4  # a letter after the newline: the space, last
