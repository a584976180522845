"""The classic textbook examples, reproduced exactly."""

import copy
import gc
import pickle
import weakref
from collections import Counter

import pytest
from support.banana import BANANA_BANDANA

from bpe_core import Config, UnknownIdError, count_pieces, load_model, save_model, train
from bpe_core.formats import model_from_json, model_to_json

DOCUMENTS = [
    "This is the first document.",
    "This document is the second document.",
    "And this is the third one.",
    "Is this the first document?",
]
LOW = "low lower newest widest low low low low newest newest newest newest"
HELLO = ["hello world", "hello there", "world peace", "hi there"]


def merge_names(tok):
    return [f"{left} {right}" for left, right in tok.merges]


def test_documents_with_end_of_word_symbol():
    tok = train(DOCUMENTS, Config(end_of_word="</w>"), merges=15)
    assert merge_names(tok) == [
        "s </w>",
        "i s</w>",
        "t h",
        "th e",
        "the </w>",
        "d o",
        "do c",
        "doc u",
        "docu m",
        "docum e",
        "docume n",
        "documen t",
        "i r",
        ". </w>",
        "d </w>",
    ]
    assert tok.stop_reason == "merges"


def test_low_lower_newest_widest_stops_on_min_frequency():
    tok = train(LOW, Config(end_of_word="_", min_frequency=2), vocab_size=50)
    assert len(tok.merges) == 9
    assert merge_names(tok)[:4] == ["l o", "lo w", "e s", "es t"]
    assert tok.stop_reason == "min_frequency"
    assert "below the minimum frequency 2" in tok.stop_message
    assert tok.tokenize("lowest") == ["low", "est_"]


def test_banana_banana_with_space_marker():
    tok = train("banana banana", Config(split="none", space_marker=True), merges=20)
    assert merge_names(tok) == ["a n", "b an", "ban an", "banan a", "banana Ġ", "bananaĠ banana"]
    assert tok.stop_reason == "no_pairs"
    assert tok.decode(tok.encode("banana banana")) == "banana banana"


def test_banana_bandana_merges_and_tree():
    tok = train("banana_bandana_", Config(split="none"), merges=6)
    assert merge_names(tok) == BANANA_BANDANA
    tree = tok.merge_tree("banana_ban")
    assert tree.leaves() == list("banana_ban")
    assert (tree.step, tree.left.token, tree.right.token) == (6, "banana_", "ban")
    ana = tree.left.right.left  # banana_ = ban + (ana + _)
    assert (ana.token, ana.step, ana.left.token, ana.left.step, ana.left.count) == ("ana", 3, "an", 1, 4)


def test_hello_world_runs_out_of_pairs():
    tok = train(HELLO, Config(), merges=100)
    assert len(tok.merges) == 16
    assert tok.stop_reason == "no_pairs"
    assert "no pair is left" in tok.stop_message and "16 merges" in tok.stop_message
    assert tok.tokenize("hellothere") == ["hello", "there"]
    assert tok.decode(tok.encode("hellothere")) == "hellothere"


def test_glued_marker_is_part_of_the_last_symbol():
    tok = train(DOCUMENTS, Config(end_of_word="</w>", glue_marker=True), merges=3)
    assert "s</w>" in tok.base_tokens() and "</w>" not in tok.vocab
    assert merge_names(tok)[0] == "i s</w>"


def test_overlapping_pairs_are_counted_but_merged_without_overlap():
    tok = train("aaa", Config(split="none"), merges=1, top_k=5)
    assert tok.steps[0].count == 2  # "aaa" holds (a, a) twice
    assert tok.tokenize("aaa") == ["aa", "a"]
    four = train("aaaa", Config(split="none"), merges=2)
    assert merge_names(four) == ["a a", "aa aa"]
    assert four.steps[1].count == 1


def test_trace_records_ties_and_the_race():
    tok = train("banana_bandana_", Config(split="none"), merges=6, top_k=3)
    second = tok.steps[1]
    assert (second.left, second.right, second.count, second.tied) == ("b", "an", 2, 3)
    assert second.top == (("b", "an", 2), ("an", "a", 2), ("a", "_", 2))
    assert tok.steps[0].tied == 1 and tok.steps[0].top[0] == ("a", "n", 4)


