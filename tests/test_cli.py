"""The command line, run as a user would: a real subprocess, files on disk."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bpe_core", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def banana_model(tmp_path) -> Path:
    model = tmp_path / "banana.json"
    result = run("train", "-", "--merges", "6", "--split", "none", "-o", str(model), stdin="banana_bandana_")
    assert result.returncode == 0, result.stderr
    return model


def test_train_merges_encode_decode(banana_model):
    merges = run("merges", str(banana_model)).stdout.splitlines()
    assert [json.loads(line) for line in merges] == [
        ["a", "n"], ["b", "an"], ["an", "a"], ["ana", "_"], ["ban", "ana_"], ["banana_", "ban"]
    ]
    encoded = json.loads(run("encode", str(banana_model), "bandana_").stdout)
    assert encoded["tokens"] == ["ban", "d", "ana_"]
    decoded = run("decode", str(banana_model), *map(str, encoded["ids"]))
    assert decoded.stdout == "bandana_\n"


def test_train_with_all_textbook_options(tmp_path):
    corpus = tmp_path / "low.txt"
    corpus.write_text("low lower newest widest low low low low newest newest newest newest", encoding="utf-8")
    model = tmp_path / "low.json"
    result = run("train", str(corpus), "--vocab-size", "50", "--end-of-word", "_", "--min-frequency", "2",
                 "--special", "<s>", "--tie-break", "first", "--top-k", "3", "-o", str(model))
    assert result.returncode == 0 and "9 merges" in result.stderr
    assert json.loads(run("encode", str(model), "lowest").stdout)["tokens"] == ["low", "est_"]


def test_byte_level_merges_print_the_space_as_g_dot(tmp_path):
    model = tmp_path / "bytes.json"
    run("train", "-", "--merges", "2", "--split", "gpt2", "--units", "bytes", "-o", str(model), stdin="a b a b a b")
    assert json.loads(run("merges", str(model)).stdout.splitlines()[0]) == ["Ġ", "b"]


def test_export_and_import_round_trip(tmp_path, banana_model):
    model = tmp_path / "gpt.json"
    run("train", "-", "--merges", "20", "--split", "gpt2", "--units", "bytes", "-o", str(model),
        stdin="hello world, hello there")
    assert run("export", str(model), "--format", "hf", "-o", str(tmp_path / "tokenizer.json")).returncode == 0
    assert run("export", str(model), "--format", "gpt2", "-o", str(tmp_path / "gpt2")).returncode == 0
    for paths in ([tmp_path / "tokenizer.json"], [tmp_path / "gpt2" / "vocab.json", tmp_path / "gpt2" / "merges.txt"]):
        back = tmp_path / "back.json"
        assert run("import", *map(str, paths), "-o", str(back)).returncode == 0
        assert run("merges", str(back)).stdout == run("merges", str(model)).stdout
    refused = run("export", str(banana_model), "--format", "gpt2", "-o", str(tmp_path / "x"))
    assert refused.returncode == 1 and "byte-level" in refused.stderr


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["train", "missing.txt", "--merges", "3", "-o", "/tmp/never.json"], None, "No such file or directory"),
        (["train", "-", "--merges", "-3", "-o", "/tmp/never.json"], "abc", "at least 0"),
        (["train", "-", "--merges", "3", "--split", "none", "--end-of-word", "_", "-o", "/tmp/never.json"], "abc",
         "needs whitespace pre-tokenization"),
        (["merges", "README.md"], None, "not valid JSON"),
    ],
)
def test_errors_are_one_line_without_traceback(args, stdin, message):
    result = run(*args, stdin=stdin)
    assert result.returncode == 1
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_decode_rejects_bad_ids_clearly(banana_model):
    for bad, message in (("x", "'x' is not a token id"), ("9999", "id 9999 is not in the vocabulary")):
        result = run("decode", str(banana_model), "1", bad)
        assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_non_utf8_corpus_is_refused(tmp_path):
    corpus = tmp_path / "latin1.txt"
    corpus.write_bytes("café".encode("latin-1"))
    result = run("train", str(corpus), "--merges", "2", "-o", str(tmp_path / "m.json"))
    assert result.returncode == 1 and "is not UTF-8 text" in result.stderr


def test_bad_arguments_exit_2():
    result = run("train", "-", "--split", "words", "--merges", "1", "-o", "x.json")
    assert result.returncode == 2 and "invalid choice" in result.stderr
