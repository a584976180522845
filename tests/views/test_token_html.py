"""The token HTML builders: escaping, whitespace glyphs, colours, partial characters, hovers."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from bpe_core import Config, Token, load_gpt2, train
from viz.token_html import KIND_NOTES, PALETTES, render_legend, render_lines, render_tokens

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
    shown = "".join(box.text for box in parsed.tokens).replace("␣", " ")
    assert shown == payload
    # every token's own text appears, unescaped, in its hover
    for token, box in zip(gpt2.encode_with_spans(payload), parsed.tokens):
        assert repr(payload[token.start:token.end]) in box.title


def test_whitespace_is_visible_and_newlines_break_lines():
    tok = train("a b\n\tc", Config(split="none"), merges=0)
    markup = render_with(tok, "a b\n\tc")
    texts = [box.text for box in parse(markup).tokens]
    assert texts == ["a", "␣", "b", "↵", "→", "c"]
    assert "↵</i></span><br>" in markup  # the line breaks right after the newline's box


def test_byte_level_spaces_and_newlines(gpt2):
    texts = [box.text for box in parse(render_with(gpt2, "Hi there\nyou")).tokens]
    assert texts == ["Hi", "␣there", "↵", "you"]


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
    assert [box.text for box in group] == ["␣F0 9F 98", "80"]
    assert all("partial" in box.title for box in group)
    assert parsed.tokens[0] not in group


def test_hover_names_id_bytes_and_merge_step(gpt2):
    boxes = parse(render_with(gpt2, "Hello, world")).tokens
    hello, comma, world = boxes
    assert "id 15496" in hello.title
    assert "bytes 48 65 6C 6C 6F" in hello.title
    assert "made by merge step 15241" in hello.title  # GPT-2's merged tokens have ids 256 + (step - 1)
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
    assert gap.endswith("><i>␣</i><i>␣</i>")  # the two spaces no token holds, greyed between the words


def test_long_text_is_capped_with_a_note(banana):
    text = BANANA * 100
    markup = render_with(banana, text, max_chars=150)
    # each 15 characters encode as banana_ban | d | ana_: 10 repeats start before character 150
    assert [box.text for box in parse(markup).tokens] == ["banana_ban", "d", "ana_"] * 10
    assert '<p class="note">Showing the tokens of the first 150 of 1,500 characters (30 of 300 tokens).</p>' in markup


def test_ten_thousand_characters_show_every_token(gpt2):
    text = ("In the beginning God created the heaven and the earth. 🙂 café\n" * 200)[:10_000]
    assert render_with(gpt2, text).count('class="tok ') == len(gpt2.encode(text))


def plain_text(markup: str) -> str:
    """What a piece of markup reads as: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def legend_items(markup: str) -> list[str]:
    return [plain_text(item) for item in markup.split('<span class="item">')[1:]]


GLYPH_KEY = "␣ space, ↵ newline, → tab, ␍ carriage return"


def test_legend_lists_only_the_kinds_present(gpt2):
    boxes = "token one box per token (hover for details)"
    assert legend_items(render_legend(gpt2.encode_with_spans("hello"), "hello")) == [boxes, GLYPH_KEY]
    assert legend_items(render_legend(gpt2.encode_with_spans("a 😀"), "a 😀")) == [
        boxes, GLYPH_KEY, "F0 9F98 80=… tokens holding parts of one character (hex bytes)",
    ]
    unk = Token(0, "<unk>", 0, 1, "é".encode(), "unknown")
    assert legend_items(render_legend([unk], "é")) == [boxes, GLYPH_KEY, "<unk> character never seen in training"]
    gap = Token(1, "b", 1, 2, b"b")
    assert legend_items(render_legend([gap], " b")) == [boxes, GLYPH_KEY, "␣ whitespace in no token (the split drops it)"]


def test_byte_fallback_tokens_have_their_own_style_and_legend():
    tok = train("hello there", Config(split="gpt2", unknown="byte_fallback"), merges=3)
    tokens = tok.encode_with_spans("hé")
    assert [token.kind for token in tokens] == ["normal", "byte", "byte"]
    parsed = parse(render_with(tok, "hé"))
    assert [box.text for box in parsed.tokens] == ["h", "C3", "A9"]
    assert all("k-byte" in box.classes and "byte fallback" in box.title for box in parsed.tokens[1:])
    assert [box.text for box in parsed.groups[0]] == ["C3", "A9"]  # one character, two byte tokens
    assert "byte fallback" in render_legend(tokens, "hé")


# -- several lines at once (the Merges page's step view) -----------------------------


def render_lines_with(tok, lines: list[str], **options) -> str:
    return render_lines(lines, [tok.encode_with_spans(line) for line in lines], **options)


def test_lines_show_merges_fusing_symbols(banana):
    before = parse(render_lines_with(banana.prefix(0), [BANANA])).tokens
    assert [box.text for box in before] == list(BANANA)
    after_step_1 = parse(render_lines_with(banana.prefix(1), [BANANA], highlight_id=banana.vocab["an"])).tokens
    assert [box.text for box in after_step_1] == ["b", "an", "an", "a", "_", "b", "an", "d", "an", "a", "_"]
    assert ["new" in box.classes for box in after_step_1] == [False, True, True, False, False, False, True, False,
                                                             True, False, False]
    assert all(background(a) != background(b) for a, b in zip(after_step_1, after_step_1[1:]))


def test_lines_are_rows_in_one_scroll_box(banana):
    markup = render_lines_with(banana, ["ban", "ana_"])
    body = markup.split('<div class="bpe-scroll">', 1)[1]
    assert body.count('<div class="line">') == 2
    assert [box.text for box in parse(markup).tokens] == ["ban", "ana_"]


def test_lines_mark_unknown_characters_like_the_encode_page(banana):
    boxes = parse(render_lines_with(banana, ["banzai"])).tokens  # z and i never seen in training
    assert [box.text for box in boxes] == ["ban", "<unk>", "a", "<unk>"]
    assert [("k-unknown" in box.classes) for box in boxes] == [False, True, False, True]
    assert all(box.title.endswith(KIND_NOTES["unknown"]) for box in (boxes[1], boxes[3]))


def test_lines_show_text_no_token_covers_as_a_gap():
    tok = train("ab ab", Config(split="whitespace"), merges=1)
    markup = render_lines_with(tok, ["ab ab"])
    assert [box.text for box in parse(markup).tokens] == ["ab", "ab"]
    assert markup.count('<span class="gap"') == 1 and "><i>␣</i></span>" in markup


def test_lines_escape_token_text():
    tokens = [Token(1, "<script>", 0, 8, b"<script>"), Token(2, 'x"&\n', 8, 12, b'x"&\n')]
    parsed = parse(render_lines(['<script>x"&\n'], [tokens]))
    assert "script" not in parsed.elements
    assert [box.text for box in parsed.tokens] == ["<script>", 'x"&↵']
    assert parsed.tokens[1].title.startswith("id 2 · token 'x\"&\\n'")
