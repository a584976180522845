"""The teacher's questions, asked of the class from the session's model: which pair merges at a step (with the text
in view), which is the longest token so far, how many tokens a sentence takes (GPT-4's count or the model's), how
the model splits a word and which of a few languages needs the most tokens for the same text."""

from __future__ import annotations

import streamlit as st

from bpe_core import Tokenizer
from bpe_core.languages import bundled_languages, bundled_texts
from bpe_core.premium import token_counts
from bpe_core.pretrained import load_pretrained
from drawing.escape import markdown
from live_class import room
from live_class.kinds import COSTLIEST, COUNT, COUNTED_BY, LONGEST, PAIR, SPLIT, merges_seen
from live_class.records import Question, StepText
from live_class.store import ClassStore
from pages.classroom import state as classroom_state
from pages.classroom.views.questions import (
    LANGUAGES,
    LONGEST_CHOICES,
    SENTENCE,
    SENTENCE_LIMIT,
    TYPED_WORD_LIMIT,
    costliest_question,
    gpt4_count,
    longest_question,
    pair_question,
    split_question,
    word_to_split,
)
from pages.classroom.views.step_text import model_pieces, shown_pieces, step_text
from session import state


def _step_question(model: Tokenizer, step: int) -> tuple[str, tuple[str, ...], str, StepText | None] | None:
    """Which pair step ``step`` merges: the prompt, choices and answer, and the text in view; None without a race."""
    question = pair_question(model, step)
    if question is None:
        return None
    corpus = state.current_corpus()  # "" for a loaded model: its text is not known, the question asks without it
    text = step_text(model, shown_pieces(model_pieces(corpus, model.config)), step, question[1]) if corpus else None
    return *question, text


def ask_step(store: ClassStore, code: str, teacher_key: str, model: Tokenizer, step: int) -> bool:
    """Show ``step`` to the class and ask which pair it merges, if the model's trace has a race there; if not, the
    question open before is taken off the screens (it was about another step, or another model). Whether it asked."""
    room.show(store, code, teacher_key, classroom_state.now(), step=step)
    question = _step_question(model, step)
    if question is None:
        room.withdraw(store, code, teacher_key, classroom_state.now())
        st.info(f"This model has no race of pairs at step {step:,}: train one on the Train page to ask it.")
        return False
    prompt, choices, answer, text = question
    room.ask(store, code, teacher_key, PAIR, prompt, choices, answer, classroom_state.now(), text)
    return True


def ask_step_of_new_model(
    store: ClassStore, code: str, teacher_key: str, model: Tokenizer, step: int, open_question: Question | None
) -> bool:
    """The class's model changed: ask ``step`` of the new one (``ask_step``), unless the question open is already
    what it asks (the same model trained again), whose votes then stay. Whether it asked."""
    if open_question is not None and open_question.kind == PAIR.name:
        asked = (open_question.prompt, open_question.choices, open_question.answer, open_question.text)
        if asked == _step_question(model, step):
            return False
    return ask_step(store, code, teacher_key, model, step)


def ask_longest(store: ClassStore, code: str, teacher_key: str, model: Tokenizer, step: int) -> None:
    """Ask which is the longest token of those the class has seen made at step ``step`` (not the step's own while
    its vote is open: its answer would be among the choices), if they offer ``LONGEST_CHOICES`` choices."""
    record = room.open_class(store, code, classroom_state.now())
    open_question = store.question(code, record.question) if record.question else None
    made = merges_seen(step, open_question)
    question = longest_question(model, made)
    if question is None:
        held_back = f" (step {step:,}'s own token waits for its vote)" if made < step else ""
        st.info(
            f"The tokens made up to step {made:,}{held_back} are too few for this question: it offers at least "
            f"{LONGEST_CHOICES}, one of them the longest. Go on a few steps first."
        )
        return
    prompt, choices, answer = question
    room.ask(store, code, teacher_key, LONGEST, prompt, choices, answer, classroom_state.now())


