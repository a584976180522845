"""``python -m bpe_core premium``, run as a user would: a real subprocess, files on disk."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bpe_core.languages import bundled_texts

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = "tokenizer\tlanguage\ttokens\tpremium\tbytes_per_token\tcharacters_per_token"

# The hand-made two-language corpus of tests/core/test_premium.py: merges l+o then lo+w; "low low" takes 2 tokens,
# "lob lob" 4 ([lo, b, lo, b]); 7 bytes and characters each.
HAND_CORPUS = "low low\nlob lob\nlow low\nlow low\n"
HAND_TEXTS = {"en": "low low", "xx": "lob lob"}


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bpe_core", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def hand_files(tmp_path) -> tuple[Path, Path]:
    """The hand-made model (trained by the command line) and its two texts as a JSON file."""
    model, texts = tmp_path / "hand.json", tmp_path / "texts.json"
    trained = run("train", "-", "--merges", "2", "-o", str(model), stdin=HAND_CORPUS)
    assert trained.returncode == 0, trained.stderr
    texts.write_text(json.dumps(HAND_TEXTS), encoding="utf-8")
    return model, texts


def test_json_rows_of_a_model_file_and_a_published_tokenizer(hand_files, tiktoken_module):
    model, texts = hand_files
    result = run("premium", str(model), "cl100k_base", "--texts", str(texts), "--reference", "en", "--format", "json")
    assert result.returncode == 0, result.stderr
    gpt4 = {
        code: len(tiktoken_module.get_encoding("cl100k_base").encode_ordinary(text))
        for code, text in HAND_TEXTS.items()
    }
    gpt4_rows = [
        {
            "tokenizer": "cl100k_base",
            "language": code,
            "tokens": gpt4[code],
            "premium": gpt4[code] / gpt4["en"],
            "bytes_per_token": 7 / gpt4[code],
            "characters_per_token": 7 / gpt4[code],
        }
        for code in sorted(HAND_TEXTS, key=lambda code: (gpt4[code] / gpt4["en"], code))
    ]
    assert json.loads(result.stdout) == {
        "reference": "en",
        "rows": [
            {"tokenizer": str(model), "language": "en", "tokens": 2, "premium": 1.0, "bytes_per_token": 3.5,
             "characters_per_token": 3.5},
            {"tokenizer": str(model), "language": "xx", "tokens": 4, "premium": 2.0, "bytes_per_token": 1.75,
             "characters_per_token": 1.75},
            *gpt4_rows,
        ],
    }  # fmt: skip


def test_a_table_of_the_bundled_texts_by_default(tiktoken_module):
    result = run("premium", "gpt2")
    assert result.returncode == 0, result.stderr
    header, *lines = result.stdout.splitlines()
    assert header == COLUMNS and len(lines) == 58
    reference = tiktoken_module.get_encoding("gpt2")
    english = bundled_texts()["eng"]
    tokens = len(reference.encode_ordinary(english))
    english_row = f"gpt2\teng\t{tokens}\t1.0000\t{len(english.encode()) / tokens:.4f}\t{len(english) / tokens:.4f}"
    assert english_row in lines
    premiums = [float(line.split("\t")[3]) for line in lines]
    assert premiums == sorted(premiums)


def test_another_reference_and_texts_from_standard_input(hand_files):
    model, _ = hand_files
    result = run("premium", str(model), "--texts", "-", "--reference", "xx", stdin=json.dumps(HAND_TEXTS))
    name = str(model)
    assert result.stdout == f"{COLUMNS}\n{name}\ten\t2\t0.5000\t3.5000\t3.5000\n{name}\txx\t4\t1.0000\t1.7500\t1.7500\n"


def test_a_tab_or_a_line_break_in_a_code_cannot_break_the_table(hand_files):
    model, _ = hand_files
    texts = json.dumps({"en": "low low", "x\tx\ny": "lob lob"})
    result = run("premium", str(model), "--texts", "-", "--reference", "en", stdin=texts)
    assert result.stdout.splitlines()[2].split("\t")[:3] == [str(model), "x\\tx\\ny", "4"]


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["gpt2", "--reference", "en"], None, "error: there is no text in the reference language 'en' (the texts are "
         "in eng, spa, "),
        (["gpt2", "--texts", "-"], '{"eng": "Whereas", "fra": ""}', "error: the text of 'fra' is empty: a premium "
         "needs a text in every language\n"),
        (["gpt2", "--texts", "-"], '{"fra": "Considérant"}', "error: there is no text in the reference language "
         "'eng' (the texts are in fra)\n"),
        (["gpt2", "--texts", "-"], '["Whereas"]', 'error: standard input is not a JSON object from a language code '
         'to its text ({"eng": "...", ...})\n'),
        (["gpt2", "--texts", "-"], '{"eng": 3}', "error: standard input is not a JSON object from a language code"),
        (["gpt2", "--texts", "-"], '{"eng": ', "error: standard input is not JSON (Expecting value at line 1, "
         "column 9)\n"),
        (["gpt2", "--texts", "-"], '{"eng": "a\\ud800"}', "error: the text of 'eng' holds a lone surrogate U+D800 at "
         "position 1: it is not a character\n"),
        (["gpt2", "--texts", "missing.json"], None, "error: No such file or directory (missing.json)\n"),
        (["gpt-17"], None, "error: gpt-17 is neither a model file nor a published tokenizer (gpt2, "),
        (["README.md"], None, "error: README.md: not valid JSON"),
    ],
)  # fmt: skip
def test_refused_input_is_one_line_in_words_and_exit_2(args, stdin, message):
    result = run("premium", *args, stdin=stdin)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_no_tokenizer_named_is_a_bad_argument():
    result = run("premium")
    assert result.returncode == 2 and "the following arguments are required: NAME" in result.stderr
