"""Train: pick a corpus and settings, train a BPE tokenizer, and see what it learned. The form is
``sections/train_form.py``'s; ``train_state.init_train_form`` fills it once a session."""

from __future__ import annotations

import streamlit as st

from bpe_core import Config, Tokenizer
from drawing import escape
from drawing.describe import config_terms, describe_config, text_digest
from drawing.notation import written_glyph_legend
from pages.train import form_section as train_form
from pages.train import state as train_state
from pages.train import training
from pages.train.views import form, summary
from session import model_io, result_scroll, share_link, state
from session.model_about import ModelAbout
from session.page_registry import TRAIN
from session.training_settings import TrainSettings, settings_like

NO_CORPUS = "Choose or enter a corpus to train on."
STOP_ALERTS = {  # how the result says why training stopped (summary.stop_kind): an early stop of the corpus is news
    "done": (st.success, ":material/check_circle:"),
    "normal": (st.info, ":material/info:"),
    "warning": (st.warning, ":material/warning:"),
}


def render_result(model: Tokenizer, corpus: str, about: ModelAbout) -> None:
    st.subheader("3 · Result")
    origin = model_io.model_origin(model, about) or f"Trained on: {form.source_label(about.corpus_source)}"
    st.markdown(  # plain words; the settings' own names in the tooltip
        escape.markdown(origin) + "  \n" + escape.markdown(describe_config(model.config)),
        help="In the settings' own names: " + escape.markdown(config_terms(model.config)),
    )
    if model.stop_message:
        alert, icon = STOP_ALERTS[summary.stop_kind(model)]
        alert(escape.markdown(summary.as_sentence(model.stop_message)), icon=icon)
    for warning in model.warnings:  # e.g. the end-of-word marker also occurs in the corpus
        st.warning(escape.markdown(summary.as_sentence(warning)), icon=":material/warning:")
    ratio = train_state.cached_compression(model, text_digest(corpus), corpus) if corpus else None
    st.html(summary.result_html(model, ratio))  # one element: a dozen widgets and columns took longer to draw
    if not model.merges:
        st.info("No merges were made: every token is a base symbol.")
        return
    state.keep_choices((train_state.TABLE_CHOICE,))  # here too: a click in this fragment reruns only the fragment
    with st.expander("All merges, as a table", key=train_state.TABLE_WIDGET, on_change="rerun") as table:
        if table.open:  # drawn only when opened: the table is the slowest element of the page to draw
            columns = summary.merge_table(model)
            st.dataframe(
                columns,
                hide_index=True,
                height=min(38 + 35 * len(model.merges), 400),
                width="stretch",
                column_config={
                    "step": st.column_config.NumberColumn("step", width="small"),
                    "count": st.column_config.NumberColumn("count", help="How often the pair occurred when merged"),
                    "tie": st.column_config.TextColumn("tie", help="How many pairs shared the winning count"),
                },
            )
            cells = columns["pair"] + columns["new token"]
            if legend := written_glyph_legend(cells, model.config):  # the cells as written
                st.caption(escape.markdown(legend))
    if not model.has_counts:
        st.caption("This model has no training counts (its merges were published without them).")


@st.fragment
def train_button_and_result(
    source: str, settings: TrainSettings, config: Config | None, corpus: str, training_text: str | list[str]
) -> None:
    """The Train button and the result. A press reruns only this part (redrawing the unchanged form took longer than
    the press); a new model reruns the page, whose sidebar names it. The button is enabled with an empty text box:
    a click right after typing trains, as the box's blur runs the whole page (with the text) before this part.
    After a press the button and the result are scrolled into view: the form above fills a laptop's or a phone's
    screen."""
    with st.container(key=train_state.RESULT_WIDGET):
        train_clicked = st.button("Train", type="primary", icon=":material/play_arrow:", disabled=config is None)
        if not corpus and train_clicked:  # scrolled to as a result is: under the form, it was below the fold
            st.warning(f"{NO_CORPUS} Nothing was trained: the result below is still the current model's.")
            result_scroll.ask_to_scroll(train_state.RESULT_WIDGET)
        elif not corpus:
            st.caption(NO_CORPUS)
        if train_clicked and corpus and config is not None:
            result_scroll.ask_to_scroll(train_state.RESULT_WIDGET)
            train_state.forget_size_note()  # it told of the form before this model
            if training.train_and_keep(source, settings, config, corpus, training_text):
                st.rerun()
        st.divider()
        render_result(state.current_model(), state.current_corpus(), state.model_about())
    result_scroll.scroll_if_asked(train_state.RESULT_WIDGET)


state.keep_choices(train_state.CHOICES)  # before they are drawn: the folded sections as on the last visit
st.title(TRAIN.title)
link_slot = st.container()  # Copy link, filled once the model is known
st.caption("Pick a corpus and settings, press Train, and see which pairs BPE merged, in order.")
chosen_source = train_state.init_train_form(st.query_params.to_dict())
loaded = train_state.model_to_adopt()
if loaded is not None:
    train_state.set_train_widgets(settings_like(loaded.config, len(loaded.merges), train_state.train_widget_settings()))
share_link.warn_ignored(train_state.take_link_warnings())  # the one shape every page's address warns in

corpus_column, settings_column = st.columns([2, 3], gap="large")
with settings_column:
    train_form.render_settings(train_state.train_widget_settings(), chosen_source)
settings = train_state.train_widget_settings()
with corpus_column:
    source, corpus, training_text = train_form.render_corpus(settings)

config: Config | None  # None: the settings don't work together
try:
    config = settings.to_config()
except ValueError as error:
    config = None
    st.error(
        escape.markdown(
            f"These settings don't work together: {error}. Nothing can be trained until they do; "
            "the current model is kept."
        )
    )

if train_state.take_train_from_link() and corpus and config is not None:  # a shared link trains as the page opens
    training.train_and_keep(source, settings, config, corpus, training_text)
train_button_and_result(source, settings, config, corpus, training_text)
model_io.save_and_load_section(state.current_model(), "train")
with link_slot:  # the address bar describes the current model, so it can be shared
    share_link.show_address()
