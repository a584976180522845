r"""Pure helpers for the Train page: presets, settings, upload decoding, links and summaries.

Nothing here imports streamlit, so all of it is unit-tested directly.

>>> settings = CORPUS_PRESETS["banana_bandana"].settings
>>> settings.to_config().split, settings.train_kwargs()
('none', {'merges': 6, 'top_k': 20})
"""

from __future__ import annotations

import codecs
import hashlib
import html
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace

from bpe_core import Config, Tokenizer, count_pieces
from bpe_core.config import TIE_BREAKS, UNITS, UNKNOWN_MODES
from bpe_core.pretokenize import SPLITS
from viz.readable import readable_symbol

STOP_BY = ("merges", "vocab_size")
MARKER_PLACEMENTS = ("own", "glued")
MAX_SIZE = 100_000  # the largest merge count or vocabulary size the page accepts
MAX_TOP_K = 100
MAX_LINK_TEXT = 2_000  # a pasted corpus up to this many characters travels in the link


# -- settings ----------------------------------------------------------------------


@dataclass(frozen=True)
class TrainSettings:
    """Everything the Train page asks for: the engine's Config fields plus how far to train.

    Both sizes are kept so switching ``stop_by`` back and forth loses nothing;
    only the chosen one is used.

    >>> TrainSettings(end_of_word="_", marker_placement="glued").to_config().glue_marker
    True
    """

    stop_by: str = "merges"
    merges: int = 2000
    vocab_size: int = 1000
    min_frequency: int = 1
    split: str = "whitespace"
    end_of_word: str = "</w>"
    marker_placement: str = "own"
    units: str = "chars"
    space_marker: bool = False
    special_tokens: str = ""  # as typed: comma- or space-separated
    unknown: str = "unk"
    tie_break: str = "first"
    top_k: int = 20

    def to_config(self) -> Config:
        """The engine configuration; raises ``ValueError`` for combinations that don't work."""
        marker = self.end_of_word.strip() or None
        return Config(
            split=self.split,
            units=self.units,
            end_of_word=marker,
            glue_marker=marker is not None and self.marker_placement == "glued",
            space_marker=self.space_marker and self.units == "chars",
            special_tokens=parse_special_tokens(self.special_tokens),
            unknown=self.unknown,
            tie_break=self.tie_break,
            min_frequency=self.min_frequency,
        )

    def train_kwargs(self) -> dict:
        """Keyword arguments for ``bpe_core.train`` besides corpus and config."""
        size = self.merges if self.stop_by == "merges" else self.vocab_size
        return {self.stop_by: size, "top_k": self.top_k}

    def as_dict(self) -> dict:
        return asdict(self)


DEFAULT_SETTINGS = TrainSettings()  # matches viz.state's default model: words + </w>, 2,000 merges
# The textbook examples start from plain settings (no marker), then change what they need.
_PLAIN = TrainSettings(end_of_word="")


def settings_like(config: Config, merges: int, base: TrainSettings = DEFAULT_SETTINGS) -> TrainSettings:
    """``base`` with the configuration and merge count of a model, so that Train makes one like it.

    >>> from bpe_core import load_gpt2
    >>> gpt2 = settings_like(load_gpt2().config, 50_000)
    >>> gpt2.split, gpt2.units, gpt2.end_of_word, gpt2.special_tokens, gpt2.merges
    ('gpt2', 'bytes', '', '<|endoftext|>', 50000)
    """
    return replace(
        base,
        stop_by="merges",
        merges=min(merges, MAX_SIZE),
        min_frequency=config.min_frequency,
        split=config.split,
        end_of_word=config.end_of_word or "",
        marker_placement="glued" if config.glue_marker else "own",
        units=config.units,
        space_marker=config.space_marker,
        special_tokens=", ".join(config.special_tokens),
        unknown=config.unknown,
        tie_break=config.tie_break,
    )


def parse_special_tokens(text: str) -> tuple[str, ...]:
    """Special tokens typed as one line, separated by commas and/or spaces.

    >>> parse_special_tokens("<|endoftext|>, <pad> <mask>")
    ('<|endoftext|>', '<pad>', '<mask>')
    """
    return tuple(token for token in text.replace(",", " ").split() if token)


# -- presets -----------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusPreset:
    """A built-in corpus. ``text`` None means the shipped sample (read by the page);
    ``settings`` None means "keep whatever settings are chosen"."""

    label: str
    text: str | None
    settings: TrainSettings | None = None