def test_piece_frequencies_weight_the_counts():
    tok = train("ab ab ab cd", Config(), merges=2)
    assert [step.count for step in tok.steps] == [3, 1]


def test_vocab_size_counts_base_special_and_merges():
    config = Config(special_tokens=("<s>",), unknown="byte_fallback")
    tok = train("abab", config, vocab_size=1 + 2 + 256 + 1)
    assert len(tok.vocab) == 260 and tok.merges == [("a", "b")]
    assert tok.stop_reason == "vocab_size"
    assert tok.vocab["<s>"] == 0


def test_vocab_size_below_the_base_alphabet_makes_no_merge_and_says_why():
    tok = train("hello", Config(unknown="byte_fallback"), vocab_size=3)
    assert tok.merges == []
    assert "smaller than the base vocabulary" in tok.stop_message


def test_special_tokens_get_first_ids_are_never_split_and_are_recognised():
    config = Config(split="none", special_tokens=("<|endoftext|>",), unknown="byte_fallback")
    tok = train("ab<|endoftext|>ab<|endoftext|>ab", config, merges=10)
    assert tok.vocab["<|endoftext|>"] == 0
    assert all("<" not in left + right for left, right in tok.merges)
    ids = tok.encode("ab<|endoftext|>")
    assert ids == [tok.vocab["ab"], 0]
    assert tok.decode(ids) == "ab<|endoftext|>"


@pytest.mark.parametrize("tie_break", ["first", "hf"])
def test_unknown_characters_become_unk_never_minus_one(tie_break):
    tok = train("hello world", Config(tie_break=tie_break), merges=5)
    tokens = tok.encode_with_spans("héllo ☃")
    assert [t.kind for t in tokens if t.kind == "unknown"] == ["unknown", "unknown"]
    assert all(t.id >= 0 for t in tokens)
    assert tok.decode(tok.encode("héllo")) == "h<unk>llo"


def test_byte_fallback_is_lossless_for_unseen_characters():
    tok = train("hello world", Config(split="gpt2", unknown="byte_fallback"), merges=5)
    text = "héllo wörld 😀"
    tokens = tok.encode_with_spans(text)
    assert tok.decode([t.id for t in tokens]) == text
    emoji = [t for t in tokens if t.start == len(text) - 1]
    assert [t.token for t in emoji] == ["<0xF0>", "<0x9F>", "<0x98>", "<0x80>"]
    assert all(t.partial and t.kind == "byte" for t in emoji)


def test_decode_names_an_unknown_id():
    tok = train("hello", Config(), merges=2)
    with pytest.raises(UnknownIdError, match="id 999 is not in the vocabulary"):
        tok.decode([0, 999])


def test_whitespace_split_loses_whitespace_runs_and_says_so():
    tok = train(HELLO, Config(end_of_word="</w>"), merges=30)
    assert not tok.config.is_lossless
    assert tok.decode(tok.encode("hello   world\n")) == "hello world"
    assert Config(split="gpt2", units="bytes").is_lossless


def test_lone_surrogate_is_a_clear_error():
    with pytest.raises(ValueError, match="lone surrogate U\\+D800 at position 1"):
        train("a\ud800b", Config(), merges=1)
    tok = train("ab", Config(units="bytes", split="none"), merges=1)
    with pytest.raises(ValueError, match="lone surrogate"):
        tok.encode("x\udfff")


def test_empty_corpus_trains_nothing_without_crashing():
    for corpus in ["", "   \n\t ", []]:
        tok = train(corpus, Config(), merges=10)
        assert tok.merges == [] and tok.stop_reason == "no_pairs"
        assert tok.encode("") == [] and tok.decode([]) == ""


