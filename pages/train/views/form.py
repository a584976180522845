r"""The Train form: the textbook corpora with their settings, the recipes, and every label and help text.

>>> settings = CORPUS_PRESETS["banana_bandana"].settings
>>> settings.to_config().split, settings.train_kwargs()
('none', {'merges': 6, 'top_k': 20})
"""

from __future__ import annotations

import re

from bpe_core.pretokenizers import pretokenizer
from bpe_core.settings_table import SETTINGS
from drawing.escape import markdown
from session.model_about import PASTE, UPLOAD
from session.textbook_corpora import CORPUS_PRESETS
from session.training_settings import DEFAULT_SETTINGS, TrainSettings

SOURCE_LABELS = {
    **{key: preset.label for key, preset in CORPUS_PRESETS.items()},
    PASTE: "Paste your own text",
    UPLOAD: "Upload .txt files",
}

# Under the units while they are characters: the lesson of unknown characters, one choice away from the defaults
CHARS_UNKNOWN_NOTE = (
    "With characters as units, a character the corpus never had (a digit, an accent, an emoji) becomes <unk> when "
    "the model encodes a text: the Learn page shows why. Bytes leave nothing unknown."
)

# What a recipe sets: how text becomes symbols, never the size.
_RECIPE_FIELDS = ("split", "units", "end_of_word", "glue_marker", "space_marker", "tie_break")
DEFAULTS_RECIPE_LABEL = "GPT-2 byte-level (default)"  # the page's defaults follow GPT-2's recipe
GLOSSARY_LABEL = "What the settings mean"  # folded: settings_glossary
MORE_SETTINGS_LABEL = (
    "More settings: tie-break, spaces as Ġ, min frequency, special tokens, unknown characters, top-K"  # folded
)
# The three classic recipes; GPT-2's is also the way back to the page's defaults.
SETTING_PRESETS: dict[str, dict] = {
    "Sennrich (words + </w>)": dict(
        split="whitespace", units="chars", end_of_word="</w>", glue_marker=True, space_marker=False
    ),
    DEFAULTS_RECIPE_LABEL: {name: getattr(DEFAULT_SETTINGS, name) for name in _RECIPE_FIELDS},
    "minbpe basic (raw bytes, no split)": dict(split="none", units="bytes", end_of_word="", space_marker=False),
}


# The one-click answer to a text without spaces between words (split_hint).
NO_SPACES_RECIPE_LABEL = "Use bytes with the GPT-4 split"
NO_SPACES_RECIPE = dict(split="gpt4", units="bytes", end_of_word="", space_marker=False)
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_HINT_SAMPLE = 20_000  # characters looked at


def split_hint(text: str, settings: TrainSettings) -> str | None:
    """What to suggest when the whitespace split would make whole clauses into words: the text is
    mostly Chinese, Japanese or Korean, or has long runs without spaces. None when all is well.

    >>> split_hint("分词器把文本切成小块。" * 5, TrainSettings()) is not None
    True
    >>> split_hint("low lower lowest " * 5, TrainSettings()), split_hint("分词器", TrainSettings(split="gpt4"))
    (None, None)
    """
    if not pretokenizer(settings.split).pieces_are_words:
        return None
    sample = text[:_HINT_SAMPLE]
    words = sample.split()
    letters = sum(map(len, words))
    if not letters or (len(_CJK.findall(sample)) < 0.3 * letters and (letters < 100 or letters / len(words) < 25)):
        return None
    return (
        "This text has few spaces between its words (Chinese, Japanese and Korean use none), so the whitespace "
        "split makes a whole clause one word. The GPT-4 split also cuts at punctuation, digits and changes of "
        "script, and byte units give every character a base token, as GPT-4 does."
    )


def _differences(before: TrainSettings, after: TrainSettings) -> list[str]:
    """Each recipe setting that differs, as its name and both values in words."""
    rows = [row for row in SETTINGS if row.name in _RECIPE_FIELDS]
    return [
        f"{row.named} {row.word(getattr(before, row.name))} → {row.word(getattr(after, row.name))}"
        for row in rows
        if getattr(before, row.name) != getattr(after, row.name)
    ]