CORPUS_PRESETS: dict[str, CorpusPreset] = {
    "documents": CorpusPreset(
        "Textbook: four “document” sentences",
        "This is the first document.\nThis document is the second document.\n"
        "And this is the third one.\nIs this the first document?",
        replace(_PLAIN, end_of_word="</w>", merges=15),
    ),
    "low": CorpusPreset(
        "Textbook: low lower newest widest",
        "low lower newest widest low low low low newest newest newest newest",
        replace(_PLAIN, end_of_word="_", stop_by="vocab_size", vocab_size=50, min_frequency=2),
    ),
    "banana": CorpusPreset(
        "Textbook: banana banana",
        "banana banana",
        replace(_PLAIN, split="none", space_marker=True, merges=10),
    ),
    "banana_bandana": CorpusPreset(
        "Textbook: banana_bandana_",
        "banana_bandana_",
        replace(_PLAIN, split="none", merges=6),
    ),
    "hello": CorpusPreset(
        "Textbook: hello world lines",
        "hello world\nhello there\nworld peace\nhi there",
        replace(_PLAIN, merges=100),
    ),
    "sample": CorpusPreset("Real text: King James Bible sample (~1 MB)", None),
}
PASTE = "paste"
UPLOAD = "upload"
SOURCE_LABELS = {
    **{key: preset.label for key, preset in CORPUS_PRESETS.items()},
    PASTE: "Paste your own text",
    UPLOAD: "Upload .txt files",
}

# The three classic recipes; they change only how text becomes symbols, not the size.
SETTING_PRESETS: dict[str, dict] = {
    "Sennrich (words + </w>)": dict(
        split="whitespace", units="chars", end_of_word="</w>", marker_placement="glued", space_marker=False
    ),
    "GPT-2 byte-level": dict(split="gpt2", units="bytes", end_of_word="", space_marker=False, tie_break="hf"),
    "minbpe basic (raw bytes, no split)": dict(split="none", units="bytes", end_of_word="", space_marker=False),
}


def source_label(source: str) -> str:
    """Where a model's corpus came from, for the result summary.

    >>> source_label("upload"), source_label("banana")
    ('your uploaded .txt files', 'Textbook: banana banana')
    """
    origins = {PASTE: "your pasted text", UPLOAD: "your uploaded .txt files"}
    preset = CORPUS_PRESETS.get(source)
    return preset.label if preset else origins.get(source, "another page")


def plural(count: int, noun: str) -> str:
    """``1 word``, ``2,000 words``.

    >>> plural(1, "word"), plural(2000, "piece")
    ('1 word', '2,000 pieces')
    """
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


# -- uploads -----------------------------------------------------------------------


