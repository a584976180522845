"""Train: pick a corpus and settings, train a BPE tokenizer, and see what it learned.

The form's values live in ``bpe_train_form`` as well as in the widgets, because
Streamlit forgets a widget's value when another page is shown.
"""

from __future__ import annotations

import json
from dataclasses import fields, replace

import streamlit as st

from bpe_core import Config, Tokenizer, train
from viz import model_io, state
from viz import train_view as tv
from viz.readable import readable_symbol

FORM_KEY = "bpe_train_form"  # {"source", "paste", "settings"}: the form, kept across page switches
UPLOAD_KEY = "bpe_train_upload"  # {"names", "text", "errors"} of the uploaded corpus files
LINK_WARNINGS_KEY = "bpe_train_link_warnings"  # link parameters that were ignored
AUTO_TRAIN_KEY = "bpe_train_from_link"  # a link named a corpus: train it on this run
ADOPTED_KEY = "bpe_train_adopted_model"  # the loaded model whose settings the form last took over

SOURCE_WIDGET = "train_source"
PASTE_WIDGET = "train_paste"
CORPUS_FILES_WIDGET = "train_corpus_files"
SETTING_WIDGETS = {f.name: f"train_{f.name}" for f in fields(tv.TrainSettings)}

HELP = {
    "source": "The text BPE learns from. The textbook corpora also load the settings their textbook uses.",
    "stop_by": "Stop after a number of merges, or once the vocabulary (base symbols + special tokens "
    "+ merged tokens) reaches a size.",
    "merges": "How many merge steps to make: each step joins the most frequent adjacent pair into a new token.",
    "vocab_size": "Train until the vocabulary holds this many tokens; it starts with every base symbol "
    "and special token.",
    "min_frequency": "Stop early once the most frequent pair occurs fewer times than this: rare pairs "
    "are not worth a token.",
    "split": "How text is cut into pieces before BPE; merges never cross a piece boundary. none = the whole "
    "text is one piece; whitespace = words; gpt2/gpt4 = the regexes of those models.",
    "end_of_word": "A marker added after every word (whitespace split only), so 'est' ending a word differs "
    "from 'est' inside one. Empty = no marker.",
    "marker_placement": "Own symbol: l o w </w>, the marker is merged like a letter. "
    "Glued: l o w</w>, the last letter carries it.",
    "units": "Base symbols: the characters seen in the corpus, or all 256 byte values "
    "(then no text is ever unknown).",
    "space_marker": "Characters mode: show a space as Ġ so it is visible inside tokens "
    "(it stays a symbol of its own).",
    "special_tokens": "Tokens that are never split or merged and get the first ids, e.g. <|endoftext|>. "
    "Where one occurs in the corpus it is recognised as that special token, not learned from. "
    "Separate them with commas or spaces.",
    "unknown": "Characters mode: what encoding does with a character never seen in training: one <unk> "
    "token, or its UTF-8 bytes as <0x..> tokens.",
    "tie_break": "When several pairs share the top count: first = the pair occurring first in the corpus; "
    "hf = the pair with the smallest ids, as Hugging Face tokenizers does.",
    "top_k": "How many of the best pairs each step remembers, for the race shown on the Merges page.",
}
RECIPE_HELP = {
    "Sennrich (words + </w>)": "Sennrich et al. 2016: words, with </w> glued to each word's last letter.",
    "GPT-2 byte-level": "GPT-2: its regex split, bytes as base symbols (Ġ = space), Hugging Face tie-break.",
    "minbpe basic (raw bytes, no split)": "Karpathy's minbpe BasicTokenizer: raw UTF-8 bytes, no split at all.",
}
PREVIEW_CHARS = 600  # how much of a long corpus the preview shows


# -- caches ------------------------------------------------------------------------


@st.cache_resource(max_entries=1, show_spinner=False)
def model_store() -> tv.ModelStore:
    """Trained models shared by all sessions: the 16 most recently used."""
    return tv.ModelStore(capacity=16)


@st.cache_data(max_entries=32, show_spinner=False)
def cached_corpus_stats(corpus_digest: str, config_json: str, _corpus: str, _config: Config) -> tv.CorpusStats:
    return tv.corpus_stats(_corpus, _config)


@st.cache_data(max_entries=16, show_spinner="Encoding the corpus to measure compression...")
def cached_compression(model_fingerprint: str, corpus_digest: str, _model: Tokenizer, _corpus: str) -> dict:
    return tv.compression(len(_model.encode(_corpus)), _corpus)


# -- form state ----------------------------------------------------------------------


