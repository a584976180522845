"""Chat templates (Jinja) rendered as Hugging Face transformers renders them, and bounded: a template is text from a
file, never trusted code.

The environment is transformers' (``_compile_jinja_template``): jinja2's ``ImmutableSandboxedEnvironment`` with
``trim_blocks`` and ``lstrip_blocks``, the loop controls (``break``, ``continue``), a ``tojson`` filter that keeps
non-ASCII characters and does not escape HTML, and the globals ``raise_exception`` and ``strftime_now``.  The sandbox
refuses attributes that reach Python's internals; on top of it a template is at most ``MAX_TEMPLATE_CHARS``, its
rendering stops past ``MAX_PROMPT_CHARS`` of output or ``template_seconds()`` of work (``BPE_TEMPLATE_SECONDS``), and
any failure is a ValueError in words.

>>> render_template("{% for m in messages %}[{{ m.role }}] {{ m.content }}\\n{% endfor %}",
...                 messages=[{"role": "user", "content": "Hi"}])
'[user] Hi\\n'
>>> render_template("{{ raise_exception('roles must alternate') }}", messages=[])
Traceback (most recent call last):
...
ValueError: the chat template stopped: roles must alternate
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Callable, Iterable
from datetime import datetime

import jinja2
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_TEMPLATE_CHARS = 100_000  # the largest published template we know is under 20,000
MAX_PROMPT_CHARS = 1_000_000  # a rendered prompt at most: five times the conversation's own bound
DEFAULT_TEMPLATE_SECONDS = 2.0


def template_seconds() -> float:
    """How long one rendering may work: ``BPE_TEMPLATE_SECONDS``, else 2 s."""
    try:
        return max(0.01, float(os.environ.get("BPE_TEMPLATE_SECONDS", DEFAULT_TEMPLATE_SECONDS)))
    except ValueError:
        return DEFAULT_TEMPLATE_SECONDS


def _raise_exception(message: str):
    raise jinja2.TemplateError(message)


def _tojson(value, ensure_ascii=False, indent=None, separators=None, sort_keys=False) -> str:
    """transformers' ``tojson``, bounded: one call on a hostile schema (thousands of keys nested deep, indented)
    could write megabytes, out of reach of the line-by-line time check; it stops past ``MAX_PROMPT_CHARS``, and
    runs untraced (the tracer would see each of its millions of steps)."""
    encoder = json.JSONEncoder(ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)
    return _joined_within_size(encoder.iterencode(value), tracer=None)


def _strftime_now(format: str) -> str:
    return datetime.now().strftime(format)


class _BoundedEnvironment(ImmutableSandboxedEnvironment):
    """The sandbox, with ``*`` and ``**`` checked first: one expression such as ``'x' * 10**9`` could take gigabytes
    before any bound on the output is reached."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context, operator, left, right):
        if operator == "**" and isinstance(right, int) and abs(right) > 64 and left not in (0, 1, -1):
            raise jinja2.TemplateError(f"{left!r} ** {right} is too large a power for a chat template")
        if operator == "*":
            sizes = [len(side) for side in (left, right) if isinstance(side, (str, list, tuple))]
            times = [side for side in (left, right) if isinstance(side, int)]
            if sizes and times and sizes[0] * max(times[0], 0) > MAX_PROMPT_CHARS:
                raise jinja2.TemplateError(f"a repeat of {sizes[0]:,} x {times[0]:,} is too long for a chat template")
        return super().call_binop(context, operator, left, right)


def _environment() -> ImmutableSandboxedEnvironment:
    environment = _BoundedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    environment.filters["tojson"] = _tojson
    environment.globals["raise_exception"] = _raise_exception
    environment.globals["strftime_now"] = _strftime_now
    return environment


_ENVIRONMENT = _environment()


@functools.lru_cache(maxsize=16)
def _compiled(template: str) -> jinja2.Template:
    """A template compiled once (about 15 ms each time otherwise; a page renders two a run)."""
    return _ENVIRONMENT.from_string(template)


class _OutOfBounds(Exception):
    """The rendering worked past its time or wrote past its size: the message says which."""


def render_template(template: str, **variables) -> str:
    """``template`` rendered with ``variables`` (``messages``, ``add_generation_prompt``, ``bos_token``...)."""
    if len(template) > MAX_TEMPLATE_CHARS:
        raise ValueError(f"the chat template holds {len(template):,} characters; at most {MAX_TEMPLATE_CHARS:,}")
    try:
        return _bounded(_compiled(template).generate(**variables))
    except _OutOfBounds as bound:
        raise ValueError(f"the chat template {bound}; stopped") from None
    except (jinja2.TemplateError, ArithmeticError, LookupError, TypeError, ValueError, RecursionError) as error:
        raise ValueError(f"the chat template stopped: {error}") from None


def _bounded(chunks: Iterable[str]) -> str:
    """The chunks joined, stopping past ``MAX_PROMPT_CHARS`` or when the template's own code runs out of time
    (checked on every line of the compiled template, even in a loop that writes nothing)."""
    deadline = time.monotonic() + template_seconds()

    def on_line(frame, event, arg):
        if event == "line" and time.monotonic() > deadline:
            raise _OutOfBounds(f"worked for more than {template_seconds():g} s")
        return on_line

    def on_call(frame, event, arg):
        return on_line if frame.f_code.co_filename == "<template>" else None

    return _joined_within_size(chunks, tracer=on_call)


def _joined_within_size(chunks: Iterable[str], tracer: Callable | None) -> str:
    """The chunks joined, made under the trace function ``tracer`` (None: untraced), stopping past
    ``MAX_PROMPT_CHARS``."""
    kept, size, previous = [], 0, sys.gettrace()
    sys.settrace(tracer)
    try:
        for chunk in chunks:
            size += len(chunk)
            if size > MAX_PROMPT_CHARS:
                raise _OutOfBounds(f"wrote more than {MAX_PROMPT_CHARS:,} characters")
            kept.append(chunk)
    finally:
        sys.settrace(previous)
    return "".join(kept)
