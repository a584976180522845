"""The token HTML builders: escaping, whitespace glyphs, colours, partial characters, hovers."""

from __future__ import annotations

import pytest
from support.token_html import LINES_BOX, TOKENS_BOX, TokenBox, parse, plain_text

from bpe_core import Config, Token, load_gpt2, train
from drawing.token_html import PALETTES, render_lines, render_tokens
from drawing.token_legend import render_legend
from drawing.token_popover import KIND_NOTES, token_details

BANANA = "banana_bandana_"


def background(box: TokenBox) -> str:
    """The box's background colour, looked up from its kind and colour classes."""
    kind = next(name[2:] for name in box.classes if name.startswith("k-"))
    shade = next(int(name[1:]) for name in box.classes if name[0] == "c" and name[1:].isdigit())
    return PALETTES[kind][shade]


@pytest.fixture(scope="module")
def gpt2():
    return load_gpt2()


def render_with(tok, text: str, **options) -> str:
    return render_tokens(
        tok.encode_with_spans(text),
        text,
        byte_level=tok.config.units == "bytes",
        end_of_word=tok.config.end_of_word,
        created_at=tok.created_at,
        **options,
    )


def test_one_box_per_token_in_text_order(banana):
    boxes = parse(render_with(banana, "bandana_")).tokens
    assert [box.text for box in boxes] == ["ban", "d", "ana_"]


@pytest.mark.parametrize("payload", ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "a\"b'c&d"])
def test_text_and_details_are_escaped(gpt2, payload):
    markup = render_with(gpt2, payload)
    parsed = parse(markup)
    assert "script" not in parsed.elements and "img" not in parsed.elements
    shown = "".join(box.text for box in parsed.tokens).replace("␣", " ")
    assert shown == payload
    # every token's own text appears, unescaped, in its hover
    for token, box in zip(gpt2.encode_with_spans(payload), parsed.tokens):
        assert repr(payload[token.start : token.end]) in box.details


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
    assert "never appeared in the training text" in boxes[0].details


def test_partial_character_tokens_are_grouped_as_hex(gpt2):
    tokens = gpt2.encode_with_spans("a 😀")
    assert [token.partial for token in tokens] == [False, True, True]  # the engine splits the emoji
    markup = render_with(gpt2, "a 😀")
    parsed = parse(markup)
    assert "\ufffd" not in markup
    assert len(parsed.groups) == 1
    group = parsed.groups[0]
    assert [box.text for box in group] == ["␣F0 9F 98", "80"]
    assert all("partial" in box.details for box in group)
    assert parsed.tokens[0] not in group


def test_hover_names_id_bytes_and_merge_step(gpt2):
    boxes = parse(render_with(gpt2, "Hello, world")).tokens
    hello, comma, world = boxes
    assert "id 15496" in hello.details
    assert "bytes 48 65 6C 6C 6F" in hello.details
    assert "made by merge step 15241" in hello.details  # GPT-2's merged tokens have ids 256 + (step - 1)
    assert "base symbol" in comma.details  # ',' is one byte: no merge made it
    # written as its box writes it, GPT-2's own spelling named beside it with its Ġ
    assert "id 995 · token '␣world' (GPT-2's byte alphabet writes it 'Ġworld': Ġ is a space)\n" in world.details


def test_special_tokens_are_marked(gpt2):
    boxes = parse(render_with(gpt2, "a<|endoftext|>b")).tokens
    assert boxes[1].text == "<|endoftext|>"
    assert "k-special" in boxes[1].classes and "special token" in boxes[1].details


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


def legend_items(markup: str) -> list[str]:
    return [plain_text(item) for item in markup.split('<span class="item">')[1:]]


SPACE_KEY = "␣ a space"  # the glyphs' line names only the whitespace the text holds


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("hello", None),
        ("a b", "␣ a space"),
        ("a\tb\r\n", "↵ a newline, → a tab, ← a carriage return"),
        ("a b\nc", "␣ a space, ↵ a newline"),
    ],
)
def test_the_glyphs_line_names_only_the_whitespace_present(text, line):
    items = legend_items(render_legend([Token(0, "t", 0, len(text), text.encode())], text))  # one token holds all
    assert items[1:] == ([line] if line else [])


