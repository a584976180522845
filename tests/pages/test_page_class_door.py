"""The teacher holds the Class page's door (AppTest): locks the class and opens it again, removes a student (their
votes leave the tally and the scoreboard, their phone asks them to join again); every join refused (the class locked,
one address's joins spent, the class full) is said in words on the join form."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest
from support.class_page import HOSTILE_NAME, class_code, class_page, join, lettered_choice
from support.pages import everything_shown, html_of, labels, ok, plain, press, shown_html

from live_class import room, rules
from live_class.choose import open_store
from pages.classroom import state as classroom_state
from pages.classroom.door import LOCK_LABEL, OPEN_LABEL
from session import state

LOCKED_WORDS = "This class is closed to new students: ask your teacher to open it."


def refused_join(code: str, name: str) -> AppTest:
    """A new phone types ``name`` on the join form of class ``code`` and is refused: it is no student."""
    student = class_page(join=code)
    student.text_input(key=classroom_state.NAME_KEY).input(name)
    student = press(student, "Join")
    assert classroom_state.STUDYING_KEY not in student.session_state
    return student


def warnings(at: AppTest) -> list[str]:
    return [plain(warning.value) for warning in at.warning]


def expanders(at: AppTest) -> list[str]:
    return [expander.label for expander in at.expander]


def vote_right(student: AppTest, code: str) -> str:
    """The student taps question 1's answer; the answer."""
    question = open_store().question(code, 1)
    student = ok(student.run())
    press(student, lettered_choice(student, question.choices, question.answer))
    return question.answer


def test_a_locked_class_refuses_a_new_phone_in_words_until_the_teacher_opens_it(teacher):
    code = class_code(teacher)
    ada, ada_id = join(code, "Ada")
    assert LOCK_LABEL not in labels(ok(ada.run()))  # the door is the teacher's alone
    teacher = press(teacher, LOCK_LABEL)
    assert open_store().class_record(code).locked
    assert OPEN_LABEL in labels(teacher) and LOCK_LABEL not in labels(teacher)
    assert ">Locked</strong>" in html_of(teacher) and "QR code to join" not in expanders(teacher)
    assert warnings(refused_join(code, "Bo")) == [LOCKED_WORDS]
    assert list(open_store().students(code).values()) == ["Ada"]
    answer = vote_right(ada, code)  # those in the class carry on
    assert open_store().votes(code, 1) == {ada_id: answer}

    teacher = press(teacher, OPEN_LABEL)
    assert not open_store().class_record(code).locked and LOCK_LABEL in labels(teacher)
    assert ">Locked</strong>" not in html_of(teacher) and "QR code to join" in expanders(teacher)
    join(code, "Bo")


def test_a_student_removed_leaves_the_tally_and_the_scoreboard_and_may_join_again(teacher):
    """Ada and Bo both tap the answer (2 votes); Bo removed, the tally counts 1 vote from 1 student and after the
    reveal the scoreboard holds Ada's point only. Bo's phone asks him to join again; he does, under his name."""
    code = class_code(teacher)
    (ada, ada_id), (bo, bo_id) = join(code, "Ada"), join(code, HOSTILE_NAME)
    answer = vote_right(ada, code)
    vote_right(bo, code)
    teacher = ok(teacher.run())
    assert "2 votes from 2 students" in everything_shown(teacher)
    removes = [button.label for button in teacher.button if button.label.startswith("Remove")]
    assert [plain(label) for label in removes] == ["Remove Ada", f"Remove {HOSTILE_NAME}"]

    teacher = press(teacher, removes[1])
    assert open_store().students(code) == {ada_id: "Ada"} and open_store().votes(code, 1) == {ada_id: answer}
    said = f"{HOSTILE_NAME} is out of the class: their votes no longer count, and their phone asks them to join again."
    assert said in plain(everything_shown(teacher)) and "1 vote from 1 student" in everything_shown(teacher)
    assert HOSTILE_NAME not in shown_html(teacher)  # the projector's names
    assert [plain(label) for label in labels(teacher) if label.startswith("Remove")] == ["Remove Ada"]
    teacher = press(teacher, "Reveal")
    assert room.results(open_store(), code) == [("Ada", 1)]

    bo = ok(bo.run())
    assert "This class does not know you: join it again." in warnings(bo)
    bo = press(bo, "Join again")
    assert classroom_state.STUDYING_KEY not in bo.session_state and bo.subheader[0].value == f"Join class {code}"
    bo.text_input(key=classroom_state.NAME_KEY).input(HOSTILE_NAME)  # his name is free again
    bo = press(bo, "Join")
    _, bo_again = bo.session_state[classroom_state.STUDYING_KEY]
    assert bo_again != bo_id and open_store().students(code)[bo_again] == HOSTILE_NAME


@pytest.fixture
def one_address(monkeypatch):
    """Every session comes from 203.0.113.9 (a documentation address)."""
    monkeypatch.setattr(state, "visitor_address", lambda: "203.0.113.9")


def test_joins_past_one_address_s_bound_are_refused_in_words(teacher, one_address, monkeypatch):
    """BPE_JOINS_PER_ADDRESS=2: Ada and Bo join from one address, Cy is refused. The bound counts joins, not seats:
    Bo removed, his address has still joined twice."""
    monkeypatch.setenv(rules.JOINS_PER_ADDRESS_ENV, "2")
    code = class_code(teacher)
    join(code, "Ada")
    _, bo = join(code, "Bo")
    spent = (
        "2 students have already joined this class from your network's address, the most one address may. "
        "If your whole room shares one address, the server's BPE_JOINS_PER_ADDRESS raises it."
    )
    assert warnings(refused_join(code, "Cy")) == [spent]
    room.TeacherRoom(open_store(), *teacher.session_state[classroom_state.TEACHING_KEY]).remove(bo)
    assert warnings(refused_join(code, "Bo")) == [spent]


def test_a_full_class_refuses_the_next_phone_in_words(teacher, monkeypatch):
    monkeypatch.setattr(rules, "MOST_STUDENTS", 2)
    code = class_code(teacher)
    join(code, "Ada")
    join(code, "Bo")
    assert warnings(refused_join(code, "Cy")) == ["This class is full: 2 students have joined."]
