"""What the Class page's tests (AppTest) share: the Class page opened, a class's code, a student who joins and the
buttons they tap, and what the page shows, read as plain text."""

from __future__ import annotations

import html
import re

from streamlit.testing.v1 import AppTest
from support.pages import ok, press
from support.paths import REPO_ROOT

from pages.classroom import state as classroom_state
from session.page_registry import CLASS

HOSTILE_NAME = "<b>Bo</b> **x**"  # a name that tries HTML and Markdown


def class_page(**params: str) -> AppTest:
    """A new session opening the Class page itself (not through app.py) at an address with ``params``."""
    at = AppTest.from_file(str(REPO_ROOT / CLASS.path), default_timeout=60)
    for name, value in params.items():
        at.query_params[name] = value
    return ok(at.run())


def class_code(teacher: AppTest) -> str:
    """The code of the class ``teacher`` started."""
    code, _ = teacher.session_state[classroom_state.TEACHING_KEY]
    return code


def join(code: str, name: str) -> tuple[AppTest, str]:
    """A new phone joins class ``code`` as ``name``: its session and its student id."""
    student = class_page(join=code)
    assert student.subheader[0].value == f"Join class {code}"
    student.text_input(key=classroom_state.NAME_KEY).input(name)
    student = press(student, "Join")
    code_joined, student_id = student.session_state[classroom_state.STUDYING_KEY]
    assert code_joined == code and "student" not in student.query_params  # the address names no one
    return student, student_id


def lettered_choice(student: AppTest, choices: tuple[str, ...], choice: str) -> str:
    """The label of ``choice``'s button: the letter the text in view marks the pair with (A, B, ... in the choices'
    order), then the pair."""
    letter = "ABCD"[choices.index(choice)]
    return next(button.label for button in student.button if plain(button.label) == f"{letter} · {choice}")


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
