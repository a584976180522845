"""The token HTML builders: escaping, whitespace glyphs, colours, partial characters, hovers."""

from __future__ import annotations

import html
import time
from html.parser import HTMLParser

import pytest

from bpe_core import Config, Token, load_gpt2, train
from viz.token_html import PALETTES, render_explain, render_legend, render_tokens

BANANA = "banana_bandana_"


class _Box:
    def __init__(self, attrs: dict):
        self.classes = attrs.get("class", "").split()
        self.title = attrs.get("title", "")
        self.text = ""


class SpanCollector(HTMLParser):
    """Collect token boxes (span.tok) and char groups (span.char-group) with their text."""

    def __init__(self):
        super().__init__()
        self.tokens: list[_Box] = []
        self.groups: list[list[_Box]] = []
        self.elements: list[str] = []
        self._stack: list[_Box | None] = []
        self._group: list[_Box] | None = None

    def handle_starttag(self, tag, attrs):
        self.elements.append(tag)
        if tag == "br":
            return
        attrs = dict(attrs)
        box = _Box(attrs) if tag == "span" and ("tok" in attrs.get("class", "").split()
                                                 or "char-group" in attrs.get("class", "").split()) else None
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
    collector = SpanCollector()
    collector.feed(markup)
    return collector


def background(box: _Box) -> str:
    """The box's background colour, looked up from its kind and colour classes."""
    kind = next(name[2:] for name in box.classes if name.startswith("k-"))
    shade = next(int(name[1:]) for name in box.classes if name[0] == "c" and name[1:].isdigit())
    return PALETTES[kind][shade]


@pytest.fixture(scope="module")
def gpt2():
    return load_gpt2()


@pytest.fixture(scope="module")
def banana():
    return train(BANANA, Config(split="none"), merges=6)


def render_with(tok, text: str, **options) -> str:
    return render_tokens(tok.encode_with_spans(text), text, byte_level=tok.config.units == "bytes",
                         end_of_word=tok.config.end_of_word, created_at=tok.created_at, **options)


def test_one_box_per_token_in_text_order(banana):
    boxes = parse(render_with(banana, "bandana_")).tokens
    assert [box.text for box in boxes] == ["ban", "d", "ana_"]


@pytest.mark.parametrize("payload", ["<script>alert(1)</script>", '<img src=x onerror=alert(1)>', 'a"b\'c&d'])
def test_text_and_titles_are_escaped(gpt2, payload):
    markup = render_with(gpt2, payload)
    parsed = parse(markup)
    assert "script" not in parsed.elements and "img" not in parsed.elements
    shown = "".join(box.text for box in parsed.tokens).replace("·", " ")
    assert shown == payload
    # every token's own text appears, unescaped, in its hover
    for token, box in zip(gpt2.encode_with_spans(payload), parsed.tokens):
        assert repr(payload[token.start:token.end]) in box.title


def test_whitespace_is_visible_and_newlines_break_lines():
    tok = train("a b\n\tc", Config(split="none"), merges=0)
    markup = render_with(tok, "a b\n\tc")
    texts = [box.text for box in parse(markup).tokens]
    assert texts == ["a", "·", "b", "↵", "→", "c"]
    assert "↵</i></span><br>" in markup  # the line breaks right after the newline's box


def test_byte_level_spaces_and_newlines(gpt2):
    texts = [box.text for box in parse(render_with(gpt2, "Hi there\nyou")).tokens]
    assert texts == ["Hi", "·there", "↵", "you"]


def test_adjacent_tokens_never_share_a_colour(gpt2):
    text = "The quick brown fox, 12345 times!\n" * 20
    boxes = parse(render_with(gpt2, text)).tokens
    assert len(boxes) > 100
    assert all(background(a) != background(b) for a, b in zip(boxes, boxes[1:]))
    assert len(PALETTES["normal"]) >= 4


def test_adjacent_unknown_tokens_differ_and_look_unknown():
    tok = train("abc abc", Config(split="none"), merges=1)
    boxes = parse(render_with(tok, "ééa")).tokens
    assert [box.text for box in boxes] == ["<unk>", "<unk>", "a"]
    assert background(boxes[0]) != background(boxes[1])
    assert "k-unknown" in boxes[0].classes and "k-unknown" not in boxes[2].classes
    assert "never appeared in the training text" in boxes[0].title


