"""Reading uploaded tokenizer files as a job (session/tokenizer_files.py): the model comes back from the worker pickled
(our own worker's output, never a user's bytes) and encodes, spans and decodes as the model loaded here does, with
the memory its load kept. Ids are checked against the shipped models, themselves checked against HF tokenizers."""

from __future__ import annotations

import pickle

import pytest
from support.open_model_references import SHIPPED

from bpe_core import Config, load_gpt2, train
from bpe_core.formats import model_to_json
from bpe_core.pretrained import load_pretrained
from jobs import Budget, Slots, run_job
from session.tokenizer_files import load_measured, load_uploaded

TEXTS = ("Hello tokenizers, ﬁne 🦙 day", "  spaces\tand\r\nlines 123456 日本 👨\u200d👩 e\u0301", "")


def same_everywhere(ours, theirs) -> None:
    for text in TEXTS:
        assert ours.encode(text) == theirs.encode(text)
        assert ours.encode_with_spans(text) == theirs.encode_with_spans(text)
        assert ours.decode(theirs.encode(text)) == theirs.decode(theirs.encode(text))


@pytest.mark.parametrize(
    "model",
    [
        train("banana bandana " * 20, Config(split="whitespace", end_of_word="</w>"), merges=8),  # a Tokenizer
        load_gpt2(),  # a Tokenizer from GPT-2's files
        load_pretrained("llama3"),  # a PipelineTokenizer: Split, ByteLevel
        load_pretrained("llama2"),  # a PipelineTokenizer: a normalizer, byte fallback, no pre-tokenizer
    ],
    ids=["trained", "gpt2", "llama3", "llama2"],
)
def test_a_model_survives_pickling_used_or_not(model):
    same_everywhere(pickle.loads(pickle.dumps(model)), model)  # encoders not built yet
    same_everywhere(pickle.loads(pickle.dumps(model)), model)  # built now, and left out of the copy


def test_a_file_loaded_by_a_job_encodes_as_the_shipped_model():
    files = {"llama2.tokenizer.json.xz": (SHIPPED / "llama2.tokenizer.json.xz").read_bytes()}
    model, size = run_job(load_measured, files, budget=Budget(memory_mb=1024, seconds=60), slots=Slots(1))
    same_everywhere(model, load_pretrained("llama2"))
    assert model.name == load_uploaded(files).name
    assert size > 2**20  # 32,000 tokens and 61,000 merges take megabytes, whatever the exact count


def test_the_memory_a_load_keeps_is_measured_not_its_file_size():
    small = {"m.json": model_to_json(train("banana", Config(), merges=2)).encode()}
    files = {"llama2.tokenizer.json.xz": (SHIPPED / "llama2.tokenizer.json.xz").read_bytes()}
    budget, slots = Budget(memory_mb=1024, seconds=60), Slots(1)
    small_size = run_job(load_measured, small, budget=budget, slots=slots)[1]
    big_size = run_job(load_measured, files, budget=budget, slots=slots)[1]
    assert big_size > 10 * len(files["llama2.tokenizer.json.xz"])  # far more than its 0.3 MB of xz
    assert small_size < big_size / 10
