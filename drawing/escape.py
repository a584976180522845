r"""The one place that makes outside text (corpora, files, typed text, model names) safe to show.

Pick the escaper for where the text goes:

- ``markdown(text)``: ``st.markdown``, ``st.caption``, alerts, widget labels and help (Markdown, no HTML);
- ``html_text(text)``: a text node of HTML given to ``st.html``;
- ``attribute(text)``: a double-quoted HTML attribute value.

Streamlit's Markdown goes beyond CommonMark: ``:smile:`` emoji, ``:material/delete:`` icons and
``:red[...]`` colour directives. It spots the first two in the *source* text (before parsing), so
escaping must leave no ``:name:`` or ``:material/`` there; escaping every ASCII punctuation mark does.

>>> print(markdown(":red[**hi**] :smile:"))
\:red\[\*\*hi\*\*\] \:smile\:
"""

from __future__ import annotations

import html
import string

# CommonMark lets any ASCII punctuation be backslash-escaped; escaping all of it covers emphasis, links,
# headings, lists, tables, LaTeX ($), entities (&), autolinks (: / @) and Streamlit's own : syntax.
_MARKDOWN_PUNCTUATION = frozenset(string.punctuation)


def markdown(text: str) -> str:
    r"""``text`` that Streamlit's Markdown shows literally, character for character.

    >>> print(markdown("# [x](y) $a$ &amp; :material/delete:"))
    \# \[x\]\(y\) \$a\$ \&amp\; \:material\/delete\:
    """
    return "".join("\\" + char if char in _MARKDOWN_PUNCTUATION else char for char in text)


def html_text(text: str) -> str:
    """``text`` for a text node of HTML (``st.html``), where Markdown is never parsed.

    >>> html_text('<b> & "x"')
    '&lt;b&gt; &amp; &quot;x&quot;'
    """
    return html.escape(text)


def attribute(text: str) -> str:
    """``text`` for a double-quoted HTML attribute (quotes ' stay short: they are safe there).

    >>> attribute('a "b" <c> \\'d\\'')
    "a &quot;b&quot; &lt;c&gt; 'd'"
    """
    return html.escape(text, quote=False).replace('"', "&quot;")


def plotly_text(text: str) -> str:
    """``text`` for plotly titles, labels and hovers, which read a few HTML tags and entities but not ``&quot;``.

    >>> plotly_text('<b> & "x"')
    '&lt;b&gt; &amp; "x"'
    """
    return html.escape(text, quote=False)


def scroll_box(name: str) -> str:
    """The attributes of a box of ours that scrolls: Tab reaches it, so the keyboard can scroll it, and a screen
    reader names it (WCAG 2.1.1; axe's scrollable-region-focusable).

    >>> scroll_box('Tokens of "a"')
    'tabindex="0" role="region" aria-label="Tokens of &quot;a&quot;"'
    """
    return f'tabindex="0" role="region" aria-label="{attribute(name)}"'