def test_legend_lists_only_the_kinds_present(gpt2):
    boxes = "token one box per token (hover, click or tap for details)"
    assert legend_items(render_legend(gpt2.encode_with_spans("hello"), "hello")) == [boxes]
    assert legend_items(render_legend(gpt2.encode_with_spans("a 😀"), "a 😀")) == [
        boxes,
        SPACE_KEY,
        "F0 9F98 80=… tokens holding parts of one character (hex bytes)",
    ]
    unk = Token(0, "<unk>", 0, 1, "é".encode(), "unknown")
    assert legend_items(render_legend([unk], "é")) == [boxes, "<unk> character never seen in training"]
    gap = Token(1, "b", 1, 2, b"b")
    assert legend_items(render_legend([gap], " b")) == [
        boxes,
        SPACE_KEY,
        "␣ whitespace in no token (the split drops it)",
    ]


def test_legend_names_the_marks_the_boxes_spell_tokens_with(gpt2):
    boxes = "token one box per token (hover, click or tap for details)"
    words = [Token(0, "lo", 0, 2, b"lo"), Token(1, "w</w>", 2, 3, b"w")]  # Sennrich's end-of-word marker
    assert legend_items(render_legend(words, "low")) == [boxes, "</w> the end of a word"]
    sentencepiece = [Token(5, "▁the", 0, 4, b" the")]  # Llama 2's mark for a space
    assert legend_items(render_legend(sentencepiece, " the")) == [
        boxes,
        SPACE_KEY,
        "▁ a space, as SentencePiece marks it",
    ]
    # GPT-2's boxes show the text their bytes spell: its Ġ never reaches a box, so nothing more is named
    assert legend_items(render_legend(gpt2.encode_with_spans(" the end"), " the end")) == [boxes, SPACE_KEY]


def test_byte_fallback_tokens_have_their_own_style_and_legend():
    tok = train("hello there", Config(split="gpt2", unknown="byte_fallback"), merges=3)
    tokens = tok.encode_with_spans("hé")
    assert [token.kind for token in tokens] == ["normal", "byte", "byte"]
    parsed = parse(render_with(tok, "hé"))
    assert [box.text for box in parsed.tokens] == ["h", "<0xC3>", "<0xA9>"]  # a byte-fallback token shows its name
    assert all("k-byte" in box.classes and "byte fallback" in box.details for box in parsed.tokens[1:])
    assert [box.text for box in parsed.groups[0]] == ["<0xC3>", "<0xA9>"]  # one character, two byte tokens
    assert "byte fallback" in render_legend(tokens, "hé")


# -- several lines at once (the Merges page's step view) -----------------------------


def render_lines_with(tok, lines: list[str], **options) -> str:
    return render_lines(lines, [tok.encode_with_spans(line) for line in lines], **options)


def test_lines_show_merges_fusing_symbols(banana):
    before = parse(render_lines_with(banana.prefix(0), [BANANA])).tokens
    assert [box.text for box in before] == list(BANANA)
    after_step_1 = parse(render_lines_with(banana.prefix(1), [BANANA], highlight_id=banana.vocab["an"])).tokens
    assert [box.text for box in after_step_1] == ["b", "an", "an", "a", "_", "b", "an", "d", "an", "a", "_"]
    assert ["new" in box.classes for box in after_step_1] == [
        False,
        True,
        True,
        False,
        False,
        False,
        True,
        False,
        True,
        False,
        False,
    ]
    assert all(background(a) != background(b) for a, b in zip(after_step_1, after_step_1[1:]))


def test_lines_are_rows_in_one_scroll_box(banana):
    markup = render_lines_with(banana, ["ban", "ana_"])
    body = markup.split(LINES_BOX, 1)[1]
    assert body.count('<div class="line">') == 2
    assert [box.text for box in parse(markup).tokens] == ["ban", "ana_"]


def test_lines_mark_unknown_characters_like_the_encode_page(banana):
    boxes = parse(render_lines_with(banana, ["banzai"])).tokens  # z and i never seen in training
    assert [box.text for box in boxes] == ["ban", "<unk>", "a", "<unk>"]
    assert [("k-unknown" in box.classes) for box in boxes] == [False, True, False, True]
    assert all(box.details.endswith(KIND_NOTES["unknown"]) for box in (boxes[1], boxes[3]))


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
    assert parsed.tokens[1].details.startswith("id 2 · token 'x\"&↵'")  # the newline as the box draws it


