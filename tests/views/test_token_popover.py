"""A token's details and where they show: a popover with a mouse, a bar on a touch screen, the same words."""

from __future__ import annotations

import re

from support.token_html import TOKENS_BOX  # the scroll box's opening tag

from bpe_core import Token
from drawing.token_html import STYLE, render_lines, render_tokens
from drawing.token_legend import render_legend
from drawing.token_popover import HIT_NOTE, popover_css, tap_details_css, token_details
from pages.encode.views.layout import counts_css


def test_details_name_the_merge_and_end_with_a_whole_word_hit():
    # " the" at 2..6 of "is the": id 12, made by merge rank 4 (step 5), taken whole by ignore_merges
    details = token_details(Token(12, "Ġthe", 2, 6, b" the"), "is the", created_at={12: 4}, hit=True)
    assert details == f"id 12 · token 'Ġthe'\ntext ' the'\nbytes 20 74 68 65\nmade by merge step 5\n{HIT_NOTE}"


def test_a_box_carries_its_details_escaped_and_is_reachable_by_tab():
    markup = render_tokens([Token(1, "<b>", 0, 3, b"<b>"), Token(2, '"', 3, 4, b'"')], '<b>"')
    boxes = markup.split(TOKENS_BOX)[1].removesuffix("</div></div>")
    assert boxes == (
        "<span class=\"tok k-normal c0\" data-details=\"id 1 · token '&lt;b&gt;'\ntext '&lt;b&gt;'\nbytes 3C 62 3E\""
        ' tabindex="0">&lt;b&gt;</span>'
        "<span class=\"tok k-normal c1\" data-details=\"id 2 · token '&quot;'\ntext '&quot;'\nbytes 22\""
        ' tabindex="0">&quot;</span>'
    )  # no title: the browser's own small tooltip would show beside the popover


def test_a_whole_word_hit_says_so_in_its_details():
    markup = render_tokens([Token(5, "ab", 0, 2, b"ab")], "ab", hits={0})
    assert f'bytes 61 62\n{HIT_NOTE}" tabindex="0">ab</span>' in markup


def test_the_merges_rows_get_the_same_boxes():
    markup = render_lines(["a"], [[Token(3, "a", 0, 1, b"a")]], created_at={})
    assert "<span class=\"tok k-normal c0\" data-details=\"id 3 · token 'a'\ntext 'a'\nbytes 61\n" in markup
    assert 'base symbol (not made by a merge)" tabindex="0">a</span>' in markup


def test_hover_and_focus_show_the_popover_only_with_a_mouse():
    css = popover_css(".v", ".t")
    media, rest = css.split("{", 1)
    assert media == "@media (hover:hover) and (pointer:fine)"
    shown = ".v .t:hover::after,.v:not(:has(.t:hover)) .t:focus::after"  # a hovered token wins over a focused one
    assert rest.startswith(shown + "{content:attr(data-details);position:fixed;")
    assert "@supports (anchor-name:--a) and (anchor-scope:--a){.v .t{anchor-name:--bpe-token;" in css
    assert "position-try-fallbacks:flip-block,flip-inline,flip-block flip-inline" in css


def test_a_touch_screen_shows_the_same_attribute_in_a_bar():
    css = tap_details_css(".v .t", "data-details")
    assert css.startswith("@media (hover:none),(pointer:coarse){.v .t:focus::after{content:attr(data-details);")
    assert "bottom:8px" in css and css.endswith("}}")
    assert tap_details_css(".band").count("content:attr(title)") == 1  # Compare's bands keep their titles


def test_the_shared_style_shows_details_only_for_boxes_that_have_some():
    assert tap_details_css(".bpe-tv .tok", "data-details") in STYLE
    assert popover_css(".bpe-tv", ".tok[data-details]") in STYLE
    # the legend's sample boxes have no details and no tabindex: no empty popover over the key
    legend = render_legend([Token(0, "a", 0, 1, b"a")], "a")
    assert re.findall(r"<span class=\"tok [^\"]*\"[^>]*>", legend) == [
        '<span class="tok k-normal c0">',
        '<span class="tok k-normal c1">',
    ]


def test_encode_counts_are_one_short_row():
    assert counts_css() == (
        '<style>.st-key-encode_counts [data-testid="stMetricValue"]{font-size:1.75rem;line-height:1.25}'
        '.st-key-encode_counts [data-testid="stMetricLabel"]{min-height:0;margin-bottom:0}'
        '@media (max-width:640px){.st-key-encode_counts [data-testid="stMetricValue"]{font-size:1.35rem}}</style>'
    )


def test_the_details_write_a_token_as_its_box_does():
    # a byte-level model's " café": its box reads ␣café; GPT-2's alphabet spells the bytes 20 63 61 66 C3 A9 as
    # Ġ c a f Ã ©
    cafe = token_details(Token(9, "ĠcafÃ©", 0, 5, " café".encode()), " café", byte_level=True)
    assert cafe.split("\n")[0] == "id 9 · token '␣café' (GPT-2's byte alphabet writes it 'ĠcafÃ©': Ġ is a space)"
    # no Ġ in it: the spelling alone
    assert token_details(Token(8, "Ã©", 0, 1, "é".encode()), "é", byte_level=True).split("\n")[0] == (
        "id 8 · token 'é' (GPT-2's byte alphabet writes it 'Ã©')"
    )
    # a model of characters: its own spelling, a space as the boxes' ␣; nothing else to name
    assert token_details(Token(3, "a ", 0, 2, b"a "), "a ").split("\n")[0] == "id 3 · token 'a␣'"
    # a special token by its name
    assert token_details(Token(0, "<|endoftext|>", 0, 13, b"", "special"), "<|endoftext|>", byte_level=True).startswith(
        "id 0 · token '<|endoftext|>'\n"
    )
