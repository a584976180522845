"""Property tests: the fast trainer equals a recount-everything reference; encoding round-trips."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.naive import merge_pair, naive_merges
from bpe_core import Config, train
from bpe_core.config import piece_symbols


small_corpora = st.text(alphabet="abcd _\n", max_size=80)
configs = st.sampled_from(
    [
        Config(split="none"),
        Config(split="whitespace"),
        Config(split="whitespace", end_of_word="_"),
        Config(split="whitespace", end_of_word="</w>", glue_marker=True),
        Config(split="gpt2", units="bytes"),
        Config(split="none", space_marker=True),
    ]
)


@settings(max_examples=300, deadline=None)
@given(corpus=small_corpora, config=configs, merges=st.integers(0, 40))
def test_incremental_trainer_equals_the_recount_reference(corpus, config, merges):
    tok = train(corpus, config, merges=merges)
    assert tok.merges == naive_merges(corpus, config, merges)


@settings(max_examples=200, deadline=None)
@given(corpus=small_corpora, merges=st.integers(0, 30))
def test_every_recorded_count_and_tie_matches_a_recount(corpus, merges):
    config = Config(split="none")
    tok = train(corpus, config, merges=merges, top_k=50)
    symbols = piece_symbols(corpus, config) if corpus else []
    for step in tok.steps:
        counts = Counter(zip(symbols, symbols[1:]))
        best = max(counts.values())
        assert step.count == best
        assert step.tied == sum(1 for c in counts.values() if c == best)
        assert sorted(c for _, _, c in step.top) == sorted(counts.values())[-len(step.top):]
        symbols = merge_pair(symbols, (step.left, step.right))


# Arbitrary code points (no lone surrogates) mixed with the usual trouble makers.
unicode_text = st.lists(
    st.characters(blacklist_categories=("Cs",))
    | st.sampled_from(["\r\n", "\x00", "😀", "e\u0301", "日本", "👨\u200d👩", "\t", " "]),
    max_size=40,
).map("".join)


@settings(max_examples=150, deadline=None)
@given(training=unicode_text, text=unicode_text, split=st.sampled_from(["none", "gpt2", "gpt4"]))
def test_bytes_mode_round_trips_any_text(training, text, split):
    tok = train(training, Config(split=split, units="bytes"), merges=20)
    assert tok.decode(tok.encode(text)) == text
    tokens = tok.encode_with_spans(text)
    assert b"".join(t.raw for t in tokens) == text.encode("utf-8")
    assert all(0 <= t.start <= t.end <= len(text) for t in tokens)


@settings(max_examples=150, deadline=None)
@given(training=unicode_text, text=unicode_text)
def test_byte_fallback_round_trips_unseen_characters(training, text):
    tok = train(training, Config(split="gpt2", unknown="byte_fallback"), merges=20)
    assert tok.decode(tok.encode(text)) == text


@settings(max_examples=100, deadline=None)
@given(corpus=small_corpora, text=small_corpora, merges=st.integers(0, 25))
def test_rank_order_encoding_equals_applying_the_merge_list_in_order(corpus, text, merges):
    config = Config(split="none", units="bytes")  # bytes: every text is known
    tok = train(corpus, config, merges=merges)
    symbols = piece_symbols(text, config) if text else []
    for pair in tok.merges:
        symbols = merge_pair(symbols, pair)
    assert tok.tokenize(text) == symbols


@settings(max_examples=100, deadline=None)
@given(corpus=small_corpora, text=small_corpora, merges=st.integers(0, 25))
def test_spans_cover_the_text_in_order(corpus, text, merges):
    tok = train(corpus, Config(split="whitespace", end_of_word="_"), merges=merges)
    tokens = tok.encode_with_spans(text)
    words = text.split()
    rebuilt = "".join(text[t.start : t.end] for t in tokens)
    assert rebuilt == "".join(words)


def assert_races_are_recounted_rankings(corpus: str, merges: int, tie_break: str, top_k: int) -> None:
    """Every step's top-K: the best pairs of a full recount, in the tie-break's order."""
    config = Config(split="whitespace", tie_break=tie_break)
    tok = train(corpus, config, merges=merges, top_k=top_k)
    words = [(piece_symbols(piece, config), freq) for piece, freq in Counter(corpus.split()).items()]
    for step in tok.steps:
        counts: dict[tuple[str, str], int] = {}
        for symbols, freq in words:
            for pair in zip(symbols, symbols[1:]):
                counts[pair] = counts.get(pair, 0) + freq  # insertion order = first occurrence
        if tie_break == "first":
            order = {pair: index for index, pair in enumerate(counts)}
            ranked = sorted(counts, key=lambda pair: (-counts[pair], order[pair]))
        else:
            ranked = sorted(counts, key=lambda pair: (-counts[pair], tok.vocab[pair[0]], tok.vocab[pair[1]]))
        assert [(left, right) for left, right, _ in step.top] == ranked[:top_k]
        assert [count for _, _, count in step.top] == [counts[pair] for pair in ranked[:top_k]]
        assert step.tied == sum(1 for count in counts.values() if count == step.count)
        words = [(merge_pair(symbols, (step.left, step.right)), freq) for symbols, freq in words]


@settings(max_examples=200, deadline=None)
@given(corpus=small_corpora, merges=st.integers(0, 30), tie_break=st.sampled_from(["first", "hf"]), top_k=st.integers(1, 8))
def test_the_recorded_race_is_the_recounted_ranking(corpus, merges, tie_break, top_k):
    assert_races_are_recounted_rankings(corpus, merges, tie_break, top_k)


# Many more distinct pairs than the trainer keeps ranked at once (2 * top_k + 8), so
# the ranked pool is refilled from the heap and pairs move in and out of it.
wide_corpora = st.text(alphabet="abcdefghijkl  ", min_size=150, max_size=400)


@settings(max_examples=60, deadline=None)
@given(corpus=wide_corpora, merges=st.integers(20, 80), tie_break=st.sampled_from(["first", "hf"]), top_k=st.integers(1, 3))
def test_the_race_stays_exact_when_the_pool_refills(corpus, merges, tie_break, top_k):
    assert_races_are_recounted_rankings(corpus, merges, tie_break, top_k)
