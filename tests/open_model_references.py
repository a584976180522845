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
