"""A corpus mixed from the bundled texts by weight (bpe_core.language_mix), and which languages a pair comes from,
checked against the counts the trainer itself recorded."""

import pytest

from bpe_core import Config, train
from bpe_core.language_mix import MAX_CHARACTERS, copy_of, main_languages, mix_copies, mixed_corpus, pair_languages
from bpe_core.languages import bundled_texts
from bpe_core.premium import premium_rows


def shares_in(corpus: str, texts: dict[str, str]) -> dict[str, float]:
    """Each language's share of the corpus's characters, counted from its copies in the corpus."""
    return {code: corpus.count(copy_of(text)) * len(copy_of(text)) / len(corpus) for code, text in texts.items()}


@pytest.mark.parametrize("characters", [20_000, 100_000, 1_000_000])
def test_ninety_percent_english_is_ninety_percent_of_the_characters(characters):
    texts = bundled_texts(["eng", "hin"])
    corpus = mixed_corpus({"eng": 0.9, "hin": 0.1}, characters)
    shares = shares_in(corpus, texts)
    # whole copies: each share is off by half a copy at most, on either side
    copy_share = max(len(copy_of(text)) for text in texts.values()) / len(corpus)
    assert shares["eng"] == pytest.approx(0.9, abs=copy_share) and shares["hin"] == pytest.approx(0.1, abs=copy_share)
    assert sum(shares.values()) == pytest.approx(1.0)
    assert abs(len(corpus) - characters) <= sum(len(copy_of(text)) for text in texts.values())


def test_weights_need_not_add_up_to_one_and_the_same_weights_give_the_same_corpus():
    assert mixed_corpus({"eng": 9, "hin": 1}) == mixed_corpus({"eng": 0.9, "hin": 0.1})
    assert mixed_corpus({"eng": 9, "hin": 1, "fra": 0}) == mixed_corpus({"eng": 0.9, "hin": 0.1})


def test_every_language_alike_by_default():
    texts = bundled_texts()
    shares = shares_in(mixed_corpus(characters=1_000_000), texts)
    assert set(shares) == set(texts)
    for share in shares.values():
        assert share == pytest.approx(1 / 58, abs=0.0015)  # half a copy of the longest text: 1,224 of ~1M


def test_copies_are_dealt_in_turn():
    texts = {"a": "one", "b": "two", "c": "three"}
    assert mix_copies({"a": 2, "b": 1, "c": 1}, 16, texts) == {"a": 2, "b": 1, "c": 1}
    assert mixed_corpus({"a": 2, "b": 1, "c": 1}, 16, texts) == "one\ntwo\nthree\none\n"


def test_a_language_given_a_weight_gets_one_copy_at_least():
    assert mix_copies({"eng": 1000, "hin": 1}, 2_000) == {"eng": 1, "hin": 1}


