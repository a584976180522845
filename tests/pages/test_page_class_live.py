"""A live class on the Class page (AppTest): a teacher's session and students' sessions share the class store.
The teacher's key stays in the teacher's session; a student's address never gives controls."""

from __future__ import annotations

import hashlib
import time

import pytest
from streamlit.testing.v1 import AppTest
from support.class_page import HOSTILE_NAME, class_code, class_page, join, lettered_choice
from support.pages import everything_shown, html_of, labels, ok, plain, press, session_model, shown_html, through_app

from bench.servers import free_port
from bpe_core import Config, load_gpt2, train
from bpe_core.languages import bundled_texts
from live_class import room
from live_class.choose import STORE_ENV, open_store
from live_class.records import Question
from live_class.rules import CLASS_TRAINING_LIMIT, read_code
from pages.classroom import state as classroom_state
from pages.classroom.views.address import CLASS_URL_ENV
from session import state
from session.model_about import ModelAbout
from session.page_registry import CLASS, TRAIN
from session.textbook_corpora import CORPUS_PRESETS

TEACHER_BUTTONS = {"Reveal", "Next step", "Ask again", "Yes, end the class", "Start a class", "Ask this sentence"}


def test_starting_a_class_keeps_the_key_in_the_teachers_session_only(teacher):
    code, key = teacher.session_state[classroom_state.TEACHING_KEY]
    assert read_code(code) == code and f"Class {code}" in everything_shown(teacher)
    record = open_store().class_record(code)
    assert record.teacher_hash == hashlib.sha256(key.encode()).hexdigest()
    assert (record.step, record.question) == (1, 1)  # step 1 shown, its pair asked
    assert key not in everything_shown(teacher) and key not in str(dict(teacher.query_params))
    assert f"/Class?join={code}" in everything_shown(teacher)  # the join address, beside its QR code


def test_a_student_joins_votes_changes_and_is_refused_after_the_reveal(teacher):
    code = class_code(teacher)
    student, student_id = join(code, HOSTILE_NAME)
    store = open_store()
    assert store.students(code)[student_id] == HOSTILE_NAME
    assert "Step 1" in everything_shown(student) and f"You are {HOSTILE_NAME}." in plain(everything_shown(student))
    question = store.question(code, 1)
    first = next(choice for choice in question.choices if choice != question.answer)
    second = question.answer
    student = press(student, lettered_choice(student, question.choices, first))
    student = press(student, lettered_choice(student, question.choices, second))
    assert store.votes(code, 1) == {student_id: second}  # the second tap changed the vote
    assert "1 vote from 1 student" in everything_shown(ok(teacher.run()))
    teacher = press(teacher, "Reveal")
    student = ok(student.run())
    assert all(button.disabled for button in student.button)
    assert f"The pair merged: {question.answer}." in plain(everything_shown(student))
    assert "You got it!" in plain(everything_shown(student))  # the second tap is the vote that counts
    assert "Your points so far: 1" in plain(everything_shown(student))
    assert store.votes(code, 1) == {student_id: second}


def test_the_projector_shows_how_many_voted_and_the_tally_only_after_the_reveal(teacher):
    """Ada and Bo vote: before the reveal the projector says "2 of 2 voted" and lists the four choices, with no
    bars a student still to vote could follow; the Reveal brings the tally."""
    code = class_code(teacher)
    (ada, _), (bo, _) = join(code, "Ada"), join(code, "Bo")
    question = open_store().question(code, 1)
    press(ada, lettered_choice(ada, question.choices, question.answer))
    press(bo, lettered_choice(bo, question.choices, question.answer))
    teacher = ok(teacher.run())
    assert not teacher.get("plotly_chart")
    labels_listed = " ".join(f"{'ABCD'[index]} · {choice}" for index, choice in enumerate(question.choices))
    assert f"2 of 2 voted {labels_listed} The votes for each choice show at Reveal." in shown_html(teacher)
    teacher = press(teacher, "Reveal")
    assert len(teacher.get("plotly_chart")) == 1 and "2 of 2 voted" not in shown_html(teacher)


