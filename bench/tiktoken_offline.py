"""tiktoken, loaded offline from the rank files this project ships (for tests and benchmarks only).

tiktoken looks for a downloaded rank file under $TIKTOKEN_CACHE_DIR, named by the SHA-1 of its
address; ``offline_tiktoken`` puts the shipped files there first, so no network is needed.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from bpe_core.pretrained import DATA

SHIPPED = {"vocab.bpe", "encoder.json", "cl100k_base.tiktoken", "o200k_base.tiktoken"}


def offline_tiktoken(cache: Path):
    """The tiktoken module, with ``cache`` (a folder) filled and set as its download cache."""
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    from tiktoken_ext import openai_public

    for address in set(re.findall(r'"(https?://[^"]+)"', Path(openai_public.__file__).read_text(encoding="utf-8"))):
        file_name = address.rsplit("/", 1)[-1]
        if file_name in SHIPPED:
            (cache / hashlib.sha1(address.encode()).hexdigest()).write_bytes((DATA / file_name).read_bytes())
    import tiktoken

    return tiktoken