def test_bad_settings_are_clear_errors():
    with pytest.raises(ValueError, match="needs whitespace pre-tokenization"):
        Config(split="none", end_of_word="_")
    with pytest.raises(ValueError, match="special token '<s>' is listed twice"):
        Config(special_tokens=("<s>", "<s>"))
    with pytest.raises(ValueError, match="cannot be empty"):
        Config(special_tokens=("",))
    with pytest.raises(ValueError, match="either a number of merges or a vocabulary size"):
        train("abc", Config())
    with pytest.raises(ValueError, match="unknown pre-tokenization 'words'"):
        Config(split="words")


def test_prefix_is_the_first_k_merges_without_retraining():
    tok = train("banana_bandana_", Config(split="none"), merges=6)
    two = tok.prefix(2)
    assert two.merges == tok.merges[:2]
    assert two.tokenize("banana_") == ["ban", "an", "a", "_"]
    assert "banana_" not in two.vocab and two.vocab["ban"] == tok.vocab["ban"]
    assert tok.prefix(0).tokenize("ban") == ["b", "a", "n"]


@pytest.mark.parametrize(
    "corpus, config, kept",
    [
        # "a" + "_" re-makes the glued base symbol "a_" (the marker also occurs in the text)
        ("xa a_b a_b a_b", Config(end_of_word="_", glue_marker=True), "a_"),
        # "a" + "b" (the marker) re-makes the special token "ab"
        ("a a a x", Config(end_of_word="b", special_tokens=("ab",)), "ab"),
    ],
)
def test_a_merge_that_remakes_an_existing_token_keeps_it_in_every_prefix(corpus, config, kept):
    tok = train(corpus, config, merges=3)
    assert tok.steps[0].new_id == tok.vocab[kept]  # the first merge made it again
    for merges in range(len(tok.merges) + 1):
        prefix = tok.prefix(merges)
        assert prefix.vocab[kept] == tok.vocab[kept]
        assert model_from_json(model_to_json(prefix)).vocab == prefix.vocab
    assert kept in tok.base_tokens() + list(config.special_tokens)


def test_explain_replays_a_word_in_rank_order():
    tok = train(LOW, Config(end_of_word="_", min_frequency=2), vocab_size=50)
    steps = tok.explain("lowest")
    assert steps[0] == (None, ["l", "o", "w", "e", "s", "t", "_"])
    assert steps[-1][1] == ["low", "est_"]
    assert [step for step, _ in steps[1:]] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_steps_pickle_and_compare_like_values(protocol):
    """Streamlit's caches pickle what they return; a step keeps its race through that."""
    tok = train("banana_bandana_", Config(split="none"), merges=3, top_k=3)
    copied = pickle.loads(pickle.dumps(tok.steps, protocol))
    assert copied == tok.steps and copied[1].top == (("b", "an", 2), ("an", "a", 2), ("a", "_", 2))
    assert hash(copied[1]) == hash(tok.steps[1]) and tok.steps[0] != tok.steps[1]
    assert tok.steps[0] != ("a", "n") and repr(tok.steps[0]).startswith("Step(step=1, left='a', right='n'")


def test_a_tokenizer_pickles_and_copies_with_a_working_cache():
    tok = train("banana_bandana_", Config(split="none"), merges=3)
    expected = tok.encode("banana bandana")
    for copied in (pickle.loads(pickle.dumps(tok)), copy.deepcopy(tok)):
        assert copied.encode("banana bandana") == expected and copied.steps == tok.steps


def test_a_dropped_tokenizer_is_freed_at_once():
    """No reference cycle: pages drop a prefix tokenizer on every slider move."""
    tok = train("banana_bandana_", Config(split="none"), merges=3)
    tok.encode("banana bandana")  # fills the piece cache
    gone = weakref.ref(tok)
    was_enabled = gc.isenabled()
    gc.disable()  # so only reference counting can free it
    try:
        del tok
        assert gone() is None
    finally:
        if was_enabled:
            gc.enable()