def ask_count(store: ClassStore, code: str, teacher_key: str, model: Tokenizer) -> None:
    """A sentence, and who counts its tokens (GPT-4, or the model the class follows): the room guesses the count."""
    counted_by = (
        st.segmented_control("Counted by", list(COUNTED_BY), default="GPT-4", key=classroom_state.COUNTED_BY_KEY)
        or "GPT-4"
    )
    kind = COUNTED_BY[counted_by]
    st.markdown(f"**Ask: {kind.asks}**")
    # value=, not a first value in the session state: a popover never opened does not send its box's text back, and
    # Streamlit would then draw the box empty at the next click elsewhere
    sentence = st.text_input("Sentence", SENTENCE, max_chars=SENTENCE_LIMIT, key=classroom_state.SENTENCE_KEY)
    if st.button("Ask this sentence", disabled=not sentence.strip()):
        try:
            count = gpt4_count(sentence) if kind is COUNT else len(model.encode(sentence))
        except ValueError as error:  # a loaded model's pattern too slow on it, say
            st.warning(markdown(f"This sentence cannot be counted: {error}"))
            return
        room.ask(store, code, teacher_key, kind, sentence, (), str(count), classroom_state.now())


def ask_split(store: ClassStore, code: str, teacher_key: str, model: Tokenizer, step: int) -> None:
    """A word, and the room cuts it where the model, its merges up to ``step`` made, starts its tokens."""
    st.markdown(f"**Ask: {SPLIT.asks}** After step {step:,}.")
    if classroom_state.WORD_OFFERED_KEY not in st.session_state:  # the corpus's longest word shown, found once
        corpus = state.current_corpus()
        pieces = shown_pieces(model_pieces(corpus, model.config))[0] if corpus else ()
        st.session_state[classroom_state.WORD_OFFERED_KEY] = word_to_split(pieces)
    # the first word lives under a key of its own and reaches the box as value=: put under the box's key, it would be
    # lost when the popover was never opened (as the sentence's box above)
    offered_word = st.session_state[classroom_state.WORD_OFFERED_KEY]
    typed = st.text_input("Word", offered_word, max_chars=TYPED_WORD_LIMIT, key=classroom_state.WORD_KEY)
    if st.button("Ask this word", disabled=not typed.strip()):
        try:
            word, offered, places = split_question(model, step, typed)
        except ValueError as error:  # more than one word, a cut inside a character, one token
            st.warning(markdown(str(error)))
            return
        room.ask(store, code, teacher_key, SPLIT, word, offered, places, classroom_state.now())


def ask_costliest(store: ClassStore, code: str, teacher_key: str, model: Tokenizer) -> None:
    """Two to four languages: the room guesses which needs the most tokens for the same text (the preamble of the
    Universal Declaration of Human Rights in each), counted by the tokenizer chosen above for the sentence
    (``ask_count``, drawn first in the same popover)."""
    counted_by = st.session_state.get(classroom_state.COUNTED_BY_KEY) or "GPT-4"
    st.divider()
    st.markdown(f"**Ask: {COSTLIEST.asks}** Counted by {counted_by}.")
    names = {language.code: language.name for language in bundled_languages()}
    chosen = st.multiselect(
        "Languages",
        list(names),
        default=list(LANGUAGES),
        format_func=names.__getitem__,
        max_selections=4,
        key=classroom_state.LANGUAGES_KEY,
    )
    if st.button("Ask these languages", disabled=len(chosen) < 2):
        counter = load_pretrained("cl100k_base") if counted_by == "GPT-4" else model
        try:
            prompt, choices, answer = costliest_question(
                token_counts(counter, bundled_texts(chosen)), names, counted_by
            )
        except ValueError as error:  # a tie for the most tokens; a loaded model's pattern too slow, say
            st.warning(markdown(str(error)))
            return
        room.ask(store, code, teacher_key, COSTLIEST, prompt, choices, answer, classroom_state.now())