def init_form() -> None:
    """Fill the form: from the link on a session's first visit, from the saved copy after a page switch."""
    if FORM_KEY not in st.session_state:
        link = tv.from_query_params(st.query_params.to_dict())
        st.session_state[FORM_KEY] = {
            "source": link.source or "sample",
            "paste": link.pasted_text,
            "settings": link.settings,
        }
        st.session_state[LINK_WARNINGS_KEY] = link.warnings
        st.session_state[AUTO_TRAIN_KEY] = link.source is not None
    form = st.session_state[FORM_KEY]
    st.session_state.setdefault(SOURCE_WIDGET, form["source"])
    st.session_state.setdefault(PASTE_WIDGET, form["paste"])
    for name, key in SETTING_WIDGETS.items():
        st.session_state.setdefault(key, getattr(form["settings"], name))


def widget_settings() -> tv.TrainSettings:
    return tv.TrainSettings(**{name: st.session_state[key] for name, key in SETTING_WIDGETS.items()})


def show_settings(settings: tv.TrainSettings) -> None:
    """Put ``settings`` into the widgets (only from callbacks, which run before the widgets)."""
    for name, key in SETTING_WIDGETS.items():
        st.session_state[key] = getattr(settings, name)


def adopt_loaded_model() -> None:
    """When a tokenizer file or GPT-2 has just become the model (on any page), show its settings
    in the form once, so that Train makes a model like it from the chosen corpus."""
    model = state.current_model()
    origin = st.session_state.get(state.SETTINGS_KEY, {}).get("source")
    if origin not in ("upload", "gpt2") or st.session_state.get(ADOPTED_KEY) is model:
        return
    st.session_state[ADOPTED_KEY] = model
    show_settings(tv.settings_like(model.config, len(model.merges), widget_settings()))


def on_source_change() -> None:
    preset = tv.CORPUS_PRESETS.get(st.session_state[SOURCE_WIDGET])
    if preset is not None and preset.settings is not None:
        show_settings(preset.settings)


def on_recipe(changes: dict) -> None:
    show_settings(replace(widget_settings(), **changes))


def on_corpus_files() -> None:
    files = st.session_state.get(CORPUS_FILES_WIDGET) or []
    text, names, errors = tv.combine_uploads([(file.name, file.getvalue()) for file in files])
    st.session_state[UPLOAD_KEY] = {"names": names, "text": text, "errors": errors}


# -- the form ------------------------------------------------------------------------


def render_corpus(settings: tv.TrainSettings) -> tuple[str, str]:
    """The corpus picker; returns (source key, corpus text)."""
    st.subheader("1 · Corpus")
    source = st.selectbox(
        "Corpus", list(tv.SOURCE_LABELS), format_func=tv.SOURCE_LABELS.get,
        key=SOURCE_WIDGET, on_change=on_source_change, help=HELP["source"],
    )
    if source == tv.PASTE:
        corpus = st.text_area(
            "Your text", key=PASTE_WIDGET, height=180, placeholder="Paste or type any text, e.g. low lower lowest"
        )
    elif source == tv.UPLOAD:
        st.file_uploader(
            "Text files (UTF-8)", type=["txt"], accept_multiple_files=True,
            key=CORPUS_FILES_WIDGET, on_change=on_corpus_files,
            help="One or more .txt files in UTF-8, each at most "
            f"{st.get_option('server.maxUploadSize')} MB; they are joined with a newline between them.",
        )
        upload = st.session_state.get(UPLOAD_KEY, {"names": [], "text": "", "errors": []})
        for message in upload["errors"]:
            st.error(message)
        if upload["names"]:
            st.caption(tv.markdown_escape("Using: " + ", ".join(upload["names"])))
        corpus = upload["text"]
    else:
        preset = tv.CORPUS_PRESETS[source]
        corpus = state.sample_text() if preset.text is None else preset.text
        preview = corpus if len(corpus) <= PREVIEW_CHARS else corpus[:PREVIEW_CHARS] + " …"
        st.code(preview, language=None, wrap_lines=True, height=180 if len(corpus) > PREVIEW_CHARS else "content")
    if corpus:
        config = tv.pieces_config(settings)
        try:
            stats = cached_corpus_stats(tv.text_digest(corpus), json.dumps(config.to_dict()), corpus, config)
        except ValueError as error:  # e.g. a lone surrogate pasted in
            st.error(f"This text can't be used: {error}")
        else:
            st.caption(
                f"{tv.plural(stats.chars, 'character')} · {tv.plural(stats.bytes, 'byte')} (UTF-8) · "
                f"{tv.plural(stats.words, 'word')} · {tv.plural(stats.unique_pieces, 'unique piece')} "
                f"(split: {settings.split})"
            )
    return source, corpus


