"""The rest of a ``tokenizer.json`` checked at load, as HF tokenizers checks it: the version, the
truncation and padding settings, and the four parts (normalizer, pre-tokenizer, post-processor,
decoder), each down to its last option; the first wrong field is named by its path in the file.

Truncation and padding shape what HF hands a neural network; this explorer shows every token of
a text, so once checked they are not applied.

>>> check_parts({"version": "1.0", "truncation": None, "decoder": {"type": "Fuse"}})
>>> check_parts({"pre_tokenizer": {"type": "Sequence", "pretokenizers": [
...     {"type": "Split", "pattern": {"Regex": "("}, "behavior": "Isolated", "invert": False}]}})
Traceback (most recent call last):
...
ValueError: pre_tokenizer.pretokenizers[0].pattern.Regex: "(" does not compile (missing ) at position 1)
"""

from __future__ import annotations

from ..pipeline.decoders import build_decoder
from ..pipeline.normalizers import build_normalizer
from ..pipeline.post_processors import build_post_processor
from ..pipeline.pre_tokenizers import build_pre_tokenizer
from ..pipeline.spec import Spec
from .fields import MAX_ID, shown

VERSION = "1.0"  # the only one HF tokenizers 0.23 reads
_SIDES = ("Left", "Right")


def check_parts(data: dict) -> None:
    """Raise a ValueError naming the first field of ``data`` (a tokenizer.json beyond its model and
    added tokens) that HF would refuse to load; an UnsupportedPart for a part HF knows and we do not."""
    version = data.get("version", VERSION)
    if version != VERSION:
        raise ValueError(f"version: {shown(version)} is not {shown(VERSION)}, the one version HF tokenizers reads")
    if data.get("truncation") is not None:
        _check_truncation(Spec("truncation", data["truncation"], typed=False))
    if data.get("padding") is not None:
        _check_padding(Spec("padding", data["padding"], typed=False))
    build_normalizer(data.get("normalizer"))
    build_pre_tokenizer(data.get("pre_tokenizer"))
    build_post_processor(data.get("post_processor"))
    build_decoder(data.get("decoder"))


def _check_truncation(spec: Spec) -> None:
    longest, stride = spec.count("max_length"), spec.count("stride")
    spec.choice("strategy", ("LongestFirst", "OnlyFirst", "OnlySecond"))
    spec.choice("direction", _SIDES, "Right")
    if stride >= longest:  # HF loads it, then fails on every text it has to cut
        raise spec.error("stride", f"{stride} is not less than truncation.max_length ({longest})")


def _check_padding(spec: Spec) -> None:
    strategy = spec.raw.get("strategy")
    if isinstance(strategy, dict) and list(strategy) == ["Fixed"]:
        Spec("padding.strategy", strategy, typed=False).count("Fixed")
    elif strategy != "BatchLongest":
        spec.text("strategy")  # missing, or not a string
        raise spec.error("strategy", f'{shown(strategy)} is not "BatchLongest" or {{"Fixed": length}}')
    spec.choice("direction", _SIDES)
    if spec.raw.get("pad_to_multiple_of") is not None:
        spec.count("pad_to_multiple_of")
    for key in ("pad_id", "pad_type_id"):
        spec.count(key, MAX_ID)
    spec.text("pad_token")
