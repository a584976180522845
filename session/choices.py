"""A page's choices, each declared once (``Choice``: its widget key, the value the address leaves out, its query
parameter and how that is read, whether it is kept by hand), and what follows from the list: the address written
after each run (``address_params``) and read back on a session's first visit (``read_address``), a bad parameter
dropped with a warning (``session.addresses``' readers). ``session.state`` puts them in and out of the session.

>>> choices = (Choice("tab", param="tab", kind=OneOf({"steps": "Step by step"})),
...            Choice("size", 3, "size", WholeNumber(1, 9)), Choice("why", False, "open", Section("why")))
>>> address_params(choices, {"tab": "Step by step", "size": 3, "why": True})
({'tab': 'steps', 'open': 'why'}, '')
>>> read_address(choices, {"tab": "steps", "size": "12", "open": "why"})
({'tab': 'Step by step', 'why': True}, ['size=12: not a whole number from 1 to 9'])
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bpe_core.chat import read_messages
from session.addresses import TEXT_PARAM, read_choice, read_count, read_counts, read_names, read_text, text_params


@dataclass(frozen=True)
class OneOf:
    """One of ``options``: names in the address, or a mapping from each name to the widget's value (a tab's label)."""

    options: Sequence[str] | Mapping[str, Any]

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> Any:
        chosen = read_choice(params, name, tuple(self.options), warnings)
        return self.options[chosen] if chosen is not None and isinstance(self.options, Mapping) else chosen

    def write(self, value: Any) -> str:
        if isinstance(self.options, Mapping):
            return next(name for name, shown in self.options.items() if shown == value)
        return value


@dataclass(frozen=True)
class WholeNumber:
    low: int
    high: int

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> int | None:
        return read_count(params, name, self.low, self.high, warnings)

    def write(self, value: int) -> str:
        return str(value)


@dataclass(frozen=True)
class WholeNumbers:
    """As many whole numbers from ``low`` to ``high`` as ``lengths`` allows, comma-separated."""

    low: int
    high: int
    lengths: range

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> list[int] | None:
        return read_counts(params, name, self.low, self.high, self.lengths, warnings)

    def write(self, value: Sequence[int]) -> str | None:
        return ",".join(map(str, value)) if len(value) in self.lengths else None


@dataclass(frozen=True)
class Names:
    """A comma-separated list of ``options``, each once (none chosen is a choice too)."""

    options: Sequence[str]

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> list[str] | None:
        return read_names(params, name, self.options, warnings)

    def write(self, value: Sequence[str]) -> str:
        return ",".join(value)


@dataclass(frozen=True)
class Text:
    """A text of 1 to ``max_chars`` characters. (The typed text, ``TEXT_PARAM``, is written by ``text_params``:
    left out, and said so, when longer than a link carries.)"""

    max_chars: int

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> str | None:
        return read_text(params, name, self.max_chars, warnings)

    def write(self, value: str) -> str | None:
        return value or None


@dataclass(frozen=True)
class Conversation:
    """A short conversation, ``[[role, text], ...]`` as JSON of at most ``max_chars`` characters (a longer one stays
    out of the address); read back as ``[{"role": ..., "content": ...}, ...]``.

    >>> Conversation(100).write([{"role": "user", "content": "Hi"}])
    '[["user","Hi"]]'
    >>> warnings = []
    >>> Conversation(100).read({"chat": '[["robot","Hi"]]'}, "chat", warnings)
    >>> print(warnings[0])
    chat=[["robot","Hi"]]: message 1 has the role 'robot': a role is one of system, user, assistant
    """

    max_chars: int

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> list[dict] | None:
        if name not in params:
            return None
        try:
            messages = read_messages(self._pairs(params[name]))
        except ValueError as error:
            warnings.append(f"{name}={params[name][:80]}: {error}")
            return None
        return [{"role": message.role, "content": message.content} for message in messages]

    def _pairs(self, text: str) -> list[dict]:
        """The ``[[role, text], ...]`` of the address as messages, or a ValueError."""
        if len(text) > self.max_chars:
            raise ValueError(f"longer than {self.max_chars:,} characters")
        try:
            pairs = json.loads(text)
        except ValueError:
            raise ValueError("not a conversation ([[role, text], ...] in JSON)") from None
        if not isinstance(pairs, list) or not all(isinstance(pair, list) and len(pair) == 2 for pair in pairs):
            raise ValueError("not a conversation ([[role, text], ...] in JSON)")
        return [{"role": role, "content": content} for role, content in pairs]

    @staticmethod
    def text(value: Sequence[Mapping[str, str]]) -> str:
        """The conversation as the address writes it, whatever its length."""
        pairs = [[message["role"], message["content"]] for message in value]
        return json.dumps(pairs, ensure_ascii=False, separators=(",", ":"))

    def write(self, value: Sequence[Mapping[str, str]]) -> str | None:
        text = self.text(value)
        return text if len(text) <= self.max_chars else None


@dataclass(frozen=True)
class Section:
    """An open or closed section (an expander) named ``name`` in its parameter's list of the sections open: the
    choices that share the parameter are read and written together."""

    name: str


@dataclass(frozen=True)
class Choice:
    """One choice of a page: a widget's ``key``; the ``default`` value, which the address leaves out (None: always
    written when it has a value); its query parameter ``param`` ("": not in the address) and its ``kind``, how
    the parameter is read and written; ``only_with``: (another choice's key, its value) the parameter is written
    with, else left out (Encode's prefix, with its tokenizer); ``kept``: a tab or an expander, which Streamlit's
    ``persist_state`` does not reach, kept by ``session.state.keep_choices`` while not drawn (a widget passes
    ``persist_state="session"``)."""

    key: str
    default: Any = None
    param: str = ""
    kind: OneOf | WholeNumber | WholeNumbers | Names | Text | Conversation | Section | None = None
    only_with: tuple[str, Any] | None = None
    kept: bool = False


def _by_param(choices: Sequence[Choice]) -> dict[str, list[Choice]]:
    """The choices in the address, by their parameter, in the order declared."""
    grouped: dict[str, list[Choice]] = {}
    for choice in choices:
        if choice.param:
            grouped.setdefault(choice.param, []).append(choice)
    return grouped


def read_address(choices: Sequence[Choice], params: Mapping[str, str]) -> tuple[dict[str, Any], list[str]]:
    """What the address ``params`` asks of the choices, by widget key (only what it gives and makes sense), and a
    warning for each parameter dropped. Parameters no choice names are the model's or another page's business.

    >>> read_address((Choice("a", param="open", kind=Section("a")),), {"open": "a,<b>", "merges": "6"})
    ({}, ['open=a,<b>: <b> is not one of a'])
    """
    values: dict[str, Any] = {}
    warnings: list[str] = []
    for param, group in _by_param(choices).items():
        if isinstance(group[0].kind, Section):
            named = read_names(params, param, [member.kind.name for member in group], warnings) or ()
            values.update({member.key: True for member in group if member.kind.name in named})
        elif (value := group[0].kind.read(params, param, warnings)) is not None:
            values[group[0].key] = value
    return values, warnings


def address_params(choices: Sequence[Choice], values: Mapping[str, Any]) -> tuple[dict[str, str], str]:
    """The choices' ``values`` (by widget key; a choice without one has its default) as query parameters, defaults
    left out, and what the address cannot carry (a typed text too long for a link).

    >>> address_params((Choice("t", "Hello", "input", Text(2_000)),), {"t": "x" * 2_001})[1][:36]
    'Your text (2,001 characters) is long'
    """
    params: dict[str, str] = {}
    missing = ""
    defaults = {choice.key: choice.default for choice in choices}
    for param, group in _by_param(choices).items():
        choice = group[0]
        value = values.get(choice.key, choice.default)
        if choice.only_with and values.get(choice.only_with[0], defaults[choice.only_with[0]]) != choice.only_with[1]:
            continue
        if isinstance(choice.kind, Section):
            text = ",".join(member.kind.name for member in group if values.get(member.key)) or None
        elif param == TEXT_PARAM:
            typed, missing = text_params(value) if value != choice.default else ({}, "")
            text = typed.get(TEXT_PARAM)
        else:
            text = None if value is None or value == choice.default else choice.kind.write(value)
        if text is not None:
            params[param] = text
    return params, missing


def kept_keys(choices: Sequence[Choice]) -> tuple[str, ...]:
    """The keys of the choices kept by hand (tabs and expanders)."""
    return tuple(choice.key for choice in choices if choice.kept)
