"""Counting in blocks (bpe_core.blocks), on Dask workers (bpe_core.dask_count), the counts table, and
training from it: the same counts, in the same order, and the same merges as from the text."""

import io
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.awkward_text import awkward_text
from support.reference_libraries import hf_byte_level_trained_on_file, hf_merges

from bpe_core import blocks
from bpe_core.blocks import count_files
from bpe_core.config import TIE_BREAKS, Config
from bpe_core.corpus import count_corpus
from bpe_core.formats import load_model
from bpe_core.formats.counts_tsv import CountsHeader, counts_from_tsv, counts_to_tsv
from bpe_core.pretokenize import lines as file_lines
from bpe_core.textbook import learn
from bpe_core.train import train, train_from_counts

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "kjv_sample.txt"
TEXTBOOK = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3


def written(tmp_path: Path, text: str, name: str = "corpus.txt") -> str:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return str(path)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bpe_core", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


# -- blocks ------------------------------------------------------------------------------------------------

mixed_text = awkward_text("<s>", " x", max_size=60)


@settings(max_examples=200, deadline=None)
@given(
    text=mixed_text,
    block_bytes=st.integers(1, 12),
    split=st.sampled_from(["whitespace", "gpt2", "gpt4", "gpt4o"]),
    lines=st.booleans(),
    window=st.sampled_from([4, 7, blocks._WINDOW]),
)
def test_any_text_in_any_blocks_counts_like_the_whole_in_the_same_order(
    tmp_path_factory, text, block_bytes, split, lines, window
):
    """Small read windows too, so that cuts are also looked for across a window's end."""
    path = written(tmp_path_factory.mktemp("blocks"), text)
    config = Config(split=split, special_tokens=("<s>",))
    expected = count_corpus(file_lines(text) if lines else text, config)
    with mock.patch.object(blocks, "_WINDOW", window):
        counts, specials = count_files([path], config, lines=lines, block_bytes=block_bytes)
    assert list(counts.items()) == list(expected[0].items())
    assert specials == expected[1]


@settings(max_examples=200, deadline=None)
@given(text=mixed_text, window=st.integers(4, 9), none_split=st.booleans())
def test_the_next_cut_is_the_first_allowed_one_even_across_read_windows(text, window, none_split):
    data = text.encode("utf-8")
    rule = blocks.cut_rule("none" if none_split else "gpt2", lines=True)
    allowed = [match.start() for match in rule.finditer(data)]  # every place the rule allows, read whole
    stream = io.BytesIO(data)
    with mock.patch.object(blocks, "_WINDOW", window):
        for offset in range(1, len(data) + 1):
            assert blocks.next_cut(stream, offset, rule) == min([cut for cut in allowed if cut >= offset] + [len(data)])
    assert blocks.next_cut(stream, 0, rule) == 0


def test_the_none_split_counts_whole_lines_in_blocks(tmp_path):
    path = written(tmp_path, "a b\na b\nc d e\n")
    counts, _ = count_files([path], Config(split="none"), lines=True, block_bytes=1)
    assert list(counts.items()) == [("a b\n", 2), ("c d e\n", 1)]


def test_several_files_are_separate_documents_counted_in_file_order(tmp_path):
    first, second = written(tmp_path, "b a", "1.txt"), written(tmp_path, "a c", "2.txt")
    counts, _ = count_files([first, second], Config(), lines=False, block_bytes=2)
    assert list(counts.items()) == [("b", 1), ("a", 2), ("c", 1)]


def test_a_leading_byte_order_mark_is_dropped_as_the_command_line_does(tmp_path):
    path = written(tmp_path, "\ufeffab ab")
    assert count_files([path], Config(), lines=False, block_bytes=1)[0] == Counter({"ab": 2})


@pytest.mark.parametrize(
    "setting, text, message",
    [
        (dict(split="none"), "a b", "none split makes each whole file one piece"),
        (dict(special_tokens=("end of text",)), "a b", "holds a space or newline"),
        (dict(), "ab \xff", r"not UTF-8 text \(byte 3:"),
    ],
)
def test_what_cannot_be_counted_in_blocks_says_why(tmp_path, setting, text, message):
    path = tmp_path / "corpus.txt"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(ValueError, match=message):
        count_files([str(path)], Config(**setting), lines=False, block_bytes=1)


def test_a_block_size_below_one_byte_is_refused(tmp_path):
    with pytest.raises(ValueError, match="at least 1"):
        count_files([written(tmp_path, "a")], Config(), lines=False, block_bytes=0)