@pytest.mark.parametrize(
    "weights, characters, message",
    [
        ({"klingon": 1}, 1000, "there is no text in the language 'klingon' to mix"),
        ({"eng": -1, "hin": 2}, 1000, "the weight of 'eng' is -1: a weight is a number, 0 or more"),
        ({"eng": float("nan")}, 1000, "the weight of 'eng' is nan"),
        ({"eng": "lots"}, 1000, "the weight of 'eng' is 'lots'"),
        ({"eng": 0, "hin": 0}, 1000, "every weight is 0"),
        ({}, 1000, "every weight is 0"),
        ({"eng": 1}, 0, "a mixed corpus has from 1 to 10,000,000 characters, not 0"),
        ({"eng": 1}, MAX_CHARACTERS + 1, "not 10,000,001"),
    ],
)
def test_bad_mixes_are_refused_in_words(weights, characters, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        mixed_corpus(weights, characters)


def test_an_empty_text_is_refused():
    with pytest.raises(ValueError, match="the text of 'xx' is empty"):
        mixed_corpus({"xx": 1}, 100, {"xx": "  "})


# The hand-made corpus of tests/core/test_premium.py, made by the mixer: 'en' (low low) 3 copies, 'xx' (lob lob) 1.
HAND_TEXTS = {"en": "low low", "xx": "lob lob"}


def test_the_mix_of_the_hand_made_corpus_and_its_premium_both_ways():
    assert mix_copies({"en": 3, "xx": 1}, 32, HAND_TEXTS) == {"en": 3, "xx": 1}  # 8 characters a copy
    corpus = mixed_corpus({"en": 3, "xx": 1}, 32, HAND_TEXTS)
    assert corpus == "low low\nlob lob\nlow low\nlow low\n"
    # Pairs l o 8, o w 6, o b 2: merges l+o, lo+w; xx's premium is 4 tokens / 2
    english_first = train(corpus, Config(), merges=2)
    assert [row.premium for row in premium_rows(english_first, HAND_TEXTS, "en")] == [1.0, 2.0]
    # Mixed the other way: l o 8, o b 6, o w 2: merges l+o, lo+b; now en takes 4 tokens and xx 2
    xx_first = train(mixed_corpus({"en": 1, "xx": 3}, 32, HAND_TEXTS), Config(), merges=2)
    assert xx_first.merges == [("l", "o"), ("lo", "b")]
    assert [(row.language, row.premium) for row in premium_rows(xx_first, HAND_TEXTS, "en")] == [
        ("xx", 0.5),
        ("en", 1.0),
    ]


def test_which_language_a_pair_comes_from_on_the_hand_made_corpus():
    copies = {"en": 3, "xx": 1}
    model = train(mixed_corpus(copies, 32, HAND_TEXTS), Config(), merges=2)
    # before merge 1: l o in every word (6 in en's copies, 2 in xx's); o w only in en, o b only in xx
    assert pair_languages(model, 0, [("l", "o"), ("o", "w"), ("o", "b")], HAND_TEXTS, copies) == {
        ("l", "o"): {"en": 6, "xx": 2},
        ("o", "w"): {"en": 6},
        ("o", "b"): {"xx": 2},
    }
    assert pair_languages(model, 1, [("lo", "w"), ("l", "o")], HAND_TEXTS, copies) == {
        ("lo", "w"): {"en": 6},
        ("l", "o"): {},
    }
    assert main_languages({"en": 6, "xx": 2}) == [("en", 0.75), ("xx", 0.25)]


@pytest.mark.parametrize(
    "config",
    [
        Config(split="gpt2", units="bytes"),
        Config(split="gpt4", units="bytes"),
        Config(split="whitespace"),
        Config(end_of_word="</w>"),
        Config(end_of_word="_", glue_marker=True),
    ],
)
def test_pair_counts_by_language_add_up_to_the_trainers_counts(config):
    """A model trained on a mix of three real preambles: for each step, the race's pairs counted in each
    language's text (times its copies) add up to the counts the trainer recorded."""
    weights = {"eng": 0.6, "hin": 0.3, "jpn": 0.1}
    texts = bundled_texts(weights)
    copies = mix_copies(weights, 30_000)
    model = train(mixed_corpus(weights, 30_000), config, merges=60, top_k=5)
    for step in model.steps[::7]:
        race = [(left, right) for left, right, _ in step.top]
        by_language = pair_languages(model, step.step - 1, race, texts, copies)
        assert [sum(by_language[pair].values()) for pair in race] == [count for *_, count in step.top]


@pytest.mark.parametrize(
    "unknown, pairs",
    [
        ("unk", [("l", "<unk>"), ("<unk>", "w")]),
        ("byte_fallback", [("l", "<0xC3>"), ("<0xC3>", "<0xB6>"), ("<0xB6>", "w")]),
    ],
)
def test_a_pair_with_a_character_the_model_never_saw(unknown, pairs):
    # Trained on low low lob: ö is unknown, written <unk> or as its two bytes C3 B6; lo+w is learned second
    model = train("low low lob", Config(unknown=unknown), merges=2)
    texts = {"en": "low", "zz": "löw"}
    assert pair_languages(model, 2, [*pairs, ("lo", "w")], texts) == {
        **{pair: {"zz": 1} for pair in pairs},
        ("lo", "w"): {},
    }
    assert pair_languages(model, 1, [("lo", "w")], texts) == {("lo", "w"): {"en": 1}}
    assert pair_languages(model, 1, [], texts) == {}
