"""A conversation rendered into the prompt a chat model receives, cut into tokens and counted per message, apart
from the tools' definitions and the format's own text.

The prompt is a list of segments: a message's own text (an assistant's tool calls' names and arguments included),
a tool's definition, or the format's (its special tokens and its own words, such as Llama 3's header
``<|start_header_id|>user<|end_header_id|>``).  Where the template put each is found by rendering it once more with
a placeholder in place of each message's text, call name and arguments, and each tool: the text between the
placeholders is the format's, and the real rendering holds the same format text around each (trimmed, say) text.

>>> prompt = render_conversation("qwen3", [{"role": "user", "content": "Hi!"}])
>>> [(segment.text, segment.message) for segment in prompt.segments]
[('<|im_start|>user\\n', None), ('Hi!', 0), ('<|im_end|>\\n<|im_start|>assistant\\n', None)]
>>> prompt.message_counts, prompt.tools_count, prompt.format_count, prompt.total
((2,), 0, 8, 10)
>>> prompt.context_window, prompt.remaining
(32768, 32758)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace

from ..pretrained import load_pretrained
from ..rank_tokenizer import AnyTokenizer
from ..spans import Token
from .estimate import estimated
from .formats import ChatFormat, chat_format
from .messages import TOOL_ROLE, Message, read_messages
from .scripted import SCRIPTED
from .segments import Segment
from .tools import Tool, read_tools

_MARK = "\U000f0002{}{}\U000f0003"  # private-use characters: no template writes them
# m: a message's text, n: a call's name, a: a call's arguments, t: a tool; a JSON value's mark may be quoted (tojson)
_MARKS = re.compile('"\U000f0002([at][0-9.]+)\U000f0003"|\U000f0002([mnat][0-9.]+)\U000f0003')


@dataclass(frozen=True)
class ChatPrompt:
    """A conversation as its model receives it.

    ``tokens`` have spans in ``shown`` (the prompt as the tokenizer sees it); ``owners`` says, token by token, which
    message's text it starts in (``None``: not a message's), and ``tool_owners`` which tool's definition (``None``:
    not a tool's).  For an estimated format (GPT-4, GPT-4o) the segments are the messages' texts only, each encoded
    apart, and ``format_count`` and ``tools_estimate`` are OpenAI's estimates of the rest.
    """

    chat: ChatFormat
    messages: tuple[Message, ...]
    segments: tuple[Segment, ...]
    tokens: tuple[Token, ...]
    shown: str
    owners: tuple[int | None, ...]
    format_count: int
    placed: bool = True  # False: the template moved the messages' texts beyond recognition; all counted as format
    tools: tuple[Tool, ...] = ()
    tool_owners: tuple[int | None, ...] = ()  # empty: no token is a tool's
    tools_estimate: int = 0  # an estimated format's count of the tools' definitions (OpenAI's cookbook)

    @property
    def prompt(self) -> str:
        return "".join(segment.text for segment in self.segments)

    @property
    def ids(self) -> list[int]:
        return [token.id for token in self.tokens]

    @property
    def message_counts(self) -> tuple[int, ...]:
        """Tokens of each message's own text."""
        return tuple(self.owners.count(index) for index in range(len(self.messages)))

    @property
    def tool_counts(self) -> tuple[int, ...]:
        """Tokens of each tool's definition as the format writes it (none for an estimated format)."""
        return tuple(self.tool_owners.count(index) for index in range(len(self.tools)))

    @property
    def tools_count(self) -> int:
        """Tokens of the tools' definitions: written by the format, or OpenAI's estimate."""
        return sum(self.tool_counts) + self.tools_estimate

    @property
    def tools_note(self) -> str:
        """What to say beside the count when the format does not send the tools given (DeepSeek-V3, Gemma 3)."""
        return self.chat.tools_note if self.tools else ""

    @property
    def total(self) -> int:
        return sum(self.message_counts) + self.tools_count + self.format_count

    @property
    def context_window(self) -> int:
        """The model's published context length (``chat.context_source`` says where), prompt and reply together."""
        return self.chat.context_window

    @property
    def remaining(self) -> int:
        """Tokens left in the window for the reply; below 0, the prompt is that much past the window."""
        return self.context_window - self.total


def render_conversation(name: str, messages, *, ready_for_reply: bool = True, tools=None) -> ChatPrompt:
    """The conversation ``messages`` (``[{"role": ..., "content": ...}, ...]``, OpenAI's form, tool calls and
    results included) offering ``tools`` (OpenAI's ``tools`` list, or None) as the chat model of the published
    tokenizer ``name`` receives it; ``ready_for_reply`` adds the opening of the assistant's reply
    (transformers' ``add_generation_prompt``)."""
    chat, messages, tools = chat_format(name), read_messages(messages), read_tools(tools)
    if not chat.tool_messages and any(message.tool_calls or message.role == TOOL_ROLE for message in messages):
        raise ValueError(f"{chat.title}'s chat format has no tools: its conversation holds no tool calls or results")
    tok = load_pretrained(name)
    if chat.estimated:
        segments, tokens, owners, overhead, tools_estimate = estimated(chat, tok, messages, ready_for_reply, tools)
        shown = "".join(segment.text for segment in segments)
        return ChatPrompt(chat, messages, segments, tokens, shown, owners, overhead, True, tools, (), tools_estimate)
    if chat.script:
        return _scripted(chat, tok, messages, ready_for_reply, tools)
    segments, placed = _segments(chat, messages, ready_for_reply, tools)
    prompt = "".join(segment.text for segment in segments)
    tokens = tuple(tok.encode_with_spans(prompt))
    owners = _owners(tokens, _shown_bounds(tok, segments, prompt))
    return _counted(chat, messages, segments, tokens, tok.shown_text(prompt), owners, placed, tools)


