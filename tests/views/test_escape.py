"""Unit tests for drawing/escape.py: outside text shown literally, never as Markdown or HTML."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drawing import escape


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        (":smile:", r"\:smile\:"),  # emoji shortcode
        (":material/delete:", r"\:material\/delete\:"),  # icon: Streamlit rewrites the source ":material/"
        (":red[alarm]", r"\:red\[alarm\]"),  # colour directive
        ("**bold**", r"\*\*bold\*\*"),
        ("# heading", r"\# heading"),
        ("[x](y)", r"\[x\]\(y\)"),
        ("$a^2$", r"\$a\^2\$"),
        ("&amp;", r"\&amp\;"),
        ("![x](http://e/i.png)", r"\!\[x\]\(http\:\/\/e\/i\.png\)"),
        ("1. item", r"1\. item"),
        ("a@b.com", r"a\@b\.com"),  # no e-mail autolink
        ("naïve Ġ 日本", "naïve Ġ 日本"),  # letters, digits and spaces stay as they are
    ],
)
def test_markdown_escapes_streamlit_syntax(text, escaped):
    assert escape.markdown(text) == escaped


@given(st.text())
def test_markdown_loses_nothing(text):
    """Removing each escaping backslash gives the text back: the reader sees exactly what was written."""
    assert re.sub(r"\\(.)", r"\1", escape.markdown(text), flags=re.DOTALL) == text


@given(st.text())
def test_markdown_leaves_no_shortcode_or_icon_in_the_source(text):
    """Streamlit finds emoji and icons in the source before parsing: no ``:name:`` or ``:material/`` may remain."""
    escaped = escape.markdown(text)
    assert re.search(r"(?<!\\):[\w+-][\w_+-]*:", escaped) is None
    assert ":material/" not in escaped


def test_html_text_and_attribute():
    assert escape.html_text("<script>alert('1')</script>") == "&lt;script&gt;alert(&#x27;1&#x27;)&lt;/script&gt;"
    assert escape.attribute('x" onerror="alert(1)') == "x&quot; onerror=&quot;alert(1)"


def test_plotly_text_leaves_quotes_alone():
    # plotly reads &lt; &gt; &amp; but would show &quot; literally
    assert escape.plotly_text("say \"hi\" & 'bye' <b>") == "say \"hi\" &amp; 'bye' &lt;b&gt;"
