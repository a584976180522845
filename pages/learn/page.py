"""Learn: one learner through the five textbook examples, step by step, as short exercises checked as they go
(predict the next merge, count a pair, encode a new word, decode ids), and two beyond the textbook on published
tokenizers (which language needs the most tokens, the prompt's last token: ``views/beyond.py``). The expected answers
are the textbook trainer's (``views/lesson.py``, ``views/coding.py``) or the tokenizers'; the example, the exercise
and the step are in the address (``pages.learn.state.CHOICES``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import streamlit as st

from bpe_core import load_gpt2
from bpe_core.pretrained import load_pretrained
from bpe_core.textbook import Pair
from drawing.escape import markdown
from pages.learn import state as learn_state
from pages.learn.views.beyond import (
    HEALING_CHOICES,
    HEALING_PROMPT,
    HEALING_WORD,
    PREMIUM_LANGUAGES,
    PREMIUM_TOKENIZER,
    check_healing,
    check_premium,
    language_name,
    premium_question,
    premium_source,
    prompt_tokens,
    quoted,
)
from pages.learn.views.coding import (
    NEW_WORDS,
    answer_placeholder,
    check_decoding,
    check_encoding,
    decode_ids,
    replay,
    vocabulary,
)
from pages.learn.views.lesson import (
    EXAMPLES,
    LessonMoment,
    check_count,
    check_next_merge,
    count_hint,
    counts_hint,
    example_merges,
    example_title,
    lesson_moment,
    next_merge_choices,
    next_merge_question,
    pair_text,
    pair_to_count,
    symbols_key,
    symbols_text,
)
from pages.learn.views.lesson_html import vocabulary_html, words_html
from session import result_scroll, share_link, state


def text_now(moment: LessonMoment, highlight: Pair | None = None, *, typing: bool = False) -> None:
    """The text at this step, and what its marks mean (with ``typing``, how to type them in an answer)."""
    st.html(words_html(moment, highlight))
    if key := symbols_key(moment.example, typing=typing):
        st.caption(markdown(key))


def show_verdict(right: bool, sentence: str) -> None:
    """Right or wrong, said in words (the box's colour only repeats it); brought on screen after an answer (on a
    phone the choices fill the screen and the verdict was drawn under them, out of sight)."""
    with st.container(key=learn_state.VERDICT_KEY):
        (st.success if right else st.error)(markdown(sentence))


VERDICT = (learn_state.VERDICT_KEY,)  # an answer's on_change asks to scroll to it (done once, at the page's end)


def predict_next_merge(moment: LessonMoment) -> None:
    text_now(moment)
    choices = next_merge_choices(moment)
    chosen = st.radio(
        next_merge_question(moment),
        choices,
        index=None,
        format_func=pair_text,
        key=learn_state.answer_key("next", moment.example, moment.step),
        horizontal=True,
        on_change=result_scroll.ask_to_scroll,
        args=VERDICT,
    )
    if chosen is not None:
        show_verdict(*check_next_merge(moment, chosen))
    with st.expander("Hint"):
        st.markdown(markdown(counts_hint(moment)))


def count_a_pair(moment: LessonMoment) -> None:
    pair = pair_to_count(moment)
    text_now(moment, highlight=pair)
    answer = st.number_input(
        f"How many times does {markdown(pair_text(pair))} occur in the text now?",
        min_value=0,
        value=None,
        step=1,
        key=learn_state.answer_key("count", moment.example, moment.step),
        placeholder="type a number",
        on_change=result_scroll.ask_to_scroll,
        args=VERDICT,
    )
    if answer is not None:
        show_verdict(*check_count(moment, pair, int(answer)))
    with st.expander("Hint"):
        st.markdown(markdown(count_hint(moment, pair)))


def typed_answer(label: str, key: str, placeholder: str, check: Callable[[str], tuple[bool, str]]) -> None:
    """A box for a typed answer, checked once something is typed."""
    typed = st.text_input(
        label, key=key, max_chars=200, placeholder=placeholder, on_change=result_scroll.ask_to_scroll, args=VERDICT
    )
    if typed.strip():
        show_verdict(*check(typed))


def encode_a_word(moment: LessonMoment) -> None:
    text_now(moment, typing=True)
    word = NEW_WORDS[moment.example]
    typed_answer(
        f"Encode “{markdown(word)}” with the merges so far: type its tokens, separated by spaces",
        learn_state.answer_key("encode", moment.example, moment.step),
        answer_placeholder(moment.example),
        partial(check_encoding, moment.example, moment.step),
    )
    with st.expander("Hint"):
        st.markdown(
            markdown(
                "Apply the merges in the order they were learned: " + "; ".join(replay(moment.example, moment.step))
            )
        )


def decode_ids_shown(moment: LessonMoment) -> None:
    text_now(moment)
    ids = decode_ids(moment.example, moment.step)
    typed_answer(  # the question under the text, and the table to look the ids up in under it
        f"Which word do the ids {', '.join(map(str, ids))} spell?",
        learn_state.answer_key("decode", moment.example, moment.step),
        "type the word",
        partial(check_decoding, moment.example, moment.step),
    )
    st.markdown("**The vocabulary now** (id = token):")
    known = vocabulary(moment.example, moment.step)  # token -> id, for the table and the hint
    st.html(vocabulary_html(known))
    with st.expander("Hint"):
        tokens = {index: token for token, index in known.items()}
        looked_up = ", ".join(f"{index} = {symbols_text((tokens[index],))}" for index in ids)
        st.markdown(markdown(f"Look each id up, then join the tokens (an end-of-word mark is a space): {looked_up}."))


def textbook_exercise(exercise: str, choosing, stepping) -> None:
    """One of the textbook's exercises: the example and the step chosen above it (in the columns ``choosing`` and
    ``stepping``), the text at that step, the exercise and the step buttons."""
    example = choosing.selectbox(
        "Example", EXAMPLES, format_func=example_title, key=learn_state.EXAMPLE_KEY, persist_state="session"
    )
    steps = len(example_merges(example))
    if past := learn_state.keep_step_within(steps, example_title(example)):
        st.info(markdown(past))
    step = stepping.number_input(
        f"Step (of {steps})", min_value=1, max_value=steps, key=learn_state.STEP_KEY, persist_state="session"
    )
    moment = lesson_moment(example, step)
    merged = ", ".join(pair_text(pair) for pair in example_merges(example)[: step - 1]) or "none yet"
    st.markdown(f"**Step {step} of {steps}.** Merges so far: {markdown(merged)}.")
    EXERCISE_VIEWS[exercise](moment)
    buttons = st.container(horizontal=True)
    buttons.button("◀ Previous step", on_click=learn_state.move_step, args=(-1, steps), disabled=step == 1)
    buttons.button("Next step ▶", on_click=learn_state.move_step, args=(1, steps), disabled=step == steps)


def costliest_language() -> None:
    """Which of four languages GPT-4's tokenizer spends the most tokens on, for the same text."""
    rows = premium_question(load_pretrained(PREMIUM_TOKENIZER))
    st.markdown(
        "The same text, the preamble of the Universal Declaration of Human Rights, is written in each of these "
        "languages, and each is encoded with GPT-4's tokenizer."
    )
    st.caption(markdown(premium_source()))
    chosen = st.radio(
        "Which language needs the most tokens for the same text?",
        PREMIUM_LANGUAGES,
        index=None,
        format_func=language_name,
        key=learn_state.answer_key("premium", "gpt4", 1),
        horizontal=True,
        on_change=result_scroll.ask_to_scroll,
        args=VERDICT,
    )
    if chosen is not None:
        show_verdict(*check_premium(rows, chosen))
    with st.expander("Hint"):
        st.markdown(
            "A tokenizer learns its merges from its training text: the more often a pair of symbols occurred there, "
            "the sooner it became one token. Which of these languages was its training text likely to hold least of?"
        )


