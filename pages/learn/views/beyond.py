"""Two exercises beyond the textbook examples, on published tokenizers: which language needs the most tokens for the
same text (the token premium, under GPT-4's tokenizer), and how GPT-2 would have cut a prompt that ends in a space
(the prompt's last token, and token healing). The expected answers are computed from the tokenizers, never listed by
hand; the sentences are plain text (the page escapes them).

>>> from bpe_core import load_gpt2
>>> continuation_tokens(load_gpt2(), HEALING_PROMPT, HEALING_WORD)
(' the',)
"""

from __future__ import annotations

from bpe_core.languages import ENGLISH, SOURCE, bundled_language, bundled_texts
from bpe_core.premium import PremiumRow, premium_rows
from bpe_core.prompt_end import prompt_end
from bpe_core.rank_tokenizer import AnyTokenizer
from bpe_core.tokenizer import Tokenizer

PREMIUM_TOKENIZER = "cl100k_base"  # GPT-4's
PREMIUM_LANGUAGES = (ENGLISH, "cmn", "hin", "ell")  # English, Chinese, Hindi, Greek: the order offered
HEALING_PROMPT = "The answer is "  # ends on a space, which GPT-2 leaves as a token of its own
HEALING_WORD = "the"  # the word the prompt would have gone on with
NO_BREAK_SPACE = "\u00a0"  # keeps a quoted token whole where a line breaks
HEALING_CHOICES = {  # answer -> label
    "joined": "One token, “ the”: the space joined to the word",
    "apart": "Two tokens, “ ” then “the”: the space a token of its own",
}
CANDIDATES_SHOWN = 5


def language_name(code: str) -> str:
    """The language's name in English, as the bundled texts name it.

    >>> language_name("ell")
    'Greek'
    """
    return bundled_language(code).name


def premium_question(tok: AnyTokenizer) -> dict[str, PremiumRow]:
    """Each offered language's row under ``tok`` (tokens of its preamble, premium against English), by code."""
    return {row.language: row for row in premium_rows(tok, bundled_texts(PREMIUM_LANGUAGES))}


def check_premium(rows: dict[str, PremiumRow], chosen: str) -> tuple[bool, str]:
    """Whether ``chosen`` is the language whose text takes the most tokens, and the counts and the reason in words."""
    costliest = max(rows.values(), key=lambda row: row.tokens)
    right = chosen == costliest.language
    english = rows[ENGLISH].tokens
    verdict = (
        f"Right: {language_name(costliest.language)} needs the most tokens."
        if right
        else f"Not this one: {language_name(chosen)} takes {rows[chosen].tokens:,} tokens, and "
        f"{language_name(costliest.language)} needs more."
    )
    counts = "; ".join(
        f"{language_name(code)} {rows[code].tokens:,} tokens"
        + ("" if code == ENGLISH else f" ({rows[code].premium:.1f} times English's {english:,})")
        for code in sorted(rows, key=lambda code: rows[code].tokens)
    )
    return right, (
        f"{verdict} For the same text, GPT-4's tokenizer takes: {counts}. Why: its merges went to the pairs its "
        "training text held most of, and that text was mostly English, so whole English words became single tokens. "
        "Scripts it saw less of got fewer merges: their text stays cut into pieces of a word, a letter or even part "
        "of a letter's bytes, and the model is paid by the token."
    )


def premium_source() -> str:
    """Where the texts come from, to be named beside them."""
    return f"The text: {SOURCE}."


def continuation_tokens(tok: Tokenizer, prompt: str, word: str) -> tuple[str, ...]:
    """The texts of the tokens ``tok`` cuts the prompt's trailing spaces and ``word`` into, when the prompt goes on
    with ``word``: one token means the space and the word are one token in the tokenizer's eyes."""
    text = prompt + word
    body = len(prompt.rstrip(" "))  # where the trailing spaces start
    return tuple(text[token.start : token.end] for token in tok.encode_with_spans(text) if token.end > body)


def prompt_tokens(tok: Tokenizer, prompt: str) -> tuple[str, ...]:
    """The texts of the prompt's tokens, as ``tok`` cuts it."""
    return tuple(prompt[token.start : token.end] for token in tok.encode_with_spans(prompt))


def healing_answer(tok: Tokenizer) -> str:
    """The expected answer: "joined" when ``tok`` cuts the space and the word as one token, else "apart"."""
    return "joined" if len(continuation_tokens(tok, HEALING_PROMPT, HEALING_WORD)) == 1 else "apart"


def quoted(texts: tuple[str, ...], separator: str = " ") -> str:
    """Token texts, each in quotes, so that a space shows; a space inside a token is a no-break space, so that a line
    never breaks between a quote and the word it opens.

    >>> quoted(("The", " is", " "))
    '“The” “\xa0is” “\xa0”'
    """
    return separator.join(f"“{text.replace(' ', NO_BREAK_SPACE)}”" for text in texts)


def check_healing(tok: Tokenizer, chosen: str) -> tuple[bool, str]:
    """Whether ``chosen`` is how ``tok`` cuts the prompt gone on with the word, and what that means for the model
    (token healing) in words."""
    right = chosen == healing_answer(tok)
    whole = HEALING_PROMPT + HEALING_WORD
    tokens = continuation_tokens(tok, HEALING_PROMPT, HEALING_WORD)
    cut = f"{quoted(tokens)}, {'one token' if len(tokens) == 1 else f'{len(tokens)} tokens'}"
    verdict = f"{'Right' if right else 'Not quite'}: GPT-2 cuts “{whole}” ending in {cut}."
    end = prompt_end(tok, HEALING_PROMPT, limit=CANDIDATES_SHOWN)
    grown = quoted(tuple(text for _, text in end.candidates), separator=", ")
    return right, (
        f"{verdict} In the text GPT-2 learned from, a space before a word nearly always went with the word, so it "
        f"seldom saw a lone space token followed by “{HEALING_WORD}”. A prompt that ends in a space makes the model go "
        "on from a cut it rarely saw, and its guesses for the next token get worse. Token healing fixes this: it takes "
        "the lone space back off the prompt and lets the model write only a token that starts with a space, such as "
        f"{grown} (GPT-2 has {end.longer_tokens:,} longer tokens that start with a space)."
    )
