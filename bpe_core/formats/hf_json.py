"""HF tokenizers' ``tokenizer.json``, written and read for BPE models.

An export either behaves exactly like our tokenizer in HF tokenizers or is
refused with the reason and the setting that would work.

>>> from bpe_core import Config, train
>>> tok = train("banana bandana", Config(split="gpt2", units="bytes"), merges=3)
>>> data = to_hf_json(tok)
>>> data["model"]["merges"][:2], data["pre_tokenizer"]["type"]
([['a', 'n'], ['b', 'an']], 'ByteLevel')
>>> from_hf_json(data).merges == tok.merges
True
"""

from __future__ import annotations

import copy
import operator
from typing import cast

from ..config import SPACE_MARKER, UNK_TOKEN, Config
from ..pipeline.added_tokens import AddedToken
from ..pipeline.model import ModelOptions
from ..pipeline.spec import UnsupportedPart
from ..pipeline.tokenizer import PipelineTokenizer
from ..pretokenizers import PRETOKENIZERS, pretokenizer
from ..rank_tokenizer import AnyTokenizer
from ..tokenizer import Tokenizer
from .fields import checked_text
from .files import ExportError, check_depth, read_json
from .hf_fields import read_model_fields
from .hf_parts_fields import check_parts

# How an import recognises each split: a Split step by its regex, another step by its type.
_SPLIT_OF_REGEX = {
    record.hf_step["pattern"]["Regex"]: record.name
    for record in PRETOKENIZERS
    if record.hf_step and record.hf_step["type"] == "Split"
}
_SPLIT_OF_STEP = {
    record.hf_step["type"]: record.name
    for record in PRETOKENIZERS
    if record.hf_step and record.hf_step["type"] != "Split"
}
_SPLIT_OF_BYTE_LEVEL_REGEX = next(record.name for record in PRETOKENIZERS if record.hf_byte_level_regex)
_SPLIT_WITHOUT_STEP = next(record.name for record in PRETOKENIZERS if record.hf_step is None)


