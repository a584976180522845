"""Reading the token boxes' HTML (drawing.token_html) as a browser would: the boxes, their groups and texts, the
scroll boxes they sit in, a piece of markup as plain text."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

# The scroll boxes as Tab reaches them and a screen reader names them
TOKENS_BOX = '<div class="bpe-scroll" tabindex="0" role="region" aria-label="Text cut into tokens">'
LINES_BOX = '<div class="bpe-scroll" tabindex="0" role="region" aria-label="Lines cut into tokens">'


class TokenBox:
    """A token box (span.tok) or a group of them (span.char-group): its classes, details and text."""

    def __init__(self, attrs: dict):
        self.classes = attrs.get("class", "").split()
        self.details = attrs.get("data-details", attrs.get("title", ""))  # a token's details, a group's title
        self.text = ""


class SpanCollector(HTMLParser):
    """Collect token boxes (span.tok) and char groups (span.char-group) with their text."""

    def __init__(self):
        super().__init__()
        self.tokens: list[TokenBox] = []
        self.groups: list[list[TokenBox]] = []
        self.elements: list[str] = []
        self._stack: list[TokenBox | None] = []
        self._group: list[TokenBox] | None = None

    def handle_starttag(self, tag, attrs):
        self.elements.append(tag)
        if tag == "br":
            return
        attrs = dict(attrs)
        box = (
            TokenBox(attrs)
            if tag == "span"
            and ("tok" in attrs.get("class", "").split() or "char-group" in attrs.get("class", "").split())
            else None
        )
        if box is not None and "char-group" in box.classes:
            self._group = []
            self.groups.append(self._group)
        elif box is not None:
            self.tokens.append(box)
            if self._group is not None:
                self._group.append(box)
        self._stack.append(box)

    def handle_endtag(self, tag):
        if tag == "br":
            return
        box = self._stack.pop()
        if box is not None and "char-group" in box.classes:
            self._group = None

    def handle_data(self, data):
        for box in self._stack:
            if box is not None and "tok" in box.classes:
                box.text += data


def parse(markup: str) -> SpanCollector:
    """The token boxes and groups of ``markup``, read by ``SpanCollector``."""
    collector = SpanCollector()
    collector.feed(markup)
    return collector


def plain_text(markup: str) -> str:
    """What a piece of markup reads as: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))
