"""Pure helpers of the Encode / Decode page: id parsing, round-trip explanations, table rows."""

from __future__ import annotations

import pytest

from bpe_core import Config, Token, load_gpt2, train
from bpe_core.pretrained import PRETRAINED, PUBLISHED, load_pretrained
from drawing.published import PRETRAINED_NOTES, PRETRAINED_TITLES, loading_message, prefix_title, source_labels
from pages.encode.views.tools import (
    describe_round_trip,
    describe_tokenizer,
    merged_pieces,
    parse_ids,
    table_pages,
    token_rows,
    token_table_html,
    unique_pieces,
)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("15496, 11, 30589", [15496, 11, 30589]),
        ("15496 11\n30589", [15496, 11, 30589]),
        ("[15496, 11, 0]", [15496, 11, 0]),
        ("  1,2 ,, 3  ", [1, 2, 3]),
        ("", []),
        ("   ", []),
        ("+7", [7]),
    ],
)
def test_parse_ids_accepts_common_forms(typed, expected):
    assert parse_ids(typed) == expected


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("12, abc", "item 2, 'abc'"),
        ("1.5", "item 1, '1.5'"),
        ("3 -4", "item 2, -4, is negative"),
        ("0x10", "'0x10'"),
        ("١٢", "'١٢'"),  # Arabic-Indic digits: int() would take them, a token id should not
    ],
)
def test_parse_ids_names_the_offending_item(typed, named):
    with pytest.raises(ValueError) as caught:
        parse_ids(typed)
    assert named in str(caught.value)


def test_round_trip_ok_says_nothing():
    gpt2 = load_gpt2()
    text = "Hello, ByteLevel BPE!\n  spaces\tand 🙂"
    assert describe_round_trip(text, gpt2.decode(gpt2.encode(text))) == []


# The notes, written out by hand: what the reader is told was lost.
RUNS_BECAME_SPACES = "whitespace: runs of spaces/newlines became single spaces"
SPACES_DROPPED = "whitespace: all spaces and newlines were dropped, so the words run together"


@pytest.mark.parametrize(
    ("config", "text", "decoded", "notes"),
    [
        (Config(end_of_word="</w>"), "the  cat\nsat", "the cat sat", [RUNS_BECAME_SPACES]),
        (Config(split="whitespace"), "the cat", "thecat", [SPACES_DROPPED]),
        # f, é and , never occur in "the cat sat"; é twice but named once
        (
            Config(split="gpt2"),
            "café, thé",
            "ca<unk><unk><unk> th<unk>",
            ["characters never seen in training became <unk>: 'f', 'é', ','"],
        ),
        (
            Config(end_of_word="</w>"),
            "the\n\ncat é",
            "the cat <unk>",
            [RUNS_BECAME_SPACES, "characters never seen in training became <unk>: 'é'"],
        ),
    ],
)
def test_round_trip_losses_are_named(config, text, decoded, notes):
    tok = train("the cat sat on the mat", config, merges=5)
    assert tok.decode(tok.encode(text)) == decoded
    assert describe_round_trip(text, decoded) == notes


def test_edge_whitespace_and_other_differences():
    assert describe_round_trip("  hi ", "hi") == ["whitespace: spaces/newlines at the start or end were dropped"]
    other = describe_round_trip("abc", "abd")
    assert other == ["other: the texts first differ at character 2: 'c' became 'd'"]


def test_unique_pieces_keeps_order_skips_blanks_and_caps():
    assert unique_pieces(["a", " ", "b", "a", "\n", "c"], limit=2) == ["a", "b"]


def test_token_rows_describe_each_token():
    rows = token_rows(load_gpt2().encode_with_spans("a 😀"), "a 😀")
    assert [row["id"] for row in rows] == load_gpt2().encode("a 😀")
    assert rows[1]["bytes (hex)"] == "20 F0 9F 98"
    assert rows[1]["kind"] == "normal (part of a character)"
    assert rows[2]["span"] == "2–3" and rows[2]["text"] == "😀"
    assert rows[1]["text"] == "␣😀"  # the space as the boxes show it, not a blank the table would lose


def test_token_rows_show_whitespace_in_a_token_and_its_text():
    rows = token_rows([Token(5, "a\nb c", 0, 5, b"a\nb c")], "a\nb c")
    assert (rows[0]["token"], rows[0]["text"]) == ("a↵b␣c", "a↵b␣c")


def test_a_long_table_is_cut_into_pages_that_cover_every_row_once():
    assert table_pages(3, 2) == {0: "tokens 1–2 of 3", 2: "tokens 3–3 of 3"}
    assert table_pages(1000, 500) == {0: "tokens 1–500 of 1,000", 500: "tokens 501–1,000 of 1,000"}
    assert table_pages(0) == {}