# -- training from counts --------------------------------------------------------------------------------


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("end_of_word, split", [("</w>", "whitespace"), ("_", "whitespace"), (None, "gpt2")])
def test_training_from_block_counts_learns_the_textbook_merges(tmp_path, tie_break, end_of_word, split):
    """The textbook trainer on the text is the reference, for every tie-break (the corpus is full of ties)."""
    config = Config(split=split, end_of_word=end_of_word, tie_break=tie_break)
    counts, seen = count_files([written(tmp_path, TEXTBOOK)], config, lines=False, block_bytes=5)
    merges, vocab = learn(TEXTBOOK, config, merges=12)
    model = train_from_counts(counts, config, specials_seen=seen, merges=12)
    assert model.merges == merges
    assert model.vocab == vocab


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_training_from_kjv_block_counts_equals_training_from_the_text(tmp_path, tie_break):
    text = SAMPLE.read_text(encoding="utf-8")[:300_000]
    config = Config(split="gpt2", units="bytes", tie_break=tie_break, special_tokens=("<|endoftext|>",))
    counts, seen = count_files([written(tmp_path, text)], config, lines=True, block_bytes=20_000)
    from_text = train(file_lines(text), config, merges=400)
    from_counts = train_from_counts(counts, config, specials_seen=seen, merges=400)
    assert from_counts.merges == from_text.merges
    assert from_counts.vocab == from_text.vocab
    assert from_counts.corpus_tokens == from_text.corpus_tokens


@pytest.mark.parametrize(
    "table, message",
    [
        ({"": 1}, "non-empty pieces"),
        ({"a": 0}, "counts of 1 or more"),
        ({"a": -1}, "counts of 1 or more"),
        ({"a": 1.5}, "counts of 1 or more"),
        ({"a": True}, "counts of 1 or more"),
        ({"\ud800": 1}, "lone surrogate"),
    ],
)
def test_a_bad_counts_table_is_refused(table, message):
    with pytest.raises(ValueError, match=message):
        train_from_counts(table, merges=1)


def test_a_negative_number_of_special_tokens_seen_is_refused():
    with pytest.raises(ValueError, match="specials_seen must be a whole number of 0 or more"):
        train_from_counts({"a": 1}, specials_seen=-1, merges=1)


# -- the counts table file -------------------------------------------------------------------------------


def test_the_table_round_trips_pieces_with_tabs_newlines_and_line_separators():
    counts = {"a\tb": 3, "\n": 2, "x\u2028y": 1, '"q"': 1}
    header = CountsHeader("gpt4", ("<s>",), lines=True, specials_seen=4)
    text = counts_to_tsv(counts, header)
    assert text.count("\n") == 5  # the header and one line per piece
    table, read_header = counts_from_tsv(text)
    assert list(table.items()) == list(counts.items())
    assert read_header == header


HEADER = '# bpe_core piece counts v1 {"split": "gpt2", "special_tokens": [], "lines": false, "specials_seen": 0}\n'
# Rows that are not a count of 1 or more, a tab and a non-empty JSON string.
BAD_ROWS = ['0\t"a"\n', '-1\t"a"\n', '+1\t"a"\n', '\u00b2\t"a"\n', "1\t5\n", '1\t""\n', '1\t"a\n', '1 "a"\n']


def header_with(**changed) -> str:
    fields = {"split": "gpt2", "special_tokens": [], "lines": False, "specials_seen": 0, **changed}
    return "# bpe_core piece counts v1 " + json.dumps(fields) + "\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("low\t2\n", "not a counts table"),
        ('# bpe_core piece counts v1 {"split": "gpt2"}\n', "should hold split"),
        (header_with(split="bpe"), "out of range"),
        (header_with(lines=1), "out of range"),
        (HEADER + '2\t"a"\nx\t"b"\n', "line 3 of the counts table"),
        (HEADER + '2\t"a"\n1\t"a"\n', "repeats the piece 'a'"),
        *((HEADER + row, "line 2 of the counts table") for row in BAD_ROWS),
        *((header_with(specials_seen=seen), "out of range") for seen in (-1, True, 1.5, "1")),
        (header_with(special_tokens=[""]), "out of range"),
        (header_with(special_tokens="<s>"), "out of range"),
    ],
)
def test_a_damaged_table_file_says_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        counts_from_tsv(text)


def test_the_smallest_counts_are_read():
    """Counts of 1 and no special tokens seen: the edges of what a table may hold."""
    assert counts_from_tsv(HEADER + '1\t"a"\n') == ({"a": 1}, CountsHeader("gpt2", (), lines=False, specials_seen=0))


# -- Dask and the command line ------------------------------------------------------------------------


@pytest.mark.slow
def test_dask_workers_count_kjv_like_one_process(tmp_path):
    pytest.importorskip("dask.distributed")
    from bpe_core.dask_count import count_on_dask

    config = Config(split="gpt2")
    path = str(SAMPLE)
    expected = count_corpus(file_lines(SAMPLE.read_text(encoding="utf-8")), config)
    counts, seen = count_on_dask([path], config, lines=True, block_bytes=100_000, workers=2)
    assert list(counts.items()) == list(expected[0].items())
    assert seen == expected[1] == 0