# -- the helpers, on cases worked out by hand -------------------------------------------------------

from drawing.token_html import bytes_label, colour_class, show_whitespace, token_label  # noqa: E402


def test_colour_class_cycles_through_each_kinds_palette():
    # normal has 6 colours, byte, unknown and special 2 each; a kind without a palette uses normal's
    assert [colour_class("normal", position) for position in (0, 5, 6, 7)] == ["c0", "c5", "c0", "c1"]
    assert [colour_class("byte", position) for position in (0, 1, 2, 3)] == ["c0", "c1", "c0", "c1"]
    assert colour_class("mystery", 7) == "c1"


def test_show_whitespace_counts_newlines_and_escapes():
    assert show_whitespace("\r\t<&") == ("<i>←</i><i>→</i>&lt;&amp;", 0)
    assert show_whitespace("a\n\nb") == ("a<i>↵</i><i>↵</i>b", 2)


def test_bytes_label_reads_whole_characters_of_every_utf8_length():
    # a (1 byte), é (2: C3 A9), € (3: E2 82 AC), 𐀀 (4: F0 90 80 80, the first 4-byte character), é again:
    # reading one byte too many or too few at any of them would spoil the next character
    assert bytes_label("aé€𐀀é".encode()) == "aé€𐀀é"
    assert bytes_label("\u0800".encode()) == "\u0800"  # E0 A0 80: the first 3-byte character


def test_bytes_label_shows_stray_bytes_as_one_hex_run_per_gap():
    assert bytes_label(b"\xe2\x82") == '<span class="hex">E2 82</span>'  # € without its last byte
    assert bytes_label(b"a\xff\x80b\x80") == 'a<span class="hex">FF 80</span>b<span class="hex">80</span>'
    assert bytes_label(b"<\n") == "&lt;<i>↵</i>"
    assert bytes_label(b"") == ""


def test_token_label_per_kind():
    assert token_label(Token(0, "<unk>", 0, 1, "é".encode(), "unknown"), byte_level=False) == "&lt;unk&gt;"
    assert token_label(Token(9, "<s>", 0, 3, b"<s>", "special"), byte_level=True) == "&lt;s&gt;"
    # names as they are: an <unk> in a byte-level model does not spell its bytes, a special name keeps its space
    assert token_label(Token(0, "<unk>", 0, 1, "é".encode(), "unknown"), byte_level=True) == "&lt;unk&gt;"
    assert token_label(Token(9, "<my sep>", 0, 8, b"<my sep>", "special"), byte_level=False) == "&lt;my sep&gt;"
    # a byte-fallback token shows its name, as the model's vocabulary spells it (issue 19); byte-level tokens
    # show the text their bytes spell, or hex
    assert token_label(Token(5, "<0xC3>", 0, 1, b"\xc3", "byte"), byte_level=False) == "&lt;0xC3&gt;"
    assert token_label(Token(5, "<0xC3>", 0, 1, b"\xc3", "byte", partial=True), byte_level=True) == "&lt;0xC3&gt;"
    assert token_label(Token(5, "Ġhi", 0, 3, b" hi"), byte_level=True) == "<i>␣</i>hi"
    assert (
        token_label(Token(5, "x", 0, 1, b"\xf0\x9f", partial=True), byte_level=False)
        == '<span class="hex">F0 9F</span>'
    )
    # a character token: its vocabulary string, the end-of-word marker greyed only at the end
    assert token_label(Token(5, "a b", 0, 3, b"a b"), byte_level=False) == "a<i>␣</i>b"
    assert token_label(Token(5, "lo", 0, 2, b"lo"), byte_level=False, end_of_word="</w>") == "lo"
    assert token_label(Token(5, "</w>lo", 0, 2, b"lo"), byte_level=False, end_of_word="</w>") == "&lt;/w&gt;lo"