def test_the_token_table_scrolls_in_its_box_with_its_numbers_to_the_right():
    markup = token_table_html(token_rows([Token(7, "<b>", 0, 3, b"<b>")], "<b>"))
    assert 'class="bpe-table bpe-tt tall"' in markup
    assert '<td class="num" data-column="id">7</td><td data-column="token">&lt;b&gt;</td>' in markup
    assert '<td class="num" data-column="span">0–3</td>' in markup


def test_tokenizer_choices_name_the_model_and_its_prefix():
    assert source_labels("Trained model", named=False) == {
        "model": "Trained model",
        "prefix": "Prefix of the trained model",
        **PRETRAINED_TITLES,
    }
    assert source_labels("my_model.json", named=True) == {  # plain text for a selectbox; never a published title
        "model": "Session model: my_model.json",
        "prefix": "Prefix of my_model.json",
        **PRETRAINED_TITLES,
    }
    assert prefix_title("GPT\\-2", named=True) == "Prefix of GPT\\-2"


def test_tokenizer_description_names_size_and_configuration():
    banana = train("banana_bandana_", Config(split="none"), merges=6)  # <unk>, _ a b d n, then 6 merged tokens
    assert describe_tokenizer(banana, "Trained model") == (
        "Trained model: a vocabulary of 12 tokens, 6 of them made by merges; no split · built from characters · "
        "equal counts\\: the pair seen first wins."
    )
    one = train("ab", Config(split="none"), merges=1)  # <unk>, a, b, then ab
    assert describe_tokenizer(one, "Trained model") == (
        "Trained model: a vocabulary of 4 tokens, 1 of them made by a merge; no split · built from characters · "
        "equal counts\\: the pair seen first wins."
    )
    assert describe_tokenizer(banana.prefix(2), "Trained model") == (
        "Prefix of the trained model: the first 2 of 6 merges, a vocabulary of 8 tokens; "
        "no split · built from characters · equal counts\\: the pair seen first wins."
    )


@pytest.mark.parametrize("name", PRETRAINED)
def test_published_titles_are_the_tokenizers_own_names(name):
    assert PRETRAINED_TITLES[name] == load_pretrained(name).name
    assert PRETRAINED_NOTES[name].endswith(".")


def test_every_published_tokenizer_has_one_note():
    assert list(PRETRAINED_NOTES) == list(PUBLISHED)


def test_a_slow_first_load_says_how_long_it_takes():
    assert loading_message("llama2") == "Loading Llama 2 (the first time on this server, about 1 second)..."
    assert loading_message("gemma3") == "Loading Gemma 3 (the first time on this server, about 3 seconds)..."


@pytest.mark.parametrize(
    ("specials", "expected"),
    [
        (("<|endoftext|>",), ["Hi", " there", "!", "Bye"]),  # the special token is cut out first
        ((), ["Hi", " there", "!<|", "endoftext", "|>", "Bye"]),  # GPT-2's pattern: punctuation runs, then letters
    ],
)
def test_merged_pieces_leave_out_matched_special_tokens(specials, expected):
    assert merged_pieces("Hi there!<|endoftext|>Bye", "gpt2", specials) == expected


def test_parse_ids_unwraps_only_a_whole_list():
    # a bracket on one side only is a typo to point at, not a list
    with pytest.raises(ValueError, match=r"item 1, '\[1', is not a token id"):
        parse_ids("[1, 2")
    with pytest.raises(ValueError, match=r"item 2, '2\]', is not a token id"):
        parse_ids("1, 2]")


def test_round_trip_that_added_text_at_the_end():
    # nothing of "ab" was lost, but the decoded text goes on: they differ at character 2
    assert describe_round_trip("ab", "abc") == ["other: the texts first differ at character 2: '' became 'c'"]


def test_round_trip_that_lost_the_end_or_more_than_unknown_characters():
    assert describe_round_trip("abc", "ab") == ["other: the texts first differ at character 2: 'c' became ''"]
    # é became <unk>, and the decoded text goes on after it: both are said
    assert describe_round_trip("aé", "a<unk>x") == [
        "characters never seen in training became <unk>: 'é'",
        "other: the texts first differ at character 1: 'é' became '<unk>x'",
    ]


def test_twelve_unknown_characters_are_all_named_and_more_are_counted():
    twelve = "ÀÁÂÃÄÅÆÇÈÉÊË"
    assert describe_round_trip(twelve, "<unk>" * 12) == [
        "characters never seen in training became <unk>: " + ", ".join(map(repr, twelve))
    ]
    assert describe_round_trip(twelve + "Ì", "<unk>" * 13) == [
        "characters never seen in training became <unk>: " + ", ".join(map(repr, twelve)) + " and 1 more"
    ]