def _counted(chat, messages, segments, tokens, shown, owners, placed, tools) -> ChatPrompt:
    """The prompt with its tokens' owners, each a segment's (message, tool) pair, kept apart."""
    messages_of, tools_of = tuple(owner[0] for owner in owners), tuple(owner[1] for owner in owners)
    rest = sum(1 for message, tool in owners if message is None and tool is None)
    return ChatPrompt(chat, messages, segments, tuple(tokens), shown, messages_of, rest, placed, tools, tools_of)


def render_prompt(chat: ChatFormat, messages: tuple[Message, ...], ready_for_reply: bool, tools=()) -> str:
    """The template rendered as transformers' ``apply_chat_template(messages, tools=tools)`` renders it."""
    from .jinja_render import render_template  # jinja2 takes 25 ms to import: only when a template is rendered

    return render_template(
        chat.template(),
        messages=[_template_message(chat, message) for message in messages],
        tools=[tool.definition for tool in tools] or None,
        add_generation_prompt=ready_for_reply,
        bos_token=chat.bos_token,
        eos_token=chat.eos_token,
    )


def _template_message(chat: ChatFormat, message: Message) -> dict:
    """A message as a template reads it (OpenAI's form; a call's arguments as the template takes them)."""
    content = message.content if message.content or not message.tool_calls else chat.call_content
    item: dict[str, object] = {"role": message.role, "content": content}
    if message.tool_calls:
        item["tool_calls"] = [_template_call(chat, call) for call in message.tool_calls]
    if message.tool_call_id:
        item["tool_call_id"] = message.tool_call_id
    return item


def _template_call(chat: ChatFormat, call) -> dict:
    arguments = call.arguments if chat.call_arguments == "text" or _is_mark(call.arguments) else call.arguments_object
    return {
        **({"id": call.id} if call.id else {}),
        "type": "function",
        "function": {"name": call.name, "arguments": arguments},
    }


def _is_mark(text: str) -> bool:
    return text.startswith("\U000f0002")


def _stand_ins(messages: tuple[Message, ...], tools: tuple[Tool, ...]) -> tuple[tuple[Message, ...], tuple]:
    """The conversation with a mark in place of each text it holds: the skeleton's input."""
    stand_ins = []
    for index, message in enumerate(messages):
        calls = tuple(
            replace(call, name=_MARK.format("n", f"{index}.{k}"), arguments=_MARK.format("a", f"{index}.{k}"))
            for k, call in enumerate(message.tool_calls)
        )
        content = _MARK.format("m", index) if message.content or not calls else ""
        stand_ins.append(replace(message, content=content, tool_calls=calls))
    marked_tools = tuple(replace(tool, definition=_MARK.format("t", index)) for index, tool in enumerate(tools))
    return tuple(stand_ins), marked_tools


def _segments(chat: ChatFormat, messages, ready: bool, tools) -> tuple[tuple[Segment, ...], bool]:
    """The prompt cut into the format's text, the messages' and the tools', and whether each one's place was found."""
    offered = {"tools": tools} if tools else {}  # render_prompt's three-argument call stays as it was without tools
    prompt = render_prompt(chat, messages, ready, **offered)
    stand_ins, marked_tools = _stand_ins(messages, tools)
    try:
        skeleton = render_prompt(chat, stand_ins, ready, **({"tools": marked_tools} if tools else {}))
    except ValueError:  # a template that reads inside what the marks replace (a tool's fields, say)
        return (Segment(prompt, None),), False
    formats, keys = _skeleton(skeleton)
    segments = _placed(prompt, formats, keys, messages, tools)
    return (segments, True) if segments is not None else ((Segment(prompt, None),), False)


def _skeleton(text: str) -> tuple[list[str], list[str]]:
    """The skeleton's format texts (one more than its marks) and its marks' keys (``m0``, ``a1.0``, ``t2``...)."""
    formats, keys, at = [], [], 0
    for match in _MARKS.finditer(text):
        formats.append(text[at : match.start()])
        keys.append(match.group(1) or match.group(2))
        at = match.end()
    return [*formats, text[at:]], keys


