"""The BPE model's options, added tokens and post-processors of a tokenizer.json, each against HF
tokenizers running the same small file (built here, so every option is met on purpose)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.bytelevel import BYTE_TO_CHAR
from bpe_core.formats import from_hf_json, to_hf_json
from bpe_core.pipeline.spec import UnsupportedPart

tokenizers = pytest.importorskip("tokenizers")

CHARS = ["<unk>", "a", "b", "c", "d", " ", "▁"]
BYTES = [f"<0x{byte:02X}>" for byte in range(256)]


def tokenizer_json(*, vocab=None, merges=(), model=None, added=(), **parts) -> str:
    """A tokenizer.json; ``added`` holds ``(content, special, normalized)``, given the ids after the
    vocabulary's (as real files do: HF renumbers an added token whose id is out of line)."""
    vocab = vocab or {token: index for index, token in enumerate(CHARS)}
    return json.dumps(
        {
            "version": "1.0",
            "truncation": None,
            "padding": None,
            "added_tokens": [
                {
                    "id": vocab.get(content, len(vocab) + index),
                    "content": content,
                    "single_word": False,
                    "lstrip": False,
                    "rstrip": False,
                    "normalized": normalized,
                    "special": special,
                }
                for index, (content, special, normalized) in enumerate(added)
            ],
            "normalizer": parts.get("normalizer"),
            "pre_tokenizer": parts.get("pre_tokenizer"),
            "post_processor": parts.get("post_processor"),
            "decoder": parts.get("decoder"),
            "model": {
                "type": "BPE",
                "dropout": None,
                "unk_token": "<unk>",
                "continuing_subword_prefix": None,
                "end_of_word_suffix": None,
                "fuse_unk": False,
                "byte_fallback": False,
                "ignore_merges": False,
                "vocab": vocab,
                "merges": [list(pair) for pair in merges],
                **(model or {}),
            },
        }
    )


def both(document: str):
    return from_hf_json(document), tokenizers.Tokenizer.from_str(document)


def assert_same(document: str, texts, *, spans: bool = True, export: bool = True) -> None:
    """Ids, ids with the model's specials and decodes as HF's; without a normalizer (the text the model
    sees is the text), each token's span too, as HF's offsets (``spans=False`` where characters are dropped);
    and HF reading our export of the file gives HF's ids."""
    ours, hf = both(document)
    spans = spans and json.loads(document)["normalizer"] is None
    written_back = tokenizers.Tokenizer.from_str(json.dumps(to_hf_json(ours))) if export else hf
    for text in texts:
        expected = hf.encode(text, add_special_tokens=False)
        assert ours.encode(text) == expected.ids, text
        assert written_back.encode(text, add_special_tokens=True).ids == hf.encode(text, add_special_tokens=True).ids
        if spans:
            assert [(t.start, t.end) for t in ours.encode_with_spans(text)] == expected.offsets, text
        assert ours.with_model_specials(ours.encode(text)) == hf.encode(text, add_special_tokens=True).ids, text
        assert ours.decode(expected.ids, skip_special=True) == hf.decode(expected.ids), text


def with_merges(*pairs: tuple[str, str], extra=()) -> dict:
    vocab = {token: index for index, token in enumerate(CHARS)}
    for token in [left + right for left, right in pairs] + list(extra):
        vocab.setdefault(token, len(vocab))
    return vocab


TEXTS = ["abcd", "a b  c", "xyz", "axxb", "aé😀b", "", "dcba abab", "ab<x>ab", "<s>ab</s>"]
MERGES = [("a", "b"), ("ab", "c"), ("c", "d"), ("d", "c")]


@pytest.mark.parametrize("fuse_unk", [False, True])
def test_unknown_characters_become_unk_fused_or_not(fuse_unk):
    assert_same(
        tokenizer_json(
            vocab=with_merges(*MERGES),
            merges=MERGES,
            model={"fuse_unk": fuse_unk},
            added=[("<unk>", True, False)],
            decoder={"type": "Fuse"},
        ),
        TEXTS,
    )
    assert from_hf_json(tokenizer_json()).config.unknown == "unk"  # <unk> and no byte fallback, as the file says