def test_token_details_lines_by_hand():
    assert token_details(Token(7, "ab", 1, 3, b"ab"), "xab") == "id 7 · token 'ab'\ntext 'ab'\nbytes 61 62"
    assert token_details(Token(3, "a", 0, 1, b"a"), "a", created_at={7: 0}).endswith(
        "\nbase symbol (not made by a merge)"
    )
    assert token_details(Token(7, "ab", 0, 2, b"ab"), "ab", created_at={7: 4}).endswith("\nmade by merge step 5")
    marker = token_details(Token(4, "</w>", 2, 2, b""), "ab")
    assert marker.splitlines()[2] == "bytes (none: a marker covers no text)"
    unknown = token_details(Token(0, "<unk>", 0, 1, "é".encode(), "unknown"), "é", created_at={})
    assert unknown.splitlines()[3:] == ["special token", KIND_NOTES["unknown"]]
    special = token_details(Token(9, "<s>", 0, 3, b"<s>", "special"), "<s>", created_at={9: 0})
    assert special.splitlines()[3:] == ["special token", KIND_NOTES["special"]]  # not "made by merge step 1"
    part = token_details(Token(5, "x", 0, 1, b"\xf0\x9f", partial=True), "😀")
    assert part.splitlines()[1] == "text '😀' (the whole character this token is part of)"
    assert part.splitlines()[-1].startswith("partial: holds only part of a multi-byte character")


# -- token runs built by hand: gaps, line breaks, groups of partial tokens, the note ----------------

from drawing.token_html import STYLE  # noqa: E402

GRIN = "😀"  # F0 9F 98 80


def scroll(markup: str) -> str:
    """The token run inside the scroll box (no style, no note)."""
    head = f'{STYLE}<div class="bpe-tv">{TOKENS_BOX}'
    assert markup.startswith(head) and markup.endswith("</div></div>")  # no note before the run
    return markup[len(head) : -len("</div></div>")]


def box(classes: str, details: str, label: str) -> str:
    return f'<span class="tok {classes}" data-details="{details}" tabindex="0">{label}</span>'


def test_gaps_at_either_end_are_shown_with_their_title():
    # " a " cut into the one token a (1, 2): a space before it and one after it lie in no token
    markup = render_tokens([Token(1, "a", 1, 2, b"a")], " a ")
    gap = '<span class="gap" title="\' \': not in any token (the pre-tokenizer drops it)"><i>␣</i></span>'
    assert scroll(markup) == gap + box("k-normal c0", "id 1 · token 'a'\ntext 'a'\nbytes 61", "a") + gap


def test_a_gap_of_newlines_breaks_the_line_once_per_newline():
    tokens = [Token(1, "ab", 0, 2, b"ab"), Token(1, "ab", 4, 6, b"ab")]
    run = scroll(render_tokens(tokens, "ab\n\nab"))
    gap = '<span class="gap" title="\'\\n\\n\': not in any token (the pre-tokenizer drops it)"><i>↵</i><i>↵</i></span>'
    assert gap + "<br><br>" in run and run.count("<br>") == 2


def test_boxes_for_names_never_break_the_line():
    # <unk> and a special token show their name, not ↵, so no line break follows them even when they cover a newline
    tokens = [
        Token(0, "<unk>", 0, 1, b"\n", "unknown"),
        Token(9, "<sep>", 1, 2, b"\n", "special"),
        Token(2, "a", 2, 3, b"a"),
    ]
    run = scroll(render_tokens(tokens, "\n\na"))
    assert "<br>" not in run
    # ... while a normal newline token does, once per newline it holds
    assert scroll(render_tokens([Token(3, "\n\n", 0, 2, b"\n\n")], "\n\n")).endswith("</span><br><br>")


def test_colour_classes_follow_each_tokens_kind_and_place():
    tokens = [Token(1, "a", 0, 1, b"a"), Token(2, "b", 1, 2, b"b"), Token(0, "<unk>", 2, 3, "é".encode(), "unknown")]
    boxes = parse(render_tokens(tokens, "abé")).tokens
    # the <unk> at place 2 takes unknown's palette of 2: c0 (normal's palette of 6 would give c2)
    assert [box.classes for box in boxes] == [
        ["tok", "k-normal", "c0"],
        ["tok", "k-normal", "c1"],
        ["tok", "k-unknown", "c0"],
    ]