def _byte_level(use_regex: bool) -> dict:
    return {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": use_regex}


def _sequence(kind: str, items: list[dict]) -> dict | None:
    if not items:
        return None
    return items[0] if len(items) == 1 else {"type": "Sequence", kind: items}


def _pre_tokenizer(config: Config) -> dict | None:
    split = pretokenizer(config.split)
    if config.byte_level and split.hf_byte_level_regex:
        return _byte_level(use_regex=True)
    parts = [copy.deepcopy(split.hf_step)] if split.hf_step else []  # a copy: the caller may edit the document
    if config.byte_level:
        parts.append(_byte_level(use_regex=False))  # bytes to stand-in characters, no further split
    return _sequence("pretokenizers", parts)


def _decoder(config: Config) -> dict:
    if config.byte_level:
        return _byte_level(use_regex=True)
    parts: list[dict] = []
    if config.unknown == "byte_fallback":
        parts.append({"type": "ByteFallback"})
    if config.space_marker:
        parts.append({"type": "Replace", "pattern": {"String": SPACE_MARKER}, "content": " "})
    if config.end_of_word:
        parts.append({"type": "BPEDecoder", "suffix": config.end_of_word})
    else:
        parts.append({"type": "Fuse"})
    return parts[0] if len(parts) == 1 else {"type": "Sequence", "decoders": parts}


def check_exportable(tok: AnyTokenizer) -> None:
    """Raise :class:`ExportError` when HF tokenizers cannot behave exactly like ``tok``."""
    if tok.runs_pipeline:
        return  # its parts are HF's own
    config = tok.config
    if config.end_of_word and not config.glue_marker:
        raise ExportError(
            f"HF tokenizers glues its end-of-word suffix to the last character ({config.end_of_word!r} "
            "inside 'w" + config.end_of_word + "'), while this model keeps the marker as a symbol of its "
            "own; retrain with the marker glued (--glue-marker, 'glued' on the Train page) to export"
        )
    if config.uses_unk and tok.vocab.get(UNK_TOKEN) is None:
        raise ExportError("the model has no <unk> token")


PARTS = ("normalizer", "pre_tokenizer", "post_processor", "decoder")  # a tokenizer.json's steps around its model


def added_entry(token_id: int, content: str, *, normalized: bool = False, special: bool = True) -> dict:
    """One of a tokenizer.json's ``added_tokens``, its fields in HF's order.

    >>> list(added_entry(0, "<s>"))
    ['id', 'content', 'single_word', 'lstrip', 'rstrip', 'normalized', 'special']
    """
    fields = {"id": token_id, "content": content, "single_word": False, "lstrip": False, "rstrip": False}
    return fields | {"normalized": normalized, "special": special}


def bpe_document(
    added: list[dict], parts: dict, vocab: dict[str, int], merges: list[tuple[str, str]], **options
) -> dict:
    """A BPE tokenizer.json as HF writes one (its fields in HF's order, so that a file written twice is the same
    bytes): ``added`` tokens (``added_entry``), ``parts`` (``PARTS``, None where absent), the model's vocabulary and
    merges, and ``options`` of its BPE model (``unk_token``, ``continuing_subword_prefix``, ``end_of_word_suffix``,
    ``fuse_unk``, ``byte_fallback``, ``ignore_merges``; HF's defaults otherwise).

    >>> list(bpe_document([], {}, {"a": 0}, [], ignore_merges=True)["model"].items())[-3:]
    [('ignore_merges', True), ('vocab', {'a': 0}), ('merges', [])]
    """
    model = {"unk_token": None, "continuing_subword_prefix": None, "end_of_word_suffix": None, "fuse_unk": False}
    model |= {"byte_fallback": False, "ignore_merges": False}
    if unknown := options.keys() - model.keys():
        raise TypeError(f"not an option of HF's BPE model: {sorted(unknown)}")
    if unknown := parts.keys() - set(PARTS):
        raise TypeError(f"not a part of a tokenizer.json: {sorted(unknown)}")
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        **{part: parts.get(part) for part in PARTS},
        "model": {
            "type": "BPE",
            "dropout": None,
            **model,
            **options,
            "vocab": vocab,
            "merges": [list(pair) for pair in merges],
        },
    }


def to_hf_json(tok: AnyTokenizer) -> dict:
    """The model as an HF ``tokenizer.json`` document (a dict; ``json.dumps`` it to write)."""
    if isinstance(tok, PipelineTokenizer):  # written back with its own parts; a Config's parts are made from it
        return _pipeline_to_hf(tok)
    check_exportable(tok)
    config = tok.config
    added = [added_entry(tok.vocab[token], token) for token in config.all_special_tokens]
    normalizer = None
    if not config.byte_level and config.space_marker:
        normalizer = {"type": "Replace", "pattern": {"String": " "}, "content": SPACE_MARKER}
    return bpe_document(
        added,
        {"normalizer": normalizer, "pre_tokenizer": _pre_tokenizer(config), "decoder": _decoder(config)},
        dict(sorted(tok.vocab.items(), key=lambda item: item[1])),
        tok.merges,
        unk_token=UNK_TOKEN if config.uses_unk else None,
        end_of_word_suffix=config.end_of_word if config.glue_marker else None,
        byte_fallback=not config.byte_level and config.unknown == "byte_fallback",
    )


def _pipeline_to_hf(tok: PipelineTokenizer) -> dict:
    """A tokenizer loaded from a tokenizer.json, written back with the parts it was read with."""
    options = tok.options
    return bpe_document(
        [
            added_entry(token.id, token.content, normalized=token.normalized, special=token.special)
            for token in tok.added_as_written
        ],
        tok.parts,
        dict(sorted(tok.model_vocab.items(), key=lambda item: item[1])),
        tok.merges,
        unk_token=options.unk_token,
        continuing_subword_prefix=options.continuing_subword_prefix or None,
        end_of_word_suffix=options.end_of_word_suffix or None,
        fuse_unk=options.fuse_unk,
        byte_fallback=options.byte_fallback,
        ignore_merges=options.ignore_merges,
    )