def test_save_and_load_round_trip(tmp_path):
    tok = train(DOCUMENTS, Config(end_of_word="</w>", special_tokens=("<s>",)), merges=15, top_k=4)
    path = tmp_path / "model.json"
    save_model(tok, path)
    loaded = load_model(path)
    assert loaded.merges == tok.merges and loaded.vocab == tok.vocab
    assert loaded.steps == tok.steps and loaded.config == tok.config
    assert loaded.encode("the first document <s>") == tok.encode("the first document <s>")
    assert loaded.stop_message == tok.stop_message
    assert loaded.corpus_tokens == tok.corpus_tokens == sum(len(tok.encode(document)) for document in DOCUMENTS)


@pytest.mark.parametrize(
    "text, message",
    [
        ("{", "not valid JSON"),
        ('{"format": "other"}', "not a bpe-explorer model file"),
        ('{"format": "bpe-explorer", "version": 99}', "version 99 is not supported"),
        ('{"format": "bpe-explorer", "version": 1, "config": {}}', "incomplete or malformed"),
        (
            '{"format": "bpe-explorer", "version": 1, "config": {}, "vocab": {"a": 0, "<unk>": 1}, '
            '"merges": [["a", "b"]]}',
            "names 'b', which is not in the vocabulary",
        ),
    ],
)
def test_bad_model_files_give_clear_errors(text, message):
    with pytest.raises(ValueError, match=message):
        model_from_json(text)


def test_a_marker_that_also_occurs_in_the_corpus_is_warned_about():
    tok = train("snake_case is long_name", Config(end_of_word="_"), merges=3)
    assert len(tok.warnings) == 1 and "'_' also occurs inside 2 distinct word(s)" in tok.warnings[0]
    assert tok.prefix(1).warnings == tok.warnings
    assert train("plain words", Config(end_of_word="_"), merges=3).warnings == []
    spaced = train("aĠb c", Config(split="none", space_marker=True), merges=1)
    assert "space marker 'Ġ'" in spaced.warnings[0]
    assert train("aĠb c", Config(split="none"), merges=1).warnings == []  # no marker set: Ġ is a letter like any


@pytest.mark.parametrize(
    "config, first_merge",
    [
        # pairs (a b) and (c d) occur once each
        (Config(tie_break="first"), ("a", "b")),  # occurs first
        (Config(tie_break="hf"), ("a", "b")),  # smallest ids: <unk> 0, a 1, b 2, c 3, d 4
        (Config(tie_break="lex"), ("c", "d")),  # greatest pair
    ],
)
def test_tie_breaks_on_a_two_word_corpus(config, first_merge):
    assert train("ab cd", config, merges=1).merges == [first_merge]


def test_lex_compares_byte_level_tokens_as_bytes_and_characters_as_strings():
    # "z a": pairs (z, space) and (space, a).  As bytes b"z" (0x7A) > b" " (0x20); as strings the
    # stand-in "Ġ" (U+0120) > "z".
    assert train("z a", Config(split="none", units="bytes", tie_break="lex"), merges=1).merges == [("z", "Ġ")]
    assert train("z a", Config(split="none", space_marker=True, tie_break="lex"), merges=1).merges == [("Ġ", "a")]


@pytest.mark.parametrize(
    "corpus, config, merges, tokens",
    [
        # banana_bandana_ after 6 merges: "banana_ban" "d" "ana_"
        ("banana_bandana_", Config(split="none"), 6, 3),
        # low x2 + lower: after "l o", "lo w": low </w> twice, then low e r </w>
        ("low low lower", Config(end_of_word="</w>"), 2, 2 * 2 + 4),
        # the special token counts as one token; "ab" merged on both sides of it
        ("ab<s>ab", Config(split="none", special_tokens=("<s>",)), 1, 3),
    ],
)
def test_training_counts_the_tokens_of_its_corpus(corpus, config, merges, tokens):
    tok = train(corpus, config, merges=merges)
    assert tok.corpus_tokens == tokens == len(tok.encode(corpus))


def test_count_pieces_counts_each_piece_and_cuts_special_tokens_out():
    assert count_pieces("low low lower", Config()) == Counter({"low": 2, "lower": 1})
    assert list(count_pieces("b a b<s>a", Config(split="none", special_tokens=("<s>",)))) == ["b a b", "a"]
    assert count_pieces(["a b", "b"], Config()) == Counter({"b": 2, "a": 1})
