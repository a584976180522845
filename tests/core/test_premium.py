"""The token premium (bpe_core.premium) on the bundled preambles (bpe_core.languages): every published tokenizer's
counts against tiktoken's and HF tokenizers' own, and the premium of a model trained on a hand-made two-language
corpus worked out by hand."""

import gc
import hashlib
import json
import re

import pytest
from support.open_model_references import hf_reference

from bpe_core import Config, train
from bpe_core.languages import ENGLISH, PREAMBLES, SOURCE, bundled_language, bundled_languages, bundled_texts
from bpe_core.premium import PremiumRow, premium_rows, rows_from_counts, token_count, token_counts
from bpe_core.pretrained import OPEN_MODELS, load_pretrained

TIKTOKEN_NAMES = ["gpt2", "cl100k_base", "o200k_base", "o200k_harmony"]  # every published tokenizer tiktoken has


def test_the_bundled_texts_are_the_data_files_preambles_with_names_and_scripts():
    records = json.loads(PREAMBLES.read_text(encoding="utf-8"))
    assert len(records) == 58 and len({record["script"] for record in records.values()}) == 27
    assert bundled_texts() == {code: record["preamble"] for code, record in records.items()}
    hindi = bundled_language("hin")
    assert (hindi.name, hindi.script, hindi.title) == ("Hindi", "Devanagari", records["hin"]["title"])
    assert [language.code for language in bundled_languages()][0] == ENGLISH == "eng"
    readme = (PREAMBLES.parent / "README.md").read_text(encoding="utf-8")
    assert "UDHR in Unicode" in readme and "reproduced freely" in readme and "UDHR in Unicode" in SOURCE


def test_bundled_texts_may_be_chosen_and_changed_without_touching_the_shared_ones():
    chosen = bundled_texts(["jpn", "eng"])
    assert list(chosen) == ["jpn", "eng"]
    chosen["eng"] = ""
    assert bundled_texts()["eng"].startswith("Whereas recognition of the inherent dignity")
    with pytest.raises(ValueError, match="no bundled text is in the language 'english'"):
        bundled_texts(["english"])


@pytest.mark.parametrize("name", TIKTOKEN_NAMES)
def test_counts_equal_tiktokens_on_every_bundled_text(tiktoken_module, name):
    reference = tiktoken_module.get_encoding(name)
    texts = bundled_texts()
    expected = {code: len(reference.encode_ordinary(text)) for code, text in texts.items()}
    assert token_counts(load_pretrained(name), texts) == expected


@pytest.mark.parametrize("name", list(OPEN_MODELS))
def test_counts_equal_hf_tokenizers_on_every_bundled_text(name):
    pytest.importorskip("tokenizers")
    reference = hf_reference(name)
    texts = bundled_texts()
    expected = {code: len(reference.encode(text, add_special_tokens=False).ids) for code, text in texts.items()}
    assert token_counts(load_pretrained(name), texts) == expected


def test_gpt4s_rows_follow_from_tiktokens_counts(tiktoken_module):
    texts = bundled_texts()
    reference = tiktoken_module.get_encoding("cl100k_base")
    counts = {code: len(reference.encode_ordinary(text)) for code, text in texts.items()}
    rows = {row.language: row for row in premium_rows(load_pretrained("cl100k_base"), texts)}
    for code, text in texts.items():
        assert rows[code] == PremiumRow(
            code,
            counts[code],
            counts[code] / counts["eng"],
            len(text.encode()) / counts[code],
            len(text) / counts[code],
        )
    ordered = list(rows.values())
    assert [row.premium for row in ordered] == sorted(row.premium for row in ordered)


def test_another_reference_language_divides_by_its_count(tiktoken_module):
    texts = bundled_texts(["eng", "hin", "cmn"])
    reference = tiktoken_module.get_encoding("o200k_base")
    hindi = len(reference.encode_ordinary(texts["hin"]))
    rows = premium_rows(load_pretrained("o200k_base"), texts, reference="hin")
    assert {row.language: row.premium for row in rows} == {
        code: len(reference.encode_ordinary(text)) / hindi for code, text in texts.items()
    }


