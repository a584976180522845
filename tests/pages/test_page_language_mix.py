"""Train on a mix of the bundled languages (issue 51): the Train corpus choices made of the preambles, and the Merges
step view saying which languages a merged pair came from, against the textbook's own counts."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest
from support.pages import ok, shown
from support.paths import APP_FILE

from bpe_core import textbook
from bpe_core.languages import bundled_texts
from pages.merges import state as merges_state
from pages.train import state as train_state
from session import state
from session.page_registry import MERGES, TRAIN
from session.textbook_corpora import CORPUS_PRESETS


def trained_on(source: str) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    ok(ok(at.run()).switch_page(TRAIN.path).run())  # the root is Start
    ok(at.selectbox(key=train_state.SOURCE_WIDGET).set_value(source).run())
    return ok(next(button for button in at.button if button.label == "Train").click().run())


def pair_counts_by_language(source: str, pair: tuple[str, str], config) -> dict[str, int]:
    """How often ``pair`` stands in each language's text of the mix, before any merge: the textbook's pair counts
    of each text's words, times its copies."""
    copies = CORPUS_PRESETS[source].mix.copies()
    counts = {}
    for code, text in bundled_texts().items():
        count = textbook.get_stats(textbook.words_of(text, config))[pair] * copies[code]
        if count:
            counts[code] = count
    return counts


@pytest.mark.parametrize("source", ["english90", "languages"])
def test_a_mix_of_languages_trains_as_the_textbook_does_and_names_its_source(source):
    at = trained_on(source)
    corpus = at.session_state[state.CORPUS_KEY]
    model = state.model_store().get(at.session_state[state.MODEL_KEY].key)
    assert model.merges[:3] == textbook.train_merges(corpus, model.config, merges=3)
    assert corpus.startswith(bundled_texts()["eng"].strip() + "\n" + bundled_texts()["spa"].strip())  # dealt in turn
    assert "Universal Declaration of Human Rights" in shown(at.caption)
    assert at.query_params["preset"] == source


def test_the_step_view_says_which_languages_the_pair_came_from():
    at = trained_on("english90")
    model = state.model_store().get(at.session_state[state.MODEL_KEY].key)
    at.switch_page(MERGES.path)
    at.session_state[merges_state.STEP_KEY] = 1
    ok(at.run())
    counts = pair_counts_by_language("english90", model.merges[0], model.config)
    total = sum(counts.values())
    assert total == model.steps[0].count  # the languages' counts add up to the step's
    ranked = sorted(counts, key=lambda code: (-counts[code], code))
    assert ranked[0] == "eng"
    english = round(100 * counts["eng"] / total)
    sentence = f"Before this merge the pair stood {total:,} times in the mix of languages: {english}% in English, "
    assert sentence in shown(at.caption)


def test_the_step_view_of_another_corpus_says_nothing_of_languages():
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    ok(at.run())
    at.switch_page(MERGES.path)
    ok(at.run())
    assert "mix of languages" not in shown(at.caption)


def test_the_pair_race_says_which_languages_its_first_winner_came_from():
    at = trained_on("english90")
    model = state.model_store().get(at.session_state[state.MODEL_KEY].key)
    at.switch_page(MERGES.path)
    at.session_state[merges_state.TAB_KEY] = merges_state.TAB_LABELS["race"]
    at.session_state[merges_state.WINDOW_START_KEY] = 1
    ok(at.run())
    assert any(subheader.value == "Pair-frequency race" for subheader in at.subheader)
    counts = pair_counts_by_language("english90", model.merges[0], model.config)
    total = sum(counts.values())
    english = round(100 * counts["eng"] / total)
    left, right = (part.replace("Ġ", "␣") for part in model.merges[0])  # a byte-level space written as the boxes do
    sentence = (
        f"Step 1's winner, {left} + {right}. Before this merge the pair stood {total:,} times in the mix of "
        f"languages: {english}% in English, "
    )
    assert sentence in shown(at.caption).replace("\\", "")