def recipe_changes(before: TrainSettings, after: TrainSettings) -> str:
    """What choosing a recipe changed in the form, in one sentence.

    >>> from dataclasses import replace
    >>> words = replace(DEFAULT_SETTINGS, split="whitespace", units="chars", end_of_word="</w>")
    >>> recipe_changes(words, DEFAULT_SETTINGS)
    'Changed split whitespace → gpt2, units characters → bytes, marker </w> → none.'
    >>> recipe_changes(DEFAULT_SETTINGS, DEFAULT_SETTINGS)
    'Nothing to change: the settings already follow this recipe.'
    """
    changed = _differences(before, after)
    return (
        f"Changed {', '.join(changed)}." if changed else "Nothing to change: the settings already follow this recipe."
    )


def settings_caption(settings: TrainSettings, source: str) -> str:
    """The line above the recipes; for the user's own text read with settings that are not the
    defaults (kept from a recipe or a textbook corpus), it says so: nothing is inherited silently.

    >>> from dataclasses import replace
    >>> settings_caption(DEFAULT_SETTINGS, PASTE)
    'Start from a classic recipe (changes how text becomes symbols, not the size):'
    >>> kept = replace(DEFAULT_SETTINGS, split="whitespace", end_of_word="</w>")
    >>> settings_caption(kept, UPLOAD)  # doctest: +NORMALIZE_WHITESPACE
    'Your text is read with settings kept from before, not the defaults (split gpt2 → whitespace, marker none →
    </w>). A recipe changes them; GPT-2 byte-level (default) goes back:'
    """
    kept = _differences(DEFAULT_SETTINGS, settings) if source in (PASTE, UPLOAD) else []
    if not kept:
        return "Start from a classic recipe (changes how text becomes symbols, not the size):"
    return (
        f"Your text is read with settings kept from before, not the defaults ({', '.join(kept)}). "
        f"A recipe changes them; {DEFAULTS_RECIPE_LABEL} goes back:"
    )


def source_label(source: str) -> str:
    """Where a model's corpus came from, for the result summary.

    >>> source_label("upload"), source_label("banana")
    ('your uploaded .txt files', 'Textbook: banana banana')
    """
    origins = {PASTE: "your pasted text", UPLOAD: "your uploaded .txt files"}
    preset = CORPUS_PRESETS.get(source)
    return preset.label if preset else origins.get(source, "another page")


def base_settings(source: str) -> TrainSettings:
    """The settings a corpus choice starts from: its textbook settings, else the defaults."""
    preset = CORPUS_PRESETS.get(source)
    return preset.settings if preset and preset.settings else DEFAULT_SETTINGS


# -- labels and help texts ---------------------------------------------------------

FIELD_LABELS = {  # the form's widget labels: the corpus choice, then every setting in the form's order
    "source": "Corpus",
    **{row.name: row.label for row in SETTINGS},
}
FIELD_HELP = {  # what each field does (the glossary below), and the uploader's help
    "source": "The text BPE learns from. The textbook corpora also load the settings their textbook uses.",
    "files": "One or more .txt files in UTF-8",
    **{row.name: row.help for row in SETTINGS},
}
RECIPE_HELP = {  # what each recipe button does
    "Sennrich (words + </w>)": "Sennrich et al. 2016: words, with </w> glued to each word's last letter.",
    DEFAULTS_RECIPE_LABEL: "GPT-2, and this page's defaults: its regex split, bytes as base symbols (Ġ = space), "
    "Hugging Face tie-break.",
    "minbpe basic (raw bytes, no split)": "Karpathy's minbpe BasicTokenizer: raw UTF-8 bytes, no split at all.",
}


def settings_glossary() -> str:
    r"""What every setting and recipe does, as one Markdown list in the form's order: the Train page's folded
    "What the settings mean" (a tooltip per widget drew a fifth slower). Escaped, so ``</w>`` stays literal.

    >>> glossary = settings_glossary()
    >>> glossary.splitlines()[1].startswith("- **Stop at**: Stop after a number of merges")
    True
    >>> "</w>" in glossary, r"\<\/w\>" in glossary  # escaped: the marker, not an HTML tag
    (False, True)
    """

    def item(label: str, text: str) -> str:
        return f"- **{markdown(label)}**: {markdown(text)}"

    fields = [item(label, FIELD_HELP[name]) for name, label in FIELD_LABELS.items()]
    recipes = [item(label, text) for label, text in RECIPE_HELP.items()]
    return "\n".join([*fields, "", "The recipe buttons set how text becomes symbols, never the size:", "", *recipes])