# -- in --------------------------------------------------------------------------------


def _config_from_hf(data: dict) -> Config:
    model = data["model"]
    pre = data.get("pre_tokenizer")
    steps = (
        pre.get("pretokenizers", [])
        if isinstance(pre, dict) and pre.get("type") == "Sequence"
        else [pre]
        if pre
        else []
    )
    kinds = [step.get("type") for step in steps]
    units = "bytes" if "ByteLevel" in kinds else "chars"
    byte_level: dict = next((step for step in steps if step.get("type") == "ByteLevel"), {})
    if byte_level.get("add_prefix_space"):
        raise ValueError("ByteLevel with add_prefix_space (a space added before the text) is not supported")
    regexes = [step.get("pattern", {}).get("Regex") for step in steps if step.get("type") == "Split"]
    other_steps = [kind for kind in kinds if kind in _SPLIT_OF_STEP]
    if byte_level.get("use_regex"):
        split = _SPLIT_OF_BYTE_LEVEL_REGEX
    elif regexes and regexes[0] in _SPLIT_OF_REGEX:
        split = _SPLIT_OF_REGEX[regexes[0]]
    elif other_steps:
        split = _SPLIT_OF_STEP[other_steps[0]]
    else:
        split = _SPLIT_WITHOUT_STEP
    unsupported = [kind for kind in kinds if kind not in ("ByteLevel", "Split", *_SPLIT_OF_STEP)]
    unsupported += [repr(pattern) for pattern in regexes if pattern not in _SPLIT_OF_REGEX]
    if unsupported:
        raise ValueError(f"pre-tokenizer(s) not supported here: {', '.join(unsupported)}")
    if model.get("continuing_subword_prefix"):
        raise ValueError("continuing_subword_prefix (WordPiece-style '##') is not supported")
    unk = model.get("unk_token")
    if unk not in (None, UNK_TOKEN):
        raise ValueError(f"the unknown token must be {UNK_TOKEN!r}, not {unk!r}")
    normalizer = data.get("normalizer") or {}
    space_marker = normalizer.get("type") == "Replace" and normalizer.get("content") == SPACE_MARKER
    if normalizer and not space_marker:
        raise ValueError(f"normalizer {normalizer.get('type')!r} is not supported")
    suffix = model.get("end_of_word_suffix") or None
    specials = [added["content"] for added in data.get("added_tokens", []) if added.get("content") != unk]
    return Config(
        split=split,
        units=units,
        end_of_word=suffix,
        glue_marker=suffix is not None,
        space_marker=space_marker,
        special_tokens=tuple(specials),
        unknown="unk" if (units == "chars" and not model.get("byte_fallback")) else "byte_fallback",
    )


