"""What a tokenizer.json pipeline did, in words (drawing/pipeline_view.py): the normalizer's changes worked by hand,
the text the model sees, the pre-tokenizer's cuts, Llama 3's whole-word hits, byte fallback and the pieces
"Why this split?" replays, all against HF tokenizers running the same files."""

from __future__ import annotations

import html
import re

import pytest
from hf_document import tokenizer_document
from open_model_references import hf_reference

from bpe_core.formats import from_hf_json
from bpe_core.pretrained import load_pretrained
from drawing.pipeline_view import (
    PipelineSteps,
    change_notes,
    pipeline_parts,
    pipeline_steps,
    pipeline_terms,
    steps_markdown,
    tokens_html,
    why_pieces,
)

pytest.importorskip("tokenizers")  # the reference
TEXT = "ﬁne 🦙 day, tokenizers  twice"


def box_texts(out: str) -> list[str]:
    """The text inside each token box (the labels of these models hold no inner tags but ␣)."""
    return [
        html.unescape(re.sub(r"<[^>]+>", "", label))
        for label in re.findall(r'<span class="tok [^"]*" data-details="[^"]*" tabindex="0">(.*?)</span>', out)
    ]


# -- the normalizer, by hand ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown", "expected"),
    [
        ("a  b", "▁a▁▁b", ["spaces became ▁ (2×)", "▁ put in front of the text"]),  # Llama 2
        ("a b", "a▁b", ["spaces became ▁"]),  # Gemma 3: no ▁ in front
        ("ﬁne ﬃ ﬁ", "fine ffi fi", ["ﬁ → fi (2×)", "ﬃ → ffi"]),  # NFKC, the most frequent first
        ("cafe\u0301", "caf\u00e9", ["e\u0301 → \u00e9"]),  # NFC: e and a combining accent become one character
        ("a\tb", "a b", ["→ → ␣"]),  # whitespace shown by its glyph
        ("same", "same", []),
    ],
)
def test_change_notes_by_hand(text, shown, expected):
    assert change_notes(text, shown) == expected


def test_many_kinds_of_change_are_cut_after_eight():
    text = "ABCDEFGHIJ"
    notes = change_notes(text, text.lower())
    assert len(notes) == 9 and notes[-1] == "and 2 more kinds of change" and notes[0] == "A → a"


@pytest.mark.parametrize("name", ["llama2", "gemma3", "claude-legacy", "qwen3"])
def test_the_text_the_model_sees_is_hfs_normalized_text(name):
    hf = hf_reference(name)
    text = "ﬁne  café\u0301 🦙"
    assert load_pretrained(name).shown_text(text) == hf.normalizer.normalize_str(text)


def test_a_model_of_our_own_sees_the_text_as_typed():
    from bpe_core import load_gpt2

    assert load_gpt2().shown_text("a  b") == "a  b"


# -- the steps, against HF -------------------------------------------------------------


def test_llama3_cuts_where_hf_pre_tokenizes_and_marks_pieces_taken_whole():
    tok, hf = load_pretrained("llama3"), hf_reference("llama3")
    tokens = tok.encode_with_spans(TEXT)
    steps = pipeline_steps(tok, TEXT, tokens)
    pieces = hf.pre_tokenizer.pre_tokenize_str(TEXT)  # no normalizer: offsets are in the text itself
    assert [piece for piece, _, _ in steps.pieces] == [piece for piece, _ in pieces]
    assert steps.cuts == {start for _, (start, _) in pieces[1:]}
    vocab = hf.get_vocab()
    whole = {start for piece, (start, _) in pieces if piece in vocab}  # ignore_merges: a piece in the vocabulary
    encoding = hf.encode(TEXT, add_special_tokens=False)
    assert steps.hits == {
        index
        for index, (start, end) in enumerate(encoding.offsets)
        if start in whole and encoding.tokens[index] in vocab and (start, end) in {offsets for _, offsets in pieces}
    }
    assert steps.hits and steps.changes == [] and steps.byte_tokens == 0
    assert steps.added_by_model == hf.encode("").tokens == []  # this file's post-processor adds no BOS


