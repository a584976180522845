"""A model's bytes (bpe_core/footprint.py) against tracemalloc's count of the memory dropping the model frees: a
model trained here, words or bytes, its cache of pieces filled by encoding; a tokenizer.json HF's trainer wrote; a
rank file's model, whose merges the count must not spell out.

The estimate adds up ``sys.getsizeof`` of each object the model reaches; tracemalloc counts what the allocator
handed out for them. They agree within 10 per cent (measured: 1 to 2 per cent under).
"""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

from support.reference_libraries import hf_tokenizers

from bpe_core import Config, train
from bpe_core.footprint import model_bytes
from bpe_core.formats import load_any
from bpe_core.rank_tokenizer import RankTokenizer

SAMPLE = (Path(__file__).parents[2] / "data" / "kjv_sample.txt").read_text(encoding="utf-8")[:100_000]
FACTOR = 1.1  # the estimate is within this factor of tracemalloc's count, either way


def estimated_and_freed(build, use=lambda model: None) -> tuple[int, int]:
    """``model_bytes`` of the model ``build()`` makes (used by ``use`` first), and the bytes tracemalloc sees freed
    when that model is dropped: what it held, and nothing the process keeps anyway (caches of modules)."""
    gc.collect()
    tracemalloc.start()
    try:
        model = build()
        use(model)
        estimate = model_bytes(model)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        del model
        gc.collect()
        return estimate, held - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def within_factor(estimate: int, freed: int) -> bool:
    return freed / FACTOR <= estimate <= freed * FACTOR


def test_a_trained_model_with_its_piece_cache_filled():
    def trained():
        return train(SAMPLE, Config(split="whitespace", end_of_word="</w>"), merges=600)

    estimate, freed = estimated_and_freed(trained, lambda model: model.encode(SAMPLE))
    assert freed > 1_000_000 and within_factor(estimate, freed), (estimate, freed)


def test_a_byte_level_model_and_its_cache_counted_as_it_grows():
    def trained():
        return train(SAMPLE[:50_000], Config(units="bytes", split="gpt2"), merges=200)

    bare, bare_freed = estimated_and_freed(trained)
    used, used_freed = estimated_and_freed(trained, lambda model: model.encode(SAMPLE))
    assert within_factor(bare, bare_freed) and within_factor(used, used_freed), (bare, bare_freed, used, used_freed)
    assert used - bare > (used_freed - bare_freed) / FACTOR  # the pieces it encoded are counted


def hf_tokenizer_json() -> str:
    """A byte-level BPE trained by HF's trainer on the sample, as its tokenizer.json."""
    library = hf_tokenizers()
    hf = library.Tokenizer(library.models.BPE())
    hf.pre_tokenizer = library.pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = library.decoders.ByteLevel()
    trainer = library.trainers.BpeTrainer(
        vocab_size=1500, initial_alphabet=library.pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    hf.train_from_iterator([SAMPLE], trainer)
    return hf.to_str()


def test_a_loaded_tokenizer_json():
    document = hf_tokenizer_json()
    estimate, freed = estimated_and_freed(
        lambda: load_any({"tokenizer.json": document}), lambda model: model.encode(SAMPLE[:50_000])
    )
    assert within_factor(estimate, freed), (estimate, freed)


def test_a_rank_files_model_is_counted_without_spelling_its_merges_out():
    spelled: list[bool] = []

    def full_model() -> dict:
        spelled.append(True)
        raise AssertionError("the merges were spelled out")

    def rank_model():  # every pair of a frequent letter and another: their ranks are the model's, made here
        pairs = [bytes([first, second]) for first in b"etaoin" for second in b"shrdlu"]
        ranks = {bytes([byte]): byte for byte in range(256)} | {pair: 256 + rank for rank, pair in enumerate(pairs)}
        return RankTokenizer(ranks, config=Config(split="gpt2", units="bytes"), name="ranks", full_model=full_model)

    estimate, freed = estimated_and_freed(
        rank_model, lambda model: model.encode("the standard deviation", special=False)
    )
    assert within_factor(estimate, freed) and not spelled, (estimate, freed)
