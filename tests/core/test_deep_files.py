"""A tokenizer.json nested too deeply is refused in words, at the depth HF tokenizers refuses it, by the loader and
the command line alike (it used to exhaust the stack: a RecursionError)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.paths import REPO_ROOT
from support.reference_libraries import hf_tokenizers

from bpe_core.formats import load_any
from bpe_core.formats.files import MAX_JSON_DEPTH

TOO_DEEP = f"the file is nested {MAX_JSON_DEPTH + 1} levels deep or more: HF tokenizers reads at most {MAX_JSON_DEPTH}"


def nested_normalizers(depth: int) -> str:
    """A tokenizer.json exactly ``depth`` levels deep: Sequences of Sequences around a Lowercase normalizer (the
    document, each Sequence's object and its list, the last object), written as text (json.dumps would recurse)."""
    # the document is one level, each Sequence two (its object, its list), a Lowercase at the bottom one more
    sequences, leaf = (depth - 2) // 2, '{"type": "Lowercase"}'
    if depth % 2:  # an odd depth ends in an empty Sequence instead
        sequences, leaf = (depth - 3) // 2, '{"type": "Sequence", "normalizers": []}'
    normalizer = '{"type": "Sequence", "normalizers": [' * sequences + leaf + "]}" * sequences
    return f'{{"normalizer": {normalizer}, "model": {{"type": "BPE", "vocab": {{"a": 0}}, "merges": []}}}}'


def json_depth(value) -> int:
    if not isinstance(value, (dict, list)):
        return 0
    return 1 + max(map(json_depth, value.values() if isinstance(value, dict) else value), default=0)


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, MAX_JSON_DEPTH + 2])
def test_the_deepest_file_read_is_the_deepest_hf_reads(depth):
    text = nested_normalizers(depth)
    assert json_depth(json.loads(text)) == depth
    hf = hf_tokenizers()
    try:
        hf_ids = hf.Tokenizer.from_str(text).encode("aA", add_special_tokens=False).ids
        hf_reads = True
    except Exception as error:  # noqa: BLE001 - HF raises a plain Exception
        assert "recursion limit exceeded" in str(error)
        hf_reads = False
    assert hf_reads == (depth <= MAX_JSON_DEPTH)
    if hf_reads:
        assert load_any({"tokenizer.json": text}).encode("aA") == hf_ids
    else:
        with pytest.raises(ValueError, match=TOO_DEEP):
            load_any({"tokenizer.json": text})


def test_a_file_nested_450_levels_is_one_line_on_the_command_line(tmp_path):
    deep = tmp_path / "tokenizer.json"
    deep.write_text(nested_normalizers(450), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "bpe_core", "encode", str(deep), "x"], cwd=REPO_ROOT, capture_output=True, text=True
    )
    assert result.returncode == 1
    assert result.stderr.strip().endswith(TOO_DEEP) and "Traceback" not in result.stderr


def test_a_merge_nested_too_deeply_to_show_is_named_by_its_place():
    merges = "[" * 900 + "]" * 900
    text = f'{{"model": {{"type": "BPE", "vocab": {{"a": 0}}, "merges": [{merges}]}}}}'
    with pytest.raises(ValueError, match=r"model\.merges\[0\]"):
        load_any({"tokenizer.json": text})
