"""Tokenizer files in and out, as Streamlit widgets the pages share.

The pure parts come first and are tested without Streamlit: reading uploaded
bytes into a tokenizer (:func:`load_uploaded`), the export formats with their
file names and payload builders (:data:`EXPORTS`), and why an export is
refused (:func:`export_refusal`). The widgets below them are thin:
:func:`upload_tokenizer`, :func:`use_gpt2_button` and :func:`download_buttons`.
Their widget keys and what an upload left are ``viz.state``'s (``model_io_widget_key``, ``tokenizer_upload_record``).
"""

from __future__ import annotations

import json
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
    load_any,
    model_to_json,
    to_gpt2_files,
    to_hf_json,
)
from bpe_core.formats.files import unpack_xz
from viz import escape, state
from viz.describe import model_size
from viz.model_about import LOADED_FILE, LOADED_GPT2, ModelAbout
from viz.text_files import decode_text_file

UPLOAD_TYPES = ["json", "txt", "bpe", "xz"]
UPLOAD_HELP = (
    "One of: a model saved here (.json); a Hugging Face tokenizer.json with a BPE model, as it is or compressed "
    "with xz (tokenizer.json.xz: uploads stop at 10 MB, and Gemma 3's tokenizer.json is 33 MB); "
    "or GPT-2 style vocab.json + merges.txt (select both files together)."
)

# -- reading uploaded files (pure) ---------------------------------------------------


def _lone_file_hint(name: str, text: str) -> str | None:
    """What is missing when half of a GPT-2 pair is uploaded alone, else None.

    >>> _lone_file_hint("merges.txt", "#version: 0.2")
    'this is a merges list: upload it together with its vocab.json (select both files)'
    >>> _lone_file_hint("vocab.json", '{"a": 0, "b": 1}')
    'this looks like a GPT-2 vocab.json: upload it together with its merges.txt (select both files)'
    >>> _lone_file_hint("tokenizer.json", '{"model": {}}') is None
    True
    """
    if name.endswith((".txt", ".bpe")):
        return "this is a merges list: upload it together with its vocab.json (select both files)"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: absurdly nested arrays
        return None  # load_any explains broken JSON itself
    if isinstance(data, dict) and data and all(type(value) is int for value in data.values()):
        return "this looks like a GPT-2 vocab.json: upload it together with its merges.txt (select both files)"
    return None


def load_uploaded(files: dict[str, bytes]) -> Tokenizer:
    """The tokenizer in uploaded files ``{file name: bytes}``.

    Accepts a model saved here, an HF ``tokenizer.json`` (BPE, also xz-compressed: ``unpack_xz``) or a
    ``vocab.json`` + ``merges.txt`` pair. Raises ``ValueError`` whose message starts with the
    file name(s) and says what is wrong (not UTF-8, not BPE, half a pair, ...).

    >>> load_uploaded({"m.txt": b"\\xff"})  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    ValueError: m.txt: this is not UTF-8 text (byte 0xFF at position 0 is not valid UTF-8; Latin-1 or Windows-1252
    perhaps?), please save it as UTF-8
    """
    if not files:
        raise ValueError("no file was given")
    files = dict(unpack_xz(name, data) for name, data in files.items())
    texts = {}
    for name, data in files.items():
        try:
            texts[name] = decode_text_file(data)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
    names = ", ".join(sorted(texts))
    hint = _lone_file_hint(*next(iter(texts.items()))) if len(texts) == 1 else None
    if hint:
        raise ValueError(f"{names}: {hint}")
    return load_any(texts)  # its errors start with the file names


