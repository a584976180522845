"""Unit tests for pages/start/views/first_screen.py: the slider's stops and the counts in words."""

from __future__ import annotations

import pytest

from pages.start.views.first_screen import PLAY_SECONDS, SAMPLE_TEXT, frame_seconds, merge_stops, tokens_sentence


@pytest.mark.parametrize(
    ("merges", "stops"),
    [
        (0, [0]),  # a model with no merge: one stop
        (1, [0, 1]),
        (3, [0, 1, 2, 3]),
        (5, [0, 1, 2, 5]),  # the last stop is the model's own count, never twice
        (2000, [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000]),
        (50_257, [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 50_257]),
    ],
)
def test_the_slider_stops_at_one_two_five_times_powers_of_ten_then_at_every_merge(merges, stops):
    assert merge_stops(merges) == stops


def test_the_counts_say_tokens_characters_and_what_the_merges_saved():
    assert tokens_sentence(tokens=36, characters=64, merges=2000, base_tokens=72) == (
        "**36 tokens** for 64 characters after 2,000 merges (72 before any merge)."
    )
    assert tokens_sentence(tokens=2, characters=1, merges=1, base_tokens=2) == (
        "**2 tokens** for 1 character after 1 merge (2 before any merge)."
    )
    assert tokens_sentence(tokens=0, characters=0, merges=0, base_tokens=0) == (
        "**0 tokens** for 0 characters before any merge: one per base symbol."
    )


def test_the_sample_mixes_words_digits_an_accent_an_emoji_and_cjk():
    assert any(char.isdigit() for char in SAMPLE_TEXT) and "é" in SAMPLE_TEXT and "🙂" in SAMPLE_TEXT
    assert "東京" in SAMPLE_TEXT and len(SAMPLE_TEXT) < 80  # one or two lines on a desktop


@pytest.mark.parametrize("merges", [1, 5, 2000, 50_257, 199_997])
def test_play_shows_a_few_frames_a_second_and_ends_within_its_seconds(merges):
    stops = len(merge_stops(merges))
    assert 2 <= 1 / frame_seconds(stops) and stops * frame_seconds(stops) <= PLAY_SECONDS <= 5