def test_end_class_asks_first_and_leaves_the_teacher_the_final_scoreboard(teacher):
    """Ada picks the answer, Bo another pair; after the reveal Ada has 1 point, Bo 0. End class ends the class only
    from its confirming button; the teacher's page then shows the scoreboard, as a table and as text to copy."""
    code = class_code(teacher)
    (ada, _), (bo, _) = join(code, "Ada"), join(code, HOSTILE_NAME)
    question = open_store().question(code, 1)
    wrong = next(choice for choice in question.choices if choice != question.answer)
    press(ada, lettered_choice(ada, question.choices, question.answer))
    press(bo, lettered_choice(bo, question.choices, wrong))
    teacher = press(teacher, "Reveal")
    assert "End class" not in labels(teacher)  # a popover that asks first, not a button that ends
    assert "End the class for everyone?" in everything_shown(teacher)
    assert not open_store().class_record(code).ended
    teacher = press(teacher, "Yes, end the class")
    assert open_store().class_record(code).ended and classroom_state.TEACHING_KEY not in teacher.session_state
    assert f"Class {code} is over: its final scoreboard" in everything_shown(teacher)
    table = html_of(teacher)
    assert '<tr><td>Ada</td><td class="bpe-points">1</td></tr>' in table
    assert '<tr><td>&lt;b&gt;Bo&lt;/b&gt; **x**</td><td class="bpe-points">0</td></tr>' in table
    assert teacher.code[0].value == f"Name\tPoints\nAda\t1\n{HOSTILE_NAME}\t0"  # copied as typed, not as HTML
    for phone, line in ((ada, "Your points: 1, place 1 of 2."), (bo, "Your points: 0, place 2 of 2.")):
        phone = ok(phone.run())  # each phone keeps its own line of the final scoreboard, and the scoreboard
        assert f"Class {code} is over." in plain(everything_shown(phone)) and line in plain(everything_shown(phone))
        assert '<tr><td>Ada</td><td class="bpe-points">1</td></tr>' in html_of(phone)
    assert "Start a class" in labels(teacher)
    teacher = press(teacher, "Start a class")  # the next class: the last one's scoreboard makes way
    assert "its final scoreboard" not in everything_shown(teacher)


def test_a_class_ended_elsewhere_leaves_this_teacher_its_scoreboard_too():
    """The teacher's other tab ends the class: this one, at its next run, shows the final scoreboard (nobody has a
    point: no question was revealed)."""
    teacher = press(through_app(CLASS.path), "Start a class")
    code, key = teacher.session_state[classroom_state.TEACHING_KEY]
    join(code, "Ada")
    room.end_class(open_store(), code, key, time.time())
    teacher = ok(teacher.run())
    assert f"Class {code} is over: its final scoreboard" in everything_shown(teacher)
    assert teacher.code[0].value == "Name\tPoints\nAda\t0"


def test_under_make_class_the_teacher_projects_the_rooms_address_and_its_qr_code(monkeypatch):
    monkeypatch.setenv(CLASS_URL_ENV, "http://10.9.8.7:8080/")
    teacher = press(through_app(CLASS.path), "Start a class")
    code, key = teacher.session_state[classroom_state.TEACHING_KEY]
    try:
        shown = everything_shown(teacher)
        assert f'alt="QR code of http://10.9.8.7:8080/Class?join={code}"' in shown
        assert "Phones cannot reach" not in shown and "this machine only" not in shown
    finally:
        room.end_class(open_store(), code, key, time.time())


def test_next_step_moves_every_student_on(teacher):
    code = class_code(teacher)
    student, _ = join(code, "Ada")
    teacher = press(teacher, "Next step")
    assert open_store().class_record(code).step == 2
    student = ok(student.run())
    assert "Step 2" in everything_shown(student)
    # The teacher's model is the default one (no parameter of its own): the step view of step 2 of it.
    assert [link.proto.url for link in student.get("link_button")] == ["Merges?tab=steps&step=2"]


