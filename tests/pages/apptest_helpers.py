"""Helpers shared by the AppTest page tests (Train, Compare, Encode, model files, bad input)."""

from __future__ import annotations

import html
import re

from browser_helpers import REPO_ROOT
from streamlit.testing.v1 import AppTest

from session import state
from session.model_store import TrainedHandle
from session.share_link import LINK_LANGUAGE
from session.upload_store import UploadHandle

APP_FILE = str(REPO_ROOT / "app.py")


def ok(at: AppTest) -> AppTest:
    """``at`` after checking its run raised nothing."""
    assert not at.exception, [e.message for e in at.exception]
    return at


def session_model(at: AppTest):
    """The session's model: the model store's or the upload store's (the session holds only its handle), or the
    model a test gave it."""
    held = at.session_state[state.MODEL_KEY]
    if isinstance(held, UploadHandle):
        return state.upload_store().model(held)
    return state.model_store().get(held.key) if isinstance(held, TrainedHandle) else held


def open_model_io(at: AppTest, page: str) -> AppTest:
    """``at`` with ``page``'s folded section of tokenizer files opened (its widgets are drawn only when open)."""
    at.session_state[state.model_io_section_key(page)] = True
    return ok(at.run())


def train_metric(at: AppTest, label: str) -> str:
    """The value under ``label`` in the Train page's result block (pages.train.views.summary.result_html)."""
    block = next(element.value for element in at.get("html") if 'class="bpe-result"' in element.value)
    return re.search(f'<div class="label">{re.escape(label)}</div><div class="value">([^<]*)</div>', block)[1]


def shown(elements) -> str:
    """The texts of some elements (``at.error``, ``at.markdown``, ...) as the reader sees them: one string,
    with the backslashes that escape them from Markdown removed (drawing.escape.markdown puts them in)."""
    return re.sub(r"\\(.)", r"\1", " | ".join(element.value for element in elements), flags=re.DOTALL)


def shown_ids(at: AppTest) -> list[int]:
    """The token ids Encode shows: its first code block that is not the Copy link's address."""
    ids_block = next(code.value for code in at.code if code.proto.language != LINK_LANGUAGE)
    return [int(part) for part in ids_block.split(", ")] if ids_block else []


def table_columns(at: AppTest, name: str) -> dict[str, list[str]]:
    """The page's HTML table of class ``name`` (``drawing.card_table``), by column, as the reader sees its cells."""
    table = next(element.value for element in at.get("html") if f'class="bpe-table {name}' in element.value)
    rows = [
        [html.unescape(cell) for cell in re.findall(r"<t[hd][^>]*>([^<]*)</t[hd]>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", table)
    ]
    return {column: [row[index] for row in rows[1:]] for index, column in enumerate(rows[0])}


def has_table(at: AppTest, name: str) -> bool:
    """Whether the page draws the HTML table of class ``name``."""
    return any(f'class="bpe-table {name}' in element.value for element in at.get("html"))