def test_llama2_has_one_piece_byte_fallback_and_its_bos():
    tok, hf = load_pretrained("llama2"), hf_reference("llama2")
    text = "ﬁne 🦙 day"
    tokens = tok.encode_with_spans(text)
    steps = pipeline_steps(tok, text, tokens)
    hf_tokens = hf.encode(text, add_special_tokens=False).tokens
    assert steps.byte_tokens == sum(bool(re.fullmatch(r"<0x[0-9A-F]{2}>", t)) for t in hf_tokens) == 4
    assert steps.pieces == [("▁ﬁne▁🦙▁day", 0, 10)] and steps.cuts == frozenset() and steps.hits == frozenset()
    assert steps.changes == ["spaces became ▁ (2×)", "▁ put in front of the text"]
    assert steps.added_by_model == [hf.encode(text).tokens[0]] == ["<s>"]


def test_steps_in_words_by_hand():
    steps = PipelineSteps(
        changes=["ﬁ → fi"],
        pieces=[("a", 0, 1), ("Ġb", 1, 3)],
        cuts=frozenset({1}),
        hits=frozenset({0}),
        byte_tokens=2,
        unknown_tokens=1,
        added_by_model=[],
        truncated=True,
    )
    assert steps_markdown(steps) == [
        "1. Normalizer: ﬁ → fi (looked at the first 20,000 characters)",
        "2. Pre-tokenizer: cut the text into 2 pieces (red lines); merges never cross a cut",
        "3. BPE model: merged each piece by the ranks of its merge list; 1 piece was already a token and was taken "
        "whole, without merging (whole-word hit, ignore_merges: green underline); 2 byte-fallback tokens: characters "
        "not in the vocabulary, spelled as their UTF-8 bytes (<0xF0> ...); 1 character became the unknown token",
    ]
    other_counts = PipelineSteps([], [("a", 0, 1), ("b", 1, 2)], frozenset({1}), frozenset({0, 1}), 1, 2, [])
    assert steps_markdown(other_counts)[2] == (
        "3. BPE model: merged each piece by the ranks of its merge list; 2 pieces were already tokens and were taken "
        "whole, without merging (whole-word hit, ignore_merges: green underline); 1 byte-fallback token: characters "
        "not in the vocabulary, spelled as their UTF-8 bytes (<0xF0> ...); 2 characters became the unknown token"
    )
    nothing = PipelineSteps([], [], frozenset(), frozenset(), 0, 0, ["<s>"])
    assert steps_markdown(nothing) == [
        "1. Normalizer: nothing to change in this text",
        "2. Pre-tokenizer: nothing to cut (only special tokens)",
        "3. BPE model: merged each piece by the ranks of its merge list",
        "4. Post-processor: when the model runs, <s> is put first (HF's add_special_tokens=True); the ids above "
        "leave it out",
    ]


# -- the boxes -------------------------------------------------------------------------


def test_llama2_boxes_are_hfs_tokens_with_byte_fallback_by_name():
    tok, hf = load_pretrained("llama2"), hf_reference("llama2")
    text = "ﬁne 🦙 day"
    out = tokens_html(tok, tok.encode_with_spans(text), text)
    assert box_texts(out) == hf.encode(text, add_special_tokens=False).tokens
    assert box_texts(out)[4:8] == ["<0xF0>", "<0x9F>", "<0xA6>", "<0x99>"]
    assert out.count('class="char-group"') == 1 and '<span class="char">=🦙</span>' in out  # four bytes, one llama


def test_llama3_boxes_show_cuts_and_hits():
    tok = load_pretrained("llama3")
    text = "Hi tokenizers"  # HF: pieces Hi | Ġtokenizers; Hi is a token (taken whole), Ġtokenizers is merged
    tokens = tok.encode_with_spans(text)
    steps = pipeline_steps(tok, text, tokens)
    out = tokens_html(tok, tokens, text, cuts=steps.cuts, hits=steps.hits)
    assert box_texts(out) == ["Hi", "␣token", "izers"]
    assert out.count('<span class="cut"') == 1
    assert out.index('<span class="cut"') < out.index("␣</i>token")  # the cut stands before the second piece
    assert re.findall(r'class="tok ([^"]*)"', out) == ["k-normal c0 hit", "k-normal c1", "k-normal c2"]
    assert "whole-word hit (ignore_merges)" in out


