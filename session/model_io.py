"""Tokenizer files in and out, as Streamlit widgets the pages share.

The pure parts come first and are tested without Streamlit: the export formats with their file names and payload
builders (:data:`EXPORTS`), and why an export is refused (:func:`export_refusal`); reading uploaded bytes into a
tokenizer is ``session.tokenizer_files``' (run as a job, held by the server's store of uploads). The widgets below them
are thin: :func:`upload_tokenizer`, :func:`use_gpt2_button` and :func:`download_buttons`. Their widget keys and what
an upload left are ``session.state``'s (``model_io_widget_key``, ``tokenizer_upload_record``).
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import streamlit as st

from bpe_core import Tokenizer, load_gpt2
from bpe_core.formats import (
    ExportError,
    check_exportable,
    check_gpt2_exportable,
    check_model_json_exportable,
    model_to_json,
    to_gpt2_files,
    to_hf_json,
)
from drawing import escape
from drawing.describe import model_size
from jobs import JobStopped
from session import state
from session.model_about import LOADED_FILE, LOADED_GPT2, ModelAbout
from session.tokenizer_files import load_added, load_measured
from session.upload_store import UploadHandle, files_key

UPLOAD_TYPES = ["json", "txt", "bpe", "xz"]
UPLOAD_HELP = (
    "One of: a model saved here (.json); a Hugging Face tokenizer.json with a BPE model, as it is or compressed "
    "with xz (tokenizer.json.xz: uploads stop at 10 MB, and Gemma 3's tokenizer.json is 33 MB); "
    "or GPT-2 style vocab.json + merges.txt (select both files together)."
)


def describe_loaded(tok: Tokenizer, label: str) -> str:
    """One sentence saying what was loaded.

    >>> from bpe_core import Config, train
    >>> describe_loaded(train("aaab", Config(split="none"), merges=1), "m.json")  # a, b, aa and <unk>
    'Loaded m.json: a vocabulary of 4 tokens, 1 of them made by a merge. It is now the model on every page.'
    """
    return f"Loaded {label}: {model_size(tok)}. It is now the model on every page."


def model_origin(tok: Tokenizer, about: ModelAbout) -> str:
    """Where the session's model came from, for a summary line; "" for a model trained here.

    >>> from bpe_core import Config, train
    >>> model_origin(train("aaab", Config(), merges=1), ModelAbout.loaded_file("tokenizer.json"))
    'Loaded from tokenizer.json'
    >>> from session.model_about import DEFAULT_MODEL_ABOUT
    >>> model_origin(train("aaab", Config(), merges=1), DEFAULT_MODEL_ABOUT)
    ''
    """
    if about.loaded_from == LOADED_FILE:
        return f"Loaded from {about.file_name or 'a file'}"
    if about.loaded_from == LOADED_GPT2 or tok.name == "GPT-2":
        return "GPT-2's published tokenizer (OpenAI, 2019)"
    return f"Model: {tok.name}" if tok.name else ""


def model_title(name: str) -> str:
    r"""A model's name (``state.model_name``) for a markdown caption, escaped because a loaded model is named after
    the user's file; "Trained model" when it has none.

    >>> model_title("GPT-2"), model_title("")
    ('GPT\\-2', 'Trained model')
    """
    return escape.markdown(name) if name else "Trained model"


# -- export formats (pure) -----------------------------------------------------------


def hf_json_text(tok: Tokenizer) -> str:
    """The model as the text of an HF ``tokenizer.json`` (raises ``ExportError`` when it has no exact equivalent)."""
    return json.dumps(to_hf_json(tok), ensure_ascii=False, indent=1)


@dataclass(frozen=True)
class DownloadFile:
    label: str  # the button's text
    file_name: str
    mime: str
    build: Callable[[Tokenizer], str]  # the file's text; may raise ExportError


@dataclass(frozen=True)
class ExportFormat:
    title: str
    about: str  # one line under the title
    files: tuple[DownloadFile, ...]
    check: Callable[[Tokenizer], object]  # raises ExportError when the model can't be written in this format


EXPORTS = (
    ExportFormat(
        title="BPE Explorer model",
        about="Everything, with the training trace; load it here later.",
        files=(DownloadFile("Download model JSON", "bpe_model.json", "application/json", model_to_json),),
        check=check_model_json_exportable,
    ),
    ExportFormat(
        title="Hugging Face tokenizer.json",
        about='For the tokenizers / transformers libraries: Tokenizer.from_file("tokenizer.json").',
        files=(DownloadFile("Download tokenizer.json", "tokenizer.json", "application/json", hf_json_text),),
        check=check_exportable,
    ),
    ExportFormat(
        title="GPT-2 vocab.json + merges.txt",
        about="The classic pair read by GPT-2 style byte-level tokenizers.",
        files=(
            DownloadFile("Download vocab.json", "vocab.json", "application/json", lambda tok: to_gpt2_files(tok)[0]),
            DownloadFile("Download merges.txt", "merges.txt", "text/plain", lambda tok: to_gpt2_files(tok)[1]),
        ),
        check=check_gpt2_exportable,
    ),
)


def export_refusal(tok: Tokenizer, export: ExportFormat) -> str | None:
    """Why ``tok`` can't be written in ``export``'s format, or None when it can.

    >>> from bpe_core import Config, train
    >>> words = train("low lower", Config(split="whitespace", end_of_word="</w>"), merges=2)
    >>> export_refusal(words, EXPORTS[0]) is None
    True
    >>> "glued" in export_refusal(words, EXPORTS[1])
    True
    """
    try:
        export.check(tok)
    except ExportError as error:
        return str(error)
    return None


# -- widgets -------------------------------------------------------------------------


def _stored_upload(files: dict[str, bytes], on_wait: Callable[[int], None]) -> UploadHandle:
    """A handle on the tokenizer in ``files``: the server's copy if another session loaded the same files, else
    loaded by a job (a worker process under the server's budget) and stored. A ceiling reached says so, named."""
    label = ", ".join(sorted(files))

    def load() -> tuple[Tokenizer, int]:
        try:
            return state.as_job(load_measured, files, on_wait=on_wait)
        except JobStopped as stopped:
            raise ValueError(f"{label}: {stopped}") from None

    return state.upload_store().get_or_load(files_key(files), label, load, owner=state.visitor_address())


def _on_upload(page: str) -> None:
    """Load the files just added (a callback, so the page then runs with the new model).

    The uploader keeps earlier files next to new ones, so the ids of the files seen are remembered:
    only the new ones are loaded, and never twice. The session keeps a handle on the model, which the
    server's store of uploads holds (``session.upload_store``); the record remembers that handle weakly."""
    uploaded = state.tokenizer_files(page)
    record = state.tokenizer_upload_record(page) or {"ids": frozenset(), "handle": None, "message": ""}
    added = {file.name: file.getvalue() for file in uploaded if file.file_id not in record["ids"]}
    ids = frozenset(file.file_id for file in uploaded)
    if not added:  # a file was removed: nothing to load
        state.set_tokenizer_upload_record(page, {**record, "ids": ids})
        return
    earlier = {file.name: file.getvalue() for file in uploaded if file.file_id in record["ids"]}
    waiting = st.empty()  # its place in line, while it waits for a free worker
    try:
        with st.spinner(f"Loading {', '.join(sorted(added))}", show_time=True):
            load = partial(_stored_upload, on_wait=partial(_say_place, waiting))
            handle, names = load_added(added, earlier, load)
    except ValueError as error:
        message = f"Could not load {error}. The current model is kept."
        state.set_tokenizer_upload_record(page, {"ids": ids, "handle": None, "message": message})
        return
    finally:
        waiting.empty()
    label = ", ".join(names)
    state.set_model(handle, corpus="", about=ModelAbout.loaded_file(label))
    message = describe_loaded(state.current_model(), label)
    state.set_tokenizer_upload_record(page, {"ids": ids, "handle": weakref.ref(handle), "message": message})


def _say_place(slot, place: int) -> None:
    """While a load waits for a free job slot: its place in line."""
    slot.caption(f"Waiting for a free worker: {'next' if place == 1 else f'place {place} in line'}.")


def _loaded_here(record: dict) -> bool:
    """Whether the session's model is still the one ``record``'s upload loaded."""
    handle = record["handle"]() if record["handle"] is not None else None
    return handle is not None and handle is state.model_handle()


def upload_tokenizer(page: str) -> None:
    """A file uploader that makes the uploaded tokenizer the session's model, or says why it can't."""
    st.caption(
        "A model saved here, a Hugging Face tokenizer.json (BPE; a big one compressed as tokenizer.json.xz), "
        "or GPT-2 style vocab.json + merges.txt. It replaces the current model on every page."
    )
    uploaded = st.file_uploader(
        "Tokenizer files",
        type=UPLOAD_TYPES,
        accept_multiple_files=True,
        key=state.model_io_widget_key(page, "tokenizer_files"),
        on_change=_on_upload,
        args=(page,),
        help=UPLOAD_HELP,
    )
    record = state.tokenizer_upload_record(page)
    if not uploaded or record is None:
        return
    if record["handle"] is None and record["ids"] == {file.file_id for file in uploaded}:
        st.error(escape.markdown(record["message"]), icon=":material/error:")
    elif _loaded_here(record):  # not once something else has replaced it
        st.success(escape.markdown(record["message"]), icon=":material/check_circle:")


def _use_gpt2() -> None:
    state.set_model(load_gpt2(), corpus="", about=ModelAbout.gpt2())


def use_gpt2_button(page: str) -> None:
    """A button that makes GPT-2's real tokenizer the session's model."""
    in_use = state.current_model() is load_gpt2()
    st.button(
        "Use GPT-2's real tokenizer",
        key=state.model_io_widget_key(page, "use_gpt2"),
        on_click=_use_gpt2,
        disabled=in_use,
        icon=":material/smart_toy:",
        help="OpenAI's published GPT-2 tokenizer (50,000 merges, no training counts) becomes the model on every page.",
    )
    if in_use:
        st.caption("GPT-2 is the current model.")


def download_buttons(tok: Tokenizer, page: str) -> None:
    """One column per file format with its download button(s); a refused format shows why, with a
    disabled button. Files are built only when their button is clicked."""
    for column, export in zip(st.columns(len(EXPORTS), border=True), EXPORTS):
        with column:
            st.markdown(f"**{export.title}**")
            st.caption(export.about)
            refusal = export_refusal(tok, export)
            with st.container(horizontal=True):
                for file in export.files:
                    st.download_button(
                        file.label,
                        data=partial(file.build, tok),
                        file_name=file.file_name,
                        mime=file.mime,
                        on_click="ignore",
                        icon=":material/download:",
                        disabled=refusal is not None,
                        key=state.model_io_widget_key(page, f"download_{file.file_name}"),
                    )
            if refusal:
                st.info(escape.markdown(f"Not available for this model: {refusal}."), icon=":material/info:")


def save_and_load_section(tok: Tokenizer, page: str) -> None:
    """The whole "Save or load a tokenizer" block (downloads, an uploader, the GPT-2 button), folded: its
    two dozen elements are drawn only while it is open, and it stays open or closed across pages."""
    with st.expander(
        "Save or load a tokenizer", icon=":material/save:", key=state.model_io_section_key(page), on_change="rerun"
    ) as section:
        if not section.open:
            return
        download_buttons(tok, page)
        load, gpt2 = st.columns([2, 1], border=True)
        with load:
            st.markdown("**Load a tokenizer**")
            upload_tokenizer(page)
        with gpt2:
            st.markdown("**Or explore a real one**")
            st.caption("GPT-2's published merges: see how a production tokenizer cuts text.")
            use_gpt2_button(page)


def load_section(page: str) -> None:
    """A folded "Load a tokenizer": the uploader and the GPT-2 button, drawn only while it is open."""
    with st.expander(
        "Load a tokenizer", icon=":material/upload_file:", key=state.model_io_section_key(page), on_change="rerun"
    ) as section:
        if section.open:
            upload_tokenizer(page)
            use_gpt2_button(page)
