"""The open models' tokenizers (``bpe_core.pretrained.OPEN_MODELS``: Llama 2, Llama 3, Qwen3, Qwen3.5/3.6,
DeepSeek-V3 and V4, Gemma 3, Mistral Tekken v3, Claude legacy) against HF tokenizers itself, running the same
tokenizer.json files (shipped in bpe_core/data/open, checked against the sha256 of the published files, or of the
files made from the publishers' rank tables)."""

import hashlib
import json
import lzma

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.open_model_references import HARD_CASES, SHIPPED, hf_reference

from bpe_core import cli
from bpe_core.pretrained import DATA, OPEN_MODELS, PUBLISHED, load_pretrained

tokenizers = pytest.importorskip("tokenizers")

# sha256 of each uncompressed tokenizer.json, as published with the files (the data's README)
PUBLISHED_SHA256 = {
    "llama2": "fc4f0bd70b3709312d9d1d9e5ba674794b6bc5abc17429897a540f93882f25fc",
    "llama3": "c05a3c2174e9edd5be19dc5a0748c42a9037bec2811ce062728bfd71f8702d78",
    "qwen3": "aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4",
    "deepseek-v3": "621ac2e32d0dba658404412318818aaa8ce8cda492e59830109d8da6b517fb41",
    "deepseek-v4": "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf",
    "gemma3": "4667f2089529e8e7657cfb6d1c19910ae71ff5f28aa7ab2ff2763330affad795",
    "claude-legacy": "c241737df24b4e7f7c9af4fdcee29a0ca903dcb288a8b753bc346a3092911767",
    # made from the publishers' rank tables by bench/ranks_to_tokenizer_json.py (tests/core/test_rank_models.py)
    "mistral-tekken-v3": "a8049ea3bc5d1f6871e5564db28124bba84d03884f83f728f7315e7c6ad572b0",
    "qwen3.6": "bef5a15bf604e6995fd8804eec9dcd8e8272e9b805885178d3241bef5cc4a017",
}
NAMES = list(OPEN_MODELS)


def check_like_hf(name: str, text: str) -> None:
    ours, hf = load_pretrained(name), hf_reference(name)
    expected = hf.encode(text, add_special_tokens=False)
    ids = ours.encode(text)
    assert ids == expected.ids
    assert ours.tokenize(text) == expected.tokens
    assert ours.with_model_specials(ids) == hf.encode(text, add_special_tokens=True).ids
    assert ours.decode(ids, skip_special=True) == hf.decode(ids, skip_special_tokens=True)
    assert ours.decode(ids) == hf.decode(ids, skip_special_tokens=False)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", HARD_CASES)
def test_ids_tokens_and_decodes_equal_hf_on_hard_cases(name, text):
    check_like_hf(name, text)


words = st.sampled_from(
    [
        "Hello",
        " world",
        "  ",
        "\n",
        "\r\n",
        "\t",
        "123",
        "4567",
        "'s",
        "DON'T",
        "é",
        "e\u0301",
        "ﬁ",
        "日本",
        "语",
        "😀",
        "👍🏽",
        ">",
        "</",
        "<s>",
        "<bos>",
        "\u00a0",
        "▁",
        "x",
        "!?",
        "...",
        "\n\n\n",
        "    ",
    ]
)
any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=60, deadline=None)
@given(text=st.lists(words, max_size=30).map("".join) | any_text, name=st.sampled_from(NAMES))
def test_ids_and_decodes_equal_hf_on_any_text(text, name):
    check_like_hf(name, text)


@pytest.mark.parametrize("name", ["llama2", "gemma3"])
def test_one_long_sequence_is_cut_only_where_no_merge_crosses(name):
    # Llama 2 and Gemma 3 merge the whole text as one piece: the encoder cuts it into words where
    # no merge can join the sides; the ids must be those of HF merging the whole sequence.
    text = ("The quick brown fox > </jumps> over the lazy dog.  " * 40) + "日本語 ﬁ 😀 <0x41>" * 5
    check_like_hf(name, text)


def test_special_tokens_can_be_left_as_text():
    ours, hf = load_pretrained("qwen3"), hf_reference("qwen3")
    hf.encode_special_tokens = True
    try:
        text = "<|im_start|>user hi<|im_end|>"
        assert ours.encode(text, special=False) == hf.encode(text, add_special_tokens=False).ids
    finally:
        hf.encode_special_tokens = False


@pytest.mark.parametrize("name", NAMES)
def test_the_shipped_file_is_the_published_one(name):
    """The file load_pretrained reads; each is also uploaded on the Encode page (tests/pages/test_page_open_models.py),
    which reads it again, as a user's file."""
    document = lzma.open(SHIPPED / f"{name}.tokenizer.json.xz").read()
    assert hashlib.sha256(document).hexdigest() == PUBLISHED_SHA256[name]
    text = "Shipped files work: ﬁne 123 日本"
    assert load_pretrained(name).encode(text) == hf_reference(name).encode(text, add_special_tokens=False).ids


def test_the_registry_names_every_shipped_file_and_each_ships():
    """Every published tokenizer's files are in bpe_core/data; every open model shipped there is registered
    (the README's sha256 list names the same open models)."""
    assert all((DATA / file).is_file() for published in PUBLISHED.values() for file in published.files)
    shipped = sorted(path.name.removesuffix(".tokenizer.json.xz") for path in SHIPPED.glob("*.tokenizer.json.xz"))
    assert sorted(OPEN_MODELS) == shipped == sorted(PUBLISHED_SHA256)


def test_a_model_is_loaded_once_and_shared():
    assert load_pretrained("llama3") is load_pretrained("llama3")


MULTILINGUAL = "Hello wörld! Привет 日本語 한국어 العربية ﬁ ① 😀👍🏽 e\u0301\n\tcode(x) 1234567 <s>"


