"""What the pages share in ``st.session_state`` and Streamlit's caches: the session's model and its corpus, the
models all sessions share, the text typed on Encode and Compare, the tokenizer-file widgets, and a page's choices
(``session.choices``) in and out of the session: its address, and its tabs and expanders kept while not drawn. Each
page's own keys, caches and choices are in its folder's ``state.py`` (``pages.train.state``, ``pages.merges.state``,
``pages.encode.state``, ``pages.compare.state``).

State keys start with ``bpe_`` and no widget uses them, so Streamlit never deletes them. Widget keys are
named in the state modules too; Streamlit forgets their values when another page is shown unless the widget says
``persist_state="session"``. Tabs and expanders cannot say it: a page's choices marked ``kept`` are copied into a
state key and back before they are drawn (``keep_choices``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from bpe_core import Tokenizer, train
from bpe_core.piece_cache import CacheBudget, process_budget, set_budget
from bpe_core.pretrained import keep_published_in
from bpe_core.rank_tokenizer import AnyTokenizer
from jobs import Budget, Slots, run_job
from jobs.store import FOR_OWNER
from live_class.choose import open_store
from live_class.limits import trusted_proxies, visitor
from live_class.store import ClassStore
from session.addresses import TEXT_PARAM
from session.choices import Choice, address_params, kept_keys, read_address
from session.model_about import DEFAULT_MODEL_ABOUT, LOADED_FILE, ModelAbout
from session.model_store import (
    PER_VISITOR_ENV,
    ModelStore,
    PublishedStore,
    TrainedHandle,
    model_memory_mb,
    models_per_visitor,
    piece_cache_mb,
    published_memory_mb,
    training_key,
)
from session.presenting import wants_presentation
from session.training_settings import DEFAULT_SETTINGS, TrainSettings
from session.upload_store import UploadHandle, UploadStore, upload_memory_mb

MODEL_KEY = "bpe_model"  # a TrainedHandle or UploadHandle of a store's model, or a published Tokenizer
CORPUS_KEY = "bpe_corpus"  # the text it was trained on ("" for a loaded file or GPT-2)
ABOUT_KEY = "bpe_model_about"  # how it was made (a ModelAbout), for display and links
RELEASED_KEY = "bpe_model_released"  # what to tell the session about its model, released since its last run

SAMPLE_PATH = Path(__file__).resolve().parent.parent / "data" / "kjv_sample.txt"


@functools.cache  # one string for every session (Streamlit's cache_data would copy it at each call), read at start
def sample_text() -> str:
    return SAMPLE_PATH.read_text(encoding="utf-8")


@st.cache_resource(max_entries=1, show_spinner=False)
def default_model() -> Tokenizer:
    """The model every session starts with: the KJV sample trained by the default form (``DEFAULT_SETTINGS``: GPT-2's
    split, bytes, 2,000 merges), a job as every training (``jobs``)."""
    return _trained_as_job(sample_text(), DEFAULT_SETTINGS)


def _trained_as_job(training_text: str | list[str], settings: TrainSettings) -> Tokenizer:
    """``training_text`` trained with ``settings``, as a job: the default model, and a released model made again."""
    return as_job(train, training_text, settings.to_config(), **settings.train_kwargs())


@st.cache_resource(max_entries=1, show_spinner=False)
def _job_slots() -> Slots:
    """The jobs this server process runs at once (``BPE_JOBS_AT_ONCE``, 2 by default); the others wait in a line
    fair between visitors, each with at most ``BPE_JOBS_PER_VISITOR`` jobs waiting or running."""
    return Slots.from_environment()


def visitor_address() -> str | None:
    """Who this session is to the server's limits: its address (the one nginx saw, behind the proxy that
    ``BPE_TRUSTED_PROXY`` names); None for a browser on the server's own machine, and for the server itself (no
    session: the default model made when it starts)."""
    if get_script_run_ctx(suppress_warning=True) is None:
        return None
    forwarded_for = st.context.headers.get("X-Forwarded-For") or ""
    return visitor(st.context.ip_address, forwarded_for, trusted_proxies())


def as_job(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``jobs.run_job`` under this server's budget (``BPE_JOB_MEMORY_MB``, ``BPE_JOB_SECONDS``, read when the job
    starts: a ValueError names a variable that makes no sense), in its fair line as this session's visitor."""
    budget = Budget.from_environment()
    return run_job(function, *args, budget=budget, slots=_job_slots(), visitor=visitor_address(), **kwargs)