def decode_text_file(data: bytes) -> str:
    """The text of an uploaded file, which must be UTF-8 (a leading BOM is dropped).

    Raises ``ValueError`` saying what the data looks like instead (UTF-16/32, binary, another encoding).

    >>> decode_text_file(codecs.BOM_UTF8 + "héllo".encode())
    'héllo'
    """
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise ValueError("this is UTF-16 or UTF-32 text; please save it as UTF-8 and upload it again")
    if b"\x00" in data:
        raise ValueError("this looks like a binary file (it contains NUL bytes), not UTF-8 text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"this is not UTF-8 text (byte 0x{data[error.start]:02X} at position {error.start} "
            "is not valid UTF-8; Latin-1 or Windows-1252 perhaps?), please save it as UTF-8"
        ) from None
    return text.removeprefix("\ufeff")


def combine_uploads(files: list[tuple[str, bytes]]) -> tuple[str, list[str], list[str]]:
    r"""All readable files joined by newlines, their names, and one error message per unreadable file.

    >>> text, names, errors = combine_uploads([("a.txt", b"one"), ("b.txt", b"\xff"), ("c.txt", b"two"), ("d.txt", b"")])
    >>> text, names, errors[1]
    ('one\ntwo', ['a.txt', 'c.txt'], 'd.txt: the file is empty')
    """
    texts, names, errors = [], [], []
    for name, data in files:
        try:
            text = decode_text_file(data)
        except ValueError as error:
            errors.append(f"{name}: {error}")
            continue
        if text:
            texts.append(text)
            names.append(name)
        else:
            errors.append(f"{name}: the file is empty")
    return "\n".join(texts), names, errors


# -- corpus facts ------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusStats:
    chars: int
    bytes: int
    words: int
    unique_pieces: int


def pieces_config(settings: TrainSettings) -> Config:
    """The part of the settings that decides the pieces (split and special tokens).

    Kept valid even when the full settings are not, so the corpus size always shows.
    """
    try:
        return Config(split=settings.split, special_tokens=parse_special_tokens(settings.special_tokens))
    except ValueError:
        return Config(split=settings.split)


def corpus_stats(text: str, config: Config) -> CorpusStats:
    """Size of a corpus; ``unique_pieces`` counts distinct pre-tokenized pieces.

    >>> corpus_stats("low low lower", Config())
    CorpusStats(chars=13, bytes=13, words=3, unique_pieces=2)
    """
    return CorpusStats(
        chars=len(text),
        bytes=len(text.encode("utf-8", errors="surrogatepass")),
        words=len(text.split()),
        unique_pieces=len(count_pieces(text, config)),
    )


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


def training_key(corpus_digest: str, settings: TrainSettings) -> str:
    """Identifies one training run: the same corpus and settings give the same model."""
    return f"{corpus_digest}:{json.dumps(settings.as_dict(), sort_keys=True)}"


def model_fingerprint(model: Tokenizer) -> str:
    """A stable hash of what a model does (config + merges), for caching work on it."""
    payload = json.dumps([model.config.to_dict(), model.merges, len(model.vocab)], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8", errors="surrogatepass")).hexdigest()


# -- the model store -----------------------------------------------------------------


class ModelStore:
    """A thread-safe least-recently-used map from training key to model, at most ``capacity`` long.

    >>> store = ModelStore(capacity=1)
    >>> store.put("a", 1); store.put("b", 2)
    >>> store.get("a") is None, store.get("b")
    (True, 2)
    """

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._models: OrderedDict[str, Tokenizer] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[str, threading.Lock] = {}  # key -> held while one caller makes that model

    def get_or_make(self, key: str, make):
        """The model stored under ``key``, else ``make()``'s result, stored.

        Callers asking for the same key at the same time wait for one ``make()`` instead of each
        training (a class pressing Train on the sample together trains it once). An exception from
        ``make()`` reaches its caller and stores nothing.

        >>> store = ModelStore(capacity=2)
        >>> store.get_or_make("a", lambda: 1), store.get_or_make("a", lambda: 2)
        (1, 1)
        """
        with self._lock:
            making = self._making.setdefault(key, threading.Lock())
        with making:
            model = self.get(key)
            if model is None:
                model = make()
                self.put(key, model)
        with self._lock:
            if not making.locked():
                self._making.pop(key, None)
        return model

    def get(self, key: str):
        with self._lock:
            if key not in self._models:
                return None
            self._models.move_to_end(key)
            return self._models[key]

    def put(self, key: str, model) -> None:
        with self._lock:
            self._models[key] = model
            self._models.move_to_end(key)
            while len(self._models) > self.capacity:
                self._models.popitem(last=False)

    def __len__(self) -> int:
        return len(self._models)


# -- showing tokens --------------------------------------------------------------------

def merge_label(left: str, right: str) -> str:
    """``a n → an``: one merge, readable."""
    return f"{readable_symbol(left)} {readable_symbol(right)} → {readable_symbol(left + right)}"


def tie_label(tied: int) -> str:
    """How many pairs shared the winning count (0 means the model has no counts)."""
    if tied == 0:
        return "unknown"
    return "" if tied == 1 else f"{tied}-way tie"


def merge_table(model: Tokenizer) -> dict[str, list]:
    """Columns for the merge table: step, pair, new token, count, tie (column-wise, for a dataframe)."""
    steps = model.steps
    return {
        "step": [step.step for step in steps],
        "pair": [f"{readable_symbol(step.left)} {readable_symbol(step.right)}" for step in steps],
        "new token": [readable_symbol(step.new_token) for step in steps],
        "count": [step.count for step in steps],
        "tie": [tie_label(step.tied) for step in steps],
    }


def first_and_last_merges(model: Tokenizer, n: int = 5) -> tuple[list[str], list[str]]:
    """The first ``n`` and last ``n`` merges as ``a n → an`` labels (no overlap for short runs)."""
    labels = [merge_label(left, right) for left, right in model.merges]
    return labels[:n], labels[max(n, len(labels) - n):]


def longest_tokens(model: Tokenizer, n: int = 12) -> list[str]:
    """The ``n`` longest tokens that merges made, longest first (ties: made first)."""
    made = [model.id_to_token[token_id] for token_id in sorted(model.created_at, key=model.created_at.get)]
    return sorted(made, key=len, reverse=True)[:n]


# A chip never breaks across lines; one longer than its column is cut with … (its title holds all of it).
_CHIP_STYLE = (
    "display: inline-block; max-width: 100%; overflow: hidden; text-overflow: ellipsis; "
    "white-space: nowrap; vertical-align: bottom; margin-right: 0.3em"
)


def chips_html(texts: list[str]) -> str:
    """Texts as escaped inline ``<code>`` chips for ``st.markdown(..., unsafe_allow_html=True)``.

    >>> chip = chips_html(['<b title="x">'])
    >>> chip[chip.index("title="):]
    'title="&lt;b title=&quot;x&quot;&gt;">&lt;b title=&quot;x&quot;&gt;</code>'
    """
    return " ".join(
        f'<code style="{_CHIP_STYLE}" title="{html.escape(text)}">{markdown_safe_html(text)}</code>' for text in texts
    )


# Characters that markdown would read as syntax even inside inline HTML: links, emphasis, code, LaTeX.
_MARKDOWN_ENTITIES = {char: f"&#{ord(char)};" for char in "[]()*_`~$\\#|!{}"}


def markdown_safe_html(text: str) -> str:
    """``text`` escaped for HTML *and* for the markdown around it: ``st.markdown`` still parses markdown
    inside inline HTML, so ``[x](javascript:...)`` would become a link; as character references it can't.

    >>> markdown_safe_html("<b>[x](y) $a$ #'")
    '&lt;b&gt;&#91;x&#93;&#40;y&#41; &#36;a&#36; &#35;&#x27;'
    """
    return "".join(_MARKDOWN_ENTITIES.get(char) or html.escape(char) for char in text)


_MARKDOWN_SPECIALS = set("\\`*_{}[]()#+-.!|<>~$:")


def markdown_escape(text: str) -> str:
    r"""Text that Streamlit's markdown shows literally (no links, emphasis or LaTeX).

    >>> markdown_escape("[x](y) $a$")
    '\\[x\\]\\(y\\) \\$a\\$'
    """
    return "".join("\\" + char if char in _MARKDOWN_SPECIALS else char for char in text)


def describe_config(config: Config) -> str:
    """One line describing how text becomes symbols.

    >>> describe_config(Config(end_of_word="</w>", glue_marker=True))
    'whitespace split · characters · end-of-word </w> glued to the last character · ties: first occurrence'
    """
    parts = [f"{config.split} split" if config.split != "none" else "no split",
             "bytes" if config.units == "bytes" else "characters"]
    if config.end_of_word:
        how = "glued to the last character" if config.glue_marker else "as its own symbol"
        parts.append(f"end-of-word {config.end_of_word} {how}")
    if config.space_marker:
        parts.append("spaces shown as Ġ")
    if config.special_tokens:
        parts.append("special tokens " + " ".join(config.special_tokens))
    if config.units == "chars" and config.unknown == "byte_fallback":
        parts.append("byte fallback")
    if config.min_frequency > 1:
        parts.append(f"min frequency {config.min_frequency}")
    parts.append("ties: smallest ids (HF)" if config.tie_break == "hf" else "ties: first occurrence")
    return " · ".join(parts)


def stopped_short(model: Tokenizer) -> bool:
    """Whether training made fewer merges than asked: it ran out of pairs, hit the minimum frequency,
    or the vocabulary size asked for was no bigger than the base alphabet (then nothing was merged).

    >>> from bpe_core import train
    >>> stopped_short(train("hello", Config(), vocab_size=2)), stopped_short(train("hello", Config(), merges=2))
    (True, False)
    """
    if model.stop_reason == "vocab_size":
        return not model.merges
    return model.stop_reason in ("no_pairs", "min_frequency")


def compression(n_tokens: int, text: str) -> dict[str, float]:
    """How well a model compresses ``text`` encoded into ``n_tokens`` tokens.

    >>> compression(4, "low lower")
    {'tokens': 4, 'tokens_per_word': 2.0, 'chars_per_token': 2.25}
    """
    words = len(text.split())
    return {
        "tokens": n_tokens,
        "tokens_per_word": n_tokens / words if words else 0.0,
        "chars_per_token": len(text) / n_tokens if n_tokens else 0.0,
    }


# -- shareable links -----------------------------------------------------------------

# settings field -> query parameter name (the size goes in as "merges" or "vocab_size")
_PARAM_NAMES = {
    "min_frequency": "min_freq",
    "split": "split",
    "end_of_word": "eow",
    "marker_placement": "marker",
    "units": "units",
    "space_marker": "space",
    "special_tokens": "specials",
    "unknown": "unknown",
    "tie_break": "tie",
    "top_k": "top_k",
}
_CHOICES = {
    "split": SPLITS,
    "units": UNITS,
    "marker_placement": MARKER_PLACEMENTS,
    "unknown": UNKNOWN_MODES,
    "tie_break": TIE_BREAKS,
}
_INT_RANGES = {
    "merges": (0, MAX_SIZE),
    "vocab_size": (1, MAX_SIZE),
    "min_frequency": (1, MAX_SIZE),
    "top_k": (0, MAX_TOP_K),
}
_MAX_TEXT_PARAM = {"end_of_word": 20, "special_tokens": 500}


def base_settings(source: str) -> TrainSettings:
    """The settings a corpus choice starts from: its textbook settings, else the defaults."""
    preset = CORPUS_PRESETS.get(source)
    return preset.settings if preset and preset.settings else DEFAULT_SETTINGS


def to_query_params(source: str, settings: TrainSettings, pasted_text: str = "") -> dict[str, str]:
    """The link for a training run: the corpus, the size, and the settings that differ from the corpus's own.

    Returns ``{}`` when the corpus can't travel in a link (uploads, long pasted text).

    >>> to_query_params("banana_bandana", CORPUS_PRESETS["banana_bandana"].settings)
    {'preset': 'banana_bandana', 'merges': '6'}
    """
    if source == UPLOAD or (source == PASTE and not 0 < len(pasted_text) <= MAX_LINK_TEXT):
        return {}
    params = {"preset": source}
    if source == PASTE:
        params["text"] = pasted_text
    params[settings.stop_by] = str(getattr(settings, settings.stop_by))
    base = base_settings(source)
    for name, param in _PARAM_NAMES.items():
        value = getattr(settings, name)
        if value != getattr(base, name):
            params[param] = str(int(value)) if isinstance(value, bool) else str(value)
    return params


@dataclass
class LinkState:
    """What a link asks for; ``warnings`` name every parameter that was ignored."""

    source: str | None = None
    settings: TrainSettings = DEFAULT_SETTINGS
    pasted_text: str = ""
    warnings: list[str] = field(default_factory=list)


def from_query_params(params: Mapping[str, str]) -> LinkState:
    """Read a link back; nonsense values are ignored (defaults kept) with a warning each.

    >>> state = from_query_params({"preset": "banana_bandana", "merges": "lots"})
    >>> state.source, state.settings.merges, state.warnings
    ('banana_bandana', 6, ['merges=lots: not a whole number between 0 and 100000'])
    """
    state = LinkState()
    source = params.get("preset")
    if source is not None:
        if source in CORPUS_PRESETS or (source == PASTE and params.get("text")):
            state.source = source
        else:
            state.warnings.append(f"preset={source}: no such corpus preset")
    if state.source == PASTE:
        state.pasted_text = params["text"][:MAX_LINK_TEXT]
    changes: dict = {}
    sizes = [name for name in STOP_BY if name in params]
    for name in sizes:
        value = _read_param(name, params[name], state.warnings, name)
        if value is not None and "stop_by" not in changes:
            changes.update({"stop_by": name, name: value})
        elif value is not None:
            state.warnings.append(f"{name}={params[name]}: a link gives merges or a vocabulary size, not both")
    for name, param in _PARAM_NAMES.items():
        if param in params:
            value = _read_param(name, params[param], state.warnings, param)
            if value is not None:
                changes[name] = value
    state.settings = replace(base_settings(state.source or ""), **changes)
    return state


def _read_param(name: str, raw: str, warnings: list[str], param: str):
    """One parameter's value in its settings type, or None (and a warning) if it makes no sense."""
    kind = {f.name: f.type for f in fields(TrainSettings)}[name]
    if name in _INT_RANGES:
        low, high = _INT_RANGES[name]
        if raw.strip().isdigit() and low <= int(raw) <= high:
            return int(raw)
        warnings.append(f"{param}={raw}: not a whole number between {low} and {high}")
    elif name in _CHOICES:
        if raw in _CHOICES[name]:
            return raw
        warnings.append(f"{param}={raw}: choose one of {', '.join(_CHOICES[name])}")
    elif kind == "bool":
        if raw in ("0", "1"):
            return raw == "1"
        warnings.append(f"{param}={raw}: use 0 or 1")
    elif len(raw) <= _MAX_TEXT_PARAM[name]:
        return raw
    else:
        warnings.append(f"{param}: longer than {_MAX_TEXT_PARAM[name]} characters")
    return None