def render_settings() -> None:
    st.subheader("2 · Settings")
    st.caption("Start from a classic recipe (changes how text becomes symbols, not the size):")
    with st.container(horizontal=True):
        for label, changes in tv.SETTING_PRESETS.items():
            st.button(label, on_click=on_recipe, args=(changes,), help=RECIPE_HELP[label])

    def number(column, label, name, low, disabled=False):
        column.number_input(label, min_value=low, max_value=tv.MAX_SIZE if name != "top_k" else tv.MAX_TOP_K,
                            step=1, key=SETTING_WIDGETS[name], help=HELP[name], disabled=disabled)

    def choice(column, label, name, options, **kwargs):
        column.radio(label, options, key=SETTING_WIDGETS[name], help=HELP[name], horizontal=True, **kwargs)

    stop_by = st.session_state[SETTING_WIDGETS["stop_by"]]
    units = st.session_state[SETTING_WIDGETS["units"]]
    size = st.columns(4)
    choice(size[0], "Stop at", "stop_by", tv.STOP_BY,
           format_func={"merges": "merges", "vocab_size": "vocab size"}.get)
    number(size[1], "Merges", "merges", 0, disabled=stop_by != "merges")
    number(size[2], "Vocabulary size", "vocab_size", 1, disabled=stop_by != "vocab_size")
    number(size[3], "Min frequency", "min_frequency", 1)

    symbols = st.columns(3)
    symbols[0].selectbox("Pre-tokenization", tv.SPLITS, key=SETTING_WIDGETS["split"], help=HELP["split"])
    choice(symbols[1], "Units", "units", tv.UNITS)
    choice(symbols[2], "Tie-break", "tie_break", tv.TIE_BREAKS)

    marker = st.columns(3)
    marker[0].text_input("End-of-word marker", key=SETTING_WIDGETS["end_of_word"], help=HELP["end_of_word"],
                         placeholder="none")
    choice(marker[1], "Marker placement", "marker_placement", tv.MARKER_PLACEMENTS,
           format_func={"own": "own symbol", "glued": "glued"}.get,
           disabled=not st.session_state[SETTING_WIDGETS["end_of_word"]].strip())
    marker[2].checkbox("Show spaces as Ġ", key=SETTING_WIDGETS["space_marker"], help=HELP["space_marker"],
                       disabled=units != "chars")

    extras = st.columns(3)
    extras[0].text_input("Special tokens", key=SETTING_WIDGETS["special_tokens"], help=HELP["special_tokens"],
                         placeholder="e.g. <|endoftext|>")
    choice(extras[1], "Unknown characters", "unknown", tv.UNKNOWN_MODES,
           format_func={"unk": "<unk>", "byte_fallback": "byte fallback"}.get, disabled=units != "chars")
    number(extras[2], "Top-K pairs in the trace", "top_k", 0)


def save_form(source: str, settings: tv.TrainSettings) -> None:
    st.session_state[FORM_KEY] = {"source": source, "paste": st.session_state[PASTE_WIDGET], "settings": settings}


# -- training ------------------------------------------------------------------------


def train_and_keep(source: str, settings: tv.TrainSettings, config: Config, corpus: str) -> None:
    """Train (or fetch the same run from the store) and make it the session's model."""
    key = tv.training_key(tv.text_digest(corpus), settings)

    def train_with_progress() -> Tokenizer:
        bar = st.progress(0.0, text="Training...")

        def report(done: int, total: int) -> None:
            bar.progress(min(done / max(total, 1), 1.0), text=f"Training: {done:,} of {total:,} merges")

        try:
            return train(corpus, config, **settings.train_kwargs(), progress=report)
        finally:
            bar.empty()

    try:
        model = model_store().get_or_make(key, train_with_progress)
    except ValueError as error:
        st.error(f"Training failed: {error}. The current model is kept.")
        return
    link = tv.to_query_params(source, settings, corpus if source == tv.PASTE else "")
    state.set_model(model, corpus=corpus, settings={"preset": source, **settings.as_dict(), "link": link})


def sync_link() -> None:
    """Keep the address bar describing the current model, so it can be shared (empty when it can't)."""
    link = st.session_state.get(state.SETTINGS_KEY, {}).get("link", {})
    if st.query_params.to_dict() != link:
        st.query_params.from_dict(link)


# -- the result ----------------------------------------------------------------------