@st.cache_resource(max_entries=1, show_spinner=False)
def model_store() -> ModelStore:
    """Trained models shared by all sessions, at most ``BPE_MODEL_MEMORY_MB`` together (512 by default), the default
    model pinned among them; a visitor whose tabs hold more than ``BPE_MODELS_PER_VISITOR`` (4) makes room with its
    own first."""
    return ModelStore(model_memory_mb() * 2**20, per_visitor=models_per_visitor(), visitor=visitor_address)


@st.cache_resource(max_entries=1, show_spinner=False)
def published_store() -> PublishedStore:
    """The published tokenizers this server process has read, at most ``BPE_PUBLISHED_MEMORY_MB`` together (1,024
    by default: all thirteen, 780 MB, fit): the engine keeps them here from the first run on, instead of for the
    life of the process."""
    store = PublishedStore(ceiling_bytes=published_memory_mb() * 2**20)
    keep_published_in(store)
    return store


@st.cache_resource(max_entries=1, show_spinner=False)
def piece_caches() -> CacheBudget:
    """The budget the piece caches of every tokenizer in this server process share, set once from
    ``BPE_PIECE_CACHE_MB`` (64 by default; a ValueError names a value that makes no sense)."""
    set_budget(piece_cache_mb())
    return process_budget()


@st.cache_resource(max_entries=1, show_spinner=False)
def upload_store() -> UploadStore:
    """Tokenizers loaded from uploaded files, held once per content for all sessions, at most
    ``BPE_UPLOAD_MEMORY_MB`` together (a ValueError names a value that makes no sense)."""
    return UploadStore(ceiling_bytes=upload_memory_mb() * 2**20)


def default_session_model() -> Tokenizer:
    """The default model as sessions hold it: the model store's copy, filed as the default form's run (pressing
    Train on the default form trains nothing). The server makes it before it serves (``deploy/start_app.py``), so
    that a session finds it made; an app run another way (AppTest) makes it for its first session."""
    return model_store().get_or_make(default_handle().key, default_model, pinned=True)


def default_handle() -> TrainedHandle:
    """The default model as a session holds it."""
    return TrainedHandle(training_key(sample_text(), DEFAULT_SETTINGS), sample_text(), DEFAULT_SETTINGS)


@st.cache_resource(max_entries=1, show_spinner=False)
def class_store() -> ClassStore:
    """This process's connection to the live class's store (``BPE_CLASS_STORE``; a ``ValueError`` names a bad one):
    the Class page keeps its classes there, and the Train page asks it whether a class runs."""
    return open_store()


def current_model() -> Tokenizer:
    """The session's model: the router gives a session its first one before any page runs
    (``pages.train.training.first_model``), so every page has one. A trained model is asked of the model store and
    an uploaded one of the upload store: a trained model the store released is trained again from its settings; an
    upload released, or a model that cannot be made again, gives the session the default model and says why
    (``released_notice``)."""
    held = st.session_state[MODEL_KEY]
    if isinstance(held, TrainedHandle):
        return model_store().get(held.key) or _trained_again(held)
    if not isinstance(held, UploadHandle):
        return held
    model = upload_store().model(held)
    if model is None:
        _release_to_default(
            f"The tokenizer loaded from {held.label} was released to make room for other uploads (this server "
            f"holds at most {upload_store().ceiling_bytes // 2**20:,} MB of them): load it again."
        )
        model = default_session_model()
    return model


def _trained_again(held: TrainedHandle) -> Tokenizer:
    """The session's trained model, released by the model store (for other visitors' models, or for this visitor's
    newer ones beyond its share): trained again (the same corpus and settings give the same model), or the default
    model if the server cannot now. The session is told why, once (``released_notice``)."""
    why = _why_released(held.key)
    try:
        with st.spinner(f"{why}: training it again..."):
            model = model_store().get_or_make(held.key, lambda: _trained_as_job(held.training_text, held.settings))
    except ValueError as error:  # a ceiling, a visitor's jobs, a budget that makes no sense
        _release_to_default(f"{why}, and could not be made again ({error}): train it again on the Train page.")
        return default_session_model()
    st.session_state[RELEASED_KEY] = f"{why}: it was trained again from its corpus and settings."
    return model


