"""The cap on the merged tokens' text (``train``'s ``max_vocab_chars``): a corpus whose pairs all occur once makes
tokens that grow with every merge, so training stops, with its own reason, before the next token passes the cap.

Expected merges come from the textbook oracle; the characters per token are worked out by hand."""

import pytest

from bpe_core import Config, train
from bpe_core.textbook import train_merges
from bpe_core.trace import STOP_VOCAB_TEXT
from bpe_core.train import MAX_VOCAB_CHARS, train_from_counts

# "banana_bandana_" as one sequence: an (2 characters), ban (3), ana (3), ana_ (4), banana_ (7), banana_ban (10)
BANANA, WHOLE = "banana_bandana_", Config(split="none")


@pytest.mark.parametrize(("cap", "made"), [(12, 4), (11, 3), (2, 1), (1, 0), (29, 6)])
def test_training_stops_before_the_token_that_passes_the_cap(cap, made):
    tok = train(BANANA, WHOLE, merges=6, max_vocab_chars=cap)
    assert tok.merges == train_merges(BANANA, WHOLE, merges=made)
    assert tok.stop_reason == (STOP_VOCAB_TEXT if made < 6 else "merges")


def test_the_cap_stops_a_vocabulary_size_too():
    tok = train(BANANA, WHOLE, vocab_size=100, max_vocab_chars=8)
    assert len(tok.merges) == 3 and tok.stop_reason == STOP_VOCAB_TEXT
    assert tok.stop_message == (
        "stopped after 3 merges: the next token would take the merged tokens' text past 8 characters "
        "(asked for vocabulary size 100)"
    )


def test_pairs_that_all_occur_once_are_named_in_the_message():
    # every pair of "abcdefgh" occurs once: ab (2), abc (3), and abcd (4) would make 9 characters
    tok = train("abcdefgh", WHOLE, merges=10, max_vocab_chars=5)
    assert tok.merges == [("a", "b"), ("ab", "c")]
    assert tok.stop_message == (
        "stopped after 2 merges: the next token would take the merged tokens' text past 5 characters; each merge "
        "now only glues neighbours: raise the minimum frequency or split into words (asked for 10 merges)"
    )


def test_counted_pieces_take_the_same_cap():
    tok = train_from_counts({"low": 5, "lower": 2}, merges=3, max_vocab_chars=5)  # lo (2), low (3), then lowe
    assert tok.merges == [("l", "o"), ("lo", "w")] and tok.stop_reason == STOP_VOCAB_TEXT


def test_the_default_cap_leaves_room_for_the_largest_published_vocabulary():
    # Gemma 3's 262,145 tokens hold 1,476,620 characters, o200k_base's 1,397,698 (counted from the shipped files)
    assert MAX_VOCAB_CHARS > 1_476_620


@pytest.mark.parametrize("cap", [-1, 2.5, True, "12"])
def test_a_cap_that_is_no_whole_number_of_characters_is_refused(cap):
    with pytest.raises(ValueError, match="vocabulary's text cap"):
        train(BANANA, WHOLE, merges=2, max_vocab_chars=cap)
