"""Chat formats written by their publishers' libraries rather than by a template: gpt-oss's harmony format
(``openai-harmony``) and Mistral's Tekken v3 instructions (``mistral-common``).  Each gives the prompt as segments,
its control tokens apart; the libraries encode the text between control tokens as plain text (a message holding
``<|end|>`` or ``[INST]`` sends those characters, not the token), and so does ``prompt.py`` for these formats.

>>> [segment.text for segment in mistral_v3((Message("user", "Hi"),), True)]
['<s>', '[INST]', 'Hi', '[/INST]']
"""

from __future__ import annotations

from .messages import Message
from .segments import Segment

# harmony: the system message openai-harmony writes by default (SystemContent.new(): model identity, knowledge
# cutoff, medium reasoning, the three channels), then each of our system messages as a developer message.
HARMONY_SYSTEM = (
    "You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\n\nReasoning: medium\n\n"
    "# Valid channels: analysis, commentary, final. Channel must be included for every message."
)
HARMONY_CONTROL = frozenset({"<|start|>", "<|message|>", "<|end|>", "<|channel|>"})
MISTRAL_CONTROL = frozenset({"<s>", "</s>", "[INST]", "[/INST]"})


def harmony(messages: tuple[Message, ...], ready: bool) -> tuple[Segment, ...]:
    """gpt-oss's prompt: a system message, then ours (a system message as the developer's instructions, an
    assistant's as its final answer), each ``<|start|>role<|message|>text<|end|>``; ready, ``<|start|>assistant``.

    >>> "".join(segment.text for segment in harmony((Message("user", "Hi"),), True)).split("<|end|>")[1:]
    ['<|start|>user<|message|>Hi', '<|start|>assistant']
    """
    segments = [*_harmony_header("system"), Segment(HARMONY_SYSTEM, None), Segment("<|end|>", None)]
    for index, message in enumerate(messages):
        if message.role == "system":
            segments += [*_harmony_header("developer"), Segment("# Instructions\n\n", None)]
        elif message.role == "assistant":
            segments += [*_harmony_header("assistant", channel="final")]
        else:
            segments += _harmony_header("user")
        segments += [Segment(message.content, index), Segment("<|end|>", None)]
    if ready:
        segments += [Segment("<|start|>", None), Segment("assistant", None)]
    return tuple(segment for segment in segments if segment.text)


def _harmony_header(role: str, channel: str = "") -> list[Segment]:
    channel_part = [Segment("<|channel|>", None), Segment(channel, None)] if channel else []
    return [Segment("<|start|>", None), Segment(role, None), *channel_part, Segment("<|message|>", None)]


def mistral_v3(messages: tuple[Message, ...], ready: bool) -> tuple[Segment, ...]:
    """Mistral's Tekken v3 prompt as mistral-common writes it: ``<s>``, each user turn ``[INST]text[/INST]``, each
    assistant turn ``text</s>``; neighbouring messages of one role joined by a blank line; the system messages,
    joined the same way, lead the last user turn.  It always ends ready for the reply (``[/INST]``); as
    mistral-common, it refuses a conversation that ends with the assistant or a system message right after it.

    >>> [segment.text for segment in mistral_v3((Message("system", "S"), Message("user", "A")), True)]
    ['<s>', '[INST]', 'S', '\\n\\n', 'A', '[/INST]']
    """
    for before, after in zip(messages, messages[1:]):
        if (before.role, after.role) == ("assistant", "system"):
            raise ValueError("Mistral's format takes no system message right after the assistant's (as mistral-common)")
    turns = _turns(messages)
    if turns[-1][0] != "user":
        raise ValueError("Mistral's format answers a user: the conversation must end with a user's message")
    system = [index for index, message in enumerate(messages) if message.role == "system"]
    segments = [Segment("<s>", None)]
    for number, (role, indices) in enumerate(turns):
        if role == "assistant":
            segments += [*_joined(messages, indices), Segment("</s>", None)]
            continue
        lead = system if number == len(turns) - 1 and system else []
        separator = [Segment("\n\n", None)] if lead else []
        segments += [Segment("[INST]", None), *_joined(messages, lead), *separator]
        segments += [*_joined(messages, indices), Segment("[/INST]", None)]
    return tuple(segment for segment in segments if segment.text)


def _turns(messages: tuple[Message, ...]) -> list[tuple[str, list[int]]]:
    """The user and assistant turns: next-door messages of one role together (a system message between them keeps
    them apart, though it is written elsewhere), an empty user turn before an assistant's first word or when there
    are only system messages."""
    turns: list[tuple[str, list[int]]] = []
    previous = ""
    for index, message in enumerate(messages):
        if message.role != "system" and message.role == previous:
            turns[-1][1].append(index)
        elif message.role != "system":
            turns.append((message.role, [index]))
        previous = message.role
    if turns and turns[0][0] == "assistant":
        turns.insert(0, ("user", []))
    return turns or [("user", [])]


def _joined(messages: tuple[Message, ...], indices: list[int]) -> list[Segment]:
    """The messages' texts with a blank line between them."""
    segments: list[Segment] = []
    for place, index in enumerate(indices):
        if place:
            segments.append(Segment("\n\n", None))
        segments.append(Segment(messages[index].content, index))
    return segments