def test_partial_tokens_of_one_character_form_one_group():
    # 😀 then a: two partial tokens (F0 9F | 98 80) spell the emoji, then a box of its own
    tokens = [
        Token(1, "x", 0, 1, b"\xf0\x9f", partial=True),
        Token(2, "y", 0, 1, b"\x98\x80", partial=True),
        Token(3, "a", 1, 2, b"a"),
    ]
    markup = render_tokens(tokens, GRIN + "a")
    parsed = parse(markup)
    assert [[box.text for box in group] for group in parsed.groups] == [["F0 9F", "98 80"]]
    assert [box.text for box in parsed.tokens] == ["F0 9F", "98 80", "a"]
    # places 0, 1, 2 in the run: neighbours alternate inside the group and after it
    assert [box.classes[-1] for box in parsed.tokens] == ["c0", "c1", "c2"]
    assert '<span class="char-group" title="2 tokens together spell \'😀\'">' in markup
    run = scroll(markup)
    assert '</span><span class="char">=😀</span></span><span class="tok' in run  # boxes, the character, then a
    assert '>F0 9F</span></span><span class="tok' in run  # the group's boxes side by side, nothing between
    assert "<br>" not in run


def test_a_token_across_two_characters_joins_their_groups():
    # 😀😀 as F0 9F 98 | 80 F0 9F | 98 80: the middle token holds parts of both, so all three form one group
    tokens = [
        Token(1, "x", 0, 1, b"\xf0\x9f\x98", partial=True),
        Token(2, "y", 0, 2, b"\x80\xf0\x9f", partial=True),
        Token(3, "z", 1, 2, b"\x98\x80", partial=True),
    ]
    parsed = parse(render_tokens(tokens, GRIN * 2))
    assert [[box.text for box in group] for group in parsed.groups] == [["F0 9F 98", "80 F0 9F", "98 80"]]
    # F0 9F | 98 | 80 F0 | 9F 98 80: the third token bridges the characters, the fourth ends the second
    tokens = [
        Token(1, "w", 0, 1, b"\xf0\x9f", partial=True),
        Token(2, "x", 0, 1, b"\x98", partial=True),
        Token(3, "y", 0, 2, b"\x80\xf0", partial=True),
        Token(4, "z", 1, 2, b"\x9f\x98\x80", partial=True),
    ]
    assert [len(group) for group in parse(render_tokens(tokens, GRIN * 2)).groups] == [4]


def test_a_group_spells_from_its_first_tokens_start():
    # F0 9F 98 80 F0 | 9F | 98 80: the first token starts at the first emoji, the others at the second
    tokens = [
        Token(1, "x", 0, 2, b"\xf0\x9f\x98\x80\xf0", partial=True),
        Token(2, "y", 1, 2, b"\x9f", partial=True),
        Token(3, "z", 1, 2, b"\x98\x80", partial=True),
    ]
    markup = render_tokens(tokens, GRIN * 2)
    assert "title=\"3 tokens together spell '😀😀'\"" in markup and '<span class="char">=😀😀</span>' in markup


def test_two_split_characters_side_by_side_are_two_groups():
    tokens = [
        Token(1, "x", 0, 1, b"\xf0\x9f", partial=True),
        Token(2, "y", 0, 1, b"\x98\x80", partial=True),
        Token(1, "x", 1, 2, b"\xf0\x9f", partial=True),
        Token(2, "y", 1, 2, b"\x98\x80", partial=True),
    ]
    assert [len(group) for group in parse(render_tokens(tokens, GRIN * 2)).groups] == [2, 2]


def test_a_group_breaks_the_line_only_for_its_own_newlines():
    # ↵ 😀 ↵: one break after each newline token, none for the group between them
    tokens = [
        Token(5, "\n", 0, 1, b"\n"),
        Token(1, "x", 1, 2, b"\xf0\x9f", partial=True),
        Token(2, "y", 1, 2, b"\x98\x80", partial=True),
        Token(5, "\n", 2, 3, b"\n"),
    ]
    assert scroll(render_tokens(tokens, "\n" + GRIN + "\n")).count("<br>") == 2
    # a partial token that also holds a newline (80 0A): the group spells 😀↵ and the line breaks after it
    tokens = [
        Token(1, "x", 0, 1, b"\xf0\x9f\x98", partial=True),
        Token(2, "y", 0, 2, b"\x80\n", partial=True),
        Token(3, "a", 2, 3, b"a"),
    ]
    run = scroll(render_tokens(tokens, GRIN + "\na"))
    assert '<span class="char">=😀<i>↵</i></span></span><br><span class="tok' in run and run.count("<br>") == 1


def test_a_split_character_at_the_very_start_is_grouped():
    tokens = [Token(1, "x", 0, 1, b"\xf0\x9f", partial=True), Token(2, "y", 0, 1, b"\x98\x80", partial=True)]
    assert [len(group) for group in parse(render_tokens(tokens, GRIN)).groups] == [2]