def _why_released(key: str) -> str:
    """Why the model store released the session's model, in words."""
    store = model_store()
    if store.released_why(key) == FOR_OWNER:
        newer = f"{store.per_owner:,} newer models" if store.per_owner != 1 else "a newer model"
        return (
            f"Your model was released to make room on this server: your other tabs hold {newer}, and a visitor who "
            f"holds more than {store.per_owner:,} gives up its own first (the server's {PER_VISITOR_ENV} sets it)"
        )
    return (
        f"Your model was released to make room for newer models (this server holds at most "
        f"{store.ceiling_bytes // 2**20:,} MB of trained models)"
    )


def _release_to_default(message: str) -> None:
    st.session_state[RELEASED_KEY] = message
    set_model(default_handle(), corpus=sample_text(), about=DEFAULT_MODEL_ABOUT)


def released_notice() -> str | None:
    """Once, after the store released the session's model (trained again, or an upload given up for the default
    model): what to tell it and why (the router shows it)."""
    if model_if_any() is None:
        return None
    return st.session_state.pop(RELEASED_KEY, None)


def current_corpus() -> str:
    return st.session_state.get(CORPUS_KEY, "")


def model_if_any() -> Tokenizer | None:
    """The session's model, or None before any page made one (the sidebar does not train the default)."""
    return current_model() if MODEL_KEY in st.session_state else None


def model_about() -> ModelAbout:
    """How the session's model was made; before any page made one, the default model's (what a page will make)."""
    return st.session_state.get(ABOUT_KEY, DEFAULT_MODEL_ABOUT)


def set_model(model: Tokenizer | TrainedHandle | UploadHandle, *, corpus: str, about: ModelAbout) -> None:
    """Make ``model`` the session's: the handle of a model the model store or the upload store holds (never the
    model itself, so that a store can release it), or a published model (shared by every session already)."""
    st.session_state.update({MODEL_KEY: model, CORPUS_KEY: corpus, ABOUT_KEY: about})


def model_name(model: AnyTokenizer) -> str:
    """``model``'s name as this session knows it: the session's uploaded model is named after this session's files
    (the server holds one copy of the same bytes for every session, named after the files that loaded it first)."""
    about = model_about()
    if about.loaded_from == LOADED_FILE and model_handle() is not None and model is current_model():
        return about.file_name
    return model.name


def model_handle() -> UploadHandle | None:
    """The handle of the session's model if it was uploaded, else None."""
    held = st.session_state.get(MODEL_KEY)
    return held if isinstance(held, UploadHandle) else None


# -- tokenizer files (session.model_io's uploader and buttons, on several pages)


def model_io_widget_key(page: str, name: str) -> str:
    """The widget key of one of model_io's widgets on ``page`` ("train", "merges", "encode")."""
    return f"{page}_{name}"


def model_io_section_key(page: str) -> str:
    """The key of the expander that folds model_io's widgets on ``page``."""
    return model_io_widget_key(page, "section_open")


def model_io_section(page: str) -> Choice:
    """The expander of model_io's widgets on ``page`` as one of its choices: open or closed, it is kept."""
    return Choice(model_io_section_key(page), False, kept=True)


def tokenizer_files(page: str) -> list:
    """The files in ``page``'s tokenizer uploader."""
    return st.session_state.get(model_io_widget_key(page, "tokenizer_files")) or []


def tokenizer_upload_record(page: str) -> dict | None:
    """What ``page``'s last tokenizer upload gave ({"ids", "handle", "message"}; the handle weakly referenced, or
    None after a failure): a rerun shows it unloaded."""
    return st.session_state.get(f"bpe_{page}_tokenizer_upload")


def set_tokenizer_upload_record(page: str, record: dict) -> None:
    st.session_state[f"bpe_{page}_tokenizer_upload"] = record


# -- the text typed on Encode and Compare

_SHARED_TEXT_KEY = "bpe_shared_text"  # the text being looked at: one text for Encode and Compare
TEXT_MAX_CHARS = 100_000  # what their text boxes take


def restore_text(widget_key: str, example: str) -> None:
    """Give a text box (Encode's or Compare's) the text typed last on either page, else ``example``."""
    if widget_key not in st.session_state:
        st.session_state[widget_key] = st.session_state.get(_SHARED_TEXT_KEY, example)


