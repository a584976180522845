"""The class's questions, made from a model: "Which pair merges next?" from a step's race (the real answer always
among the choices, which are shown in a fixed order that does not give it away), "Which is the longest token so
far?" from the tokens its merges made, "How many tokens will GPT-4 (or our model) use for this sentence?" counted by
that tokenizer, "How will our model split this word?" from the merges made so far, and "Which of these languages
needs the most tokens for the same text?" from the bundled preambles (``bpe_core.languages``).

>>> from bpe_core import Config, train
>>> model = train("banana bandana", Config(), merges=3)
>>> pair_question(model, 1)
('Step 1', ('a + n', 'b + a', 'n + a', 'n + d'), 'a + n')
"""

from __future__ import annotations

from collections.abc import Mapping

from bpe_core import Tokenizer
from bpe_core.pretrained import load_pretrained
from bpe_core.truncate import grapheme_ends
from drawing.describe import describe_config, plural
from drawing.readable import token_pair, token_text
from live_class import cuts
from session.model_about import LOADED_GPT2, PASTE, UPLOAD, ModelAbout
from session.textbook_corpora import CORPUS_PRESETS

CHOICES = 4  # pairs a student picks from: four buttons fit a phone's screen
LONGEST_CHOICES = 3  # the fewest tokens "Which is the longest token so far?" offers: of two, one is plainly longer
SENTENCE = "Tokenizers cut unbelievably long words into familiar pieces."  # the count question's default
SENTENCE_LIMIT = 300  # characters: a sentence a room reads on a projector
WORD_LIMIT = 20  # characters of a word to split: its places are taps on a phone
TYPED_WORD_LIMIT = 100  # what the box takes: a longer word is then refused in words, not cut short unseen
WORD = "lowest"  # the split question's word when the corpus offers none
# The languages question's first choice: GPT-4 gives their preambles 362, 682, 1,788 and 2,796 tokens (Greek's
# alphabet, not Chinese's characters, costs most)
LANGUAGES = ("eng", "cmn", "hin", "ell")


def pair_question(model: Tokenizer, step: int) -> tuple[str, tuple[str, ...], str] | None:
    """What step ``step`` (1-based) asks: its prompt, the race's best ``CHOICES`` pairs in reading order, and the
    pair it merged; None when the model has no race for that step (a published model, or a step past the end).
    Pairs are named as Merges names them (``drawing.readable.token_pair``: a byte-level model's tokens as the text they
    spell); two pairs written alike count once, so every choice is a different text."""
    if not 1 <= step <= len(model.merges):
        return None
    record, byte_level = model.steps[step - 1], model.byte_level
    answer = token_pair(record.left, record.right, byte_level)
    rivals = [token_pair(left, right, byte_level) for left, right, _ in record.top]
    rivals = list(dict.fromkeys(rival for rival in rivals if rival != answer))
    if not rivals:
        return None
    return f"Step {step}", tuple(sorted([answer, *rivals[: CHOICES - 1]])), answer


def longest_question(model: Tokenizer, made: int) -> tuple[str, tuple[str, ...], str] | None:
    """Once the model's first ``made`` merges are made (``live_class.kinds.merges_seen``: never the merge whose vote
    is still open), the longest token so far, by the characters of text it stands for (an end-of-word marker counts
    none; among equally long ones, the first made), and up to ``CHOICES - 1`` shorter tokens, the last made first,
    all in reading order and written as Merges writes them; None while fewer than ``LONGEST_CHOICES`` choices can
    be offered (with two, one of them visibly longer, the question answers itself).

    >>> from bpe_core import Config, train
    >>> model = train("low lower newest widest", Config(split="whitespace", end_of_word="</w>"), merges=6)
    >>> [step.new_token for step in model.steps]
    ['lo', 'low', 'es', 'est', 'est</w>', 'low</w>']
    >>> longest_question(model, 6)  # low, est, est</w> and low</w> stand for 3 letters: low was made first
    ('After step 6', ('es', 'lo', 'low'), 'low')
    >>> longest_question(model, 2) is None  # lo and low: two choices only
    True
    """
    if not 1 <= made <= len(model.merges):
        return None
    marker = model.config.end_of_word or ""
    tokens = [token_text(f"{left}{right}", model.byte_level) for left, right in model.merges[:made]]
    tokens = list(dict.fromkeys(tokens))  # two tokens written alike count once

    def letters(token: str) -> int:
        return len(token.removesuffix(marker)) if marker else len(token)

    answer = max(tokens, key=letters)  # max keeps the first of the longest
    shorter = [token for token in reversed(tokens) if letters(token) < letters(answer)]
    if len(shorter) < LONGEST_CHOICES - 1:
        return None
    return f"After step {made}", tuple(sorted([answer, *shorter[: CHOICES - 1]])), answer