@pytest.mark.parametrize("name", NAMES)
def test_the_command_line_gives_hfs_ids_and_decodes(name, capsys):
    """In this process, so the model is read once for all the tests (tests/core/test_cli.py runs the
    command line as a real subprocess)."""
    hf = hf_reference(name)
    ids = json.loads(run_cli(capsys, "encode", name, MULTILINGUAL))["ids"]
    assert ids == hf.encode(MULTILINGUAL, add_special_tokens=False).ids
    with_specials = hf.encode(MULTILINGUAL, add_special_tokens=True).ids
    assert run_cli(capsys, "encode", name, MULTILINGUAL, "--add-special", "--ids-only").split() == list(
        map(str, with_specials)
    )
    # HF's decode leaves special tokens out by default; --keep-special writes them
    assert run_cli(capsys, "decode", name, *map(str, with_specials)) == hf.decode(with_specials) + "\n"
    assert (
        run_cli(capsys, "decode", name, "--keep-special", *map(str, with_specials))
        == hf.decode(with_specials, skip_special_tokens=False) + "\n"
    )


@pytest.mark.slow  # several seconds
def test_merges_and_export_by_name(tmp_path, capsys):
    merges = run_cli(capsys, "merges", "llama2").splitlines()
    assert len(merges) == 58_980 and json.loads(merges[0]) == ["▁", "t"]  # the README's count, the file's first
    exported = tmp_path / "llama3.json"
    run_cli(capsys, "export", "llama3", "--format", "hf", "-o", str(exported))
    again = tokenizers.Tokenizer.from_file(str(exported))
    assert (
        again.encode(MULTILINGUAL, add_special_tokens=False).ids
        == hf_reference("llama3").encode(MULTILINGUAL, add_special_tokens=False).ids
    )
    folder = tmp_path / "folder"
    assert cli.main(["export", "llama3", "--format", "gpt2", "-o", str(folder)]) == 1
    assert "vocab.json + merges.txt carry no settings" in capsys.readouterr().err
    assert not folder.exists()
    assert cli.main(["import", str(exported), "-o", str(tmp_path / "ours.json")]) == 1
    assert "our model file does not hold" in capsys.readouterr().err
    assert not (tmp_path / "ours.json").exists()


def run_cli(capsys, *args: str) -> str:
    """What the command line writes, run in this process (its published models already loaded)."""
    capsys.readouterr()
    code = cli.main(list(args))
    written = capsys.readouterr()
    assert code == 0, written.err
    return written.out


@pytest.mark.parametrize("name", NAMES)
def test_every_token_of_a_piece_has_a_merge_tree_of_merges_from_the_list(name):
    ours = load_pretrained(name)
    merges = set(ours.merges)
    for token in ours.tokenize("Tokenizers explain themselves: ﬁne 日本語 😀"):
        tree = ours.merge_tree(token)
        assert "".join(tree.leaves()) == token
        nodes = [tree]
        while nodes:  # every inner node joins two parts by a merge of the file, made at its rank
            node = nodes.pop()
            if node.left is not None:
                assert (node.left.token, node.right.token) in merges
                assert ours.merges[node.step - 1] == (node.left.token, node.right.token)
                nodes += [node.left, node.right]


@pytest.mark.parametrize(
    "name, piece",
    [
        ("llama2", "▁tokenizer"),
        ("gemma3", "▁tokenizer"),
        ("qwen3", "Ġtokenizer"),
        ("deepseek-v3", "Ġtokenizer"),
        ("deepseek-v4", "Ġtokenizer"),
        ("qwen3.6", "Ġtokenizer"),
        ("mistral-tekken-v3", "Ġtokenizer"),
        ("claude-legacy", "Ġtokenizer"),
    ],
)
def test_the_replay_of_a_piece_ends_in_its_tokens(name, piece):
    ours = load_pretrained(name)
    steps = ours.explain(piece)
    assert "".join(steps[0][1]) == piece and len(steps[0][1]) == len(piece)  # one symbol per character first
    assert steps[-1][1] == [ours.token(i) for i in ours._cache[piece]]


def test_llama3_takes_a_piece_that_is_a_token_whole():
    ours, hf = load_pretrained("llama3"), hf_reference("llama3")
    assert ours.ignores_merges("Ġtokenizer") and not ours.ignores_merges("Ġtokenizerzzq")
    assert ours.encode(" tokenizer") == hf.encode(" tokenizer", add_special_tokens=False).ids == [47058]


def test_spans_cover_the_text_the_model_sees():
    ours = load_pretrained("llama2")
    text = "ﬁne 🦙 day"
    shown = ours.shown_text(text)
    assert shown == "▁ﬁne▁🦙▁day"  # Llama 2 prepends ▁ and spells spaces as ▁, nothing else
    tokens = ours.encode_with_spans(text)
    assert [t.id for t in tokens] == hf_reference("llama2").encode(text, add_special_tokens=False).ids
    assert tokens[0].start == 0 and tokens[-1].end == len(shown)
    emoji = [t for t in tokens if t.kind == "byte"]  # the llama (U+1F999) is not a Llama 2 token: its four bytes
    assert [t.token for t in emoji] == ["<0xF0>", "<0x9F>", "<0xA6>", "<0x99>"]
    assert all(shown[t.start : t.end] == "🦙" and t.partial for t in emoji)


@settings(max_examples=60, deadline=None)
@given(text=st.lists(words, max_size=30).map("".join) | any_text, name=st.sampled_from(NAMES))
def test_the_fast_piece_cutter_gives_the_pre_tokenizers_pieces(text, name):
    ours = load_pretrained(name)
    assert ours._cut_pieces(text) == [piece for piece, _, _ in ours._pre_tokenize(text)]
