"""A page's choices, each declared once (``Choice``: its widget key, the value the address leaves out, its query
parameter and how that is read, whether it is kept by hand), and what follows from the list: the address written
after each run (``address_params``) and read back on a session's first visit (``read_address``), a bad parameter
dropped with a warning (``session.addresses``' readers). ``session.state`` puts them in and out of the session.

>>> choices = (Choice("tab", param="tab", kind=OneOf({"steps": "Step by step"})),
...            Choice("size", 3, "size", WholeNumber(1, 9)), Choice("why", False, "open", Section("why")))
>>> address_params(choices, {"tab": "Step by step", "size": 3, "why": True})
({'tab': 'steps', 'open': 'why'}, '')
>>> read_address(choices, {"tab": "steps", "size": "12", "open": "why"})
({'tab': 'Step by step', 'why': True}, ['size=12: choose a whole number from 1 to 9'])
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from bpe_core.chat import read_messages, read_tools
from bpe_core.settings_table import CHOICE, COUNT, SWITCH, Setting
from session.addresses import (
    TEXT_PARAM,
    read_choice,
    read_count,
    read_counts,
    read_names,
    read_switch,
    read_text,
    text_params,
)


class _OwnParameter(ABC):
    """A kind whose parameter is one choice's own; each reads and writes one value (``read``, ``write``)."""

    @abstractmethod
    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> Any:
        """``params[name]`` as the widget's value; None when absent or dropped (then warned)."""

    @abstractmethod
    def write(self, value: Any) -> str | None:
        """The widget's ``value`` as the parameter's text; None when the address leaves it out."""

    def read_group(self, group: Sequence[Choice], params: Mapping[str, str], name: str, warnings: list[str]) -> dict:
        value = self.read(params, name, warnings)
        return {} if value is None else {group[0].key: value}

    def write_group(self, group: Sequence[Choice], values: Mapping[str, Any]) -> str | None:
        choice = group[0]
        value = values.get(choice.key, choice.default)
        return None if value is None or value == choice.default else self.write(value)


@dataclass(frozen=True)
class OneOf(_OwnParameter):
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
class WholeNumber(_OwnParameter):
    low: int
    high: int

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> int | None:
        return read_count(params, name, self.low, self.high, warnings)

    def write(self, value: int) -> str:
        return str(value)


@dataclass(frozen=True)
class WholeNumbers(_OwnParameter):
    """As many whole numbers from ``low`` to ``high`` as ``lengths`` allows, comma-separated."""

    low: int
    high: int
    lengths: range

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> list[int] | None:
        return read_counts(params, name, self.low, self.high, self.lengths, warnings)

    def write(self, value: Sequence[int]) -> str | None:
        return ",".join(map(str, value)) if len(value) in self.lengths else None


@dataclass(frozen=True)
class Names(_OwnParameter):
    """A comma-separated list of ``options``, each once (none chosen is a choice too)."""

    options: Sequence[str]

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> list[str] | None:
        return read_names(params, name, self.options, warnings)

    def write(self, value: Sequence[str]) -> str:
        return ",".join(value)


@dataclass(frozen=True)
class Text(_OwnParameter):
    """A text of at most ``max_chars`` characters, an empty one an empty box; written empty only where
    ``may_be_empty`` (an empty marker: no marker), else left out, the page's default.
    (The typed text, ``TEXT_PARAM``, is written by ``text_params``: left out, and said so, when longer than a link
    carries.)"""

    max_chars: int
    may_be_empty: bool = False

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> str | None:
        return read_text(params, name, self.max_chars, warnings)

    def write(self, value: str) -> str | None:
        return value if self.may_be_empty else value or None


@dataclass(frozen=True)
class Switch(_OwnParameter):
    """Off or on, written as ``words`` (off's, on's)."""

    words: tuple[str, str] = ("0", "1")

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> bool | None:
        return read_switch(params, name, self.words, warnings)

    def write(self, value: bool) -> str:
        return self.words[value]


def setting_kind(row: Setting) -> OneOf | WholeNumber | Switch | Text:
    """How the address reads and writes a training setting, from its row in ``bpe_core.settings_table`` (a marker
    and special tokens as typed, an empty one too).

    >>> from bpe_core.settings_table import setting
    >>> setting_kind(setting("min_frequency")), setting_kind(setting("glue_marker"))
    (WholeNumber(low=1, high=100000), Switch(words=('own', 'glued')))
    """
    if row.kind == CHOICE:
        return OneOf(row.choices)
    if row.kind == COUNT:
        return WholeNumber(*cast(tuple[int, int], row.bounds))  # every count's row has its bounds
    if row.kind == SWITCH:
        return Switch(row.switch_words)
    return Text(row.max_chars, may_be_empty=True)