def test_without_an_unknown_token_an_unknown_character_is_dropped():
    vocab = with_merges(*MERGES)
    del vocab["<unk>"]
    vocab = {token: index for index, token in enumerate(vocab)}
    document = tokenizer_json(vocab=vocab, merges=MERGES, model={"unk_token": None})
    assert_same(document, TEXTS, spans=False)  # HF's offsets leave the dropped characters out, ours do not
    # a dropped character's bytes count with the symbol before it, or the piece's first (model.py): spans by hand
    ours = from_hf_json(document)
    assert [(t.token, t.start, t.end) for t in ours.encode_with_spans("水ab")] == [("ab", 0, 3)]
    assert [(t.token, t.start, t.end) for t in ours.encode_with_spans("水水c水a")] == [("c", 0, 4), ("a", 4, 5)]
    assert [(t.token, t.start, t.end) for t in ours.encode_with_spans("ab水c")] == [("abc", 0, 4)]
    # the same after byte fallback in a piece the pre-tokenizer rewrote: 😀 has no <0xF0>, its bytes go with <0xA9>
    ours = from_hf_json(
        tokenizer_json(
            vocab=with_merges(*MERGES, extra=BYTES[:0xF0]),
            merges=MERGES,
            model={"unk_token": None, "byte_fallback": True},
            pre_tokenizer={"type": "Metaspace", "replacement": "▁", "prepend_scheme": "never", "split": True},
        )
    )
    assert [(t.token, t.start, t.end) for t in ours.encode_with_spans("a é😀b")] == [
        ("a", 0, 1),
        ("▁", 1, 2),
        ("<0xC3>", 2, 3),
        ("<0xA9>", 2, 4),
        ("b", 4, 5),
    ]


def test_the_unknown_token_is_shown_as_unknown_whether_or_not_it_is_an_added_token():
    for added in ([("<unk>", True, False)], []):
        ours = from_hf_json(tokenizer_json(vocab=with_merges(*MERGES), merges=MERGES, added=added))
        assert [(t.token, t.kind) for t in ours.encode_with_spans("abx")] == [("ab", "normal"), ("<unk>", "unknown")]


def test_an_unknown_token_missing_from_the_vocabulary_fails_only_where_it_is_needed():
    document = tokenizer_json(vocab=with_merges(*MERGES), merges=MERGES, model={"unk_token": "<nope>"})
    ours, hf = both(document)
    assert ours.encode("abcd") == hf.encode("abcd").ids
    with pytest.raises(Exception, match="<nope>"):
        hf.encode("abx")
    with pytest.raises(ValueError, match="^the unknown token '<nope>' is not in the vocabulary$"):
        ours.encode("abx")


