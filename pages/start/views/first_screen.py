"""What the first screen shows besides the boxes: its sample text, where the merges slider stops, how fast Play
steps through them, and the counts in one sentence.

>>> merge_stops(30)
[0, 1, 2, 5, 10, 20, 30]
>>> tokens_sentence(tokens=12, characters=40, merges=30, base_tokens=41)
'**12 tokens** for 40 characters after 30 merges (41 before any merge).'
"""

from __future__ import annotations

HEADING = "BPE Explorer"  # the first screen's heading: the site's name (the menu calls the page Start)

# Words the sample corpus (the King James Bible) made whole tokens, then what it never saw or rarely did: digits,
# an accented word, an emoji and Japanese. A byte-level model cuts them into bytes; none is unknown.
SAMPLE_TEXT = "And God said, Let there be light: 2 lamps, 1 café, 🙂 and 東京 too."

PLAY_SECONDS = 5.0  # Play steps through every stop in about this long, whatever the model's size
_FRAME_SECONDS = 0.5  # and shows each stop at most this long (a few frames a second)
_STEPS = (1, 2, 5)  # 1, 2, 5, 10, 20, 50, ...: a few stops show the early merges, which change the text most


def merge_stops(merges: int) -> list[int]:
    """The slider's stops from no merge to all ``merges``: 0, 1, 2, 5, 10, 20, 50, ... then ``merges`` itself.

    >>> merge_stops(0), merge_stops(2000)[-4:], len(merge_stops(100_000))
    ([0], [200, 500, 1000, 2000], 17)
    """
    stops, scale = [0], 1
    while True:
        for step in _STEPS:
            if step * scale >= merges:
                return [*stops, merges] if merges else stops
            stops.append(step * scale)
        scale *= 10


def frame_seconds(stops: int) -> float:
    """How long Play shows each of ``stops`` stops: half a second, less when there are many, so that a play ends
    within ``PLAY_SECONDS``.

    >>> frame_seconds(4), frame_seconds(20)
    (0.5, 0.25)
    """
    return min(_FRAME_SECONDS, PLAY_SECONDS / stops)


def play_progress(merges: int, of: int) -> str:
    """The line over the bar that stands in the slider's place while Play runs.

    >>> play_progress(20, 2000)
    'Playing: 20 of 2,000 merges learned'
    """
    return f"Playing: {merges:,} of {of:,} merges learned"


def slider_css(key: str) -> str:
    """The style that keeps the slider of widget ``key`` within the page. Its range input is react-aria's, visually
    hidden in a 1 px clip yet 129 px wide: at the slider's right end it reached past the page's edge (a phone's
    check of what runs past the edge found it). One pixel wide it stays inside; keyboards and screen readers use it
    as before.

    >>> slider_css("start_merges")
    '<style>.st-key-start_merges input[type=range]{width:1px}</style>'
    """
    return f"<style>.st-key-{key} input[type=range]{{width:1px}}</style>"


def hide_retained_css(key: str) -> str:
    """The style that hides, while Play runs, what Streamlit keeps greyed out in the row of widget ``key`` until
    the run ends: the slider and Play, which the bar and Stop stand in for (two Play buttons, one grey, looked
    broken).

    >>> hide_retained_css("start_controls")
    '<style>.st-key-start_controls [data-stale=true]{display:none}</style>'
    """
    return f"<style>.st-key-{key} [data-stale=true]{{display:none}}</style>"


def tokens_sentence(*, tokens: int, characters: int, merges: int, base_tokens: int) -> str:
    """The counts under the boxes, as Markdown: the tokens now, and before any merge (one per base symbol).

    >>> tokens_sentence(tokens=1, characters=1, merges=0, base_tokens=1)
    '**1 token** for 1 character before any merge: one per base symbol.'
    """
    count = f"**{tokens:,} token{'s' * (tokens != 1)}** for {characters:,} character{'s' * (characters != 1)}"
    if merges == 0:
        return f"{count} before any merge: one per base symbol."
    return f"{count} after {merges:,} merge{'s' * (merges != 1)} ({base_tokens:,} before any merge)."