@dataclass(frozen=True)
class Conversation(_OwnParameter):
    """A short conversation, ``[[role, text], ...]`` as JSON of at most ``max_chars`` characters (a longer one stays
    out of the address); read back as ``[{"role": ..., "content": ...}, ...]``.

    >>> Conversation(100).write([{"role": "user", "content": "Hi"}])
    '[["user","Hi"]]'
    >>> warnings = []
    >>> Conversation(100).read({"chat": '[["robot","Hi"]]'}, "chat", warnings)
    >>> print(warnings[0])
    chat=[["robot","Hi"]]: message 1 has the role 'robot': a role is one of system, user, assistant, tool
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
class ToolsList(_OwnParameter):
    """A short tools list (OpenAI's ``tools``) as compact JSON of at most ``max_chars`` characters (a longer one, or
    one that is not a valid list, stays out of the address); read back as indented JSON text for an editor.

    >>> ToolsList(100).write('[ {"function": {"name": "f"}} ]')
    '[{"function":{"name":"f"}}]'
    >>> warnings = []
    >>> ToolsList(100).read({"tools": '[{"function": {}}]'}, "tools", warnings)
    >>> print(warnings[0])
    tools=[{"function": {}}]: tool 1 has no name: a tool is {"type": "function", "function": {"name": ..., ...}}
    """

    max_chars: int

    def read(self, params: Mapping[str, str], name: str, warnings: list[str]) -> str | None:
        if name not in params:
            return None
        try:
            if len(params[name]) > self.max_chars:
                raise ValueError(f"longer than {self.max_chars:,} characters")
            read_tools(params[name])
        except ValueError as error:
            warnings.append(f"{name}={params[name][:80]}: {error}")
            return None
        return json.dumps(json.loads(params[name]), ensure_ascii=False, indent=2)

    @staticmethod
    def text(value: str) -> str | None:
        """The tools as the address writes them, whatever their length (None: not a valid tools list)."""
        try:
            read_tools(value)
        except ValueError:
            return None
        return json.dumps(json.loads(value), ensure_ascii=False, separators=(",", ":"))

    def write(self, value: str) -> str | None:
        text = self.text(value) if value.strip() else None
        return text if text is not None and len(text) <= self.max_chars else None


@dataclass(frozen=True)
class Section:
    """An open or closed section (an expander) named ``name`` in its parameter's list of the sections open: the
    choices that share the parameter are read and written together."""

    name: str

    @staticmethod
    def read_group(group: Sequence[Choice], params: Mapping[str, str], name: str, warnings: list[str]) -> dict:
        sections = _section_names(group)
        named = read_names(params, name, list(sections.values()), warnings) or ()
        return {key: True for key, section in sections.items() if section in named}

    @staticmethod
    def write_group(group: Sequence[Choice], values: Mapping[str, Any]) -> str | None:
        return ",".join(section for key, section in _section_names(group).items() if values.get(key)) or None


# How a parameter is read and written (``Choice.kind``)
Kind = OneOf | WholeNumber | WholeNumbers | Names | Text | Switch | Conversation | ToolsList | Section


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
    kind: Kind | None = None
    only_with: tuple[str, Any] | None = None
    kept: bool = False


def _section_names(group: Sequence[Choice]) -> dict[str, str]:
    """{widget key: section name} of the expanders that share a parameter (each a ``Section``)."""
    return {member.key: member.kind.name for member in group if isinstance(member.kind, Section)}


def _group_kind(param: str, group: Sequence[Choice]) -> Kind:
    """The kind that reads and writes the parameter ``param`` of ``group``: its first choice's."""
    kind = group[0].kind
    if kind is None:
        raise TypeError(f"{group[0].key}: a choice in the address (param={param!r}) needs a kind")
    return kind


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
    ({}, ['open=a,<b>: choose from a, each at most once, separated by commas'])
    """
    values: dict[str, Any] = {}
    warnings: list[str] = []
    for param, group in _by_param(choices).items():
        values.update(_group_kind(param, group).read_group(group, params, param, warnings))
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
        if param == TEXT_PARAM:  # the typed text: too long for a link, it stays out and the page says so
            typed, missing = text_params(value) if value != choice.default else ({}, "")
            text = typed.get(TEXT_PARAM)
        else:
            text = _group_kind(param, group).write_group(group, values)
        if text is not None:
            params[param] = text
    return params, missing


def kept_keys(choices: Sequence[Choice]) -> tuple[str, ...]:
    """The keys of the choices kept by hand (tabs and expanders)."""
    return tuple(choice.key for choice in choices if choice.kept)
