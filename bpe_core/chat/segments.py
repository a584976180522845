"""A prompt's stretches: a message's own text, or the chat format's.

>>> prompt = (Segment("<|im_start|>user\\n", None), Segment("Hi!", 0), Segment("<|im_end|>\\n", None))
>>> [segment.text for segment in prompt if segment.message == 0]
['Hi!']
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Segment:
    """A stretch of the prompt: the text of message ``message`` (its index), or the format's own (``None``)."""

    text: str
    message: int | None