def load_added(added: dict[str, bytes], earlier: dict[str, bytes]) -> tuple[Tokenizer, list[str]]:
    """Load the files just ``added`` to an uploader that already held ``earlier`` ones; returns the
    tokenizer and the names of the files it came from.

    The added files alone come first (a new tokenizer.json replaces the one loaded before); when they
    are only part of a set (a merges.txt whose vocab.json came earlier), they are tried with the earlier
    files. Raises the added files' own ``ValueError`` when neither works.

    >>> from bpe_core import Config, train
    >>> vocab, merges = to_gpt2_files(train("aaab", Config(split="gpt2", units="bytes"), merges=1))
    >>> load_added({"merges.txt": merges.encode()}, {"vocab.json": vocab.encode()})[1]
    ['merges.txt', 'vocab.json']
    """
    try:
        return load_uploaded(added), sorted(added)
    except ValueError as error:
        if not earlier:
            raise
        together = {**earlier, **added}
        try:
            return load_uploaded(together), sorted(together)
        except ValueError:
            raise error from None


def describe_loaded(tok: Tokenizer, label: str) -> str:
    """One sentence saying what was loaded.

    >>> from bpe_core import Config, train
    >>> describe_loaded(train("aaab", Config(split="none"), merges=1), "m.json")  # a, b, aa and <unk>
    'Loaded m.json: 1 merge, vocabulary of 4 tokens. It is now the model on every page.'
    """
    return f"Loaded {label}: {model_size(tok)}. It is now the model on every page."


def model_origin(tok: Tokenizer, about: ModelAbout) -> str:
    """Where the session's model came from, for a summary line; "" for a model trained here.

    >>> from bpe_core import Config, train
    >>> model_origin(train("aaab", Config(), merges=1), ModelAbout.loaded_file("tokenizer.json"))
    'Loaded from tokenizer.json'
    >>> from viz.model_about import DEFAULT_MODEL_ABOUT
    >>> model_origin(train("aaab", Config(), merges=1), DEFAULT_MODEL_ABOUT)
    ''
    """
    if about.loaded_from == LOADED_FILE:
        return f"Loaded from {about.file_name or 'a file'}"
    if about.loaded_from == LOADED_GPT2 or tok.name == "GPT-2":
        return "GPT-2's published tokenizer (OpenAI, 2019)"
    return f"Model: {tok.name}" if tok.name else ""


def model_title(tok: Tokenizer) -> str:
    r"""The model's name for a markdown caption, escaped because a loaded model is named after the user's
    file; "Trained model" when it has none.

    >>> from bpe_core import load_gpt2
    >>> model_title(load_gpt2())
    'GPT\\-2'
    """
    return escape.markdown(tok.name) if tok.name else "Trained model"


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


def _on_upload(page: str) -> None:
    """Load the files just added (a callback, so the page then runs with the new model).

    The uploader keeps earlier files next to new ones, so the ids of the files seen are remembered:
    only the new ones are loaded, and never twice."""
    uploaded = state.tokenizer_files(page)
    record = state.tokenizer_upload_record(page) or {"ids": frozenset(), "model": None, "message": ""}
    added = {file.name: file.getvalue() for file in uploaded if file.file_id not in record["ids"]}
    ids = frozenset(file.file_id for file in uploaded)
    if not added:  # a file was removed: nothing to load
        state.set_tokenizer_upload_record(page, {**record, "ids": ids})
        return
    earlier = {file.name: file.getvalue() for file in uploaded if file.file_id in record["ids"]}
    try:
        model, names = load_added(added, earlier)
    except ValueError as error:
        message = f"Could not load {error}. The current model is kept."
        state.set_tokenizer_upload_record(page, {"ids": ids, "model": None, "message": message})
        return
    label = ", ".join(names)
    state.set_model(model, corpus="", about=ModelAbout.loaded_file(label))
    record = {"ids": ids, "model": model, "message": describe_loaded(model, label)}
    state.set_tokenizer_upload_record(page, record)


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
    if record["model"] is None and record["ids"] == {file.file_id for file in uploaded}:
        st.error(escape.markdown(record["message"]), icon=":material/error:")
    elif record["model"] is state.current_model():  # not once something else has replaced it
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