def split_question(model: Tokenizer, step: int, typed: str) -> tuple[str, tuple[str, ...], str]:
    """The word to split (spaces around it dropped), the places a student may cut it (between two graphemes: an
    accented letter or an emoji stays whole), and those where the model, its merges up to step ``step`` made,
    starts a new token in the word on its own (``live_class.cuts``); ``ValueError`` says in words why a word cannot
    be asked. A model that writes a sign in front of a text (Llama's "▁") has it left out.

    >>> from bpe_core import Config, train
    >>> model = train("low lower newest widest", Config(split="whitespace", end_of_word="</w>"), merges=6)
    >>> split_question(model, 4, " lowest "), split_question(model, 1, "lowest")[2]  # lo, low, es, est; lo
    (('lowest', ('1', '2', '3', '4', '5'), '3'), '2,3,4,5')
    >>> split_question(model, 2, "wide")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: After step 2 our model has no merge in wide yet: it cuts it between every two letters, ...
    """
    word = typed.strip()
    if not word or any(character.isspace() for character in word):
        raise ValueError("Type one word, without spaces.")
    if len(word) > WORD_LIMIT:
        raise ValueError(f"A word to split has at most {WORD_LIMIT} characters; this one has {len(word)}.")
    cut_by = model.prefix(step)
    seen = cut_by.shown_text(word)
    if not seen.endswith(word):
        raise ValueError(f"Our model rewrites {word} as {seen} before it cuts it: type it that way.")
    tokens, front = cut_by.encode_with_spans(word), len(seen) - len(word)
    offered = grapheme_ends(word)[1:-1]
    places = {token.start - front for token in tokens if 0 < token.start - front < len(word)}
    if any(token.partial for token in tokens) or not places <= set(offered):
        raise ValueError(f"After step {step:,} our model cuts {word} inside a character: pick a word of plain letters.")
    if not places:
        raise ValueError(f"After step {step:,} {word} is one token: pick a longer word.")
    if places == set(offered):  # a letter a token: a student who taps every place is right
        raise ValueError(
            f"After step {step:,} our model has no merge in {word} yet: it cuts it between every two letters, so every "
            "cut would be right. Go on a few steps, or pick a word whose letters it has merged."
        )
    return word, tuple(map(str, offered)), cuts.places_text(places)


def word_to_split(pieces: tuple[tuple[str, int], ...]) -> str:
    """The split question's first word: the longest of the words a pair question shows (``step_text.shown_pieces``),
    else ``WORD``.

    >>> word_to_split(((" low", 5), (" newest", 5), ("a" * 30, 1), ("low newest", 1))), word_to_split(())
    ('newest', 'lowest')
    """
    words = [piece.strip() for piece, _ in pieces if len(piece.split()) == 1 and 1 < len(piece.strip()) <= WORD_LIMIT]
    return max(words, key=len, default=WORD)


def gpt4_count(sentence: str) -> int:
    """How many tokens GPT-4 (cl100k_base) cuts ``sentence`` into.

    >>> gpt4_count("Hello world")
    2
    """
    return len(load_pretrained("cl100k_base").encode(sentence))


def model_caption(model: Tokenizer, about: ModelAbout) -> str:
    """The model students follow: first in a newcomer's words (how many merges, learned from what), then on a line
    of its own its settings (``live_view.follow_html`` folds them away). Plain text: escape it where it is shown.

    >>> from bpe_core import Config, train
    >>> from session.training_settings import DEFAULT_SETTINGS
    >>> textbook = ModelAbout.trained("low", DEFAULT_SETTINGS, {})
    >>> print(model_caption(train("banana bandana", Config(), merges=3), textbook))
    our model: 3 merges learned from the textbook example low lower newest widest
    whitespace split · built from characters · equal counts: the pair seen first wins
    """
    return f"{_model_words(len(model.merges), about)}\n{describe_config(model.config, short=True)}"


def _model_words(merges: int, about: ModelAbout) -> str:
    """
    >>> from session.training_settings import DEFAULT_SETTINGS
    >>> _model_words(2000, ModelAbout.trained("sample", DEFAULT_SETTINGS, {}))
    'our model: 2,000 merges learned from the sample text'
    >>> _model_words(50, ModelAbout.trained(PASTE, DEFAULT_SETTINGS, None)), _model_words(1, ModelAbout.gpt2())
    ('our model: 50 merges learned from a pasted text', "our model: GPT-2's published tokenizer")
    >>> _model_words(7, ModelAbout.loaded_file("my.json"))
    'our model: 7 merges, loaded from my.json'
    >>> _model_words(9, ModelAbout.trained("english90", DEFAULT_SETTINGS, {}))
    'our model: 9 merges learned from one text in 58 languages, 90% English'
    """
    if about.loaded_from == LOADED_GPT2:
        return "our model: GPT-2's published tokenizer"
    if about.loaded_from:
        return f"our model: {plural(merges, 'merge')}, loaded from {about.file_name or 'a file'}"
    preset = CORPUS_PRESETS.get(about.corpus_source)
    learned_from = {"sample": "the sample text", PASTE: "a pasted text", UPLOAD: "uploaded files"}.get(
        about.corpus_source
    )
    if preset and not learned_from:  # a mix of languages is real text, the others textbook examples
        label = preset.label.removeprefix("Real text: ").removeprefix("Textbook: ")
        learned_from = label if preset.mix else f"the textbook example {label}"
    return f"our model: {plural(merges, 'merge')}" + (f" learned from {learned_from}" if learned_from else "")


def costliest_question(
    counts: Mapping[str, int], names: Mapping[str, str], counted_by: str
) -> tuple[str, tuple[str, ...], str]:
    """Which of two to four languages needs the most tokens for the same text: ``counts`` are the tokens of each
    language's preamble (by code) as ``counted_by`` cuts them; the prompt, the languages' names in reading order and
    the answer's name. ``ValueError`` in words for too few or too many languages, or two that tie for the most.

    >>> costliest_question({"eng": 362, "ell": 2796, "cmn": 682}, {"eng": "English", "ell": "Greek",
    ...     "cmn": "Chinese"}, "GPT-4")
    ('The same text in each, counted by GPT-4', ('Chinese', 'English', 'Greek'), 'Greek')
    """
    if not 2 <= len(counts) <= CHOICES:
        raise ValueError(f"Choose two to {CHOICES} languages.")
    most = max(counts.values())
    costliest = [code for code, count in counts.items() if count == most]
    if len(costliest) > 1:
        raise ValueError(f"{' and '.join(names[code] for code in costliest)} need as many tokens: choose others.")
    choices = tuple(sorted(names[code] for code in counts))
    return f"The same text in each, counted by {counted_by}", choices, names[costliest[0]]