def prompt_last_token() -> None:
    """How GPT-2 would have cut a prompt that ends in a space, had it gone on: token healing."""
    tok = load_gpt2()
    st.markdown(
        markdown(
            f"The prompt “{HEALING_PROMPT}” ends in a space. GPT-2 cuts it into the tokens "
            f"{quoted(prompt_tokens(tok, HEALING_PROMPT))}: the last one is the space on its own."
        )
    )
    chosen = st.radio(
        f"Had the text gone on with “{markdown(HEALING_WORD)}”, how would GPT-2 cut the space and the word?",
        tuple(HEALING_CHOICES),
        index=None,
        format_func=HEALING_CHOICES.get,
        key=learn_state.answer_key("healing", "gpt2", 1),
        on_change=result_scroll.ask_to_scroll,
        args=VERDICT,
    )
    if chosen is not None:
        show_verdict(*check_healing(tok, chosen))
    with st.expander("Hint"):
        st.markdown("Look at how GPT-2 cut “ answer” and “ is” in the prompt: where did their spaces go?")


INTRO = (
    "Work through BPE by hand on the textbook examples: at each step the text is shown cut into its current "
    "symbols, each word with how often it occurs. Answer, and the page tells you whether you are right and why. "
    "The last two exercises go beyond the textbook, to GPT-4's and GPT-2's own tokenizers."
)
EXERCISE_VIEWS = {
    "next": predict_next_merge,
    "count": count_a_pair,
    "encode": encode_a_word,
    "decode": decode_ids_shown,
}
BEYOND_VIEWS = {"premium": costliest_language, "healing": prompt_last_token}


_, ignored = state.take_address(learn_state.CHOICES, st.query_params.to_dict(), "learn")
presenting = state.presenting()
# presenting, the title shares its row with the example and the step and takes the intro as its help, so that a
# projector's first screen (853x480) shows the text and its question; else the intro under the title
if presenting:
    titled, choosing, stepping = st.columns([1, 2, 1], vertical_alignment="bottom")
    titled.title("Learn", help=INTRO)
else:
    st.title("Learn")
    st.caption(INTRO)
    choosing, stepping = st.columns([3, 1], vertical_alignment="bottom")
share_link.warn_ignored(ignored)
exercise = st.radio(
    "Exercise",
    tuple(learn_state.EXERCISES),
    format_func=learn_state.EXERCISES.get,
    key=learn_state.EXERCISE_KEY,
    horizontal=True,
    persist_state="session",
    label_visibility="collapsed" if presenting else "visible",  # the choices say what they are
)
if exercise in learn_state.BEYOND_TEXTBOOK:
    BEYOND_VIEWS[exercise]()
else:
    textbook_exercise(exercise, choosing, stepping)
share_link.show_address(*state.page_address(learn_state.CHOICES))
result_scroll.scroll_if_asked(learn_state.VERDICT_KEY, block="nearest")