# A hand-made corpus of two languages, 'en' (low low) and 'xx' (lob lob), mixed 3 to 1 by copies:
# "low low\nlob lob\nlow low\nlow low\n", split at whitespace into characters.  Pairs: l o 8, o w 6, o b 2.
# Merge 1: l+o (8).  Then lo w 6, lo b 2.  Merge 2: lo+w (6).
# With both merges, "low low" is [low, low] (2 tokens), "lob lob" is [lo, b, lo, b] (4): xx's premium is 4 / 2 = 2;
# 7 bytes and 7 characters each: 3.5 a token in English, 1.75 in xx.
HAND_TEXTS = {"en": "low low", "xx": "lob lob"}
HAND_CORPUS = "low low\nlob lob\nlow low\nlow low\n"


def test_a_trained_models_premium_on_a_hand_made_two_language_corpus():
    model = train(HAND_CORPUS, Config(), merges=2)
    assert model.merges == [("l", "o"), ("lo", "w")]
    assert premium_rows(model, HAND_TEXTS, reference="en") == [
        PremiumRow("en", 2, 1.0, 3.5, 3.5),
        PremiumRow("xx", 4, 2.0, 1.75, 1.75),
    ]
    # With one merge only (l+o), both take 4 tokens: no premium.
    assert [row.premium for row in premium_rows(model.prefix(1), HAND_TEXTS, reference="en")] == [1.0, 1.0]


def test_rows_from_counts_made_elsewhere():
    # Compare counts every vocabulary size at once; the rows follow from counts alone.
    rows = rows_from_counts({"en": 4, "xx": 2}, HAND_TEXTS, reference="en")
    assert rows == [PremiumRow("xx", 2, 0.5, 3.5, 3.5), PremiumRow("en", 4, 1.0, 1.75, 1.75)]


@pytest.mark.parametrize(
    "texts, reference, message",
    [
        ({"xx": "lob"}, "en", "there is no text in the reference language 'en' (the texts are in xx)"),
        ({}, "en", "there is no text in the reference language 'en' (the texts are in none)"),
        ({"en": "low", "xx": ""}, "en", "the text of 'xx' is empty"),
        ({"en": "low", "xx": " \n"}, "en", "the text of 'xx' is empty"),
        ({"en": "low", "xx": "l\ud800b"}, "en", "the text of 'xx' holds a lone surrogate U+D800 at position 1"),
    ],
)
def test_a_missing_reference_or_an_empty_text_is_refused_in_words(texts, reference, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        premium_rows(train(HAND_CORPUS, Config(), merges=2), texts, reference=reference)


def test_the_shipped_texts_are_the_ones_the_data_readme_lists():
    digest = hashlib.sha256(PREAMBLES.read_bytes()).hexdigest()
    assert digest == "22a7067840394db787354b803983721a708deab7046b63f0919e5c6bcd4335ec"  # shared/data/udhr's file
    assert digest in (PREAMBLES.parents[1] / "README.md").read_text(encoding="utf-8")


def test_a_tokenizers_counts_are_forgotten_past_their_limit(monkeypatch):
    from bpe_core import premium

    monkeypatch.setattr(premium, "_COUNTS_PER_TOKENIZER", 2)
    model = train(HAND_CORPUS, Config(), merges=2)
    for text in ("low", "lob", "low low"):
        token_count(model, text)
    assert premium._COUNTS[model] == {"low low": 2}


def test_a_text_of_no_tokens_has_no_premium():
    with pytest.raises(ValueError, match="the text of 'xx' takes no tokens"):
        rows_from_counts({"en": 2, "xx": 0}, HAND_TEXTS, reference="en")


def test_counts_are_made_once_per_tokenizer_and_text(monkeypatch):
    model = train(HAND_CORPUS, Config(), merges=2)
    other = train(HAND_CORPUS, Config(), merges=1)
    encoded = []
    original = type(model).encode

    def counting_encode(self, text, **options):
        encoded.append(text)
        return original(self, text, **options)

    monkeypatch.setattr(type(model), "encode", counting_encode)
    assert token_count(model, "low low") == 2 and token_count(model, "low low") == 2
    assert token_count(other, "low low") == 4  # another model: its own count
    assert encoded == ["low low", "low low"]


def test_a_special_tokens_spelling_is_counted_as_text(tiktoken_module):
    text = "Whereas <|endoftext|> is text here"
    expected = len(tiktoken_module.get_encoding("cl100k_base").encode_ordinary(text))
    assert token_count(load_pretrained("cl100k_base"), text) == expected


def test_the_counts_go_when_their_tokenizer_goes():
    from bpe_core import premium

    model = train(HAND_CORPUS, Config(), merges=2)
    token_count(model, "low low")
    assert model in premium._COUNTS
    held = len(premium._COUNTS)
    del model
    gc.collect()
    assert len(premium._COUNTS) == held - 1
