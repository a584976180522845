"""Training on the session's behalf, where the pages ask for it: the Train button, a shared link (``app.py`` on a
session's first run, before any page draws) and Compare's larger sizes. Each run asks the class's bound, shares the
store's copy of the same run, draws its progress and errors, and makes the model the session's."""

from __future__ import annotations

import time

import streamlit as st

from bpe_core import Config, Tokenizer, train
from drawing import escape
from live_class.rules import training_refused
from pages.classroom import state as classroom_state
from pages.train import state as train_state
from pages.train.views import progress
from pages.train.views.form import PASTE
from pages.train.views.model_address import to_query_params
from session import state
from session.model_about import DEFAULT_MODEL_ABOUT, ModelAbout
from session.model_store import TrainedHandle, training_key
from session.training_settings import DEFAULT_SETTINGS, TrainSettings


def _class_activity() -> float | None:
    """When the teacher last acted in the class this session teaches or joined; None when it is in no class, the
    class ended, or the store cannot be asked (a bad ``BPE_CLASS_STORE``, Redis down: both ValueErrors). A class
    bounds the trainings of its own teacher and students, never the rest of the server's visitors."""
    membership = classroom_state.teaching() or classroom_state.studying()
    if membership is None:
        return None
    try:
        record = state.class_store().class_record(membership[0])
    except ValueError:
        return None
    return None if record is None or record.ended else record.last_active


def train_and_keep(
    source: str, settings: TrainSettings, config: Config, corpus: str, training_text: str | list[str]
) -> bool:
    """Train (or fetch the same run from the shared store) and make it the session's model; True if it is new."""

    def train_with_progress() -> Tokenizer:
        with st.spinner("Training", show_time=True):  # the time ticks in the browser, from the click on
            bar = st.progress(0.0, text=progress.STARTING)
            try:  # a job: a worker process under the server's budget, ended if this page stops waiting
                return state.as_job(
                    train,
                    training_text,
                    config,
                    **settings.train_kwargs(),
                    on_progress=progress.ThinnedProgress(bar.progress),
                    on_wait=lambda place: bar.progress(0.0, text=progress.waiting(place)),
                )
            finally:
                bar.empty()

    size = getattr(settings, settings.stop_by)
    refused = training_refused(size, _class_activity(), time.time())
    if refused:
        st.warning(escape.markdown(f"{refused} The current model is kept."))
        return False
    handle = TrainedHandle(training_key(training_text, settings), training_text, settings)
    try:
        model = state.model_store().get_or_make(handle.key, train_with_progress)
    except ValueError as error:
        st.error(escape.markdown(f"Training failed: {error}. The current model is kept."))
        return False
    new = model is not state.model_if_any()
    link = to_query_params(source, settings, corpus if source == PASTE else "")
    state.set_model(handle, corpus=corpus, about=ModelAbout.trained(source, settings, link or None))  # {}: no link
    return new


def first_model(query_params: dict) -> None:
    """A session's first run, on any page, before the page draws: the model its address names (a textbook corpus,
    the sample or pasted text, with their settings), trained or taken from the store, so that a reload or a link
    opened in another browser shows the same model; else the default model, so a first visit is useful with zero
    clicks. Bad parameters wait for the Train page's warnings, with the default model. A server whose job budget
    cannot make the default model says so, and no page runs without a model."""
    _train_from_link(query_params)
    if state.model_if_any() is None:
        try:
            state.default_session_model()
        except ValueError as error:  # a ceiling too low for the sample, or a budget variable that makes no sense
            st.error(
                escape.markdown(
                    f"This server could not make its first model (the sample corpus, {DEFAULT_SETTINGS.merges:,} "
                    f"merges): {error}. Whoever runs it can raise the job budget: README, Limits."
                ),
                icon=":material/error:",
            )
            st.stop()
        state.set_model(state.default_handle(), corpus=state.sample_text(), about=DEFAULT_MODEL_ABOUT)


def _train_from_link(query_params: dict) -> None:
    source = train_state.init_train_form(query_params)
    settings = train_state.train_widget_settings()
    try:
        config = settings.to_config()
    except ValueError:  # left for the Train page, which says why
        return
    if train_state.take_train_from_link():
        corpus = st.session_state[train_state.PASTE_WIDGET] if source == PASTE else train_state.preset_corpus(source)
        train_and_keep(source, settings, config, corpus, corpus)
