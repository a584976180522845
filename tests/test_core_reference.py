"""Exact agreement with the references: HF tokenizers (Rust) and GPT-2's published tokenizer."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Regex
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders, models, pre_tokenizers, trainers

from bpe_core import Config, load_gpt2, train
from bpe_core.gpt2 import DATA as GPT2_DATA
from bpe_core.pretokenize import GPT2_PATTERN, GPT4_PATTERN, split_text

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "kjv_sample.txt"


@pytest.fixture(scope="module")
def sample_lines() -> list[str]:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    assert sum(len(line.encode("utf-8")) for line in lines) >= 990_000
    return lines


def hf_merges(tokenizer: HFTokenizer) -> list[tuple[str, str]]:
    merges = json.loads(tokenizer.to_str())["model"]["merges"]
    return [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in merges]


def test_byte_level_training_matches_hf_bpe_trainer_on_a_megabyte(sample_lines):
    merges = 4000
    reference = HFTokenizer(models.BPE())
    reference.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    reference.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=256 + merges,
        min_frequency=1,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=[],
    )
    reference.train_from_iterator(sample_lines, trainer=trainer)

    ours = train(sample_lines, Config(split="gpt2", units="bytes", tie_break="hf"), vocab_size=256 + merges)

    assert len(ours.merges) == merges
    assert ours.merges == hf_merges(reference)
    assert ours.vocab == reference.get_vocab()
    theirs = [i for encoding in reference.encode_batch(sample_lines) for i in encoding.ids]
    assert ours.encode("".join(sample_lines)) == theirs


@pytest.mark.parametrize(
    "corpus",
    [
        ["This is the first document.", "This document is the second document.",
         "And this is the third one.", "Is this the first document?"],
        ["hello world", "hello there", "world peace", "hi there"],
        ["low lower newest widest low low low low newest newest newest newest"],
    ],
)
def test_character_level_hf_tie_break_matches_hf_on_the_textbook_corpora(corpus):
    reference = HFTokenizer(models.BPE())
    reference.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    # a vocabulary size out of reach: both stop when no pair is left
    reference.train_from_iterator(corpus, trainer=trainers.BpeTrainer(vocab_size=1000, show_progress=False))
    ours = train(corpus, Config(tie_break="hf"), merges=1000)
    assert ours.stop_reason == "no_pairs"
    assert ours.merges == hf_merges(reference)


def test_gpt2_known_answer():
    tok = load_gpt2()
    assert tok.encode("Hello, ByteLevel BPE!") == [15496, 11, 30589, 4971, 347, 11401, 0]
    assert tok.tokenize("Hello, ByteLevel BPE!") == ["Hello", ",", "ĠByte", "Level", "ĠB", "PE", "!"]
    assert tok.vocab["<|endoftext|>"] == 50256 and len(tok.vocab) == 50257 and len(tok.merges) == 50000
    assert not tok.has_counts and tok.steps[0].count is None
    assert tok.merge_tree("ĠByte").leaves() == ["Ġ", "B", "y", "t", "e"]


def test_gpt2_ids_equal_hf_tokenizers_on_a_megabyte(sample_lines):
    reference = HFTokenizer(
        models.BPE.from_file(str(GPT2_DATA / "encoder.json"), str(GPT2_DATA / "vocab.bpe"))
    )
    reference.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    text = "".join(sample_lines) + "Ünïcödé, 日本語, emoji 😀👍🏽 and  spaces\t\n"
    ours = load_gpt2().encode(text)
    assert ours == reference.encode(text).ids
    assert load_gpt2().decode(ours) == text


@pytest.mark.parametrize("name, pattern", [("gpt2", GPT2_PATTERN), ("gpt4", GPT4_PATTERN)])
@pytest.mark.parametrize(
    "text",
    [
        "Hello world's  end! I'LL DON'T",  # Latin, contractions
        "Привет, мир! Как дела?",  # Cyrillic
        "日本語のテキストと中文字符",  # CJK
        "1234567 ١٢٣ ²½ Ⅻ",  # digits: ASCII, Arabic-Indic, superscripts, fractions, Roman numerals
        "😀👍🏽 👨\u200d👩 e\u0301 x\u200dy",  # emoji, ZWJ sequences, combining marks
        "\x1c\x1d a\u00a0b \r\n\tx  \n\n y\u3000z",  # separators \s must not see, White_Space it must
    ],
)
def test_stdlib_regexes_equal_the_unicode_originals(name, pattern, text):
    """Python's re has no \\p{L}/\\p{N}; the classes built from unicodedata must cut like the Rust regex."""
    reference = pre_tokenizers.Split(Regex(pattern), behavior="isolated")
    assert split_text(text, name) == [piece for piece, _ in reference.pre_tokenize_str(text)]


# Text made of the characters where the alternatives compete: apostrophes before
# contraction letters, spaces and other whitespace, digits, punctuation, non-ASCII.
competing_text = st.lists(
    st.sampled_from(["'", "s", "t", "re", "ve", "m", "ll", "d", "LL", " ", "  ", "\n", "\t", "\r\n", "1", "23",
                     "!", "?!", ".", "é", "日", "١", "😀", "\u00a0", "\u3000", "x"]),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=competing_text, name=st.sampled_from(["gpt2", "gpt4"]))
def test_stdlib_regexes_cut_like_the_originals_on_any_mix(text, name):
    """Holds for the ASCII fast path and for GPT-2's reordered alternatives too."""
    pattern = {"gpt2": GPT2_PATTERN, "gpt4": GPT4_PATTERN}[name]
    reference = pre_tokenizers.Split(Regex(pattern), behavior="isolated")
    assert split_text(text, name) == [piece for piece, _ in reference.pre_tokenize_str(text)]