def render_result(model: Tokenizer, corpus: str, about: dict) -> None:
    st.subheader("3 · Result")
    origin = model_io.model_origin(model, about) or f"Trained on: {tv.source_label(about.get('preset', ''))}"
    description = f"{origin}\n{tv.describe_config(model.config)}"
    st.markdown(tv.markdown_escape(description).replace("\n", "  \n"))  # two lines
    if model.stop_message:
        message = tv.markdown_escape(model.stop_message[0].upper() + model.stop_message[1:] + ".")
        if tv.stopped_short(model):
            st.warning(message, icon=":material/warning:")
        else:
            st.success(message, icon=":material/check_circle:")
    for warning in model.warnings:  # e.g. the end-of-word marker also occurs in the corpus
        st.warning(tv.markdown_escape(warning[0].upper() + warning[1:] + "."), icon=":material/warning:")

    metrics = st.columns(4)
    metrics[0].metric("Vocabulary size", f"{model.vocab_size:,}")
    metrics[1].metric("Merges made", f"{len(model.merges):,}")
    if corpus:
        ratio = cached_compression(tv.model_fingerprint(model), tv.text_digest(corpus), model, corpus)
        metrics[2].metric("Tokens per word", f"{ratio['tokens_per_word']:.2f}",
                          help=f"{ratio['tokens']:,} tokens for the corpus's words (fewer = better compression)")
        metrics[3].metric("Characters per token", f"{ratio['chars_per_token']:.2f}",
                          help="Corpus characters divided by tokens (more = better compression)")
    else:
        metrics[2].metric("Tokens per word", "—", help="No corpus to measure on: this model was loaded.")
        metrics[3].metric("Characters per token", "—", help="No corpus to measure on: this model was loaded.")

    if not model.merges:
        st.info("No merges were made: every token is a base symbol.")
        return
    first, last = tv.first_and_last_merges(model)
    ends = st.columns(2)
    ends[0].markdown("**First merges**  \n" + tv.chips_html(first), unsafe_allow_html=True)
    if last:
        start = len(model.merges) - len(last) + 1
        ends[1].markdown(f"**Last merges** (from step {start:,})  \n" + tv.chips_html(last), unsafe_allow_html=True)

    st.markdown("**All merges**")
    st.dataframe(
        tv.merge_table(model), hide_index=True, height=min(38 + 35 * len(model.merges), 400), width="stretch",
        column_config={
            "step": st.column_config.NumberColumn("step", width="small"),
            "count": st.column_config.NumberColumn("count", help="How often the pair occurred when it was merged"),
            "tie": st.column_config.TextColumn("tie", help="How many pairs shared the winning count"),
        },
    )
    if not model.has_counts:
        st.caption("This model has no training counts (its merges were published without them).")
    longest = [readable_symbol(token) for token in tv.longest_tokens(model)]
    st.markdown("**Longest tokens**  \n" + tv.chips_html(longest), unsafe_allow_html=True)
    st.caption("␣ is a space; \\n and \\t are a newline and a tab.")


def render_files(model: Tokenizer) -> None:
    st.subheader("Save or load a tokenizer")
    model_io.download_buttons(model, "train")
    load, gpt2 = st.columns([2, 1], border=True)
    with load:
        st.markdown("**Load a tokenizer**")
        model_io.upload_tokenizer("train")
    with gpt2:
        st.markdown("**Or explore a real one**")
        st.caption("GPT-2's published merges: see how a production tokenizer cuts text.")
        model_io.use_gpt2_button("train")


# -- the page --------------------------------------------------------------------------

st.title("Train")
st.caption("Pick a corpus and settings, press Train, and see which pairs BPE merged, in order.")
init_form()
adopt_loaded_model()
for warning in st.session_state.pop(LINK_WARNINGS_KEY, []):
    st.warning(tv.markdown_escape(f"Ignored link parameter {warning}; the default is used instead."))

corpus_column, settings_column = st.columns([2, 3], gap="large")
with settings_column:
    render_settings()
settings = widget_settings()
with corpus_column:
    source, corpus = render_corpus(settings)
save_form(source, settings)

try:
    config = settings.to_config()
except ValueError as error:
    config = None
    st.error(f"These settings don't work together: {error}. Nothing can be trained until they do; "
             "the current model is kept.")
train_clicked = st.button("Train", type="primary", icon=":material/play_arrow:", disabled=config is None or not corpus)
if not corpus:
    st.caption("Choose or enter a corpus to train on.")
if (train_clicked or st.session_state.pop(AUTO_TRAIN_KEY, False)) and corpus and config is not None:
    train_and_keep(source, settings, config, corpus)

st.divider()
render_result(state.current_model(), state.current_corpus(), st.session_state.get(state.SETTINGS_KEY, {}))
render_files(state.current_model())
sync_link()
