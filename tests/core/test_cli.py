"""The command line, run as a user would: a real subprocess, files on disk (but for the published tokenizers' outputs,
in this process, which has them loaded)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import REPO_ROOT
from support.reference_libraries import hf_tokenizers

from bpe_core import cli


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "bpe_core", *args]
    return subprocess.run(command, cwd=REPO_ROOT, input=stdin, capture_output=True, text=True, timeout=120)


@pytest.fixture
def banana_model(tmp_path) -> Path:
    model = tmp_path / "banana.json"
    result = run("train", "-", "--merges", "6", "--split", "none", "-o", str(model), stdin="banana_bandana_")
    assert result.returncode == 0, result.stderr
    return model


def test_train_merges_encode_decode(banana_model):
    merges = run("merges", str(banana_model)).stdout.splitlines()
    assert [json.loads(line) for line in merges] == [
        ["a", "n"],
        ["b", "an"],
        ["an", "a"],
        ["ana", "_"],
        ["ban", "ana_"],
        ["banana_", "ban"],
    ]
    encoded = json.loads(run("encode", str(banana_model), "bandana_").stdout)
    assert encoded["tokens"] == ["ban", "d", "ana_"]
    decoded = run("decode", str(banana_model), *map(str, encoded["ids"]))
    assert decoded.stdout == "bandana_\n"


def test_train_with_all_textbook_options(tmp_path):
    corpus = tmp_path / "low.txt"
    corpus.write_text("low lower newest widest low low low low newest newest newest newest", encoding="utf-8")
    model = tmp_path / "low.json"
    result = run(
        "train",
        str(corpus),
        "--vocab-size",
        "50",
        "--end-of-word",
        "_",
        "--min-frequency",
        "2",
        "--special",
        "<s>",
        "--tie-break",
        "first",
        "--top-k",
        "3",
        "-o",
        str(model),
    )
    assert result.returncode == 0 and "9 merges" in result.stderr
    assert json.loads(run("encode", str(model), "lowest").stdout)["tokens"] == ["low", "est_"]


def test_byte_level_merges_print_the_space_as_g_dot(tmp_path):
    model = tmp_path / "bytes.json"
    run("train", "-", "--merges", "2", "--split", "gpt2", "--units", "bytes", "-o", str(model), stdin="a b a b a b")
    assert json.loads(run("merges", str(model)).stdout.splitlines()[0]) == ["Ġ", "b"]


def test_export_and_import_round_trip(tmp_path, banana_model):
    model = tmp_path / "gpt.json"
    run(
        "train",
        "-",
        "--merges",
        "20",
        "--split",
        "gpt2",
        "--units",
        "bytes",
        "-o",
        str(model),
        stdin="hello world, hello there",
    )
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
        (["train", "-", "--merges", "-3", "-o", "/tmp/never.json"], "abc", "from 0 to 1,000,000"),
        (["train", "-", "--merges", "2000000", "-o", "/tmp/never.json"], "abc", "from 0 to 1,000,000"),
        (["train", "-", "--merges", "3", "--top-k", "101", "-o", "/tmp/never.json"], "abc", "from 0 to 100"),
        (["train", "/dev/null", "--merges", "3", "-o", "/tmp/never.json"], None, "/dev/null holds no text"),
        (["train", "/dev/zero", "--merges", "3", "-o", "/tmp/never.json"], None, "larger than the limit of 256 MiB"),
        (["train", "-", "--vocab-size", "2", "-o", "/tmp/never.json"], "abc", "smaller than the base vocabulary"),
        (
            ["train", "-", "--merges", "3", "--split", "none", "--end-of-word", "_", "-o", "/tmp/never.json"],
            "abc",
            "needs whitespace pre-tokenization",
        ),
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


@pytest.mark.parametrize(
    "args, message",
    [
        (["train", "-", "--split", "words", "--merges", "1", "-o", "x.json"], "invalid choice: 'words'"),
        (["train", "-", "--merges", "1"], "the following arguments are required: -o/--output"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_arguments_are_one_line_with_a_pointer_to_help(args, message):
    result = run(*args, stdin="abc")
    assert result.returncode == 2
    assert message in result.stderr and "--help" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "usage:" not in result.stderr


def test_the_output_may_not_be_the_corpus(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low lower", encoding="utf-8")
    result = run("train", str(corpus), "--merges", "2", "-o", str(tmp_path / "." / "corpus.txt"))
    assert result.returncode == 1 and "is also an input" in result.stderr
    assert corpus.read_text(encoding="utf-8") == "low lower"


def test_a_failed_run_leaves_the_existing_output_as_it_was(tmp_path, banana_model):
    before = banana_model.read_bytes()
    for args in (
        ["train", "-", "--merges", "3", "--split", "none", "--end-of-word", "_"],  # invalid settings
        ["train", "-", "--vocab-size", "1"],
    ):  # below the alphabet
        result = run(*args, "-o", str(banana_model), stdin="abc")
        assert result.returncode == 1
    assert banana_model.read_bytes() == before
    assert sorted(path.name for path in banana_model.parent.iterdir()) == ["banana.json"]  # no temporary left


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    from bpe_core.formats import files

    target = tmp_path / "model.json"
    target.write_text("old", encoding="utf-8")

    def fail(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "replace", fail)
    with pytest.raises(KeyboardInterrupt):
        files.write_text_atomically(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert [path.name for path in tmp_path.iterdir()] == ["model.json"]


def test_a_byte_order_mark_is_dropped_and_said(tmp_path):
    corpus = tmp_path / "bom.txt"
    corpus.write_bytes(b"\xef\xbb\xbfab ab")
    model = tmp_path / "m.json"
    result = run("train", str(corpus), "--merges", "1", "-o", str(model))
    assert result.returncode == 0 and "dropped the byte-order mark" in result.stderr
    assert [json.loads(line) for line in run("merges", str(model)).stdout.splitlines()] == [["a", "b"]]


def test_a_marker_inside_the_corpus_is_warned_about(tmp_path):
    result = run(
        "train", "-", "--merges", "2", "--end-of-word", "_", "-o", str(tmp_path / "m.json"), stdin="snake_case words"
    )
    assert result.returncode == 0
    assert "warning: the end-of-word marker '_' also occurs inside 1 distinct word(s)" in result.stderr


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda data: data["config"].update(end_of_word=5), "end_of_word must be a text or null, not 5"),
        (lambda data: data["config"].update(glue_marker="yes"), "glue_marker must be true or false"),
        (lambda data: data["vocab"].update(a=-1), 'vocab["a"]: id -1 is not a whole number from 0 to 4294967295'),
        (lambda data: data["vocab"].update(b=data["vocab"]["a"]), 'vocab: "a" and "b" share the id'),
        (lambda data: data["merges"].append(["a"]), 'merges[6]: ["a"] is not a list of two texts'),
    ],
)
def test_a_model_file_with_a_wrong_field_is_refused_naming_it(tmp_path, banana_model, change, message):
    data = json.loads(banana_model.read_text(encoding="utf-8"))
    change(data)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    result = run("encode", str(broken), "banana")
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_a_reader_that_stops_early_is_not_an_error(tmp_path):
    """``merges MODEL | head -1``: GPT-2's 50,000 merges overflow the pipe after the reader has gone."""
    model = tmp_path / "gpt2.json"
    data = REPO_ROOT / "bpe_core" / "data"
    assert run("import", str(data / "encoder.json"), str(data / "vocab.bpe"), "-o", str(model)).returncode == 0
    reader = subprocess.Popen(
        [sys.executable, "-m", "bpe_core", "merges", str(model)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert json.loads(reader.stdout.readline()) == ["Ġ", "t"]  # GPT-2's first merge
    reader.stdout.close()
    assert reader.wait(timeout=120) == 0
    assert reader.stderr.read() == ""


def test_ids_only_streams_a_file_with_the_ids_of_the_whole_text(tmp_path):
    """GPT-2's ids from HF-checked load_gpt2: \\r\\n kept, <|endoftext|> matched unless --no-special."""
    from bpe_core import load_gpt2

    text = "hello world\r\n" * 3 + "hi <|endoftext|> there\n\n  indented\n"
    source = tmp_path / "text.txt"
    source.write_bytes(text.encode("utf-8"))
    model = tmp_path / "gpt2.json"
    data = REPO_ROOT / "bpe_core" / "data"
    assert run("import", str(data / "encoder.json"), str(data / "vocab.bpe"), "-o", str(model)).returncode == 0
    gpt2 = load_gpt2()
    streamed = run("encode", str(model), "-i", str(source), "--ids-only")
    assert streamed.returncode == 0 and list(map(int, streamed.stdout.split())) == gpt2.encode(text)
    assert 50256 in gpt2.encode(text)
    plain = run("encode", str(model), "-i", str(source), "--ids-only", "--no-special")
    assert list(map(int, plain.stdout.split())) == gpt2.encode(text, special=False)
    assert 50256 not in gpt2.encode(text, special=False)
    piped = run("encode", str(model), "--ids-only", stdin=text.replace("\r\n", "\n"))
    assert list(map(int, piped.stdout.split())) == gpt2.encode(text.replace("\r\n", "\n"))
    whole = json.loads(run("encode", str(model), "-i", str(source)).stdout)
    assert whole["ids"] == gpt2.encode(text)


def test_the_race_is_written_only_with_trace(tmp_path):
    from bpe_core import load_model

    plain, traced = tmp_path / "plain.json", tmp_path / "traced.json"
    for path, extra in ((plain, []), (traced, ["--trace", "--top-k", "2"])):
        assert (
            run(
                "train", "-", "--merges", "2", "--split", "none", "-o", str(path), *extra, stdin="banana_bandana_"
            ).returncode
            == 0
        )
    # banana_bandana_: "a n" 4 times (then "n a" 3), then "b an" twice, tied with "an a" and "a _"
    assert [(step.count, step.tied, step.top) for step in load_model(plain).steps] == [(4, 1, ()), (2, 3, ())]
    assert [step.top for step in load_model(traced).steps] == [
        (("a", "n", 4), ("n", "a", 3)),
        (("b", "an", 2), ("an", "a", 2)),
    ]
    assert plain.stat().st_size < traced.stat().st_size


def test_published_tokenizers_by_name(capsys):
    """tiktoken's ids for "Hello, world!" (cl100k_base, o200k_base) and GPT-2's.  Run in this process, which
    reads each published tokenizer once for all the tests (a subprocess would read it for every command)."""

    def written(*args: str) -> str:
        capsys.readouterr()
        assert cli.main(list(args)) == 0
        return capsys.readouterr().out

    for name, ids in (
        ("gpt2", [15496, 11, 995, 0]),
        ("cl100k_base", [9906, 11, 1917, 0]),
        ("o200k_base", [13225, 11, 2375, 0]),
    ):
        assert json.loads(written("encode", name, "Hello, world!"))["ids"] == ids
        assert written("decode", name, *map(str, ids)) == "Hello, world!\n"
    first = written("merges", "cl100k_base").splitlines()
    assert len(first) == 100_000 and json.loads(first[0]) == ["Ġ", "Ġ"]  # cl100k's rank 256: two spaces
    unknown = run("encode", "gpt5", "x")
    assert unknown.returncode == 1
    assert (
        "gpt5 is neither a model file nor a published tokenizer (gpt2, cl100k_base, o200k_base, o200k_harmony, "
        "llama2, llama3, qwen3, qwen3.6, deepseek-v3, deepseek-v4, gemma3, mistral-tekken-v3, claude-legacy)"
    ) in unknown.stderr


def test_an_xz_tokenizer_file_is_read_as_the_pages_read_it(tmp_path):
    """A shipped open model, compressed as it ships, encodes as HF tokenizers encodes the unpacked file."""
    import lzma

    packed = REPO_ROOT / "bpe_core" / "data" / "open" / "llama2.tokenizer.json.xz"
    text = "Hello, wörld! 😀"
    reference = hf_tokenizers().Tokenizer.from_str(lzma.decompress(packed.read_bytes()).decode("utf-8"))
    result = run("encode", str(packed), text)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ids"] == reference.encode(text, add_special_tokens=False).ids
    # import names the model after the unpacked file, as an upload is named
    exported = tmp_path / "banana.tokenizer.json"
    model = tmp_path / "m.json"
    run("train", "-", "--merges", "3", "--split", "gpt2", "--units", "bytes", "-o", str(model), stdin="banana bandana")
    assert run("export", str(model), "--format", "hf", "-o", str(exported)).returncode == 0
    small = tmp_path / "banana.tokenizer.json.xz"
    small.write_bytes(lzma.compress(exported.read_bytes()))
    assert run("import", str(small), "-o", str(tmp_path / "back.json")).returncode == 0
    back = json.loads((tmp_path / "back.json").read_text(encoding="utf-8"))
    # by hand: a+n (4 times), then b+an and an+a tie at 2 (b+an first), then an+a (2) before Ġ+ban (1)
    assert (back["name"], back["merges"]) == ("banana.tokenizer.json", [["a", "n"], ["b", "an"], ["an", "a"]])


def test_a_bad_xz_file_is_one_line_with_the_pages_cap(tmp_path):
    import lzma

    bomb = tmp_path / "bomb.json.xz"
    bomb.write_bytes(lzma.compress(b" " * (64 * 2**20 + 1)))  # a few kilobytes that unpack to 64 MB and one byte
    result = run("encode", str(bomb), "x")
    assert (result.returncode, result.stderr) == (
        1,
        f"error: {bomb}: it unpacks to more than 64 MB, more than this app reads from one file\n",
    )
    fake = tmp_path / "fake.json.xz"
    fake.write_text("{}", encoding="utf-8")
    result = run("encode", str(fake), "x")
    assert (result.returncode, result.stderr) == (
        1,
        f"error: {fake}: this is not an xz file (make one with: xz -k tokenizer.json)\n",
    )


def test_train_takes_the_cap_on_the_vocabularys_text(tmp_path):
    """banana_bandana_ as one piece: an, ban, ana, ana_ hold 2 + 3 + 3 + 4 = 12 characters; banana_ would pass 12."""
    corpus, model = tmp_path / "banana.txt", tmp_path / "model.json"
    corpus.write_text("banana_bandana_", encoding="utf-8")
    result = run("train", str(corpus), "--split", "none", "--merges", "6", "--max-vocab-chars", "12", "-o", str(model))
    assert result.returncode == 0
    assert result.stderr.startswith("4 merges, vocabulary 10: stopped after 4 merges: the next token would take")
    assert json.loads(model.read_text(encoding="utf-8"))["stop"]["reason"] == "vocab_text"
    refused = run("train", str(corpus), "--merges", "6", "--max-vocab-chars", "-1", "-o", str(tmp_path / "no.json"))
    assert (
        refused.returncode == 1 and "the vocabulary's text cap must be a whole number of characters" in refused.stderr
    )
    assert not (tmp_path / "no.json").exists()


def test_truncate_writes_the_longest_beginning_that_fits(banana_model):
    """banana model (merges a+n, b+an, an+a, ana+_, ban+ana_, banana_+ban), by hand: "banana_bandana_" is
    banana_ban|d|ana_; "banana_band" takes 2 tokens, and every longer beginning 3 (banana_ban d a, ... d ana_)."""
    kept = run("truncate", str(banana_model), "2", stdin="banana_bandana_")
    assert (kept.returncode, kept.stdout) == (0, "banana_band")
    assert kept.stderr == "note: kept 11 of 15 characters\n"
    whole = run("truncate", "gpt2", "100", stdin="naïve 👍🏽\n")
    assert (whole.stdout, whole.stderr) == ("naïve 👍🏽\n", "")  # as it came, no newline added or note
    emoji = run("truncate", "gpt2", "5", stdin="naïve 👍🏽 emoji")  # "naïve 👍" is 4 tokens, 👍🏽 one character
    assert emoji.stdout == "naïve "


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (("gpt2", "-1"), 1, "error: the token budget must be a whole number from 0 up, not -1\n"),
        (
            ("gpt2", "many"),
            2,
            "error: argument N: invalid int value: 'many' (see python -m bpe_core truncate --help)\n",
        ),
        (("gpt-9", "3"), 1, "error: gpt-9 is neither a model file nor a published tokenizer"),
    ],
)
def test_truncate_refuses_in_one_line(args, code, said):
    result = run("truncate", *args, stdin="some text")
    assert (result.returncode, result.stdout) == (code, "")
    assert result.stderr.startswith(said) and result.stderr.count("\n") == 1


