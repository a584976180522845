"""The steps on Train (AppTest) that more than one page test takes: Train opened, a corpus chosen, the folded
settings opened, Train pressed, the merges read from its table."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from pages.train import state as train_state
from session.page_registry import TRAIN
from support.pages import ok, press, through_app


def open_train(query: dict | None = None) -> AppTest:
    """A new session opening Train (AppTest runs the root's page, Start, first: app.py gives the session its model
    there, from the address as on any page)."""
    return through_app(TRAIN.path, **(query or {}))


def press_train(at: AppTest) -> AppTest:
    return press(at, "Train")


def choose_source(at: AppTest, source: str) -> AppTest:
    """Train with ``source`` chosen in its Corpus box (a preset's name, "paste", "upload" ...)."""
    return ok(at.selectbox(key="train_source").set_value(source).run())


def merge_pairs(at: AppTest) -> list[str]:
    """The pairs in the table of all merges, opened first (it is drawn only when open)."""
    if not at.dataframe:
        at.session_state[train_state.TABLE_WIDGET] = True
        ok(at.run())
    return list(at.dataframe[0].value["pair"])


def open_more_settings(at: AppTest) -> AppTest:
    """The folded settings (tie-break, spaces as Ġ, min frequency, special tokens, unknown characters, top-K), drawn
    only when open."""
    at.session_state[train_state.MORE_WIDGET] = True
    return ok(at.run())