def give_model(at: AppTest, model, corpus: str, about: ModelAbout) -> AppTest:
    """``at``'s session with another model, as Train or a loaded file leaves it, drawn again."""
    at.session_state[state.MODEL_KEY] = model
    at.session_state[state.CORPUS_KEY] = corpus
    at.session_state[state.ABOUT_KEY] = about
    return ok(at.run())


def test_a_model_trained_mid_class_is_asked_again_so_no_screen_shows_two_models(teacher):
    """Mid-class the teacher trains the textbook banana_bandana_ (no split): its step 1 merges a + n (4 times), the
    rivals n + a (3), b + a and a + _ (2 each). Back on the Class page, the class follows it at once: question 2
    asks its pairs on the projector and the phone under its name, and Ada's vote stays with question 1. The same
    model again (only its link differs) keeps the question and its votes; GPT-2, with no race of pairs, takes the
    question off every screen."""
    code = class_code(teacher)
    ada, ada_id = join(code, "Ada")
    store = open_store()
    first = store.question(code, 1)
    ada = press(ada, lettered_choice(ada, first.choices, first.answer))
    banana = train("banana_bandana_", Config(split="none"), merges=6)
    settings = CORPUS_PRESETS["banana_bandana"].settings
    teacher = give_model(teacher, banana, "banana_bandana_", ModelAbout.trained("banana_bandana", settings, {}))
    record = store.class_record(code)
    asked = store.question(code, record.question)
    assert (record.step, record.question) == (1, 2)
    assert (asked.prompt, asked.choices, asked.answer) == ("Step 1", ("a + _", "a + n", "b + a", "n + a"), "a + n")
    assert store.votes(code, 2) == {} and store.votes(code, 1) == {ada_id: first.answer}
    assert [toast.value for toast in teacher.toast] == [
        "The class follows your new model: step 1 is asked again with its pairs."
    ]
    ada = ok(ada.run())
    for screen in (teacher, ada):
        shown = shown_html(screen)
        assert "learned from the textbook example banana_bandana_" in shown
        assert "Pairs offered: A a + _ · B a + n · C b + a · D n + a" in shown
        assert "t + h" not in shown  # the sample text's first pairs are gone
    ada = press(ada, lettered_choice(ada, asked.choices, "n + a"))
    again = ModelAbout.trained("banana_bandana", settings, {"preset": "banana_bandana"})
    teacher = give_model(teacher, banana, "banana_bandana_", again)
    assert store.class_record(code).question == 2 and store.votes(code, 2) == {ada_id: "n + a"}
    give_model(teacher, load_gpt2(), "", ModelAbout.gpt2())
    assert store.class_record(code).question == 0
    assert "Wait for the teacher's question." in everything_shown(ok(ada.run()))


def test_a_reloaded_phone_comes_back_to_its_class_under_its_name_by_its_cookie(teacher, monkeypatch):
    code = class_code(teacher)
    _, student_id = join(code, "Ada")
    copied = class_page(join=code)  # the address alone, in another browser: the join form, nobody's place
    assert copied.text_input and "You are Ada." not in plain(everything_shown(copied))
    cookies = {"student": (code, student_id)}  # what the phone's own browser sends with a new session
    monkeypatch.setattr(classroom_state, "remembered", lambda role: cookies.get(role))
    reloaded = class_page(join=code)
    assert "You are Ada." in plain(everything_shown(reloaded)) and not reloaded.text_input
    cookies["student"] = (code, "s" * 16)  # a cookie of no student of this class: the join form
    assert class_page(join=code).text_input


def test_teacher_like_parameters_give_a_student_no_controls(teacher):
    code, key = teacher.session_state[classroom_state.TEACHING_KEY]
    _, student_id = join(code, "Ada")
    for params in (
        {"join": code, "student": student_id, "teacher": "1", "key": key, "role": "teacher"},
        {"join": code, "teacher": key},
        {"teacher": "1", "key": key},
    ):
        page = class_page(**params)
        assert not labels(page) & (TEACHER_BUTTONS - {"Start a class"}), params


