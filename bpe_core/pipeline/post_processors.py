"""Post-processors: the model's own special tokens around one text's ids.

HF adds them when asked (``encode(text, add_special_tokens=True)``): Llama 2 puts ``<s>``
first, Gemma 3 ``<bos>``.  Only the single-text template is used here (pairs of texts are
not something this explorer encodes).

>>> template = {"type": "TemplateProcessing",
...             "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
...             "pair": [], "special_tokens": {"<s>": {"id": "<s>", "ids": [1], "tokens": ["<s>"]}}}
>>> build_post_processor(template)([5, 6])
[1, 5, 6]
>>> build_post_processor({"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False})([5, 6])
[5, 6]
"""

from __future__ import annotations

from collections.abc import Callable

from ..formats.fields import checked_id, entry, shown
from .spec import Spec, in_order

PostProcessor = Callable[[list[int]], list[int]]


def _piece(spec: Spec, key: str, index: int, item) -> tuple[str, str]:
    """One piece of a template: ``("Sequence", "A")`` or ``("SpecialToken", name)``, checked as HF reads it."""
    where = f"{spec.path}.{key}[{index}]"
    if not isinstance(item, dict) or len(item) != 1 or not {"Sequence", "SpecialToken"} >= item.keys():
        raise ValueError(f'{where}: {shown(item)} is not {{"Sequence": ...}} or {{"SpecialToken": ...}}')
    [(kind, body)] = item.items()
    piece = Spec(f"{where}.{kind}", body, typed=False)
    name = piece.choice("id", ("A", "B")) if kind == "Sequence" else piece.text("id")
    piece.count("type_id")
    return kind, name


def _template(spec: Spec) -> PostProcessor:
    specials = spec.mapping("special_tokens")
    for name, token in specials.items():
        token = Spec(entry(f"{spec.path}.special_tokens", name), token, typed=False)
        token.text("id")
        for index, item in enumerate(token.array("ids")):
            checked_id(item, f"{token.path}.ids[{index}]")
        token.array("tokens")
    pieces: list[list[int] | None] = []  # None stands for the text's own ids
    for key in ("single", "pair"):
        for index, item in enumerate(spec.array(key)):
            kind, name = _piece(spec, key, index, item)
            # HF fails on encoding a text when the single template names a token it lacks; a pair's is not used
            if key == "single" and kind == "SpecialToken" and name not in specials:
                raise spec.error(f"{key}[{index}]", f"{shown(name)} is not in {spec.path}.special_tokens")
            if key == "single":
                pieces.append(None if kind == "Sequence" else specials[name]["ids"])
    return lambda ids: [i for piece in pieces for i in (ids if piece is None else piece)]


def _around(spec: Spec) -> PostProcessor:
    """BERT's and RoBERTa's: ``cls`` first and ``sep`` last, each a ``[token, id]`` pair."""
    (_, first), (_, last) = spec.id("cls"), spec.id("sep")
    return lambda ids: [first, *ids, last]


def _build(spec: Spec) -> PostProcessor:
    if spec.type == "TemplateProcessing":
        return _template(spec)
    if spec.type in ("BertProcessing", "RobertaProcessing"):
        return _around(spec)
    if spec.type == "Sequence":
        return in_order([_build(step) for step in spec.steps("processors")])
    if spec.type == "ByteLevel":  # it only trims offsets; HF requires its flags all the same
        spec.flag("add_prefix_space"), spec.flag("trim_offsets"), spec.flag("use_regex", True)
        return list
    raise spec.unsupported()


def build_post_processor(spec: dict | None) -> PostProcessor:
    """The function that adds the special tokens of ``spec`` to a text's ids (none: unchanged)."""
    return list if spec is None else _build(Spec("post_processor", spec))
