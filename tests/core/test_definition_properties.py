"""Properties that follow from the definition of BPE, each checked on random corpora."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bpe_core import Config, train
from bpe_core.pretokenize import split_text

tie_heavy = st.text(alphabet="abc _\n", max_size=60)
multilingual = st.lists(
    st.sampled_from(["a", "b", "ab", " ", "\n", "é", "日本", "😀", "١", "'s", "Ab"]), max_size=30
).map("".join)
corpora = tie_heavy | multilingual
configs = st.sampled_from(
    [
        Config(split="none"),
        Config(split="whitespace", end_of_word="</w>"),
        Config(split="whitespace", end_of_word="_", glue_marker=True, tie_break="hf"),
        Config(split="gpt2", units="bytes", tie_break="hf"),
        Config(split="gpt4", units="bytes"),
        Config(split="gpt2", unknown="byte_fallback"),
    ]
)


@settings(max_examples=150, deadline=None)
@given(corpus=corpora, config=configs, most=st.integers(0, 25), text=multilingual)
def test_training_is_greedy_so_a_prefix_is_a_shorter_training(corpus, config, most, text):
    """Training to k merges equals training to K >= k merges cut with prefix(k), for every k."""
    full = train(corpus, config, merges=most)
    for k in range(len(full.merges) + 1):
        short, cut = train(corpus, config, merges=k), full.prefix(k)
        assert cut.merges == short.merges
        assert cut.vocab == short.vocab
        assert cut.encode(text) == short.encode(text)


@settings(max_examples=200, deadline=None)
@given(corpus=corpora, config=configs, merges=st.integers(0, 40))
def test_the_winning_count_never_increases(corpus, config, merges):
    """Unless a merge spells a token that exists already ("_" + "_" with a glued marker "_"), whose
    pairs then add up: HF does the same."""
    tok = train(corpus, config, merges=merges)
    made = [step.new_id for step in tok.steps]
    assume(all(new_id >= tok.base_size for new_id in made) and len(set(made)) == len(made))
    counts = [step.count for step in tok.steps]
    assert counts == sorted(counts, reverse=True)


@settings(max_examples=200, deadline=None)
@given(corpus=corpora, config=configs, vocab_size=st.integers(0, 80))
def test_the_vocabulary_has_the_size_asked_for_unless_the_pairs_run_out(corpus, config, vocab_size):
    tok = train(corpus, config, vocab_size=vocab_size)
    base = len(tok.vocab) - len(tok.created_at)
    if tok.stop_reason == "vocab_size":
        assert len(tok.vocab) == max(vocab_size, base)
    else:
        assert tok.stop_reason == "no_pairs" and len(tok.vocab) < vocab_size
        assert "no pair is left" in tok.stop_message


unicode_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=200, deadline=None)
@given(corpus=corpora, text=unicode_text, split=st.sampled_from(["none", "gpt2", "gpt4"]))
def test_byte_units_round_trip_any_text(corpus, text, split):
    """(The whitespace split keeps words, not the whitespace between them: it is lossy by design.)"""
    tok = train(corpus, Config(split=split, units="bytes"), merges=15)
    assert tok.decode(tok.encode(text)) == text


@settings(max_examples=200, deadline=None)
@given(corpus=corpora, data=st.data(), split=st.sampled_from(["none", "gpt2", "gpt4"]))
def test_character_units_round_trip_any_text_inside_the_alphabet(corpus, data, split):
    tok = train(corpus, Config(split=split), merges=15)
    text = data.draw(st.text(alphabet=sorted(set(corpus)) or ["a"], max_size=30)) if corpus else ""
    assert tok.decode(tok.encode(text)) == text


@settings(max_examples=200, deadline=None)
@given(corpus=corpora, config=configs, left=multilingual, right=multilingual)
def test_encoding_is_additive_across_a_piece_boundary(corpus, config, left, right):
    """Merges never cross a piece boundary, so where the pre-tokenizer cuts, encodings concatenate."""
    tok = train(corpus, config, merges=20)
    whole = left + right
    if split_text(whole, config.split) != split_text(left, config.split) + split_text(right, config.split):
        return  # the two halves are not cut at a boundary of the whole
    assert tok.encode(whole) == tok.encode(left) + tok.encode(right)


@settings(max_examples=200, deadline=None)
@given(corpus=corpora, config=configs, merges=st.integers(0, 30))
def test_training_knows_how_many_tokens_its_corpus_becomes(corpus, config, merges):
    tok = train(corpus, config, merges=merges)
    assert tok.corpus_tokens == len(tok.encode(corpus))
    assert tok.prefix(merges // 2).corpus_tokens is None  # a prefix cuts the corpus differently