@pytest.mark.parametrize(
    ("params", "warned"),
    [
        ({"join": "<script>alert(1)</script>"}, "join=<script>alert(1)</script>: not a class code"),
        ({"join": "ZZZZZ", "student": "a" * 16}, f"student={'a' * 16}: an address does not say who you are"),
    ],
)
def test_a_malformed_class_address_warns_and_keeps_the_page(params, warned):
    page = class_page(**params)
    assert warned in plain(page.warning[0].value)
    assert "<script>" not in everything_shown(page)


def test_a_name_already_taken_is_refused_in_words(teacher):
    code = class_code(teacher)
    join(code, "Ada")
    again = class_page(join=code)
    again.text_input(key=classroom_state.NAME_KEY).input("ADA")
    again = press(again, "Join")
    assert "already called ADA" in again.warning[0].value and "student" not in again.query_params


def test_the_count_question_takes_a_number_and_the_closest_wins(teacher):
    code = class_code(teacher)
    ada, ada_id = join(code, "Ada")
    teacher.text_input(key=classroom_state.SENTENCE_KEY).input("Hello world")
    teacher = press(teacher, "Ask this sentence")
    ada = ok(ada.run())
    guess_key = f"{classroom_state.GUESS_KEY}_2"
    ada.text_input(key=guess_key).input("abc")
    ada = press(ada, "Send")
    assert [plain(error.value) for error in ada.error] == [
        "Not sent: Type a whole number of tokens, from 0 to 1,000,000,000."
    ]  # an error she sees, not a grey line
    assert open_store().votes(code, 2) == {}
    ada.text_input(key=guess_key).input("3")
    ada = press(ada, "Send")
    assert open_store().votes(code, 2) == {ada_id: "3"} and not ada.error
    assert "Your vote: 3" in plain(everything_shown(ada))
    teacher = press(teacher, "Reveal")
    assert "GPT-4 uses 2 tokens. Closest: Ada (3)." in plain(everything_shown(teacher))


def test_a_running_class_bounds_the_trainings_of_its_own_people_only(teacher):
    """The textbook banana_bandana corpus runs out of pairs after 8 merges, so asking for more costs nothing: only
    the bound speaks, to a session in the class, until the class ends; another visitor of the server trains."""
    asked = {"preset": "banana_bandana", "merges": str(CLASS_TRAINING_LIMIT + 1)}
    student = through_app(TRAIN.path, **asked)
    student.session_state[classroom_state.STUDYING_KEY] = (class_code(teacher), "s" * 16)  # joined the class
    student = press(student, "Train")
    assert f"at most {CLASS_TRAINING_LIMIT:,} merges or tokens (this one asks for 20,001)" in plain(
        student.warning[0].value
    )
    stopped = [
        "Stopped after 8 merges: every piece of the text is one token, no pair is left to merge"
        " (asked for 20,001 merges)."
    ]
    visitor = press(through_app(TRAIN.path, **asked), "Train")
    # the corpus's own early stop, said as information: no warning at all
    assert [plain(info.value) for info in visitor.info] == stopped and not visitor.warning
    code, key = teacher.session_state[classroom_state.TEACHING_KEY]
    room.end_class(open_store(), code, key, time.time())
    student = press(student, "Train")
    assert [plain(info.value) for info in student.info] == stopped and not student.warning