# -- "Why this split?" -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["llama2", "gemma3", "claude-legacy", "deepseek-v3", "llama3"])
def test_the_replayed_pieces_end_in_hfs_tokens(name):
    tok, hf = load_pretrained(name), hf_reference(name)
    text = "Tokenizers split text; unbelievably fine."
    ends = []
    for piece in why_pieces(tok, text, special=True):
        ends += [piece] if tok.ignores_merges(piece) else tok.explain(piece)[-1][1]
    assert ends == hf.encode(text, add_special_tokens=False).tokens


def test_why_pieces_are_labelled_by_the_text_they_cover():
    pieces = why_pieces(load_pretrained("claude-legacy"), "ﬁne day", special=True)
    assert pieces == {"fine": "fine", "Ġday": "␣day"}  # NFKC first; the byte-level stand-ins are not shown


def test_why_pieces_stop_at_the_limit():
    assert list(why_pieces(load_pretrained("llama2"), "a b c d", special=True, limit=2)) == ["▁a", "▁b"]


# -- names -----------------------------------------------------------------------------


# Each file's parts as bpe_core/data/open holds them: Llama 2 a Prepend of ▁ and a Replace of " " by ▁, no
# pre-tokenizer, byte_fallback; Llama 3 no normalizer, a Split by a regex and a ByteLevel without its regex,
# ignore_merges; Claude's NFKC and a ByteLevel with its (GPT-2's) regex; Qwen3 NFC, Split and ByteLevel; Gemma 3 a
# Replace of " " by ▁, a Split at " ", byte_fallback; DeepSeek-V3 an empty Sequence of normalizers, three regex Splits
# and a ByteLevel.
@pytest.mark.parametrize(
    ("name", "words", "terms"),
    [
        (
            "llama2",
            "text rewritten first: ▁ put in front, spaces become ▁ · not cut into pieces (merges run over the whole "
            "text) · characters the vocabulary lacks become their bytes",
            "normalizer Prepend + Replace · no pre-tokenizer · byte_fallback",
        ),
        (
            "llama3",
            "text kept as typed · cut into pieces by a pattern, then written as bytes · a piece that is already a "
            "token is taken whole",
            "no normalizer · pre-tokenizer Split + ByteLevel · ignore_merges",
        ),
        (
            "claude-legacy",
            "text rewritten first: look-alike characters made plain (ﬁ becomes fi) · cut into pieces by GPT-2's "
            "pattern, then written as bytes",
            "normalizer NFKC · pre-tokenizer ByteLevel",
        ),
        (
            "qwen3",
            "text rewritten first: accents joined to their letters · cut into pieces by a pattern, then written as "
            "bytes",
            "normalizer NFC · pre-tokenizer Split + ByteLevel",
        ),
        (
            "gemma3",
            "text rewritten first: spaces become ▁ · cut into pieces at spaces · characters the vocabulary lacks "
            "become their bytes",
            "normalizer Replace · pre-tokenizer Split · byte_fallback",
        ),
        (
            "deepseek-v3",
            "text kept as typed · cut into pieces by 3 patterns, then written as bytes",
            "no normalizer · pre-tokenizer Split + Split + Split + ByteLevel",
        ),
    ],
)
def test_pipeline_parts_say_the_files_parts_in_words_and_name_them_as_the_file_does(name, words, terms):
    tok = load_pretrained(name)
    assert (pipeline_parts(tok), pipeline_terms(tok)) == (words, terms)