def test_byte_fallback_spells_unknown_characters_as_bytes_when_it_can():
    vocab = with_merges(*MERGES, extra=BYTES[:0xF0])  # no <0xF0>..<0xFF>: an emoji falls back to <unk>
    decoder = {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Fuse"}]}
    assert_same(
        tokenizer_json(vocab=vocab, merges=MERGES, model={"byte_fallback": True, "fuse_unk": True}, decoder=decoder),
        TEXTS + ["éé😀😀é", "😀é😀"],
    )


@pytest.mark.parametrize(
    "prefix, suffix", [("##", None), (None, "</w>"), ("##", "</w>")], ids=["prefix", "suffix", "both"]
)  # plain ids: mutmut passes them back to pytest
def test_continuing_prefix_and_end_of_word_suffix(prefix, suffix):
    base = ["<unk>"] + [f"{p}{c}{s}" for c in "abcd" for p in ("", prefix or "") for s in ("", suffix or "")]
    vocab = {token: index for index, token in enumerate(dict.fromkeys(base))}
    later = prefix or ""
    merges = [("a", later + "b"), ("ab", later + "c" + (suffix or "")), (later + "c", later + "d")]
    for left, right in merges:
        vocab.setdefault(left + right[len(later) :], len(vocab))
    assert_same(
        tokenizer_json(
            vocab=vocab,
            merges=merges,
            model={"continuing_subword_prefix": prefix, "end_of_word_suffix": suffix},
            pre_tokenizer={"type": "WhitespaceSplit"},
        ),
        ["abc", "ab abcd", "c dabc", "zz a"],
    )


def test_ignore_merges_takes_a_whole_piece_that_is_a_token():
    vocab = with_merges(("a", "b"), extra=["abcd", "ca"])  # "abcd" and "ca" exist, no merge makes them
    document = tokenizer_json(
        vocab=vocab, merges=[("a", "b")], model={"ignore_merges": True}, pre_tokenizer={"type": "WhitespaceSplit"}
    )
    assert_same(document, ["abcd", "abcd ca abc", "ca"])
    ours = from_hf_json(document)
    assert ours.tokenize("abcd ca cab") == ["abcd", "ca", "c", "ab"]
    assert ours.ignores_merges("abcd") and not ours.ignores_merges("cab")


def test_added_tokens_on_raw_and_on_normalized_text():
    added = [("<s>", True, False), ("</s>", True, False), ("AB", False, True), ("<x>", False, False)]
    document = tokenizer_json(vocab=with_merges(*MERGES), merges=MERGES, added=added, normalizer={"type": "Lowercase"})
    # "AB" is matched after lowercasing only if HF lowercases the token too: the reference decides
    assert_same(document, TEXTS + ["AB ab aB <S> <s>AB</s>", "<x>AB<x>"])


def test_the_export_keeps_a_normalized_added_tokens_content_as_written():
    """Written normalized ('ab'), HF would take it for the model's own token 'ab'."""
    document = tokenizer_json(
        vocab=with_merges(*MERGES), merges=MERGES, added=[("AB", False, True)], normalizer={"type": "Lowercase"}
    )
    assert [token["content"] for token in to_hf_json(from_hf_json(document))["added_tokens"]] == ["AB"]


def test_a_prefix_matches_a_normalized_added_token_as_the_whole_does():
    """Prepend is not idempotent: the prefix must normalize the token as written, once."""
    document = tokenizer_json(
        vocab=with_merges(*MERGES),
        merges=MERGES,
        added=[("x", False, True)],
        normalizer={"type": "Prepend", "prepend": "▁"},
    )
    whole = from_hf_json(document)
    assert [whole.token(i) for i in whole.prefix(len(MERGES)).encode("x")] == ["▁x"]
    assert (
        whole.prefix(len(MERGES)).encode("x")
        == whole.encode("x")
        == tokenizers.Tokenizer.from_str(document).encode("x").ids
    )


def test_metaspace_first_prepends_at_the_start_of_the_text_not_after_an_added_token():
    """Only the stretch that starts the text gets the "▁": not one after a raw added token ("<s>") nor
    one after a token found in the normalized text ("bd"), even within the text's first stretch.  ("▁a" is
    merged first: a lone "▁" has no offsets of its own here, HF gives it the next character's.)"""
    merges = [("▁", "a"), *MERGES]
    assert_same(
        tokenizer_json(
            vocab=with_merges(*merges),
            merges=merges,
            added=[("<s>", True, False), ("bd", False, True)],
            pre_tokenizer={"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True},
        ),
        ["ab", "ab ab", "<s>ab", "<s> ab", "<s>ab<s>b", "ab<s>b", "abbdab", "bdab", "ab<s>abbdab", "<s>bdab"],
    )
    ours = from_hf_json(
        tokenizer_json(
            vocab=with_merges(*MERGES),
            merges=MERGES,
            added=[("<s>", True, False)],
            pre_tokenizer={"type": "WhitespaceSplit"},
        )
    )
    assert ours.pieces("a b<s>c d<s>") == [("a", 0, 1), ("b", 2, 3), ("c", 6, 7), ("d", 8, 9)]  # by hand


def test_a_long_piece_is_cut_only_where_no_merge_crosses():
    # no pre-tokenizer: the whole text is one piece (Llama 2's way), long enough to be cut into words
    merges = [("a", "b"), ("ab", "c"), ("abc", "▁"), ("▁", "d"), ("c", "d")]
    assert_same(
        tokenizer_json(vocab=with_merges(*merges), merges=merges),
        ["abc▁" * 20, "abc▁d " * 15 + "x▁ab", "▁d▁abc " * 12, "cd▁" * 30],
    )


@pytest.mark.parametrize(
    "processor",
    [
        {
            "type": "TemplateProcessing",
            "single": [
                {"SpecialToken": {"id": "<s>", "type_id": 0}},
                {"Sequence": {"id": "A", "type_id": 0}},
                {"SpecialToken": {"id": "</s>", "type_id": 0}},
            ],
            "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {
                "<s>": {"id": "<s>", "ids": [11], "tokens": ["<s>"]},
                "</s>": {"id": "</s>", "ids": [12], "tokens": ["</s>"]},
            },
        },
        {"type": "BertProcessing", "sep": ["</s>", 12], "cls": ["<s>", 11]},
        {
            "type": "RobertaProcessing",
            "sep": ["</s>", 12],
            "cls": ["<s>", 11],
            "trim_offsets": True,
            "add_prefix_space": False,
        },
        {
            "type": "Sequence",
            "processors": [
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
                {"type": "BertProcessing", "sep": ["</s>", 12], "cls": ["<s>", 11]},
            ],
        },
    ],
)
def test_post_processors_add_the_models_special_tokens(processor):
    added = [("<s>", True, False), ("</s>", True, False)]  # ids 11 and 12, after the 11 of with_merges(*MERGES)
    assert_same(
        tokenizer_json(vocab=with_merges(*MERGES), merges=MERGES, added=added, post_processor=processor),
        ["abcd", "", "a <s> b"],
        spans=not processor.get("trim_offsets"),
    )  # trimmed: HF's offsets skip spaces


@settings(max_examples=80, deadline=None)
@given(st.text(st.sampled_from("abcd é😀<>s/"), max_size=30))
def test_any_text_with_every_option_at_once(text):
    vocab = with_merges(*MERGES, extra=BYTES)
    added = [("<s>", True, False), ("</s>", False, False)]
    document = tokenizer_json(
        vocab=vocab,
        merges=MERGES,
        added=added,
        model={"byte_fallback": True, "fuse_unk": True},
        decoder={"type": "Sequence", "decoders": [{"type": "ByteFallback"}, {"type": "Fuse"}]},
    )
    assert_same(document, [text])


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda data: data["added_tokens"].append(
                {
                    "id": 30,
                    "content": "<m>",
                    "lstrip": True,
                    "rstrip": False,
                    "single_word": False,
                    "normalized": False,
                    "special": True,
                }
            ),
            "added token '<m>' asks for lstrip",
        ),
        (lambda data: data.update(normalizer={"type": "BertNormalizer"}), "BertNormalizer"),
        (lambda data: data.update(pre_tokenizer={"type": "UnicodeScripts"}), "UnicodeScripts"),
        (lambda data: data.update(decoder={"type": "WordPiece"}), "WordPiece"),
        (lambda data: data.update(post_processor={"type": "Bogus"}), "Bogus"),
        (lambda data: data["model"].update(dropout=0.1), "dropout"),
    ],
)
def test_a_part_we_do_not_run_is_refused_by_name(change, message):
    data = json.loads(tokenizer_json(vocab=with_merges(*MERGES), merges=MERGES, normalizer={"type": "NFC"}))
    change(data)
    with pytest.raises(ValueError, match=message):
        from_hf_json(data)


