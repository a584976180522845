"""Property tests: the fast trainer equals the textbook trainer (which recounts everything and shares
no counting or merging code with it); encoding round-trips."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import Config, textbook, train

small_corpora = st.text(alphabet="abcd _\n", max_size=80)
# Tie-heavy and multilingual: few distinct letters, CJK, accents, an emoji, a special token's text.
mixed_corpora = st.lists(
    st.sampled_from(["a", "b", "ab", " ", "\n", "é", "日本", "😀", "<s>", "_", "Ġ", "ab ba", "12"]), max_size=30
).map("".join)


def _valid_configs():
    """Every combination of units, split, end-of-word marker, specials, unknown handling and tie-break."""
    found = []
    for units in ("chars", "bytes"):
        for split in ("none", "whitespace", "gpt2", "gpt4"):
            for end_of_word, glue in ((None, False), ("_", False), ("</w>", True)):
                for specials in ((), ("<s>",)):
                    for unknown in ("unk", "byte_fallback"):
                        for tie_break in ("first", "hf", "lex"):
                            try:
                                found.append(
                                    Config(
                                        split=split,
                                        units=units,
                                        end_of_word=end_of_word,
                                        glue_marker=glue,
                                        special_tokens=specials,
                                        unknown=unknown,
                                        tie_break=tie_break,
                                    )
                                )
                            except ValueError:
                                continue  # e.g. a marker without whitespace split
    found += [Config(split="none", space_marker=True), Config(split="whitespace", min_frequency=2)]
    return found


configs = st.sampled_from(_valid_configs())


@settings(max_examples=400, deadline=None)
@given(corpus=small_corpora | mixed_corpora, config=configs, merges=st.integers(0, 40))
def test_fast_trainer_equals_the_textbook_trainer(corpus, config, merges):
    tok = train(corpus, config, merges=merges)
    assert (tok.merges, tok.vocab) == textbook.learn(corpus, config, merges=merges)


@settings(max_examples=150, deadline=None)
@given(corpus=small_corpora | mixed_corpora, config=configs, vocab_size=st.integers(0, 60))
def test_fast_trainer_equals_the_textbook_trainer_by_vocabulary_size(corpus, config, vocab_size):
    tok = train(corpus, config, vocab_size=vocab_size)
    assert (tok.merges, tok.vocab) == textbook.learn(corpus, config, vocab_size=vocab_size)


@settings(max_examples=150, deadline=None)
@given(corpus=small_corpora | mixed_corpora, config=configs, merges=st.integers(0, 30), text=mixed_corpora)
def test_fast_encoder_equals_applying_the_merges_in_order(corpus, config, merges, text):
    tok = train(corpus, config, merges=merges)
    if not set(textbook.encode(text, [], config)) <= set(tok.vocab):
        return  # outside the alphabet the textbook encoder has no <unk> or byte fallback to compare
    assert tok.tokenize(text) == textbook.encode(text, tok.merges, config)


@settings(max_examples=200, deadline=None)
@given(corpus=small_corpora, merges=st.integers(0, 30))
def test_every_recorded_count_and_tie_matches_a_recount(corpus, merges):
    config = Config(split="none")
    tok = train(corpus, config, merges=merges, top_k=50)
    symbols = textbook.symbols(corpus, config)
    for step in tok.steps:
        counts = Counter(zip(symbols, symbols[1:]))
        best = max(counts.values())
        assert step.count == best
        assert step.tied == sum(1 for c in counts.values() if c == best)
        assert sorted(c for _, _, c in step.top) == sorted(counts.values())[-len(step.top) :]
        symbols = textbook.merge(symbols, (step.left, step.right))


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
    words = [(textbook.symbols(piece, config), freq) for piece, freq in Counter(corpus.split()).items()]
    for step in tok.steps:
        counts: dict[tuple[str, str], int] = {}
        for symbols, freq in words:
            for pair in zip(symbols, symbols[1:]):
                counts[pair] = counts.get(pair, 0) + freq  # insertion order = first occurrence
        if tie_break == "first":
            order = {pair: index for index, pair in enumerate(counts)}
            ranked = sorted(counts, key=lambda pair: (-counts[pair], order[pair]))
        elif tie_break == "lex":  # the greatest pair first among equal counts (stable sorts, two passes)
            ranked = sorted(sorted(counts, reverse=True), key=lambda pair: -counts[pair])
        else:
            ranked = sorted(counts, key=lambda pair: (-counts[pair], tok.vocab[pair[0]], tok.vocab[pair[1]]))
        assert [(left, right) for left, right, _ in step.top] == ranked[:top_k]
        assert [count for _, _, count in step.top] == [counts[pair] for pair in ranked[:top_k]]
        assert step.tied == sum(1 for count in counts.values() if count == step.count)
        words = [(textbook.merge(symbols, (step.left, step.right)), freq) for symbols, freq in words]


def races(corpora, merges, top_k):
    """Given corpora, merges and top-K, in every tie-break: the arguments of a race test."""
    return given(corpus=corpora, merges=merges, tie_break=st.sampled_from(["first", "hf", "lex"]), top_k=top_k)


@settings(max_examples=200, deadline=None)
@races(small_corpora, merges=st.integers(0, 30), top_k=st.integers(1, 8))
def test_the_recorded_race_is_the_recounted_ranking(corpus, merges, tie_break, top_k):
    assert_races_are_recounted_rankings(corpus, merges, tie_break, top_k)


# Many more distinct pairs than the trainer keeps ranked at once (2 * top_k + 8), so
# the ranked pool is refilled from the heap and pairs move in and out of it.
wide_corpora = st.text(alphabet="abcdefghijkl  ", min_size=150, max_size=400)


@settings(max_examples=60, deadline=None)
@races(wide_corpora, merges=st.integers(20, 80), top_k=st.integers(1, 3))
def test_the_race_stays_exact_when_the_pool_refills(corpus, merges, tie_break, top_k):
    assert_races_are_recounted_rankings(corpus, merges, tie_break, top_k)


# By hand, for top_k 0 (the pool holds 2 * 1 + 8 = 10 pairs): eight lone pairs (counts 200 to 193), "x y"
# (100) and "u v" (90) fill the pool; merging them leaves "y z" at 0 and "v w" at 20, whose heap entries
# still say 40 and 50.  Once the ten are merged the pool is empty and must be refilled from a heap whose
# top two entries are out of date: the stale one ranked again, the dead one dropped, and the refill goes on
# to "xy z" (40), "uv w" (30), "v w" (20) and "p q" (11); last comes "pq r", a pair made with a count of 1.
REFILL_PIECES = {
    **{chr(65 + 2 * index) + chr(66 + 2 * index): 200 - index for index in range(8)},  # "AB" 200 ... "OP" 193
    "xy": 60,
    "xyz": 40,
    "uv": 60,
    "uvw": 30,
    "vw": 20,
    "pq": 10,
    "pqr": 1,
}
REFILL_CORPUS = " ".join(piece for piece, count in REFILL_PIECES.items() for _ in range(count))


@pytest.mark.parametrize("tie_break", ["first", "hf", "lex"])
@pytest.mark.parametrize("top_k", [0, 1, 3])
def test_the_pool_refills_past_out_of_date_heap_entries(tie_break, top_k):
    config = Config(split="whitespace", tie_break=tie_break)
    tok = train(REFILL_CORPUS, config, merges=20, top_k=top_k)
    lone_pairs = [(piece[0], piece[1]) for piece in list(REFILL_PIECES)[:8]]
    by_hand = [*lone_pairs, ("x", "y"), ("u", "v"), ("xy", "z"), ("uv", "w"), ("v", "w"), ("p", "q"), ("pq", "r")]
    assert tok.merges == by_hand == textbook.train_merges(REFILL_CORPUS, config, merges=20)
    assert tok.stop_reason == "no_pairs"
    if top_k:
        assert_races_are_recounted_rankings(REFILL_CORPUS, 20, tie_break, top_k)