def share_text(widget_key: str) -> None:
    """The text boxes' on_change: what was typed becomes the text of both pages."""
    st.session_state[_SHARED_TEXT_KEY] = st.session_state[widget_key]


def set_text(widget_key: str, text: str) -> None:
    """Put ``text`` in a text box before it is drawn (an address asked for it), as the text of both pages."""
    st.session_state[widget_key] = st.session_state[_SHARED_TEXT_KEY] = text


# -- presentation mode (session.presenting)

PRESENT_KEY = "present_mode"  # the sidebar's toggle, drawn on every run


def start_presentation(query_params: dict) -> bool:
    """A session starts presenting if its first address asks for it (``?present=1``); the toggle decides after."""
    st.session_state.setdefault(PRESENT_KEY, wants_presentation(query_params))
    return st.session_state[PRESENT_KEY]


def presenting() -> bool:
    return bool(st.session_state.get(PRESENT_KEY))


# -- a page's choices (session.choices): its address, and widgets that keep their value while not drawn


# The model's parameters an address gave that could not be taken: read on a session's first run, whatever its page
# (pages/train/state.py's init_train_form), and told once, in the warning of the first page that warns
MODEL_LINK_WARNINGS_KEY = "bpe_train_link_warnings"


def take_model_link_warnings() -> list[str]:
    return st.session_state.pop(MODEL_LINK_WARNINGS_KEY, [])


def first_time(key: str) -> bool:
    """True the first time a session asks with ``key`` (a page reading its address once), False after."""
    if key in st.session_state:
        return False
    st.session_state[key] = True
    return True


def take_address(choices: Sequence[Choice], query_params: Mapping[str, str], page: str) -> tuple[dict, list[str]]:
    """On the session's first run of ``page``, put what its address asks into its choices' widgets before they
    are drawn (a typed text becomes the text of both pages); returns the values taken, by widget key, and the
    parameters ignored."""
    if not first_time(f"bpe_{page}_link_read"):
        return {}, []
    values, warnings = read_address(choices, query_params)
    st.session_state.update(values)
    for choice in choices:
        if choice.param == TEXT_PARAM and choice.key in values:
            set_text(choice.key, values[choice.key])
    return values, warnings


def page_address(choices: Sequence[Choice], values: Mapping[str, Any] | None = None) -> tuple[dict[str, str], str]:
    """The page's choices as query parameters (``values`` by widget key, else what the widgets hold, drawn or
    kept), and what the address cannot carry."""
    held = {choice.key: st.session_state[choice.key] for choice in choices if choice.key in st.session_state}
    return address_params(choices, {**held, **(values or {})})


def keep_in_range(key: str, low: int, high: int, start: int | None = None) -> None:
    """Start a number widget at ``start`` (else ``low``), or keep its value in the current model's range."""
    st.session_state[key] = max(low, min(high, int(st.session_state.get(key, low if start is None else start))))


def start_widget(key: str, value) -> None:
    """Give a widget drawn without ``value=`` its first value (a kept choice keeps its own). Not for a widget in a
    popover: one never opened sends no value back, and Streamlit then draws it empty at the next rerun (give it
    ``value=`` instead, as the Class page's popovers do)."""
    st.session_state.setdefault(key, value)


def default_unless_offered(key: str, options: list, default) -> None:
    """Start a choice widget at ``default``, or at it again when what was chosen before is no longer offered."""
    if st.session_state.get(key) not in set(options):
        st.session_state[key] = default


_KEPT_KEY = "bpe_kept_choices"  # the last value of each kept tab and expander, for the runs that do not draw it


def keep_choices(choices: Sequence[Choice]) -> None:
    """Called by a page with its choices before it draws them: its tabs and expanders (``kept``) get their values
    back after a run that did not draw them (another page, a closed tab). They cannot say ``persist_state``, as
    other widgets do. (Their widgets have no ``default=`` or ``expanded=``: it would warn.)"""
    kept = st.session_state.setdefault(_KEPT_KEY, {})
    kept.update({key: st.session_state[key] for key in kept_keys(choices) if key in st.session_state})
    for key in kept_keys(choices):
        if key in kept:
            st.session_state[key] = kept[key]