@pytest.mark.parametrize("field", ["special", "normalized"])
def test_an_added_token_without_a_field_hf_requires_is_refused_as_hf_refuses_it(field):
    data = json.loads(tokenizer_json(added=[("<s>", True, False)]))
    del data["added_tokens"][0][field]
    with pytest.raises(Exception, match=f"missing field `{field}`"):
        tokenizers.Tokenizer.from_str(json.dumps(data))
    with pytest.raises(ValueError, match=f"^added_tokens\\[0\\].{field} is missing$"):
        from_hf_json(data)


def test_a_model_without_a_type_is_bpe_when_it_has_merges_as_in_hf():
    data = json.loads(tokenizer_json(vocab=with_merges(*MERGES), merges=MERGES))
    del data["model"]["type"]
    assert_same(json.dumps(data), TEXTS)


def test_an_unsupported_part_is_a_value_error_of_its_own_kind():
    data = json.loads(tokenizer_json(normalizer={"type": "BertNormalizer"}))
    with pytest.raises(UnsupportedPart):
        from_hf_json(data)


def test_spans_point_into_the_text_the_model_sees():
    document = tokenizer_json(
        vocab=with_merges(("▁", "a"), ("▁a", "b")),
        merges=[("▁", "a"), ("▁a", "b")],
        normalizer={
            "type": "Sequence",
            "normalizers": [
                {"type": "Prepend", "prepend": "▁"},
                {"type": "Replace", "pattern": {"String": " "}, "content": "▁"},
            ],
        },
    )
    ours = from_hf_json(document)
    shown = ours.shown_text("ab c")
    assert shown == "▁ab▁c"
    assert [(t.token, shown[t.start : t.end]) for t in ours.encode_with_spans("ab c")] == [
        ("▁ab", "▁ab"),
        ("▁", "▁"),
        ("c", "c"),
    ]