CONVERSATION = {"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi!"}]}


def test_chat_prints_the_ids_the_model_receives_ready_for_the_reply(tmp_path):
    conversation = tmp_path / "conversation.json"
    conversation.write_text(json.dumps(CONVERSATION), encoding="utf-8")
    # Qwen3's ChatML by hand: <|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n then the
    # reply's opening <|im_start|>assistant\n (ids from Qwen3's tokenizer.json: 8948 system, 872 user, 77091 assistant)
    system, user = [151644, 8948, 198, 3430, 9814, 13, 151645, 198], [151644, 872, 198, 13048, 0, 151645, 198]
    ready = run("chat", "qwen3", str(conversation))
    assert (ready.returncode, ready.stderr) == (0, "")
    assert json.loads(ready.stdout) == system + user + [151644, 77091, 198]
    as_it_stands = run("chat", "qwen3", "-", "--as-it-stands", stdin=json.dumps(CONVERSATION))
    assert json.loads(as_it_stands.stdout) == system + user


def test_chat_counts_gpt4_by_openais_documented_estimate():
    # the cookbook: 3 a message + its role (1 token) + its text (Be brief. = 3, Hi! = 2), and 3 for the reply
    counted = run("chat", "cl100k_base", "-", "--count", stdin=json.dumps(CONVERSATION))
    counts = {"total": 16, "messages": [3, 2], "tools": 0, "format": 11, "estimated": True}
    # GPT-4's window: 8,192 tokens (OpenAI's model page), 16 of them the prompt's
    assert json.loads(counted.stdout) == {**counts, "context_window": 8192, "remaining": 8176}


WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Gets the weather.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


def test_chat_takes_openais_tools_beside_the_messages_and_counts_them_apart():
    request = json.dumps({**CONVERSATION, "tools": [WEATHER]})
    with_tools = run("chat", "qwen3", "-", "--count", stdin=request)
    without = json.loads(run("chat", "qwen3", "-", "--count", stdin=json.dumps(CONVERSATION)).stdout)
    counted = json.loads(with_tools.stdout)
    # Qwen3's template writes the tool as json.dumps of it: its tokens are the tools' count (Qwen3's tokenizer), give
    # or take the one at each edge, which may reach across into the format's text around it
    from bpe_core.pretrained import load_pretrained

    assert abs(counted["tools"] - len(load_pretrained("qwen3").encode(json.dumps(WEATHER)))) <= 2
    assert counted["messages"] == without["messages"] and counted["format"] > without["format"]
    assert counted["context_window"] == 32768 and counted["remaining"] == 32768 - counted["total"]
    ids = json.loads(run("chat", "qwen3", "-", stdin=request).stdout)
    assert len(ids) == counted["total"] == sum(counted["messages"]) + counted["tools"] + counted["format"]


def test_chat_says_when_a_format_ignores_the_tools():
    request = json.dumps({**CONVERSATION, "tools": [WEATHER]})
    counted = json.loads(run("chat", "deepseek-v3", "-", "--count", stdin=request).stdout)
    assert counted["tools"] == 0 and counted["tools_note"].startswith("DeepSeek-V3's template ignores the tools list")


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["qwen3", "missing.json"], None, "error: No such file or directory (missing.json)\n"),
        (
            ["qwen3", "-"],
            '{"messages": [',
            "error: standard input is not JSON (Expecting value at line 1, column 15)\n",
        ),
        (
            ["qwen3", "-"],
            "[]",
            'error: standard input is not {"messages": [{"role": ..., "content": ...}, ...], "tools": [...]}\n',
        ),
        (
            ["qwen3", "-"],
            json.dumps({**CONVERSATION, "tools": [{"type": "function", "function": {"description": "x"}}]}),
            "error: tool 1 has no name",
        ),
        (
            ["qwen3", "-"],
            '{"messages": [{"role": "robot", "content": "x"}]}',
            "error: message 1 has the role 'robot': a role is one of system, user, assistant, tool\n",
        ),
        (
            ["nope", "-"],
            json.dumps(CONVERSATION),
            "error: 'nope' has no chat format here: choose one of llama3, qwen3, deepseek-v3, ",
        ),
        (["gpt2", "-"], json.dumps(CONVERSATION), "error: 'gpt2' has no chat format here"),
        (["o200k_base", "-"], json.dumps(CONVERSATION), "error: GPT-4o's chat format is not published; OpenAI"),
    ],
)
def test_chat_bad_input_is_one_line_and_exit_1(args, stdin, message):
    result = run("chat", *args, stdin=stdin)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_chat_help_says_what_is_exact_and_what_is_an_estimate():
    shown = run("chat", "--help").stdout
    assert "Exact (ids equal to the publishers' own libraries)" in shown
    assert "An estimate: GPT-4 and GPT-4o" in shown and '"tools": [...]' in shown
    assert "DeepSeek-V3's template ignores the tools list" in shown and "Gemma 3's has no tools" in shown
