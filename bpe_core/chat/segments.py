"""A prompt's stretches: a message's own text, a tool's definition, or the chat format's.

>>> prompt = (Segment("<|im_start|>user\\n", None), Segment("Hi!", 0), Segment("<|im_end|>\\n", None))
>>> [segment.text for segment in prompt if segment.message == 0]
['Hi!']
>>> [segment.kind for segment in prompt + (Segment('{"name": "f"}', None, tool=0),)]
['format', 'message', 'format', 'tools']
"""

from __future__ import annotations

from dataclasses import dataclass

SEGMENT_KINDS = ("message", "tools", "format")


@dataclass(frozen=True)
class Segment:
    """A stretch of the prompt: the text of message ``message`` (its index, a tool call's name and arguments
    included), the definition of tool ``tool`` (its index in the tools list), or the format's own (both ``None``)."""

    text: str
    message: int | None
    tool: int | None = None

    @property
    def kind(self) -> str:
        """One of ``SEGMENT_KINDS``: whose the stretch is, as the counts are kept apart."""
        return "message" if self.message is not None else "tools" if self.tool is not None else "format"
