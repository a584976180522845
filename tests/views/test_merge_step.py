"""The Merges page's step view: the lines of corpus shown, and the facts card of one step."""

from __future__ import annotations

import re

from bpe_core import Config, Step, load_gpt2, train
from pages.merges.views.step import corpus_lines, step_card_html, step_glyph_legend, step_lines_html


def card_facts(card: str) -> dict[str, str]:
    """The card's (name, value) pairs, read from its HTML."""
    pairs = re.findall(r'opacity:0.7">(.*?)</div><div style="[^"]*">(.*?)</div>', card)
    return dict(pairs)


def test_corpus_lines_skip_blank_lines_and_cap_length():
    assert corpus_lines("\n\nfirst\n  \nsecond line\n", count=5, max_chars=6) == ["first", "second"]
    assert corpus_lines("x\n" * 20) == ["x"] * 3


def test_step_card_reports_the_pair_and_its_ties():
    banana = train("banana_bandana_", Config(split="none"), merges=6)  # ids: <unk> 0, _ a b d n 1-5, an 6, ban 7
    assert card_facts(step_card_html(banana.steps[1], "first")) == {
        "Step": "2",
        "Pair merged": "b + an",
        "New token": "ban  (id 7)",
        "Count": "2",
        "Ties": "3 pairs shared the top count; the pair seen first wins",
    }


def test_step_card_escapes_token_text():
    facts = card_facts(step_card_html(Step(1, "<", "b>", "<b>", 9, 4, 1), "hf"))
    assert facts["Pair merged"] == "&lt; + b&gt;" and facts["New token"] == "&lt;b&gt;  (id 9)"
    assert facts["Ties"] == "none: a clear winner"


def test_step_card_without_counts():
    facts = card_facts(step_card_html(load_gpt2().steps[0], "hf"))
    assert facts["Count"] == "n/a (no training counts)" and facts["Ties"] == "unknown"
    assert facts["Pair merged"] == "Ġ + t" and facts["New token"] == "Ġt  (id 256)"


def test_step_card_values_wrap_inside_the_page():
    # a long tie rule or token wraps (it ran out of its box at 853x480), and every size follows the page's type (rem)
    card = step_card_html(Step(1, "x" * 60, "y", "x" * 60 + "y", 9, 4, 3), "lex")
    cells = re.findall(r'<div style="([^"]*)"><div style="([^"]*)">[^<]*</div><div style="([^"]*)">', card)
    assert len(cells) == 5
    for cell, name, value in cells:
        assert "max-width:100%" in cell and "box-sizing:border-box" in cell
        assert name == "font-size:0.75rem;opacity:0.7"
        assert "font-size:1.125rem" in value and "white-space:pre-wrap" in value and "overflow-wrap:anywhere" in value
    assert "px" not in "".join(name + value for _, name, value in cells)


def test_step_lines_outline_the_token_made_at_the_step():
    banana = train("banana_bandana_", Config(split="none"), merges=6)
    prefix = banana.prefix(2)
    lines = ["bandana_", "banana_"]
    markup = step_lines_html(banana, banana.steps[1], lines, [prefix.encode_with_spans(line) for line in lines])
    # after b+an (step 2): ban d an a _ | ban an a _ ; the two "ban" are new
    boxes = re.findall(
        r'<span class="tok k-normal c\d( new)?" data-details="([^"]*)" tabindex="0">([^<]*)</span>', markup
    )
    assert [(text, bool(new)) for new, _, text in boxes] == [
        ("ban", True),
        ("d", False),
        ("an", False),
        ("a", False),
        ("_", False),
        ("ban", True),
        ("an", False),
        ("a", False),
        ("_", False),
    ]
    assert boxes[0][1].endswith("made by merge step 2") and boxes[2][1].endswith("made by merge step 1")


def test_step_lines_of_a_character_model_show_its_word_end_marker():
    # a character-level model: boxes show vocabulary strings, the </w> marker greyed (not the bytes "lo")
    tok = train("lo lo lo", Config(end_of_word="</w>"), merges=2)  # l o, then lo </w>
    markup = step_lines_html(tok, tok.steps[1], ["lo"], [tok.encode_with_spans("lo")])
    assert 'lo<span class="marker">&lt;/w&gt;</span>' in markup


def test_step_card_of_a_byte_level_model_writes_tokens_as_its_boxes_do():
    # GPT-2's first merge is Ġ + t: a space (0x20) and t, written ␣ in the token boxes under the card
    facts = card_facts(step_card_html(load_gpt2().steps[0], "hf", byte_level=True))
    assert facts["Pair merged"] == "␣ + t" and facts["New token"] == "␣t  (id 256)"


def test_step_glyph_legend_names_the_glyphs_of_the_boxes_and_of_the_gaps_between_them():
    # whitespace split: the spaces are in no token, shown as greyed ␣ between boxes that end in </w>
    tok = train("the cat the hat", Config(split="whitespace", end_of_word="</w>"), merges=3)
    line = "the cat"
    key = step_glyph_legend(tok, tok.steps[0], [line], [tok.encode_with_spans(line)])
    assert key == "Key: ␣ a space · </w> the end of a word."
    # the card's pair counts too, even when the lines shown hold no glyph
    plain = train("banana_bandana_", Config(split="none"), merges=2)
    assert step_glyph_legend(plain, Step(1, "a", "␣", "a␣", 1, 1, 1), ["ban"], [plain.encode_with_spans("ban")]) == (
        "Key: ␣ a space."
    )
    assert step_glyph_legend(plain, plain.steps[0], ["ban"], [plain.encode_with_spans("ban")]) == ""
