"""Post-processors: the model's own special tokens around one text's ids.

HF adds them when asked (``encode(text, add_special_tokens=True)``): Llama 2 puts ``<s>``
first, Gemma 3 ``<bos>``.  Only the single-text template is used here (pairs of texts are
not something this explorer encodes).

>>> template = {"type": "TemplateProcessing",
...             "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
...             "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}}
>>> build_post_processor(template)([5, 6])
[1, 5, 6]
>>> build_post_processor({"type": "ByteLevel", "trim_offsets": False})([5, 6])  # offsets only
[5, 6]
"""

from __future__ import annotations

from collections.abc import Callable

from .spec import UnsupportedPart, in_order

PostProcessor = Callable[[list[int]], list[int]]


def _template(spec: dict) -> PostProcessor:
    specials = spec.get("special_tokens", {})
    pieces: list[list[int] | None] = []  # None stands for the text's own ids
    for item in spec["single"]:
        if "Sequence" in item:
            pieces.append(None)
        else:
            name = item["SpecialToken"]["id"]
            if name not in specials:
                raise ValueError(f"post-processor: the template names {name!r}, which its special_tokens lack")
            pieces.append([int(i) for i in specials[name]["ids"]])
    return lambda ids: [i for piece in pieces for i in (ids if piece is None else piece)]


def _around(spec: dict) -> PostProcessor:
    """BERT's and RoBERTa's: ``cls`` first and ``sep`` last, each a ``[token, id]`` pair."""
    first, last = int(spec["cls"][1]), int(spec["sep"][1])
    return lambda ids: [first, *ids, last]


def _sequence(spec: dict) -> PostProcessor:
    return in_order([build_post_processor(step) for step in spec["processors"]])


def _unchanged(spec: dict) -> PostProcessor:
    return list  # ByteLevel's post-processor only trims offsets


_BUILDERS = {
    "TemplateProcessing": _template,
    "BertProcessing": _around,
    "RobertaProcessing": _around,
    "Sequence": _sequence,
    "ByteLevel": _unchanged,
}


def build_post_processor(spec: dict | None) -> PostProcessor:
    """The function that adds the special tokens of ``spec`` to a text's ids (none: unchanged)."""
    if spec is None:
        return list
    kind = spec.get("type") if isinstance(spec, dict) else None
    if kind not in _BUILDERS:
        raise UnsupportedPart(f"post-processor {kind!r} is not supported here")
    try:
        return _BUILDERS[kind](spec)
    except (KeyError, TypeError, IndexError) as error:
        raise ValueError(f"post-processor {kind!r} is malformed ({type(error).__name__}: {error})") from None
