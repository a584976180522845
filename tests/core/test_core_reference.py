"""Exact agreement with the references: HF tokenizers (Rust) and GPT-2's published tokenizer."""

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.awkward_text import awkward_text
from support.reference_libraries import hf_byte_level_trained_on_file, hf_merges

from bpe_core import Config, load_gpt2, load_model, train
from bpe_core.pretokenize import lines, split_text
from bpe_core.pretokenizers import PRETOKENIZERS
from bpe_core.pretrained import DATA as GPT2_DATA

tokenizers = pytest.importorskip("tokenizers")

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "kjv_sample.txt"
# The regex each GPT split's tokenizer.json export gives HF's Split step.
HF_PATTERNS = {
    record.name: record.hf_step["pattern"]["Regex"]
    for record in PRETOKENIZERS
    if record.hf_step and record.hf_step["type"] == "Split"
}


@pytest.fixture(scope="module")
def sample_lines() -> list[str]:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)
    assert sum(len(line.encode("utf-8")) for line in lines) >= 990_000
    return lines


def test_byte_level_training_matches_hf_bpe_trainer_on_a_megabyte(sample_lines):
    merges = 4000
    reference = tokenizers.Tokenizer(tokenizers.models.BPE())
    reference.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    reference.decoder = tokenizers.decoders.ByteLevel()
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=256 + merges,
        min_frequency=1,
        show_progress=False,
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(),
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
        [
            "This is the first document.",
            "This document is the second document.",
            "And this is the third one.",
            "Is this the first document?",
        ],
        ["hello world", "hello there", "world peace", "hi there"],
        ["low lower newest widest low low low low newest newest newest newest"],
    ],
)
def test_character_level_hf_tie_break_matches_hf_on_the_textbook_corpora(corpus):
    reference = tokenizers.Tokenizer(tokenizers.models.BPE())
    reference.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    # a vocabulary size out of reach: both stop when no pair is left
    reference.train_from_iterator(corpus, trainer=tokenizers.trainers.BpeTrainer(vocab_size=1000, show_progress=False))
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
    reference = tokenizers.Tokenizer(
        tokenizers.models.BPE.from_file(str(GPT2_DATA / "encoder.json"), str(GPT2_DATA / "vocab.bpe"))
    )
    reference.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    text = "".join(sample_lines) + "Ünïcödé, 日本語, emoji 😀👍🏽 and  spaces\t\n"
    ours = load_gpt2().encode(text)
    assert ours == reference.encode(text).ids
    assert load_gpt2().decode(ours) == text
    # with no special tokens, HF reads <|endoftext|> as ordinary text: so does encode(special=False)
    marked = "one<|endoftext|>two"
    assert load_gpt2().encode(marked, special=False) == reference.encode(marked).ids
    assert load_gpt2().encode(marked) == reference.encode("one").ids + [50256] + reference.encode("two").ids


@pytest.mark.parametrize("name, pattern", list(HF_PATTERNS.items()))
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
    """Our splits (stdlib re for ASCII, the regex module otherwise) cut like HF's Oniguruma."""
    reference = tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), behavior="isolated")
    assert split_text(text, name) == [piece for piece, _ in reference.pre_tokenize_str(text)]


# Text made of the characters where the alternatives compete: apostrophes before
# contraction letters, spaces and other whitespace, digits, punctuation, non-ASCII.
competing_text = awkward_text("'", "s", "t", "re", "ve", "m", "ll", "d", "LL", "?!", ".", "日", "١")


@settings(max_examples=300, deadline=None)
@given(text=competing_text, name=st.sampled_from(list(HF_PATTERNS)))
def test_stdlib_regexes_cut_like_the_originals_on_any_mix(text, name):
    """Holds for the ASCII fast path and for GPT-2's reordered alternatives too."""
    pattern = HF_PATTERNS[name]
    reference = tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), behavior="isolated")
    assert split_text(text, name) == [piece for piece, _ in reference.pre_tokenize_str(text)]


def test_cli_lines_trains_a_file_as_hf_does(tmp_path):
    """Indented verses and blank lines: GPT-2's regex would join a line end to the next indent without --lines."""
    verses = SAMPLE.read_text(encoding="utf-8").splitlines()[:4000]
    corpus = tmp_path / "indented.txt"
    corpus.write_text("".join(f"  {verse}\n\n" for verse in verses), encoding="utf-8")
    vocab_size = 256 + 1500
    reference = hf_merges(hf_byte_level_trained_on_file(corpus, vocab_size))
    for reading, expected_equal in ((["--lines"], True), ([], False)):
        model = tmp_path / "model.json"
        byte_level = ["--split", "gpt2", "--units", "bytes", "--tie-break", "hf", "--vocab-size", str(vocab_size)]
        command = [sys.executable, "-m", "bpe_core", "train", str(corpus), *byte_level, "-o", str(model), *reading]
        assert subprocess.run(command, capture_output=True, timeout=600).returncode == 0
        assert (load_model(model).merges == reference) is expected_equal


file_text = st.lists(
    st.sampled_from(["a", "ab", "b a", " ", "  ", "\n", "\r\n", "\n\n", "é", "日", "1", "!", "\t"]), max_size=40
).map("".join)


@settings(max_examples=60, deadline=None)
@given(text=file_text, vocab_size=st.integers(256, 300))
def test_training_on_lines_equals_hf_training_from_the_file(tmp_path_factory, text, vocab_size):
    path = tmp_path_factory.mktemp("corpus") / "corpus.txt"
    path.write_bytes(text.encode("utf-8"))
    ours = train(lines(text), Config(split="gpt2", units="bytes", tie_break="hf"), vocab_size=vocab_size)
    assert ours.merges == hf_merges(hf_byte_level_trained_on_file(path, vocab_size))


@pytest.mark.parametrize("corpus", [["ab ab"], ["zebra apple", "banana"], ["low lower newest widest"]])
def test_a_glued_marker_keeps_every_character_in_the_base_vocabulary_as_hf_does(corpus):
    """HF numbers the marked characters in hash order, so the sets are compared, not the ids."""
    reference = tokenizers.Tokenizer(tokenizers.models.BPE(unk_token="<unk>", end_of_word_suffix="</w>"))
    reference.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=1, special_tokens=["<unk>"], end_of_word_suffix="</w>", show_progress=False
    )
    reference.train_from_iterator(corpus, trainer=trainer)  # vocab_size 1: the base vocabulary alone
    ours = train(corpus, Config(end_of_word="</w>", glue_marker=True), merges=0)
    assert set(ours.vocab) == set(reference.get_vocab())
    assert ours.tokenize("ba") == reference.encode("ba").tokens  # "b" known, "a</w>" never seen: <unk>
