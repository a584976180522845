"""GPT-4 (cl100k_base), GPT-4o (o200k_base) and gpt-oss (o200k_harmony) against tiktoken itself, offline, and
gpt-oss against OpenAI's openai-harmony.

tiktoken is loaded offline by the ``tiktoken_module`` fixture (tests/conftest.py).
"""

import functools
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.awkward_text import awkward_text
from support.reference_libraries import hf_tokenizers

from bpe_core.bytelevel import bytes_to_display
from bpe_core.pretokenize import split_text
from bpe_core.pretrained import DATA, PUBLISHED, _read_published, load_pretrained

NAMES = ["cl100k_base", "o200k_base", "o200k_harmony"]
RANK_FILES = ["cl100k_base", "o200k_base"]  # o200k_harmony reads o200k_base's


HARD_CASES = [
    "Hello, world! I'LL DON'T we've You'RE",  # contractions in any case
    "12345678 1,000,000 3.14159 ١٢٣٤ ²½",  # digits in runs, other scripts
    "line one\r\nline two\n\n\n  indented\t\ttabs   \n",  # \r\n, newline and space runs
    "trailing spaces   ",
    "ends with newline and spaces\n   ",
    "Привет, мир! Ελληνικά العربية עברית",  # scripts
    "日本語のテキストと中文字符，还有한국어",  # CJK
    "👨\u200d👩\u200d👧 👍🏽 🇫🇷 1\ufe0f\u20e3 e\u0301 n\u0303",  # emoji, joiners, combining marks
    "def f(x):\n    return x ** 2  # comment\n\tif x != y: pass",  # code
    "HTTPServer getHTTPResponseCode camelCase SCREAMING_CASE",  # o200k's case-aware letters
    "<|endoftext|> is only special when allowed",
    "<|start|>user<|message|>Hi<|end|><|start|>assistant<|channel|>final<|message|>Hé!<|return|><|call|>",
    "<|startoftext|><|constrain|>json<|reserved_200500|><|reserved_201087|> <|reserved_201088|> <|start|",
    "\u0000\u001c\u0085\u00a0\u2028\u3000 \U0001f9ea \U00031350",  # separators, new emoji, CJK Ext H
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", HARD_CASES)
def test_ids_equal_tiktoken_on_hard_cases(tiktoken_module, name, text):
    reference = tiktoken_module.get_encoding(name)
    ours = load_pretrained(name)
    assert ours.encode(text, special=False) == reference.encode_ordinary(text)
    assert ours.encode(text) == reference.encode(text, allowed_special="all")
    assert ours.decode(ours.encode(text)) == text


any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
mixed_text = awkward_text("4567", "Hello", "WORLD", "\u0301", max_size=25)


@settings(max_examples=300, deadline=None)
@given(text=any_text | mixed_text, name=st.sampled_from(NAMES))
def test_ids_equal_tiktoken_on_any_text(tiktoken_module, text, name):
    assert load_pretrained(name).encode(text, special=False) == tiktoken_module.get_encoding(name).encode_ordinary(text)


@functools.cache
def unbuilt(name: str):
    """A tokenizer of its own (not the shared one), used only to encode: it keeps joining by rank,
    since nothing asks it for its merges (the shared one may have been asked)."""
    return _read_published(PUBLISHED[name])


@pytest.mark.parametrize("name", NAMES)
def test_joining_by_rank_before_the_merges_are_spelled_out_gives_tiktokens_ids(tiktoken_module, name):
    reference = tiktoken_module.get_encoding(name)
    for text in HARD_CASES:
        assert unbuilt(name).encode(text, special=False) == reference.encode_ordinary(text)
    assert unbuilt(name)._full is None  # the full model was never built


@settings(max_examples=100, deadline=None)
@given(text=any_text | mixed_text, name=st.sampled_from(NAMES))
def test_joining_by_rank_gives_tiktokens_ids_on_any_text(tiktoken_module, text, name):
    assert unbuilt(name).encode(text, special=False) == tiktoken_module.get_encoding(name).encode_ordinary(text)
    assert unbuilt(name)._full is None  # the full model was never built


def replayed_ids(tokenizer, text: str) -> list[int]:
    """The ids the merge list gives, piece by piece (what trees and "Why this split?" replay):
    encoding itself uses tiktoken's joining rule on the ranks."""
    return [
        tokenizer.vocab[symbol]
        for piece in split_text(text, tokenizer.config.split)
        for symbol in tokenizer.explain(piece)[-1][1]
    ]


@pytest.mark.parametrize("name", NAMES)
def test_the_merges_replay_to_tiktokens_ids(tiktoken_module, name):
    reference = tiktoken_module.get_encoding(name)
    for text in HARD_CASES:
        assert replayed_ids(load_pretrained(name), text) == reference.encode_ordinary(text)


@settings(max_examples=100, deadline=None)
@given(text=any_text | mixed_text, name=st.sampled_from(NAMES))
def test_the_merges_replay_to_tiktokens_ids_on_any_text(tiktoken_module, text, name):
    assert replayed_ids(load_pretrained(name), text) == tiktoken_module.get_encoding(name).encode_ordinary(text)


@pytest.mark.parametrize("name, merges", [("cl100k_base", 100_000), ("o200k_base", 199_742)])
def test_every_merge_joins_two_tokens_into_the_token_of_its_rank(tiktoken_module, name, merges):
    ours = load_pretrained(name)
    reference = tiktoken_module.get_encoding(name)
    assert len(ours.merges) == merges
    for rank, (left, right) in enumerate(ours.merges):
        made = ours.vocab[left + right]
        assert reference.decode_single_token_bytes(made) == ours.token_bytes(ours.vocab[left]) + ours.token_bytes(
            ours.vocab[right]
        )
        assert made == rank + 256 and ours.vocab[left] < made and ours.vocab[right] < made


@pytest.mark.slow  # several seconds
def test_the_shipped_cuts_are_the_merges_recovered_from_the_ranks():
    from bpe_core.formats.tiktoken_ranks import cuts_of, merges_from_ranks, read_ranks

    for name in RANK_FILES:
        ranks = read_ranks((DATA / f"{name}.tiktoken").read_text(encoding="ascii"))
        assert cuts_of(merges_from_ranks(ranks)) == (DATA / f"{name}.cuts").read_bytes()


def test_export_to_hf_gives_tiktoken_ids(tiktoken_module):
    from bpe_core.formats import to_hf_json

    reference = tiktoken_module.get_encoding("cl100k_base")
    exported = hf_tokenizers().Tokenizer.from_str(json.dumps(to_hf_json(load_pretrained("cl100k_base"))))
    for text in HARD_CASES:
        assert exported.encode(text, add_special_tokens=False).ids == reference.encode(text, allowed_special="all")


def test_the_byte_table_is_the_one_tiktoken_reads_gpt2_with(tiktoken_module):
    """GPT-2's encoder.json names each single-byte token by its stand-in character; tiktoken's own
    byte table tells which byte that token is."""
    from bpe_core import bytelevel

    table = bytelevel._build_table()  # built afresh
    assert len(table) == 256
    byte_of = {char: byte for byte, char in enumerate(table)}
    gpt2 = tiktoken_module.get_encoding("gpt2")
    encoder = json.loads((DATA / "encoder.json").read_text(encoding="utf-8"))
    singles = {token: token_id for token, token_id in encoder.items() if len(token) == 1}
    assert len(singles) == 256
    assert {bytes([byte_of[token]]): token_id for token, token_id in singles.items()} == {
        gpt2.decode_single_token_bytes(token_id): token_id for token_id in singles.values()
    }


@pytest.mark.parametrize("text, line", [("YQ== 0\nnot base64 1\n", 2), ("YQ== 0\nYg== x\n", 2), ("YQ==\n", 1)])
def test_a_bad_rank_file_names_its_line(text, line):
    from bpe_core.formats.tiktoken_ranks import read_ranks

    with pytest.raises(ValueError, match=f"line {line} of the rank file is not 'base64 rank'"):
        read_ranks(text)


@pytest.mark.parametrize("name", NAMES)
def test_a_fresh_tokenizer_spells_its_first_tokens_as_tiktoken_reads_them(tiktoken_module, name):
    fresh = _read_published(PUBLISHED[name])  # its own (not the shared one): spelled out here
    reference = tiktoken_module.get_encoding(name)
    for token_id in (0, 1, 255, 256, 257):
        assert fresh.vocab[bytes_to_display(reference.decode_single_token_bytes(token_id))] == token_id


@pytest.fixture(scope="module")
def harmony_encoding():
    """openai-harmony's gpt-oss encoding, reading o200k_base's ranks from the shipped folder (no network)."""
    harmony = pytest.importorskip("openai_harmony")
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(DATA)
    return harmony.load_harmony_encoding(harmony.HarmonyEncodingName.HARMONY_GPT_OSS)


GPT_OSS_CHAT = (
    "<|start|>system<|message|>You are ChatGPT.\nReasoning: high<|end|>"
    "<|start|>user<|message|>Wie spät ist es? 日本語 😀<|end|>"
    "<|start|>assistant<|channel|>analysis<|message|>Think…<|end|>"
    "<|start|>assistant to=functions.clock<|channel|>commentary <|constrain|>json<|message|>{}<|call|>"
    "<|start|>assistant<|channel|>final<|message|>12:00<|return|><|endoftext|><|startoftext|><|reserved_200123|>"
)


@pytest.mark.parametrize("text", [GPT_OSS_CHAT, *HARD_CASES])
def test_gpt_oss_ids_and_decodes_equal_openai_harmonys(harmony_encoding, text):
    ours = load_pretrained("o200k_harmony")
    ids = harmony_encoding.encode(text, allowed_special="all")
    if "<|reserved_201088|>" in text:  # harmony reserves one id more than tiktoken's list, which we follow
        ids = harmony_encoding.encode(text.replace("<|reserved_201088|>", ""), allowed_special="all")
        text = text.replace("<|reserved_201088|>", "")
    assert ours.encode(text) == ids
    assert ours.encode(text, special=False) == harmony_encoding.encode(text, disallowed_special=())
    assert ours.decode(ids) == harmony_encoding.decode(ids) == text


def test_gpt_oss_has_tiktokens_special_tokens_and_reads_endofprompt_as_text(tiktoken_module, harmony_encoding):
    """tiktoken's o200k_harmony names id 200,018 twice (o200k_base's <|endofprompt|> and <|reserved_200018|>); openai-
    harmony names it once and reads <|endofprompt|> as text, as we do. Every other special token is tiktoken's."""
    ours = load_pretrained("o200k_harmony")
    reference = tiktoken_module.get_encoding("o200k_harmony")
    assert reference.special_tokens_set - {"<|endofprompt|>"} == set(ours.config.special_tokens)
    for token in reference.special_tokens_set - {"<|endofprompt|>"}:
        assert ours.encode(token) == reference.encode(token, allowed_special="all") == [ours.vocab[token]]
    text = "a<|endofprompt|>b<|reserved_200018|>"
    assert ours.encode(text) == harmony_encoding.encode(text, allowed_special="all")
    assert ours.encode(text) == reference.encode("a<|endofprompt|>b", disallowed_special=()) + [200018]
    assert ours.decode([200018]) == "<|reserved_200018|>"


def test_gpt_oss_reuses_gpt_4os_shipped_ranks():
    assert PUBLISHED["o200k_harmony"].files == PUBLISHED["o200k_base"].files
    assert not list(DATA.glob("o200k_harmony*"))


def test_the_command_line_encodes_and_decodes_gpt_oss_by_name(harmony_encoding, capsys):
    from bpe_core import cli

    assert cli.main(["encode", "o200k_harmony", GPT_OSS_CHAT, "--ids-only"]) == 0
    ids = list(map(int, capsys.readouterr().out.split()))
    assert ids == harmony_encoding.encode(GPT_OSS_CHAT, allowed_special="all")
    assert cli.main(["decode", "o200k_harmony", "--keep-special", *map(str, ids)]) == 0
    assert capsys.readouterr().out == GPT_OSS_CHAT + "\n"