@pytest.mark.parametrize("store", ["redis", "damaged sqlite"])
def test_a_class_store_that_fails_is_said_in_words_and_train_still_trains(store, monkeypatch, tmp_path):
    if store == "redis":
        address, name = f"redis://127.0.0.1:{free_port()}/0", "Redis"  # nobody listens there
    else:
        damaged = tmp_path / "classes.sqlite3"
        damaged.write_bytes(b"not a database, " * 512)  # SQLite says: file is not a database
        address, name = f"sqlite:///{damaged}", "SQLite"
    monkeypatch.setenv(STORE_ENV, address)
    state.class_store.clear()
    try:
        teacher = class_page()
        if "Start a class" in labels(teacher):  # Redis connects on first use: the store fails when the class starts
            teacher = press(teacher, "Start a class")
        assert f"The class store ({name}) does not answer" in plain(everything_shown(teacher))
        student = class_page(join="ABCDE")
        assert f"The class store ({name}) does not answer" in plain(everything_shown(student))
        assert classroom_state.TEACHING_KEY not in teacher.session_state
        train_page = press(through_app(TRAIN.path, preset="banana_bandana", merges="3"), "Train")
        assert [step.new_token for step in session_model(train_page).steps] == ["an", "ban", "ana"]
    finally:
        state.class_store.clear()  # the next test's pages open the store of the environment again


def test_a_question_of_a_kind_this_app_does_not_ask_is_the_same_error_on_every_screen(teacher):
    """A store written by another version of the app: the projector and a phone both name the kind (kinds.kind_of)."""
    code = class_code(teacher)
    student, _ = join(code, "Ada")
    store = open_store()
    store.put_question(code, Question(2, "poll", "Tea or coffee?", ("tea", "coffee"), "tea"))
    store.update_class(code, time.time(), question=2)
    for screen in (teacher.run(), student.run()):
        assert [error.message for error in screen.exception] == [
            "unknown question kind 'poll' (this app asks: pair, longest, count, model_count, split, costliest)"
        ]


def test_the_textbook_corpus_is_in_view_and_the_reveal_says_why():
    """Train's textbook corpus (low ×5, lower, newest ×5, widest; "_" ends a word): at step 1 six pairs occur 6
    times; the first to occur, l + o, merges. Every screen shows the words cut into letters, the offered pairs'
    letters between them (A e + s, B l + o, C o + w, D w + e); the reveal says why; step 2 shows lo, just made."""
    teacher = press(through_app(CLASS.path, preset="low"), "Start a class")
    code, key = teacher.session_state[classroom_state.TEACHING_KEY]
    try:
        student, _ = join(code, "Ada")
        key_line = "Pairs offered: A e + s · B l + o · C o + w · D w + e"
        words = "l B o C w _ ×5 l B o C w D e r _ ×1 n e w D e A s t _ ×5 w i d e A s t _ ×1"
        for screen in (teacher, student):
            assert f"The text so far: 4 words, each with its count {key_line} {words}" in shown_html(screen)
        why = (
            "l + o merges: it occurs 6 times in the text. 6 pairs occur 6 times, the most: "
            "the first pair to occur in the text wins."
        )
        assert why not in shown_html(student)  # not before the reveal
        teacher = press(teacher, "Reveal")
        student = ok(student.run())
        for screen in (teacher, student):
            assert why in shown_html(screen)
        bodies = [str(element.value) for element in teacher.get("html")]
        reveal_at = next(index for index, body in enumerate(bodies) if "merges: it occurs" in body)
        text_at = next(index for index, body in enumerate(bodies) if "The text so far" in body)
        assert reveal_at < text_at  # the projector shows why first, the text below it
        teacher = press(teacher, "Next step")
        student = ok(student.run())
        assert '<i class="bpe-made">lo</i>' in " ".join(str(element.value) for element in student.get("html"))
        assert "lo B w _ ×5" in shown_html(student)  # B: lo + w, of e + s, lo + w, s + t, w + e
    finally:
        room.end_class(open_store(), code, key, time.time())