def _placed(prompt: str, formats: list[str], keys: list[str], messages, tools) -> tuple[Segment, ...] | None:
    """``prompt`` as format text and the marked texts, by the skeleton's format texts ``formats`` (one more than
    the marks ``keys``), or None when the prompt does not follow the skeleton."""
    if not prompt.startswith(formats[0]):
        return None
    segments, at = [Segment(formats[0], None)], len(formats[0])
    for number, (key, after) in enumerate(zip(keys, formats[1:]), start=1):
        try:
            message, tool = _owner(key)
            text = _marked_text(prompt, at, _candidates(key, messages, tools), after, number == len(keys))
        except (ValueError, IndexError):  # a mark the template wrote in pieces or twice over
            return None
        if text is None:
            return None
        segments += [Segment(text, message, tool), Segment(after, None)]
        at += len(text) + len(after)
    if at != len(prompt):  # the skeleton placed no text, yet the prompt says more
        return None
    return tuple(segment for segment in segments if segment.text)


def _owner(key: str) -> tuple[int | None, int | None]:
    """The (message, tool) a mark's text belongs to."""
    return (None, int(key[1:])) if key[0] == "t" else (int(key[1:].partition(".")[0]), None)


def _candidates(key: str, messages: tuple[Message, ...], tools: tuple[Tool, ...]):
    """What a template may have written for the mark ``key``: the text itself, trimmed, or as JSON writes it (each
    written only when the one before does not fit: a large tool's indented JSON takes time)."""
    kind, number = key[0], key[1:]
    if kind == "t":
        definition = tools[int(number)].definition
        yield json.dumps(definition, ensure_ascii=False)
        yield json.dumps(definition, ensure_ascii=False, indent=4)
        return
    index, _, place = number.partition(".")
    message = messages[int(index)]
    if kind == "m":
        content = message.content
        yield from (content, content.strip(), content.rstrip(), content.lstrip())
        yield json.dumps(content, ensure_ascii=False)[1:-1]
        return
    call = message.tool_calls[int(place)]
    yield call.name if kind == "n" else call.arguments
    if kind == "a":
        yield json.dumps(call.arguments_object, ensure_ascii=False)
        yield json.dumps(call.arguments_object)


def _marked_text(prompt: str, at: int, candidates, after: str, last: bool) -> str | None:
    """The marked text as the template wrote it at ``at``, followed by the format text ``after``: one of the
    candidates, else whatever stands before the next ``after``."""
    for text in candidates:
        end = at + len(text)
        if prompt.startswith(text, at) and (prompt[end:] == after if last else prompt.startswith(after, end)):
            return text
    end = len(prompt) - len(after) if last and prompt.endswith(after) else prompt.find(after, at) if not last else -1
    return prompt[at:end] if end >= at else None


def _shown_bounds(tok: AnyTokenizer, segments: tuple[Segment, ...], prompt: str) -> list[tuple[int, int, tuple]]:
    """Each segment's (start, end, (message, tool)) in the text the tokenizer sees (a normalizer may change
    lengths)."""
    lengths = [len(tok.shown_text(segment.text)) for segment in segments]
    if sum(lengths) != len(tok.shown_text(prompt)):
        lengths = [len(segment.text) for segment in segments]
    bounds, start = [], 0
    for segment, length in zip(segments, lengths):
        bounds.append((start, start + length, (segment.message, segment.tool)))
        start += length
    return bounds


def _owners(tokens, bounds) -> list[tuple[int | None, int | None]]:
    """The (message, tool) each token starts in ((None, None): the format's text)."""
    owners, place = [], 0
    for token in tokens:
        while place < len(bounds) - 1 and token.start >= bounds[place][1]:
            place += 1
        owners.append(bounds[place][2] if bounds else (None, None))
    return owners


def _scripted(chat: ChatFormat, tok: AnyTokenizer, messages, ready: bool, tools) -> ChatPrompt:
    """A format its publisher's library writes: its control tokens as tokens, the text between them encoded as
    text (as those libraries do), each run of text in one piece."""
    write, control = SCRIPTED[chat.script]
    segments = write(messages, ready, tools)
    tokens: list[Token] = []
    owners: list[tuple[int | None, int | None]] = []
    shown: list[str] = []
    offset = 0
    for run in _runs(segments, control):
        text = "".join(segment.text for segment in run)
        bounds, start = [], offset
        for segment in run:
            bounds.append((start, start + len(segment.text), (segment.message, segment.tool)))
            start += len(segment.text)
        run_tokens = [
            replace(token, start=token.start + offset, end=token.end + offset)
            for token in tok.encode_with_spans(text, special=_is_control(run[0], control))
        ]
        tokens += run_tokens
        owners += _owners(run_tokens, bounds)
        shown.append(text)
        offset += len(text)
    return _counted(chat, messages, segments, tokens, "".join(shown), owners, True, tools)


def _is_control(segment: Segment, control: frozenset[str]) -> bool:
    return segment.kind == "format" and segment.text in control


def _runs(segments: tuple[Segment, ...], control: frozenset[str]) -> list[list[Segment]]:
    """The segments grouped: each control token alone, the text between two of them together."""
    runs: list[list[Segment]] = []
    for segment in segments:
        if _is_control(segment, control) or not runs or _is_control(runs[-1][0], control):
            runs.append([segment])
        else:
            runs[-1].append(segment)
    return runs