@pytest.mark.slow
def test_count_then_train_gives_hf_byte_level_merges(tmp_path):
    """HF trains from the file itself (line by line); we count on two Dask workers, then train from the table."""
    pytest.importorskip("dask.distributed")
    text = "".join(f"  {verse}\n" for verse in SAMPLE.read_text(encoding="utf-8").splitlines()[:3000])
    corpus, table, model = written(tmp_path, text), tmp_path / "counts.tsv", tmp_path / "model.json"
    counted = run("count", corpus, "--split", "gpt2", "--lines", "--block-size", "30000", "-o", str(table))
    assert counted.returncode == 0, counted.stderr
    byte_level = ["--split", "gpt2", "--units", "bytes", "--tie-break", "hf", "--vocab-size", str(256 + 800)]
    trained = run("train", "--counts", str(table), *byte_level, "-o", str(model))
    assert trained.returncode == 0, trained.stderr
    assert load_model(model).merges == hf_merges(hf_byte_level_trained_on_file(Path(corpus), 256 + 800))


def test_cli_count_in_process_then_train_writes_the_model_training_from_the_text_writes(tmp_path):
    corpus = written(tmp_path, TEXTBOOK + "\n" + TEXTBOOK)
    table = tmp_path / "counts.tsv"
    assert run("count", corpus, "--workers", "0", "--block-size", "7", "-o", str(table)).returncode == 0
    header = json.loads(table.read_text(encoding="utf-8").splitlines()[0].split(" v1 ", 1)[1])
    assert header == {"split": "whitespace", "special_tokens": [], "lines": False, "specials_seen": 0}
    models = []
    for source in (["--counts", str(table)], [corpus]):
        models.append(tmp_path / f"model{len(models)}.json")
        result = run("train", *source, "--merges", "10", "--end-of-word", "</w>", "-o", str(models[-1]))
        assert result.returncode == 0, result.stderr
    assert models[0].read_bytes() == models[1].read_bytes()


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["train", "--merges", "1", "-o", "{out}"], "give a corpus file or --counts TABLE"),
        (["train", "{corpus}", "--counts", "{table}", "--merges", "1", "-o", "{out}"], "not both"),
        (["train", "--counts", "{table}", "--lines", "--merges", "1", "-o", "{out}"], "--lines is for reading text"),
        (
            ["train", "--counts", "{table}", "--split", "gpt2", "--merges", "1", "-o", "{out}"],
            "was counted with --split whitespace; train with the same",
        ),
        (["train", "--counts", "{corpus}", "--merges", "1", "-o", "{out}"], "not a counts table"),
        (["count", "{corpus}", "--workers", "0", "-o", "{corpus}"], "is also an input"),
        (["count", "{corpus}", "--workers", "0", "--split", "none", "-o", "{out}"], "--lines"),
        (["count", "{empty}", "--workers", "0", "-o", "{out}"], "holds no text to count"),
    ],
)
def test_cli_count_and_train_from_counts_refuse_bad_requests_in_one_line(tmp_path, arguments, message):
    paths = {
        "corpus": written(tmp_path, "low lower"),
        "empty": written(tmp_path, "  \n", "empty.txt"),
        "table": str(tmp_path / "counts.tsv"),
        "out": str(tmp_path / "out"),
    }
    assert run("count", paths["corpus"], "--workers", "0", "-o", paths["table"]).returncode == 0
    result = run(*(argument.format(**paths) for argument in arguments))
    assert result.returncode == 1
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert not Path(paths["out"]).exists()
    assert Path(paths["corpus"]).read_text(encoding="utf-8") == "low lower"


def test_training_from_counts_without_special_tokens_seen_counts_the_corpus_tokens_as_from_the_text():
    """low low lower -> after l+o, lo+w: low, low, low, e, r = 5 tokens, with nothing added for specials."""
    model = train_from_counts({"low": 2, "lower": 1}, merges=2)
    assert model.corpus_tokens == 5 == train("low low lower", merges=2).corpus_tokens


@pytest.mark.parametrize("top_k, allowed", [(-1, False), (0, True), (100, True), (101, False)])
def test_the_race_size_is_limited_to_0_through_100(top_k, allowed):
    if allowed:
        assert len(train_from_counts({"ab": 1}, merges=1, top_k=top_k).steps) == 1
    else:
        with pytest.raises(ValueError, match="top_k must be a whole number from 0 to 100"):
            train_from_counts({"ab": 1}, merges=1, top_k=top_k)


def test_the_race_holds_the_twenty_best_pairs_by_default_from_the_text_or_the_counts():
    # "ab" occurs twice, the 24 other pairs once: ties go by first occurrence (by hand)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    expected = (("a", "b", 2),) + tuple((left, right, 1) for left, right in zip(alphabet[1:20], alphabet[2:21]))
    from_text = train(f"{alphabet} ab", Config(split="whitespace"), merges=1)
    from_counts = train_from_counts({alphabet: 1, "ab": 1}, Config(split="whitespace"), merges=1)
    assert from_text.steps[0].top == from_counts.steps[0].top == expected