def test_partial_character_tokens_are_grouped_as_hex(gpt2):
    tokens = gpt2.encode_with_spans("a 😀")
    assert [token.partial for token in tokens] == [False, True, True]  # the engine splits the emoji
    markup = render_with(gpt2, "a 😀")
    parsed = parse(markup)
    assert "\ufffd" not in markup
    assert len(parsed.groups) == 1
    group = parsed.groups[0]
    assert [box.text for box in group] == ["·F0 9F 98", "80"]
    assert all("partial" in box.title for box in group)
    assert parsed.tokens[0] not in group


def test_hover_names_id_bytes_and_merge_step(gpt2):
    boxes = parse(render_with(gpt2, "Hello, world")).tokens
    hello, comma, world = boxes
    assert "id 15496" in hello.title
    assert "bytes 48 65 6C 6C 6F" in hello.title
    assert f"made by merge step {gpt2.created_at[15496] + 1}" in hello.title
    assert "base symbol" in comma.title  # ',' is one byte: no merge made it
    assert "token 'Ġworld'" in world.title


def test_special_tokens_are_marked(gpt2):
    boxes = parse(render_with(gpt2, "a<|endoftext|>b")).tokens
    assert boxes[1].text == "<|endoftext|>"
    assert "k-special" in boxes[1].classes and "special token" in boxes[1].title


def test_end_of_word_marker_and_dropped_whitespace_are_shown():
    tok = train("low lower lowest", Config(end_of_word="</w>"), merges=3)
    markup = render_with(tok, "low  low")
    texts = [box.text for box in parse(markup).tokens]
    assert texts[-1].endswith("</w>")
    gap = markup.split('<span class="gap"', 1)[1].split("</span>", 1)[0]
    assert gap.count("<i>·</i>") == 2  # the two spaces no token holds, greyed between the words


def test_long_text_is_capped_with_a_note(banana):
    text = BANANA * 100
    markup = render_with(banana, text, max_chars=150)
    shown = parse(markup).tokens
    assert 0 < len(shown) < len(banana.encode(text))
    assert "first 150 of 1,500 characters" in markup


def test_ten_thousand_characters_render_quickly(gpt2):
    text = ("In the beginning God created the heaven and the earth. 🙂 café\n" * 200)[:10_000]
    started = time.perf_counter()
    markup = render_with(gpt2, text)
    assert time.perf_counter() - started < 1.0
    assert markup.count('class="tok ') == len(gpt2.encode(text))


def test_legend_lists_only_the_kinds_present(gpt2):
    plain = render_legend(gpt2.encode_with_spans("hello"), "hello")
    assert "never seen in training" not in plain and "parts of one character" not in plain
    emoji = render_legend(gpt2.encode_with_spans("a 😀"), "a 😀")
    assert "parts of one character" in emoji
    unk = Token(0, "<unk>", 0, 1, "é".encode(), "unknown")
    assert "never seen in training" in render_legend([unk], "é")


def test_explain_rows_name_each_training_step(banana):
    history = banana.explain("bandana_")
    markup = render_explain(history, banana.merges, counts=[step.count for step in banana.steps])
    assert markup.count('class="step-row"') == len(history) == 5
    assert "base symbols" in markup
    for step in (1, 2, 3, 4):
        assert f"step {step}:" in markup
    assert f"(pair seen {banana.steps[0].count:,} times)" in markup
    first_merge_row = markup.split('class="step-row"')[2]
    assert first_merge_row.count(" new") == 2  # both "an"s made by step 1 are outlined


def test_explain_without_counts_and_escapes_symbols(gpt2):
    markup = render_explain(gpt2.explain("<b>"), gpt2.merges, counts=None)
    assert "pair seen" not in markup  # GPT-2 has no training counts
    assert "b" not in parse(markup).elements  # the symbol "<" + "b" + ">" is text, not a tag
    assert html.escape("<") in markup


def test_byte_fallback_tokens_have_their_own_style_and_legend():
    tok = train("hello there", Config(split="gpt2", unknown="byte_fallback"), merges=3)
    tokens = tok.encode_with_spans("hé")
    assert [token.kind for token in tokens] == ["normal", "byte", "byte"]
    parsed = parse(render_with(tok, "hé"))
    assert [box.text for box in parsed.tokens] == ["h", "C3", "A9"]
    assert all("k-byte" in box.classes and "byte fallback" in box.title for box in parsed.tokens[1:])
    assert [box.text for box in parsed.groups[0]] == ["C3", "A9"]  # one character, two byte tokens
    assert "byte fallback" in render_legend(tokens, "hé")