def from_hf_json(data: dict | str, *, name: str = "") -> Tokenizer:
    """A tokenizer from an HF ``tokenizer.json`` (text or parsed) whose model is BPE.

    A file that our own settings describe (as our exports are) loads as a :class:`Tokenizer`
    with that configuration; any other BPE file runs its parts as HF does
    (:class:`~bpe_core.pipeline.tokenizer.PipelineTokenizer`).  A part neither knows is refused
    by name.  Merges may be spelled ``"a b"`` (older files) or ``["a", "b"]`` (newer ones).
    """
    if isinstance(data, str):
        data = read_json(data)
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise ValueError('not an HF tokenizer.json: there is no "model" object')
    model = data["model"]
    check_depth(data, skip=(model.get("vocab"), model.get("merges")))  # those two are checked flat, entry by entry
    kind = model.get("type", "BPE" if "merges" in model else None)
    if kind != "BPE":
        checked_text(kind, "model.type", optional=True)
        raise ValueError(f"this is a {kind or 'unknown'} tokenizer, not BPE: only BPE models can be loaded here")
    vocab, merges, added = read_model_fields(data)  # each field as HF reads it, the first wrong one named
    check_parts(data)  # the parts too, though a file our own settings describe does not run them
    if model.get("dropout") not in (None, 0, 0.0):
        raise ValueError(
            "model.dropout: BPE dropout (random merges while encoding) is not supported: "
            "ids would change from run to run"
        )
    merges = _sharing_strings(merges, vocab)
    config = _config_if_it_fits(data)
    if config is None:
        return _pipeline(data, vocab, merges, added, name)
    for entry in added:
        vocab.setdefault(entry.content, entry.id)
    if config.uses_unk and UNK_TOKEN not in vocab:
        vocab[UNK_TOKEN] = max(vocab.values(), default=-1) + 1  # HF would drop unknown characters silently
    return Tokenizer(
        config=config,
        vocab=vocab,
        merges=merges,
        name=name,
        stop_message="loaded from a tokenizer.json (no training counts)",
    )


def _config_if_it_fits(data: dict) -> Config | None:
    """Our configuration for a file that says nothing beyond it, else None (the file's own parts run)."""
    try:
        config = _config_from_hf(data)
    except ValueError:
        return None
    model = data["model"]
    beyond = (
        model.get("ignore_merges")
        or (model.get("fuse_unk") and model.get("unk_token"))
        or data.get("post_processor")
        or any(_added_beyond(entry) for entry in data.get("added_tokens") or [])
    )
    decoder = data.get("decoder")  # none: HF joins the tokens with spaces
    if beyond or not isinstance(decoder, dict) or _kinds(decoder) != _kinds(_decoder(config)):
        return None
    return config


def _added_beyond(entry: dict) -> bool:
    return any(entry.get(flag) for flag in ("normalized", "lstrip", "rstrip", "single_word"))


def _kinds(part: dict) -> list:
    """A part's type, or its steps' types for a Sequence."""
    steps = part.get("decoders") if part.get("type") == "Sequence" else None
    return [step.get("type") for step in steps] if isinstance(steps, list) else [part.get("type")]


def _pipeline(
    data: dict, vocab: dict[str, int], merges: list[tuple[str, str]], added: list[AddedToken], name: str
) -> PipelineTokenizer:
    model = data["model"]
    for entry in data.get("added_tokens") or []:
        flags = [flag for flag in ("lstrip", "rstrip", "single_word") if entry.get(flag)]
        if flags:
            raise UnsupportedPart(
                f"added token {entry.get('content')!r} asks for {', '.join(flags)}, which is not supported here"
            )
    options = ModelOptions(
        unk_token=model.get("unk_token"),
        fuse_unk=bool(model.get("fuse_unk")),
        byte_fallback=bool(model.get("byte_fallback")),
        ignore_merges=bool(model.get("ignore_merges")),
        continuing_subword_prefix=model.get("continuing_subword_prefix") or "",
        end_of_word_suffix=model.get("end_of_word_suffix") or "",
    )
    parts = {key: data.get(key) for key in PARTS}
    return PipelineTokenizer(vocab=vocab, merges=merges, parts=parts, added=added, options=options, name=name)


def _sharing_strings(merges: list[tuple[str, str]], vocab: dict[str, int]) -> list[tuple[str, str]]:
    """The merges spelled with the vocabulary's own string objects: a model of half a million merges
    then holds each token's text once, not three times (about 110 MB less for Gemma 3)."""
    own = {token: token for token in vocab}
    lefts = map(own.get, map(operator.itemgetter(0), merges), map(operator.itemgetter(0), merges))
    rights = map(own.get, map(operator.itemgetter(1), merges), map(operator.itemgetter(1), merges))
    return cast(list[tuple[str, str]], list(zip(lefts, rights)))  # get(token, token): never None
