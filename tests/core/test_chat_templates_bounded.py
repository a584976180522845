"""Chat templates run as transformers runs them (the same output on small templates that use what its environment
adds), and bounded: a hostile template is text, never code."""

from __future__ import annotations

import pytest

from bpe_core.chat.jinja_render import MAX_TEMPLATE_CHARS, render_template

chat_template_utils = pytest.importorskip("transformers.utils.chat_template_utils")

MESSAGES = [{"role": "user", "content": '  héllo <b> "quoted" 🙂  '}, {"role": "assistant", "content": "ok"}]
TEMPLATES = {
    "trim_blocks and lstrip_blocks": "{% for m in messages %}\n    {% if m.role == 'user' %}\n[{{ m.content }}]\n"
    "    {% endif %}\n{% endfor %}",
    "tojson keeps non-ASCII and does not escape HTML": "{{ messages | tojson }}|{{ messages[0] | tojson(indent=2) }}",
    "tojson's options": "{{ {'b': 1, 'a': [1, 2]} | tojson(separators=(',', ':'), sort_keys=true) }}",
    "loop controls": "{% for m in messages %}{% if loop.first %}{% continue %}{% endif %}{{ m.role }}{% break %}"
    "{% endfor %}",
    "trim and namespace": "{% set ns = namespace(n=0) %}{% for m in messages %}{% set ns.n = ns.n + 1 %}"
    "{{ m.content | trim }}{% endfor %}{{ ns.n }}",
    "bos token and generation prompt": "{{ bos_token }}{% if add_generation_prompt %}<reply>{% endif %}",
}


@pytest.mark.parametrize("template", TEMPLATES.values(), ids=TEMPLATES)
def test_small_templates_render_as_transformers_renders_them(template):
    variables = dict(add_generation_prompt=True, bos_token="<s>")
    expected, _ = chat_template_utils.render_jinja_template(
        conversations=[MESSAGES], chat_template=template, **variables
    )
    assert render_template(template, messages=MESSAGES, tools=None, documents=None, **variables) == expected[0]


def test_a_templates_raise_exception_is_a_value_error_with_its_words():
    gemma_like = "{% if messages[0]['role'] != 'user' %}{{ raise_exception('Conversation roles must alternate') }}"
    with pytest.raises(ValueError, match="^the chat template stopped: Conversation roles must alternate$"):
        render_template(gemma_like + "{% endif %}", messages=[{"role": "assistant", "content": "x"}])


def test_strftime_now_is_todays_date(monkeypatch):
    import datetime

    assert render_template("{{ strftime_now('%Y') }}") == str(datetime.datetime.now().year)


@pytest.mark.parametrize(
    ("template", "words"),
    [
        ("{{ messages.__class__.__mro__ }}", "unsafe"),
        ("{{ ''.__class__.__mro__[1].__subclasses__() }}", "unsafe"),
        ("{{ cycler.__init__.__globals__ }}", "unsafe|undefined"),
        ("{% set x = messages.append(1) %}", "unsafe|cannot modify"),
        ("{{ 'x' * 10**9 }}", "too long"),
        ("{{ [0] * 100000000 }}", "too long"),
        ("{{ 9 ** 99999999 }}", "too large a power"),
        ("{% for i in range(100000) %}{{ 'abcdefghij' * 100 }}{% endfor %}", "wrote more than 1,000,000 characters"),
        ("{{ x", "unexpected end of template"),
        ("{{ messages[5] }}", None),  # undefined, written as nothing (as transformers does)
        ("{{ 1 / 0 }}", "division by zero"),
        ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "recursion"),
    ],
)
def test_hostile_templates_are_refused_in_words(template, words):
    if words is None:
        assert render_template(template, messages=[]) == ""
        return
    with pytest.raises(ValueError, match=words):
        render_template(template, messages=[])


def test_a_template_that_loops_writing_nothing_is_stopped_by_the_time_bound(monkeypatch):
    monkeypatch.setenv("BPE_TEMPLATE_SECONDS", "0.2")
    endless = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    with pytest.raises(ValueError, match=r"worked for more than 0\.2 s; stopped"):
        render_template(endless)


def test_a_template_over_the_size_limit_is_refused_before_it_is_read():
    with pytest.raises(ValueError, match="at most 100,000"):
        render_template("x" * (MAX_TEMPLATE_CHARS + 1))
    assert render_template("x" * MAX_TEMPLATE_CHARS) == "x" * MAX_TEMPLATE_CHARS
