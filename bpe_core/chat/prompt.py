"""A conversation rendered into the prompt a chat model receives, cut into tokens and counted per message.

The prompt is a list of segments: a message's own text, or the format's (its special tokens and its own words, such
as Llama 3's header ``<|start_header_id|>user<|end_header_id|>``).  Where the template put each message is found by
rendering it once more with a placeholder in place of each message's text: the text between the placeholders is the
format's, and the real rendering holds the same format text around each (trimmed, say) message.

>>> prompt = render_conversation("qwen3", [{"role": "user", "content": "Hi!"}])
>>> [(segment.text, segment.message) for segment in prompt.segments]
[('<|im_start|>user\\n', None), ('Hi!', 0), ('<|im_end|>\\n<|im_start|>assistant\\n', None)]
>>> prompt.message_counts, prompt.format_count, prompt.total
((2,), 8, 10)
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from ..pretrained import load_pretrained
from ..rank_tokenizer import AnyTokenizer
from ..spans import Token
from .formats import OPENAI_REPLY_PRIMING, OPENAI_TOKENS_PER_MESSAGE, ChatFormat, chat_format
from .messages import Message, read_messages
from .scripted import HARMONY_CONTROL, MISTRAL_CONTROL, harmony, mistral_v3
from .segments import Segment

SCRIPTED = {"harmony": (harmony, HARMONY_CONTROL), "mistral-v3": (mistral_v3, MISTRAL_CONTROL)}  # writer, control
_PLACEHOLDER = "\U000f0002{}\U000f0003"  # private-use characters: no template writes them
_PLACEHOLDERS = re.compile("\U000f0002([0-9]+)\U000f0003")


@dataclass(frozen=True)
class ChatPrompt:
    """A conversation as its model receives it.

    ``tokens`` have spans in ``shown`` (the prompt as the tokenizer sees it); ``owners`` says, token by token, which
    message's text it starts in (``None``: the format's).  For an estimated format (GPT-4, GPT-4o) the segments are
    the messages' texts only, each encoded apart, and ``format_count`` is OpenAI's estimate of the rest.
    """

    chat: ChatFormat
    messages: tuple[Message, ...]
    segments: tuple[Segment, ...]
    tokens: tuple[Token, ...]
    shown: str
    owners: tuple[int | None, ...]
    format_count: int
    placed: bool = True  # False: the template moved the messages' texts beyond recognition; all counted as format

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
    def total(self) -> int:
        return sum(self.message_counts) + self.format_count


def render_conversation(name: str, messages, *, ready_for_reply: bool = True) -> ChatPrompt:
    """The conversation ``messages`` (``[{"role": ..., "content": ...}, ...]``) as the chat model of the published
    tokenizer ``name`` receives it; ``ready_for_reply`` adds the opening of the assistant's reply
    (transformers' ``add_generation_prompt``)."""
    chat, messages = chat_format(name), read_messages(messages)
    tok = load_pretrained(name)
    if chat.estimated:
        return _estimated(chat, tok, messages, ready_for_reply)
    if chat.script:
        return _scripted(chat, tok, messages, ready_for_reply)
    segments, placed = _segments(chat, messages, ready_for_reply)
    prompt = "".join(segment.text for segment in segments)
    tokens = tuple(tok.encode_with_spans(prompt))
    owners = _owners(tokens, _shown_bounds(tok, segments, prompt))
    return ChatPrompt(
        chat, messages, segments, tokens, tok.shown_text(prompt), owners, owners.count(None), placed=placed
    )


def render_prompt(chat: ChatFormat, messages: tuple[Message, ...], ready_for_reply: bool) -> str:
    """The template rendered as transformers' ``apply_chat_template`` renders it."""
    from .jinja_render import render_template  # jinja2 takes 25 ms to import: only when a template is rendered

    return render_template(
        chat.template(),
        messages=[{"role": message.role, "content": message.content} for message in messages],
        add_generation_prompt=ready_for_reply,
        bos_token=chat.bos_token,
        eos_token=chat.eos_token,
    )


def _segments(chat: ChatFormat, messages: tuple[Message, ...], ready: bool) -> tuple[tuple[Segment, ...], bool]:
    """The prompt cut into the format's text and the messages', and whether every message's place was found."""
    prompt = render_prompt(chat, messages, ready)
    stand_ins = tuple(Message(message.role, _PLACEHOLDER.format(index)) for index, message in enumerate(messages))
    skeleton = _PLACEHOLDERS.split(render_prompt(chat, stand_ins, ready))
    formats, indices = skeleton[0::2], [int(index) for index in skeleton[1::2]]
    segments = _placed(prompt, formats, indices, messages)
    return (segments, True) if segments is not None else ((Segment(prompt, None),), False)


def _placed(prompt: str, formats: list[str], indices: list[int], messages) -> tuple[Segment, ...] | None:
    """``prompt`` as format text and messages' texts, by the skeleton's format texts ``formats`` (one more than the
    placeholders, whose messages are ``indices``), or None when the prompt does not follow the skeleton."""
    if not prompt.startswith(formats[0]):
        return None
    segments, at = [Segment(formats[0], None)], len(formats[0])
    for index, after, last in zip(indices, formats[1:], [False] * (len(indices) - 1) + [True]):
        text = _message_text(prompt, at, messages[index].content, after, last)
        if text is None:
            return None
        segments += [Segment(text, index), Segment(after, None)]
        at += len(text) + len(after)
    if at != len(prompt):  # the skeleton placed no message, yet the prompt says more
        return None
    return tuple(segment for segment in segments if segment.text)


def _message_text(prompt: str, at: int, content: str, after: str, last: bool) -> str | None:
    """The message's text as the template wrote it at ``at``, followed by the format text ``after``: the content
    itself or trimmed (templates trim), else whatever stands before the next ``after``."""
    for text in (content, content.strip(), content.rstrip(), content.lstrip()):
        end = at + len(text)
        if prompt.startswith(text, at) and (prompt[end:] == after if last else prompt.startswith(after, end)):
            return text
    end = len(prompt) - len(after) if last and prompt.endswith(after) else prompt.find(after, at) if not last else -1
    return prompt[at:end] if end >= at else None


def _shown_bounds(tok: AnyTokenizer, segments: tuple[Segment, ...], prompt: str) -> list[tuple[int, int, int | None]]:
    """Each segment's (start, end, message) in the text the tokenizer sees (a normalizer may change lengths)."""
    lengths = [len(tok.shown_text(segment.text)) for segment in segments]
    if sum(lengths) != len(tok.shown_text(prompt)):
        lengths = [len(segment.text) for segment in segments]
    bounds, start = [], 0
    for segment, length in zip(segments, lengths):
        bounds.append((start, start + length, segment.message))
        start += length
    return bounds


def _owners(tokens, bounds) -> tuple[int | None, ...]:
    """The message each token starts in (None: the format's text)."""
    owners, place = [], 0
    for token in tokens:
        while place < len(bounds) - 1 and token.start >= bounds[place][1]:
            place += 1
        owners.append(bounds[place][2])
    return tuple(owners)


def _scripted(chat: ChatFormat, tok: AnyTokenizer, messages: tuple[Message, ...], ready: bool) -> ChatPrompt:
    """A format its publisher's library writes: its control tokens as tokens, the text between them encoded as
    text (as those libraries do), each run of text in one piece."""
    write, control = SCRIPTED[chat.script]
    segments = write(messages, ready)
    tokens: list[Token] = []
    owners: list[int | None] = []
    shown: list[str] = []
    offset = 0
    for run in _runs(segments, control):
        text = "".join(segment.text for segment in run)
        bounds, start = [], offset
        for segment in run:
            bounds.append((start, start + len(segment.text), segment.message))
            start += len(segment.text)
        run_tokens = [
            replace(token, start=token.start + offset, end=token.end + offset)
            for token in tok.encode_with_spans(text, special=run[0].text in control)
        ]
        tokens += run_tokens
        owners += _owners(run_tokens, bounds)
        shown.append(text)
        offset += len(text)
    return ChatPrompt(chat, messages, segments, tuple(tokens), "".join(shown), tuple(owners), owners.count(None))


def _runs(segments: tuple[Segment, ...], control: frozenset[str]) -> list[list[Segment]]:
    """The segments grouped: each control token alone, the text between two of them together."""
    runs: list[list[Segment]] = []
    for segment in segments:
        is_control = segment.message is None and segment.text in control
        if is_control or not runs or runs[-1][0].text in control and runs[-1][0].message is None:
            runs.append([segment])
        else:
            runs[-1].append(segment)
    return runs


@functools.lru_cache(maxsize=8)
def _role_tokens(name: str, role: str) -> int:
    return len(load_pretrained(name).encode(role))


def _estimated(chat: ChatFormat, tok: AnyTokenizer, messages: tuple[Message, ...], ready: bool) -> ChatPrompt:
    """Each message's text encoded apart (tiktoken's ``encode``: special tokens' text as text), and OpenAI's
    documented estimate of what the format adds: 3 tokens a message plus its role's, 3 for the reply's priming."""
    tokens, owners, offset = [], [], 0
    for index, message in enumerate(messages):
        for token in tok.encode_with_spans(message.content, special=False):
            tokens.append(replace(token, start=token.start + offset, end=token.end + offset))
            owners.append(index)
        offset += len(message.content)
    overhead = sum(OPENAI_TOKENS_PER_MESSAGE + _role_tokens(chat.name, message.role) for message in messages)
    segments = tuple(Segment(message.content, index) for index, message in enumerate(messages) if message.content)
    shown = "".join(message.content for message in messages)
    return ChatPrompt(
        chat, messages, segments, tuple(tokens), shown, tuple(owners), overhead + (OPENAI_REPLY_PRIMING if ready else 0)
    )