def test_the_longest_token_and_our_model_s_count_are_asked_and_scored():
    """Train's textbook corpus (worked out by hand on the Train page's tests: l o, lo w, e s, es t, est _, low _,
    n e, ne w, new est_): at step 2, its vote open, the class has seen lo made only: too few to ask. At step 9, its
    vote open, the tokens seen are lo, low, es, est, est_, low_, ne, new: the longest low (made first of those of 3
    letters; "_" ends a word and counts none), never newest_, step 9's pending answer; offered with the last three
    shorter ones made, ne, es, lo. Once step 9 is revealed, newest_ is the longest, offered with new, ne, low_ (the
    last three made, all shorter). "low newest" is low_ newest_,
    2 tokens. Both questions count on the scoreboard, as the pair questions do."""
    teacher = press(through_app(CLASS.path, preset="low"), "Start a class")
    code, key = teacher.session_state[classroom_state.TEACHING_KEY]
    try:
        ada, ada_id = join(code, "Ada")
        teacher = press(press(teacher, "Next step"), "Longest token?")
        assert "step 2's own token waits for its vote) are too few for this question" in everything_shown(teacher)
        assert open_store().class_record(code).question == 2  # nothing asked: step 2's question stays open
        for _ in range(7):
            teacher = press(teacher, "Next step")
        teacher = press(teacher, "Longest token?")
        question = open_store().question(code, open_store().class_record(code).question)
        assert (question.kind, question.choices, question.answer) == ("longest", ("es", "lo", "low", "ne"), "low")
        ada = ok(ada.run())
        assert "Which is the longest token so far?" in everything_shown(ada)
        ada = press(ada, "low")
        teacher = press(teacher, "Reveal")
        ada = ok(ada.run())
        assert "The longest token so far: low. You got it!" in plain(everything_shown(ada))
        teacher = press(press(teacher, "Ask again"), "Reveal")  # step 9 asked again, and its answer out
        teacher = press(teacher, "Longest token?")
        question = open_store().question(code, open_store().class_record(code).question)
        assert (question.choices, question.answer) == (("low_", "ne", "new", "newest_"), "newest_")
        teacher.segmented_control(key=classroom_state.COUNTED_BY_KEY).set_value("our model")
        teacher.text_input(key=classroom_state.SENTENCE_KEY).input("low newest")
        teacher = press(teacher, "Ask this sentence")
        ada = ok(ada.run())
        assert "How many tokens will our model use for this sentence?" in everything_shown(ada)
        number = open_store().class_record(code).question
        ada.text_input(key=f"{classroom_state.GUESS_KEY}_{number}").input("3")
        ada = press(ada, "Send")
        teacher = press(teacher, "Reveal")
        assert "Our model uses 2 tokens. Closest: Ada (3)." in plain(everything_shown(teacher))
        assert dict(room.results(open_store(), code, {ada_id: "Ada"})) == {"Ada": 2}  # one point each
    finally:
        room.end_class(open_store(), code, key, time.time())


