"""What each part of a ``tokenizer.json`` pipeline did to a text, in words a student understands.

The open models (``bpe_core.pretrained``'s tokenizer.json family) and any uploaded tokenizer.json our Config
cannot describe are ``PipelineTokenizer``s: a normalizer rewrites the text first, a pre-tokenizer cuts it into
pieces, the BPE model merges each piece (or takes it whole: Llama 3's ``ignore_merges``), with byte
fallback for characters it lacks.  Their tokens' spans point into the text the model sees
(``shown_text``), so the pages draw them there.  Pure: data in, plain text or numbers out.

>>> change_notes("a b c", "▁a▁b▁c")
['spaces became ▁ (2×)', '▁ put in front of the text']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bpe_core import Token
from bpe_core.pipeline.tokenizer import PipelineTokenizer
from bpe_core.rank_tokenizer import AnyTokenizer
from drawing.describe import plural
from drawing.readable import readable_symbol
from drawing.token_html import render_tokens

NOTES_MAX_CHARS = 20_000  # the normalizer's changes are looked for in the first this-many characters
MAX_CHANGES = 8  # distinct changes named before "and N more"
_RESYNC = 8  # a rewrite is at most this many characters on either side (NFKC's longest are rarer)
# Where to look for the texts to meet again after a difference: fewest characters skipped first, one for one
_SKIPS = sorted(
    ((di, dj) for di in range(_RESYNC + 1) for dj in range(_RESYNC + 1) if di or dj),
    key=lambda skip: (skip[0] + skip[1], abs(skip[0] - skip[1]), skip[0]),
)


def tokens_html(tok: AnyTokenizer, tokens: Sequence[Token], text: str, special: bool = True, **options) -> str:
    """``render_tokens`` of ``tok``'s ``tokens`` with its own display settings, drawn on the text its spans
    point into (``tok.shown_text``); ``options`` go to ``render_tokens`` (cuts, hits, max_chars).

    >>> from bpe_core.pretrained import load_pretrained
    >>> llama2 = load_pretrained("llama2")
    >>> '>▁a</span>' in tokens_html(llama2, llama2.encode_with_spans("a"), "a")
    True
    """
    return render_tokens(
        tokens,
        tok.shown_text(text, special=special),
        byte_level=tok.byte_level,
        end_of_word=tok.config.end_of_word,
        created_at=tok.created_at,
        **options,
    )


def change_notes(text: str, shown: str) -> list[str]:
    """What the normalizer changed, from ``text`` and the text the model sees: spaces that became ``▁``,
    a ``▁`` put in front, other rewrites as ``ﬁ → fi``, each with how often (most frequent first).

    >>> change_notes("ﬁne ﬁx", "fine fix")
    ['ﬁ → fi (2×)']
    >>> change_notes("same", "same")
    []
    """
    changes: Counter[str] = Counter()
    front = False
    for start, old, new in _rewrites(text, shown):
        if start == 0 and not old and new == "▁":
            front = True
        elif len(old) == len(new):  # one character for one: name each pair
            changes.update(_change(a, b) for a, b in zip(old, new) if a != b)
        else:
            changes[_change(old, new)] += 1
    notes = [f"{change} ({count}×)" if count > 1 else change for change, count in changes.most_common(MAX_CHANGES)]
    if len(changes) > MAX_CHANGES:
        notes.append(f"and {len(changes) - MAX_CHANGES} more kinds of change")
    return notes + (["▁ put in front of the text"] if front else [])


def _rewrites(text: str, shown: str) -> Iterator[tuple[int, str, str]]:
    """``(where in text, old, new)`` for each stretch the normalizer rewrote, in one pass.

    A normalizer rewrites a character or a few in place (NFKC's ﬁ → fi, a space → ▁), so after a
    difference the two texts meet again within a few characters: the nearest place where they
    do (fewest characters skipped, one for one first) ends the rewrite.  Linear in the length,
    where a general diff takes minutes on 20,000 characters.

    >>> list(_rewrites("ﬁne a", "fine▁a"))
    [(0, 'ﬁ', 'fi'), (3, ' ', '▁')]
    """
    i = j = 0
    while i < len(text) or j < len(shown):
        if i < len(text) and j < len(shown) and text[i] == shown[j]:
            i, j = i + 1, j + 1
            continue
        di, dj = next(((di, dj) for di, dj in _SKIPS if _meet(text, i + di, shown, j + dj)), (1, 1))
        di, dj = min(di, len(text) - i), min(dj, len(shown) - j)  # one for one at worst, never past an end
        yield i, text[i : i + di], shown[j : j + dj]
        i, j = i + di, j + dj


def _meet(text: str, i: int, shown: str, j: int) -> bool:
    """Whether the texts agree again at these places: on a character, or both at their ends."""
    if i >= len(text) or j >= len(shown):
        return i == len(text) and j == len(shown)
    return text[i] == shown[j]


def _change(old: str, new: str) -> str:
    if old and set(old) == {" "} and set(new) == {"▁"}:
        return "spaces became ▁"
    return f"{readable_symbol(old) or '(nothing)'} → {readable_symbol(new) or '(nothing)'}"


@dataclass(frozen=True)
class PipelineSteps:
    """What a pipeline did to one text: the normalizer's changes, the pre-tokenizer's pieces (as
    ``(model piece, start, end)`` in the shown text), the cuts between them, the positions of the
    tokens taken whole, and the byte-fallback and unknown tokens."""

    changes: list[str]
    pieces: list[tuple[str, int, int]]
    cuts: frozenset[int]
    hits: frozenset[int]
    byte_tokens: int
    unknown_tokens: int
    added_by_model: list[str]
    truncated: bool = False  # the changes were looked for in the first NOTES_MAX_CHARS characters only


def pipeline_steps(tok: PipelineTokenizer, text: str, tokens: Sequence[Token], special: bool = True) -> PipelineSteps:
    """The steps of ``tok`` on ``text`` (``tokens``: its ``encode_with_spans``).

    >>> from bpe_core.pretrained import load_pretrained
    >>> llama3 = load_pretrained("llama3")
    >>> steps = pipeline_steps(llama3, "Hi tokenizers", llama3.encode_with_spans("Hi tokenizers"))
    >>> [piece for piece, _, _ in steps.pieces], sorted(steps.cuts), sorted(steps.hits)
    (['Hi', 'Ġtokenizers'], [2], [0])
    """
    head = text[:NOTES_MAX_CHARS]
    pieces = tok.pieces(text, special=special)
    whole = {start for piece, start, _ in pieces if tok.ignores_merges(piece)}
    hits = frozenset(index for index, token in enumerate(tokens) if token.start in whole and token.kind == "normal")
    added = [tok.token(token_id) for token_id in tok.with_model_specials([])]
    return PipelineSteps(
        changes=change_notes(head, tok.shown_text(head, special=special)),
        pieces=pieces,
        cuts=frozenset(start for _, start, _ in pieces[1:]),
        hits=hits,
        byte_tokens=sum(token.kind == "byte" for token in tokens),
        unknown_tokens=sum(token.kind == "unknown" for token in tokens),
        added_by_model=added,
        truncated=len(text) > NOTES_MAX_CHARS,
    )


def steps_markdown(steps: PipelineSteps) -> list[str]:
    """The steps as Markdown lines, one per part of the pipeline (texts from the model made readable;
    the caller escapes them).

    >>> steps = PipelineSteps(["spaces became ▁"], [("▁a▁b", 0, 4)], frozenset(), frozenset(), 1, 0, ["<s>"])
    >>> steps_markdown(steps)[1]  # doctest: +NORMALIZE_WHITESPACE
    '2. Pre-tokenizer: none, so the whole text is one piece; merges could cross spaces, but no token has ▁ inside a
    word'
    """
    changes = "; ".join(steps.changes) if steps.changes else "nothing to change in this text"
    more = f" (looked at the first {NOTES_MAX_CHARS:,} characters)" if steps.truncated else ""
    if len(steps.pieces) > 1:
        split = f"cut the text into {len(steps.pieces):,} pieces (red lines); merges never cross a cut"
    elif steps.pieces:
        split = "none, so the whole text is one piece; merges could cross spaces, but no token has ▁ inside a word"
    else:
        split = "nothing to cut (only special tokens)"
    model = ["merged each piece by the ranks of its merge list"]
    if steps.hits:
        whole = "piece was already a token and was" if len(steps.hits) == 1 else "pieces were already tokens and were"
        model.append(
            f"{len(steps.hits):,} {whole} taken whole, without merging (whole-word hit, ignore_merges: green underline)"
        )
    if steps.byte_tokens:
        model.append(
            f"{plural(steps.byte_tokens, 'byte-fallback token')}: characters not in the vocabulary, spelled as "
            "their UTF-8 bytes (<0xF0> ...)"
        )
    if steps.unknown_tokens:
        model.append(f"{plural(steps.unknown_tokens, 'character')} became the unknown token")
    lines = [f"1. Normalizer: {changes}{more}", f"2. Pre-tokenizer: {split}", f"3. BPE model: {'; '.join(model)}"]
    if steps.added_by_model:
        lines.append(
            f"4. Post-processor: when the model runs, {' '.join(steps.added_by_model)} is put first "
            "(HF's add_special_tokens=True); the ids above leave it out"
        )
    return lines


def why_pieces(tok: PipelineTokenizer, text: str, special: bool, limit: int = 200) -> dict[str, str]:
    """The pieces "Why this split?" can replay, as {model piece: label}: the pre-tokenizer's pieces,
    and a whole-text piece (Llama 2, Gemma 3) cut into the words that merge apart (``tok.words``).

    >>> from bpe_core.pretrained import load_pretrained
    >>> why_pieces(load_pretrained("llama2"), "Hi  there", True)
    {'▁Hi': '▁Hi', '▁▁there': '▁▁there'}
    >>> why_pieces(load_pretrained("qwen3"), "Hi there", True)
    {'Hi': 'Hi', 'Ġthere': '␣there'}
    """
    shown = tok.shown_text(text, special=special)
    found: dict[str, str] = {}
    for piece, start, end in tok.pieces(text, special=special):
        if piece == shown[start:end]:
            parts = [(word, word) for word in tok.words(piece)]
        else:  # rewritten by the pre-tokenizer (byte-level stand-ins): labelled by the text it covers
            parts = [(piece, shown[start:end])]
        for model_piece, source in parts:
            if source.strip() and model_piece not in found:
                found[model_piece] = readable_symbol(source)
                if len(found) >= limit:
                    return found
    return found


def pipeline_parts(tok: PipelineTokenizer) -> str:
    """The file's parts in one line of plain words: how the text is rewritten, how it is cut, what the BPE model
    does besides merging (``pipeline_terms`` names them as the file does, for a tooltip).

    >>> from bpe_core.pretrained import load_pretrained
    >>> pipeline_parts(load_pretrained("llama2"))  # doctest: +NORMALIZE_WHITESPACE
    'text rewritten first: ▁ put in front, spaces become ▁ · not cut into pieces (merges run over the whole text) ·
    characters the vocabulary lacks become their bytes'
    """
    rewrites = _normalizer_words(tok.parts.get("normalizer"))
    parts = [f"text rewritten first: {', '.join(rewrites)}" if rewrites else "text kept as typed"]
    parts.append(_pre_tokenizer_words(tok.parts.get("pre_tokenizer")))
    options = tok.options
    if options.byte_fallback:
        parts.append("characters the vocabulary lacks become their bytes")
    if options.ignore_merges:
        parts.append("a piece that is already a token is taken whole")
    return " · ".join(parts)


def pipeline_terms(tok: PipelineTokenizer) -> str:
    """The file's parts by their HF type names and options, in one line: the terms behind ``pipeline_parts``.

    >>> from bpe_core.pretrained import load_pretrained
    >>> pipeline_terms(load_pretrained("llama2"))
    'normalizer Prepend + Replace · no pre-tokenizer · byte_fallback'
    """
    normalizer, pre = _type_names(tok.parts.get("normalizer")), _type_names(tok.parts.get("pre_tokenizer"))
    parts = [
        f"normalizer {normalizer}" if normalizer else "no normalizer",
        f"pre-tokenizer {pre}" if pre else "no pre-tokenizer",
    ]
    options = tok.options
    return " · ".join(parts + [name for name in ("byte_fallback", "ignore_merges") if getattr(options, name)])


def _type_names(spec: dict | None) -> str:
    """A part's HF type, or its steps' joined by +."""
    return " + ".join(step["type"] for step in _steps(spec))


def _steps(spec: dict | None) -> list[dict]:
    """A part's steps in order: a Sequence's (flattened), else the part itself; none for no part."""
    if not isinstance(spec, dict):
        return []
    inner = spec.get("normalizers", spec.get("pretokenizers"))
    return [step for part in inner for step in _steps(part)] if isinstance(inner, list) else [spec]


# What a normalizer of each type does to the text, in words (Prepend, Replace and Strip by their options)
_REWRITES = {
    "NFC": "accents joined to their letters",
    "NFD": "accents split from their letters",
    "NFKC": "look-alike characters made plain (ﬁ becomes fi)",
    "NFKD": "look-alike characters made plain (ﬁ becomes fi), accents split from their letters",
    "Lowercase": "capitals made small",
}
_STRIPPED = {(True, True): "both ends", (True, False): "the start", (False, True): "the end"}  # Strip's sides
# Where a pre-tokenizer of each type cuts (Split and ByteLevel: by their options)
_CUTS = {
    "Whitespace": "into words and punctuation",
    "WhitespaceSplit": "at spaces",
    "Digits": "between digits and the rest",
    "Punctuation": "around punctuation",
    "Metaspace": "before each space, spaces written ▁",
}


def _named(text: str) -> str:
    return "spaces" if text == " " else readable_symbol(text)


def _normalizer_words(spec: dict | None) -> list[str]:
    """What the normalizer does, a phrase per step.

    >>> _normalizer_words({"type": "Replace", "pattern": {"Regex": " +"}, "content": " "})
    ['a pattern becomes spaces']
    """
    words = []
    for step in _steps(spec):
        if step["type"] == "Prepend":
            words.append(f"{_named(step['prepend'])} put in front")
        elif step["type"] == "Strip":  # on neither side, it does nothing to say
            if sides := _STRIPPED.get((step["strip_left"], step["strip_right"])):
                words.append(f"spaces at {sides} taken off")
        elif step["type"] == "Replace":
            pattern = step["pattern"]
            found = _named(pattern["String"]) if "String" in pattern else "a pattern"
            words.append(f"{found} {'become' if found == 'spaces' else 'becomes'} {_named(step['content'])}")
        else:
            words.append(_REWRITES.get(step["type"], step["type"]))
    return words


def _pre_tokenizer_words(spec: dict | None) -> str:
    """Where the pre-tokenizer cuts the text into pieces (which merges never cross), and whether it writes them as
    bytes.

    >>> _pre_tokenizer_words({"type": "ByteLevel", "use_regex": False})
    'not cut into pieces, written as bytes'
    """
    cuts: Counter[str] = Counter()
    as_bytes = False
    for step in _steps(spec):
        if step["type"] == "Split":
            pattern = step["pattern"]
            cuts["at " + _named(pattern["String"]) if "String" in pattern else "by a pattern"] += 1
        elif step["type"] == "ByteLevel":
            as_bytes = True
            if step.get("use_regex", True):
                cuts["by GPT-2's pattern"] += 1
        else:
            cuts[_CUTS.get(step["type"], step["type"])] += 1
    named = [f"by {count} patterns" if cut == "by a pattern" and count > 1 else cut for cut, count in cuts.items()]
    if not named:
        return (
            "not cut into pieces, written as bytes"
            if as_bytes
            else "not cut into pieces (merges run over the whole text)"
        )
    return f"cut into pieces {' and '.join(named)}" + (", then written as bytes" if as_bytes else "")