def test_a_prefix_keeps_the_parts_and_the_first_merges():
    ours = from_hf_json(tokenizer_json(vocab=with_merges(*MERGES), merges=MERGES, normalizer={"type": "Lowercase"}))
    first = ours.prefix(1)
    assert first.merges == [("a", "b")]
    assert "abc" not in first.vocab and "ab" in first.vocab
    assert first.tokenize("ABCD") == ["ab", "c", "d"]  # still lowercased: the parts came along


def test_a_file_without_merges_encodes_character_by_character_as_hf():
    # every id from the vocabulary alone; a merge table that is empty must still be a table
    assert_same(tokenizer_json(normalizer={"type": "NFC"}, decoder={"type": "Fuse"}), ["abcd", "a b", "xé"])


@pytest.mark.parametrize(
    "pre_tokenizer",
    [
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "never", "split": True},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "never", "split": False},
    ],
)
def test_spans_of_pieces_the_pre_tokenizer_rewrote(pre_tokenizer):
    # byte-level stand-ins (é is Ã© in the piece, one byte of the text each) and ▁ for a space
    if pre_tokenizer["type"] == "ByteLevel":
        merges = [("Ġ", "a"), ("Ġa", "b"), ("Ã", "©"), ("Ã©", "a"), ("æ", "°")]
        vocab = with_merges(*merges, extra=[BYTE_TO_CHAR[byte] for byte in range(256)])
    else:
        merges = [("▁", "a"), ("▁a", "b"), ("é", "a"), ("a", "▁")]
        vocab = with_merges(*merges, extra=["é"])
    assert_same(
        tokenizer_json(vocab=vocab, merges=merges, pre_tokenizer=pre_tokenizer),
        ["ab ab", " ab éa", "水 é😀a", "éa éé", "a  b"],
    )


def test_a_marker_the_pre_tokenizer_puts_in_front_covers_no_text():
    # HF gives "▁" the first character's offsets; ours give it none (it stands for no character)
    merges = [("▁", "a"), ("▁a", "b")]
    ours = from_hf_json(
        tokenizer_json(
            vocab=with_merges(*merges),
            merges=merges,
            pre_tokenizer={"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
        )
    )
    assert [(t.token, t.start, t.end) for t in ours.encode_with_spans("ab b")] == [
        ("▁ab", 0, 2),
        ("▁", 2, 3),
        ("b", 3, 4),
    ]
    assert [(t.token, t.start, t.end) for t in ours.encode_with_spans("xa")] == [
        ("▁", 0, 0),
        ("<unk>", 0, 1),
        ("a", 1, 2),
    ]


def test_kinds_and_bytes_of_added_tokens():
    added = [("<unk>", True, False), ("<｜s｜>", True, False)]
    document = tokenizer_json(vocab=with_merges(*MERGES), merges=MERGES, added=added)
    ours = from_hf_json(document)
    assert [t.kind for t in ours.encode_with_spans("x<｜s｜>a")] == ["unknown", "special", "normal"]
    # a byte-level model spells a special token as its text, not as byte stand-ins
    merges = [("Ġ", "a")]
    document = tokenizer_json(
        vocab=with_merges(*merges, extra=[BYTE_TO_CHAR[byte] for byte in range(256)]),
        merges=merges,
        added=added[1:],
        pre_tokenizer={"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True},
    )
    ours, hf = both(document)
    special = ours.vocab["<｜s｜>"]
    assert ours.token_bytes(special) == hf.decode([special], skip_special_tokens=False).encode("utf-8")


def test_a_long_piece_is_taken_whole_or_merged_whole_with_ignore_merges():
    # "ca" is a token no merge makes: only a piece that is "ca" is taken whole, not a word of a long piece
    merges = [("a", "b")]
    assert_same(
        tokenizer_json(vocab=with_merges(*merges, extra=["ca"]), merges=merges, model={"ignore_merges": True}),
        ["ca " * 40, "ca", "ab ca" * 20],
    )
