"""Chat formats written by their publishers' libraries rather than by a template: gpt-oss's harmony format
(``openai-harmony``) and Mistral's Tekken v3 instructions (``mistral-common``).  Each gives the prompt as segments,
its control tokens apart; the libraries encode the text between control tokens as plain text (a message holding
``<|end|>`` or ``[INST]`` sends those characters, not the token), and so does ``prompt.py`` for these formats.

>>> [segment.text for segment in mistral_v3((Message("user", "Hi"),), True)]
['<s>', '[INST]', 'Hi', '[/INST]']
"""

from __future__ import annotations

from .harmony_schema import tools_section
from .messages import Message
from .mistral import MISTRAL_CONTROL, mistral_v3
from .segments import Segment

# harmony: the system message openai-harmony writes by default (SystemContent.new(): model identity, knowledge
# cutoff, medium reasoning, the three channels), then each of our system messages as a developer message.
HARMONY_SYSTEM = (
    "You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\n\nReasoning: medium\n\n"
    "# Valid channels: analysis, commentary, final. Channel must be included for every message."
)
HARMONY_FUNCTIONS = "\nCalls to these tools must go to the commentary channel: 'functions'."  # when tools are offered
HARMONY_CONTROL = frozenset({"<|start|>", "<|message|>", "<|end|>", "<|channel|>", "<|call|>", "<|constrain|>"})


def harmony(messages: tuple[Message, ...], ready: bool, tools=()) -> tuple[Segment, ...]:
    """gpt-oss's prompt: a system message, then ours, each ``<|start|>role<|message|>text<|end|>``: a system message
    as the developer's instructions (the first one with the tools' ``functions`` namespace; with no system message,
    a developer message of the tools alone leads), an assistant's as its final answer, or its text as commentary
    then each tool call to ``functions.NAME`` (``<|call|>``), a tool's result from ``functions.NAME``; ready,
    ``<|start|>assistant``.

    >>> "".join(segment.text for segment in harmony((Message("user", "Hi"),), True)).split("<|end|>")[1:]
    ['<|start|>user<|message|>Hi', '<|start|>assistant']
    """
    system = HARMONY_SYSTEM + (HARMONY_FUNCTIONS if tools else "")
    segments = [*_header("system"), Segment(system, None), Segment("<|end|>", None)]
    first_system = next((index for index, message in enumerate(messages) if message.role == "system"), None)
    if tools and first_system is None:
        segments += [*_header("developer"), *_tools_segments(tools), Segment("<|end|>", None)]
    for index, message in enumerate(messages):
        segments += _harmony_message(index, message, tools if index == first_system else ())
    if ready:
        segments += [Segment("<|start|>", None), Segment("assistant", None)]
    return tuple(segment for segment in segments if segment.text)


def _harmony_message(index: int, message: Message, tools) -> list[Segment]:
    text = [Segment(message.content, index)]
    if message.role == "system":
        section = [Segment("\n\n", None), *_tools_segments(tools)] if tools else []
        return [*_header("developer"), Segment("# Instructions\n\n", None), *text, *section, Segment("<|end|>", None)]
    if message.role == "tool":
        return [*_header(f"functions.{message.name}", " to=assistant", "commentary"), *text, Segment("<|end|>", None)]
    if message.role == "user":
        return [*_header("user"), *text, Segment("<|end|>", None)]
    if not message.tool_calls:
        return [*_header("assistant", channel="final"), *text, Segment("<|end|>", None)]
    segments = [*_header("assistant", channel="commentary"), *text, Segment("<|end|>", None)] if message.content else []
    for call in message.tool_calls:
        segments += [Segment("<|start|>", None), Segment("assistant to=functions.", None), Segment(call.name, index)]
        segments += [Segment("<|channel|>", None), Segment("commentary ", None), Segment("<|constrain|>", None)]
        segments += [Segment("json", None), Segment("<|message|>", None), Segment(call.arguments, index)]
        segments.append(Segment("<|call|>", None))
    return segments


def _tools_segments(tools) -> list[Segment]:
    """The developer message's tools section: each tool's type its own segment, the namespace around them."""
    opening, texts, closing = tools_section(tools)
    segments = [Segment(opening, None)]
    for index, text in enumerate(texts):
        segments += [Segment("\n\n", None)] if index else []
        segments.append(Segment(text, None, tool=index))
    return [*segments, Segment(closing, None)]


def _header(role: str, recipient: str = "", channel: str = "") -> list[Segment]:
    channel_part = [Segment("<|channel|>", None), Segment(channel, None)] if channel else []
    return [Segment("<|start|>", None), Segment(role + recipient, None), *channel_part, Segment("<|message|>", None)]


# the writer of each scripted format and its control tokens
SCRIPTED = {"harmony": (harmony, HARMONY_CONTROL), "mistral-v3": (mistral_v3, MISTRAL_CONTROL)}
