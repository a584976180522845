"""What the Class page's tests (AppTest) share: the Class page opened, a class's code, a student who joins and the
buttons they tap."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from pages.classroom import state as classroom_state
from session.page_registry import CLASS
from support.pages import ok, plain, press
from support.paths import REPO_ROOT

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