def test_render_options_reach_every_box():
    lo = Token(1, "lo</w>", 0, 2, b"lo")
    # by default a token shows its vocabulary string, marker and all (not its bytes)
    assert parse(render_tokens([lo], "lo")).tokens[0].text == "lo</w>"
    assert parse(render_lines(["lo"], [[lo]])).tokens[0].text == "lo</w>"
    marked = '<span class="marker">&lt;/w&gt;</span>'
    assert marked in render_tokens([lo], "lo", end_of_word="</w>")
    assert marked in render_lines(["lo"], [[lo]], end_of_word="</w>")
    assert parse(render_lines(["lo"], [[lo]], byte_level=True)).tokens[0].text == "lo"  # the bytes' text
    assert "new" in parse(render_tokens([lo], "lo", highlight_id=1)).tokens[0].classes
    assert token_label(Token(5, "a b</w>", 0, 3, b"a b"), byte_level=False, end_of_word="</w>") == "a<i>␣</i>b" + marked


def test_lines_are_joined_without_anything_between():
    a, b = Token(1, "a", 0, 1, b"a"), Token(2, "b", 0, 1, b"b")
    markup = render_lines(["a", "b"], [[a], [b]])
    rows = markup.split(LINES_BOX, 1)[1]
    assert rows.startswith('<div class="line"><span') and '</span></div><div class="line"><span' in rows


def test_note_only_when_tokens_are_left_out():
    ab = Token(1, "ab", 0, 2, b"ab")
    # every token starts before character 2, so nothing is left out: no note, and the gap after ab is shown whole
    run = scroll(render_tokens([ab], "ab  ", max_chars=2))
    assert run.endswith("><i>␣</i><i>␣</i></span>")
    # capped: the text after the last shown token is not drawn as one long gap
    markup = render_tokens([ab, Token(1, "ab", 3, 5, b"ab")], "ab ab", max_chars=2)
    assert '<span class="gap"' not in markup
    assert '<p class="note">Showing the tokens of the first 2 of 5 characters (1 of 2 tokens).</p>' in markup


def test_legend_samples_look_like_the_boxes_they_explain():
    tokens = [
        Token(0, "<unk>", 0, 1, "é".encode(), "unknown"),
        Token(5, "<0xC3>", 1, 2, b"\xc3", "byte"),
        Token(9, "<s>", 2, 5, b"<s>", "special"),
        Token(1, "x", 5, 6, b"\xf0\x9f", partial=True),
        Token(2, "y", 5, 6, b"\x98\x80", partial=True),
    ]
    items = render_legend(tokens, "éé<s>" + GRIN).split('<span class="item">')[1:]
    assert items == [
        '<span class="tok k-normal c0">to</span><span class="tok k-normal c1">ken</span>'
        " one box per token (hover, click or tap for details)</span>",
        '<span class="char-group"><span class="tok k-normal c0"><span class="hex">F0 9F</span></span>'
        '<span class="tok k-normal c1"><span class="hex">98 80</span></span><span class="char">=…</span></span>'
        " tokens holding parts of one character (hex bytes)</span>",
        '<span class="tok k-unknown c0">&lt;unk&gt;</span> character never seen in training</span>',
        '<span class="tok k-byte c0">&lt;0xE2&gt;</span> byte fallback: a character not in the vocabulary, as its bytes'
        "</span>",
        '<span class="tok k-special c0">special</span> special token</span></div></div>',
    ]


def test_legend_names_the_outline_only_when_an_outlined_token_is_drawn():
    # tokens 7 ("ab") and 8 ("c"): an outline for id 7 is drawn, so the key names it; one for id 9 is not
    tokens = [Token(7, "ab", 0, 2, b"ab"), Token(8, "c", 2, 3, b"c")]
    outline = "th the token made by the last merge has a thick green outline"
    assert outline in legend_items(render_legend(tokens, "abc", highlight_id=7))
    assert outline not in legend_items(render_legend(tokens, "abc", highlight_id=9))
    assert outline not in legend_items(render_legend(tokens, "abc"))
    # its sample is drawn as the outlined boxes are (render_tokens' class "new")
    assert '<span class="tok k-normal c0 new">th</span>' in render_legend(tokens, "abc", highlight_id=7)