def test_the_other_parts_a_file_may_hold_are_said_in_words_too():
    model = {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [["a", "b"]]}
    normalizer = {
        "type": "Sequence",
        "normalizers": [
            {"type": "Lowercase"},
            {"type": "Strip", "strip_left": True, "strip_right": False},
            {"type": "NFD"},
        ],
    }
    pre_tokenizer = {
        "type": "Sequence",
        "pretokenizers": [
            {"type": "Whitespace"},
            {"type": "Digits", "individual_digits": True},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
        ],
    }
    tok = from_hf_json(tokenizer_document(model, normalizer=normalizer, pre_tokenizer=pre_tokenizer))
    assert tok.runs_pipeline
    assert pipeline_parts(tok) == (
        "text rewritten first: capitals made small, spaces at the start taken off, accents split from their letters"
        " · cut into pieces into words and punctuation and between digits and the rest, then written as bytes"
    )
    assert pipeline_terms(tok) == "normalizer Lowercase + Strip + NFD · pre-tokenizer Whitespace + Digits + ByteLevel"


def test_changes_in_20000_characters_are_all_found_and_named():
    """Llama 2 puts ▁ in front and makes every space a ▁; a general diff took about a minute here."""
    text = ("In the beginning God created the heaven and the earth. ﬁrst ﬂoor, cafe\u0301.\n" * 400)[:20_000]
    steps = pipeline_steps(load_pretrained("llama2"), text, [])
    assert not steps.truncated
    assert steps.changes == [f"spaces became ▁ ({text.count(' ')}×)", "▁ put in front of the text"]
    nfkc = pipeline_steps(load_pretrained("claude-legacy"), text, [])  # ﬁ, ﬂ and the accent
    assert sorted(nfkc.changes) == sorted(
        [
            f"ﬁ → fi ({text.count('ﬁ')}×)",
            f"ﬂ → fl ({text.count('ﬂ')}×)",
            f"e\u0301 → \u00e9 ({text.count('e' + chr(0x301))}×)",
        ]
    )
    assert text.count("e\u0301") == 274  # one a line: all three kinds are there


def test_changes_are_looked_for_in_the_first_20000_characters_only():
    tok = from_hf_json({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}})
    assert not pipeline_steps(tok, "a" * 20_000, []).truncated  # all of it was looked at
    assert pipeline_steps(tok, "a" * 20_001, []).truncated


def test_eight_kinds_of_change_are_named_and_more_are_counted():
    assert change_notes("abcdefgh", "ABCDEFGH") == [f"{a} → {a.upper()}" for a in "abcdefgh"]
    assert change_notes("abcdefghi", "ABCDEFGHI") == [f"{a} → {a.upper()}" for a in "abcdefgh"] + [
        "and 1 more kinds of change"
    ]


def test_at_most_200_pieces_are_offered_for_a_replay():
    tok = from_hf_json(
        {"pre_tokenizer": {"type": "WhitespaceSplit"}, "model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}
    )
    assert list(why_pieces(tok, " ".join("a" * n for n in range(1, 251)), True)) == ["a" * n for n in range(1, 201)]


def test_steps_and_tokens_cut_special_added_tokens_out_by_default():
    added = [
        {
            "id": index,
            "content": content,
            "special": True,
            "normalized": False,
            "lstrip": False,
            "rstrip": False,
            "single_word": False,
        }
        for index, content in ((0, "<unk>"), (2, "<S>"))
    ]
    tok = from_hf_json(
        {
            "added_tokens": added,
            "normalizer": {"type": "Lowercase"},
            "model": {"type": "BPE", "vocab": {"<unk>": 0, "a": 1}, "merges": [], "unk_token": "<unk>"},
        }
    )
    text = "aA<S>xa"  # by hand: <S> is cut out as written, the rest lowercased; x is unknown
    steps = pipeline_steps(tok, text, tok.encode_with_spans(text))
    assert steps.pieces == [("aa", 0, 2), ("xa", 5, 7)] and steps.unknown_tokens == 1
    drawn = tokens_html(tok, tok.encode_with_spans(text), text)
    assert "&lt;S&gt;" in drawn and "&lt;s&gt;" not in drawn


def test_one_piece_is_no_cut():
    steps = PipelineSteps(
        changes=[],
        pieces=[("a b", 0, 3)],
        cuts=frozenset(),
        hits=frozenset(),
        byte_tokens=0,
        unknown_tokens=0,
        added_by_model=[],
        truncated=False,
    )
    assert "cut the text into" not in steps_markdown(steps)[1]
    assert steps_markdown(steps)[1].startswith("2. Pre-tokenizer: none, so the whole text is one piece")