def test_a_word_is_split_by_taps_on_the_phone_and_each_place_scores(monkeypatch):
    """Train's textbook corpus (its merges: l o, lo w, e s, ...): after step 2, lowest is low e s t (places 3, 4, 5).
    Ada taps 3 and 5 (2 points), Bo every place (3 right, 2 wrong: 1 point). A word of two is refused in words; the
    answer shows nowhere before the reveal; a phone reloaded comes back with its taps."""
    teacher = press(through_app(CLASS.path, preset="low"), "Start a class")
    code, key = teacher.session_state[classroom_state.TEACHING_KEY]
    try:
        (ada, ada_id), (bo, bo_id) = join(code, "Ada"), join(code, "Bo")
        teacher = press(teacher, "Next step")
        assert "After step 2." in everything_shown(teacher)  # the step just shown, in the run that showed it
        assert teacher.text_input(key=classroom_state.WORD_KEY).value == "newest"  # the corpus's longest word
        teacher.text_input(key=classroom_state.WORD_KEY).input("low est")
        teacher = press(teacher, "Ask this word")
        assert "Type one word, without spaces." in plain(everything_shown(teacher))
        teacher.text_input(key=classroom_state.WORD_KEY).input("lowest")
        teacher = press(teacher, "Ask this word")
        number = open_store().class_record(code).question
        question = open_store().question(code, number)
        assert (question.kind, question.prompt, question.choices, question.answer) == (
            "split",
            "lowest",
            ("1", "2", "3", "4", "5"),
            "3,4,5",
        )
        ada, bo = ok(ada.run()), ok(bo.run())
        assert "How will our model split this word on its own?" in everything_shown(ada)
        cuts_key = f"{classroom_state.CUTS_KEY}_{number}"
        assert ada.pills(key=cuts_key).options == ["l\\|owest", "lo\\|west", "low\\|est", "lowe\\|st", "lowes\\|t"]
        ada.pills(key=cuts_key).set_value([5, 3])
        ada = ok(ada.run())
        assert "Your vote: low · es · t" in plain(everything_shown(ada))
        assert html_of(ada).count('class="bpe-cut"') == 2  # her two cuts, drawn on the word
        bo.pills(key=cuts_key).set_value([1, 2, 3, 4, 5])
        bo = ok(bo.run())
        teacher = ok(teacher.run())
        assert '<i>w</i><span class="bpe-cut">2</span><i>e</i><span class="bpe-cut">1</span>' in html_of(teacher)
        for screen in (ada, bo, teacher):  # nothing gives the answer away before the reveal
            assert '"bpe-right"' not in html_of(screen) and '"bpe-missed"' not in html_of(screen)
        cookies = {"student": (code, ada_id)}  # Ada's phone reloads: a new session, her browser's cookie
        monkeypatch.setattr(classroom_state, "remembered", lambda role: cookies.get(role))
        reloaded = class_page(join=code)
        assert reloaded.pills(key=cuts_key).value == [3, 5]
        assert "Your vote: low · es · t" in plain(everything_shown(reloaded))  # what the store kept of her vote

        teacher = press(teacher, "Reveal")
        assert "Our model splits it: low · e · s · t. Cut exactly right: 0 of 2 students." in plain(
            everything_shown(teacher)
        )
        bo.pills(key=cuts_key).set_value([3])  # a tap from a screen drawn before the reveal: refused, undone
        bo = ok(bo.run())
        assert "Too late: the answer is out." in plain(everything_shown(bo))
        assert bo.pills(key=cuts_key).value == [1, 2, 3, 4, 5] and bo.pills(key=cuts_key).disabled
        ada = ok(ada.run())
        assert "2 places right, 0 where no token starts: 2 points." in plain(everything_shown(ada))
        assert html_of(ada).count('class="bpe-right"') == 2 and html_of(ada).count('class="bpe-missed"') == 1
        assert dict(room.results(open_store(), code, {ada_id: "Ada", bo_id: "Bo"})) == {"Ada": 2, "Bo": 1}
    finally:
        room.end_class(open_store(), code, key, time.time())


def test_the_languages_question_is_asked_counted_by_gpt4_and_scored(teacher, tiktoken_module):
    """The first languages (English, Chinese, Hindi, Greek): GPT-4 (tiktoken's counts of their preambles) gives
    Greek the most tokens."""
    code = class_code(teacher)
    ada, ada_id = join(code, "Ada")
    teacher = press(teacher, "Ask these languages")
    question = open_store().question(code, 2)
    encoding = tiktoken_module.get_encoding("cl100k_base")
    texts = bundled_texts(["eng", "cmn", "hin", "ell"])
    counts = {code: len(encoding.encode_ordinary(text)) for code, text in texts.items()}
    names = {"eng": "English", "cmn": "Chinese (Mandarin)", "hin": "Hindi", "ell": "Greek"}
    assert (question.kind, question.choices) == ("costliest", tuple(sorted(names.values())))
    assert question.answer == names[max(counts, key=counts.get)]
    ada = ok(ada.run())
    assert "Which of these languages needs the most tokens for the same text?" in everything_shown(ada)
    ada = press(ada, question.answer)
    assert open_store().votes(code, 2) == {ada_id: question.answer}
    teacher = press(teacher, "Reveal")
    ada = ok(ada.run())
    assert f"Needs the most tokens: {question.answer}. You got it!" in plain(everything_shown(ada))
