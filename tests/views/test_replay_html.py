"""The replay of one piece's merges: a row per step that changed it, the symbols it made outlined."""

from __future__ import annotations

import pytest
from support.token_html import parse, plain_text  # the token boxes' HTML reader, shared with the box tests

from bpe_core import Config, load_gpt2, train
from pages.encode.views.replay_html import render_explain


@pytest.fixture(scope="module")
def gpt2():
    return load_gpt2()


def explain_rows(markup: str) -> list[tuple[str, list[str], list[str]]]:
    """Each replay row as (label, symbols, the symbols outlined as new)."""
    rows = []
    for row in markup.split('<div class="step-row">')[1:]:
        label, boxes = row.split("</span><span>", 1)
        boxes = boxes.split("</span></div>", 1)[0]
        symbols = [box.text for box in parse(boxes).tokens]
        new = [box.text for box in parse(boxes).tokens if "new" in box.classes]
        rows.append((plain_text(label), symbols, new))
    return rows


def test_explain_rows_name_each_training_step():
    banana = train("banana_bandana_", Config(split="none"), merges=6)
    markup = render_explain(banana.explain("bandana_"), banana.merges, counts=[step.count for step in banana.steps])
    assert explain_rows(markup) == [
        ("base symbols", ["b", "a", "n", "d", "a", "n", "a", "_"], []),
        ("step 1: a + n → an (pair seen 4 times)", ["b", "an", "d", "an", "a", "_"], ["an", "an"]),
        ("step 2: b + an → ban (pair seen 2 times)", ["ban", "d", "an", "a", "_"], ["ban"]),
        ("step 3: an + a → ana (pair seen 2 times)", ["ban", "d", "ana", "_"], ["ana"]),
        ("step 4: ana + _ → ana_ (pair seen 2 times)", ["ban", "d", "ana_"], ["ana_"]),
    ]


def test_explain_without_counts_and_escapes_symbols(gpt2):
    markup = render_explain(gpt2.explain("<b>"), gpt2.merges, counts=None)
    assert "b" not in parse(markup).elements  # the symbol "<" + "b" + ">" is text, not a tag
    # GPT-2 has no merge within "<b>" (HF's GPT-2 encodes it as 27, 65, 29), so one row of base symbols
    assert explain_rows(markup) == [("base symbols", ["<", "b", ">"], [])]
    hello = explain_rows(render_explain(gpt2.explain("Hi"), gpt2.merges, counts=None))
    assert hello[1][0] == "step 16995: H + i → Hi"  # no "pair seen": GPT-2 has no counts; HF id 17250 = 256 + 16994


def test_replay_names_the_count_of_the_last_counted_step():
    # ban: a + n at step 1 (seen 4 times), then b + an at step 2 (seen twice), the last of the two counts given
    tok = train("banana_bandana_", Config(split="none"), merges=6)
    text = plain_text(render_explain(tok.explain("ban"), tok.merges, counts=[4, 2]))
    assert "(pair seen 4 times)" in text and "(pair seen 2 times)" in text
    first_only = plain_text(render_explain(tok.explain("ban"), tok.merges, counts=[4]))  # step 2's count unknown
    assert "(pair seen 4 times)" in first_only and first_only.count("pair seen") == 1


def test_a_pair_seen_once_is_seen_1_time():
    tok = train("ab", Config(split="none"), merges=1)  # the pair a b occurs once
    markup = render_explain(tok.explain("ab"), tok.merges, counts=[step.count for step in tok.steps])
    assert explain_rows(markup)[1] == ("step 1: a + b → ab (pair seen 1 time)", ["ab"], ["ab"])


def test_a_byte_level_replay_writes_symbols_as_the_piece_and_the_boxes_do(gpt2):
    """GPT-2's symbols are its byte alphabet (Ġ for a space, Ã and © for é's bytes C3 A9): the replay writes the text
    they spell, as the piece's name in the list above it does, one notation for a space in the panel."""
    the = explain_rows(render_explain(gpt2.explain(" the"), gpt2.merges, byte_level=True))
    assert the[0][1] == ["␣", "t", "h", "e"] and the[-1][1] == ["␣the"]  # HF's GPT-2: " the" is one token, 262
    assert all("Ġ" not in label and "Ġ" not in "".join(symbols) for label, symbols, _ in the)
    assert the[-1][0].endswith("→ ␣the")
    cafe = explain_rows(render_explain(gpt2.explain("é"), gpt2.merges, byte_level=True))
    assert cafe[0][1] == ["\\xc3", "\\xa9"] and cafe[-1][1] == ["é"]  # é's two bytes, then the letter
    raw = explain_rows(render_explain(gpt2.explain(" the"), gpt2.merges))  # a model of characters keeps Ġ
    assert raw[-1][1] == ["Ġthe"]
