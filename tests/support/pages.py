"""Helpers shared by the AppTest page tests: a session opened through app.py or at an address, a button pressed,
Encode's Conversation mode opened, and what a page shows (its model, texts, ids, tables, metrics, buttons)."""

from __future__ import annotations

import html
import re

from streamlit.testing.v1 import AppTest

from pages.encode import state as encode_state
from session import state
from session.model_store import TrainedHandle
from session.page_registry import ENCODE
from session.share_link import LINK_LANGUAGE
from session.upload_store import UploadHandle
from support.paths import APP_FILE


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


def through_app(page_path: str, **params: str) -> AppTest:
    """A session that starts as every session does, in app.py (which gives it its model), then opens a page."""
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params.update(params)
    return ok(ok(at.run()).switch_page(page_path).run())


def open_address(page: str, params: dict[str, str]) -> AppTest:
    """A new session opening ``page`` at an address with ``params``, as a reload or a shared link does. (AppTest
    runs the default page first: app.py's first run takes the model from the address there, as it would on any
    page; then the page itself reads the address.)"""
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    at.query_params.update(params)
    ok(at.run())
    at.query_params.clear()
    at.query_params.update(params)
    at.switch_page(page)
    return ok(at.run())


def press(at: AppTest, label: str) -> AppTest:
    """``at`` after a click on its button labelled ``label`` and the run it starts."""
    next(button for button in at.button if button.label == label).click()
    return ok(at.run())


def open_conversation(model: str = "qwen3") -> AppTest:
    """A new session on Encode in Conversation mode with ``model``'s chat format."""
    at = AppTest.from_file(APP_FILE, default_timeout=120)
    ok(at.run())
    ok(at.switch_page(ENCODE.path).run())
    at.toggle(key=encode_state.MODE_KEY).set_value(True)
    ok(at.run())
    at.selectbox(key=encode_state.CHAT_MODEL_KEY).set_value(model)
    return ok(at.run())


def metrics(at: AppTest) -> dict[str, str]:
    """The page's metrics, each label with its value."""
    return {metric.label: metric.value for metric in at.metric}


def labels(at: AppTest) -> set[str]:
    """The labels of the page's buttons."""
    return {button.label for button in at.button}


def everything_shown(at: AppTest) -> str:
    """The values of the page's texts of every kind, one a line (Markdown and HTML as written)."""
    kinds = ("markdown", "caption", "html", "subheader", "code", "warning", "info", "error")
    return "\n".join(str(element.value) for kind in kinds for element in at.get(kind))


def plain(markdown_text: str) -> str:
    """Escaped Markdown as it reads on screen (for text with no backslash of its own)."""
    return markdown_text.replace("\\", "")


def shown_html(at: AppTest) -> str:
    """The text of the page's HTML blocks, without their tags and style sheets, entities read."""
    bodies = " ".join(str(element.value) for element in at.get("html"))
    return html.unescape(" ".join(re.sub(r"<style>.*?</style>|<[^>]*>", " ", bodies, flags=re.DOTALL).split()))


def html_of(at: AppTest) -> str:
    """The page's HTML blocks as written, tags and all."""
    return " ".join(str(element.value) for element in at.get("html"))
