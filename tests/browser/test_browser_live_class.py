"""A live class in Chromium: a teacher on a desktop (then a projector) and two students on phones join, vote,
see the tally, the reveal and the next step, without reloading. Names typed by students stay literal."""

from __future__ import annotations

import re

import pytest
from support.browser import exception_texts, open_app, running_app, wait_for_app
from support.screens import PHONE, PROJECTOR, overlapping_elements, page_width, unreachable_controls, wholly_in_view
from support.wcag import contrast

from live_class.choose import STORE_ENV

pytestmark = pytest.mark.browser

HOSTILE_NAME = "<img src=x onerror=alert(1)>"
DESKTOP = {"width": 1400, "height": 900}
FOLLOW_MS = 4_000  # a student's screen follows the teacher within 2 s (a poll a second): twice that, for CI


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    """The app with a class store of its own: a class left running here must not bound training in other tests."""
    folder = tmp_path_factory.mktemp("live-class")
    with running_app(folder / "server.log", env={STORE_ENV: f"sqlite:///{folder}/classes.sqlite3"}) as (url, _):
        yield url


@pytest.fixture
def phone(browser):
    """A student's phone: a new browser of its own per student."""
    contexts = []

    def open_phone():
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        contexts.append(context)
        page = context.new_page()
        page.dialogs = []
        page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
        return page

    yield open_phone
    for context in contexts:
        context.close()


def join(student, join_address: str, name: str) -> None:
    student.goto(join_address, wait_until="domcontentloaded")
    wait_for_app(student)
    student.get_by_label("Your name").fill(name)
    student.get_by_role("button", name="Join").click()
    student.get_by_text("Which pair merges next?").wait_for(timeout=FOLLOW_MS * 3)


def test_a_class_from_the_projector_to_two_phones(class_server, page, phone, screenshot):
    open_app(page, class_server, "Class")
    page.get_by_role("button", name="Start a class").click()
    wait_for_app(page)
    join_address = page.locator(".bpe-url").inner_text()  # the QR code's address, until someone joins
    code = re.search(r"/Class\?join=(\w{5})$", join_address).group(1)
    assert page.locator(".bpe-model").inner_text().startswith(f"Class {code} · ")

    ada, other = phone(), phone()
    join(ada, join_address, "Ada")
    join(other, join_address, HOSTILE_NAME)
    for student in (ada, other):
        assert student.locator(".bpe-step").inner_text() == "Step 1"
        assert page_width(student) <= PHONE["width"] and overlapping_elements(student) == []
    vote = ".st-key-class_vote_1_{} button"  # the choices of question 1, by their widget keys
    ada.locator(vote.format(0)).click()
    other.locator(vote.format(1)).click()
    page.get_by_text("2 votes from 2 students").wait_for(timeout=FOLLOW_MS)
    page.locator(".bpe-names span").nth(1).wait_for(timeout=FOLLOW_MS)  # drawn by the same poll, a moment later
    assert page.locator(".bpe-names span").all_inner_texts() == ["Ada", HOSTILE_NAME]  # literal, not an image
    screenshot(ada, "phone-voted")

    page.get_by_role("button", name="Reveal").click()
    for student in (ada, other):
        student.get_by_text("The pair merged:").wait_for(timeout=FOLLOW_MS)
    screenshot(other, "phone-revealed")
    screenshot(page, "teacher-revealed")

    page.get_by_role("button", name="Next step").click()
    for student in (ada, other):
        student.locator(".bpe-step", has_text="Step 2").wait_for(timeout=FOLLOW_MS)
    ada.goto(ada.url + "&teacher=1&role=teacher&key=x", wait_until="domcontentloaded")  # a reload, made bold
    ada.locator(".bpe-step", has_text="Step 2").wait_for(timeout=FOLLOW_MS * 3)
    for control in ("Reveal", "Next step", "End class", "Start a class"):
        assert not ada.get_by_role("button", name=control).count()  # a student never gets the teacher's controls
    page.set_viewport_size(PROJECTOR)
    page.locator("[data-testid=stSidebar] label").filter(has_text="Presentation mode").click()  # the toggle
    wait_for_app(page)
    assert page_width(page) <= PROJECTOR["width"] and overlapping_elements(page) == []
    assert unreachable_controls(page) == []  # the row of controls, first on the page, lies under no top bar
    opener = page.locator('[data-testid="stExpandSidebarButton"]').bounding_box()  # the sidebar's », above the row
    assert opener["y"] + opener["height"] <= page.get_by_role("button", name="Reveal").bounding_box()["y"]
    page.get_by_role("button", name="Reveal").click()  # step 2's answer, revealed from the projector
    wait_for_app(page)
    screenshot(page, "projector")
    assert exception_texts(page) == exception_texts(ada) == exception_texts(other) == []
    assert page.dialogs == ada.dialogs == other.dialogs == []  # no name ran as script


def choices_on_first_screen(student, last_choice: str = ".st-key-class_vote_1_3 button") -> bool:
    """Every choice button of the question lies within the phone's first screen (no scrolling to vote), once
    ``last_choice`` is drawn (question 1's fourth choice unless told)."""
    student.locator(last_choice).wait_for(timeout=FOLLOW_MS)  # the last choice: the screen is drawn
    boxes = [button.bounding_box() for button in student.locator("[class*=st-key-class_vote_] button").all()]
    return bool(boxes) and all(box["y"] + box["height"] <= PHONE["height"] for box in boxes)


def test_the_text_in_view_and_the_reveals_reasons_on_a_phone_and_the_projector(class_server, page, phone, screenshot):
    """Train's textbook corpus (low ×5, lower, newest ×5, widest; "_" ends a word): its four words under the
    question, open on the phone and the projector, the choices still on the phone's first screen; Reveal says why
    l + o merged (six pairs tie at 6, the first to occur wins) beside the votes; step 2 shows lo, just made."""
    page.set_viewport_size(PROJECTOR)
    open_app(page, class_server, "Class?preset=low&present=1")
    page.get_by_role("button", name="Start a class").click()
    wait_for_app(page)
    join_address = page.locator(".bpe-url").inner_text()
    ada = phone()
    join(ada, join_address, "Ada")
    words = ["lBoCw_×5", "lBoCwDer_×1", "newDeAst_×5", "wideAst_×1"]  # the offered pairs' letters between symbols
    for screen in (ada, page):
        screen.locator(".bpe-text[open]").wait_for(timeout=FOLLOW_MS)
        shown = [re.sub(r"\s", "", text) for text in screen.locator(".bpe-word").all_inner_texts()]
        assert shown == words
    assert choices_on_first_screen(ada) and page_width(ada) <= PHONE["width"] and overlapping_elements(ada) == []
    screenshot(ada, "phone-text")
    assert page_width(page) <= PROJECTOR["width"] and overlapping_elements(page) == []
    screenshot(page, "projector-text", whole=True)

    ada.locator(".st-key-class_vote_1_1 button").click()  # B: l + o
    page.get_by_text("1 vote from 1 student").wait_for(timeout=FOLLOW_MS)
    page.get_by_role("button", name="Reveal").click()
    why = "l + o merges: it occurs 6 times in the text. 6 pairs occur 6 times, the most: the first pair to occur"
    for screen in (ada, page):
        screen.locator(".bpe-reveal", has_text=why).wait_for(timeout=FOLLOW_MS)
        row = screen.locator(".bpe-won").first.inner_text().split()  # the pair, its count, its votes
        assert row == ["B", "l", "+", "o", "✓", "6", "1"]
    assert page_width(ada) <= PHONE["width"] and page_width(page) <= PROJECTOR["width"]
    assert overlapping_elements(ada) == overlapping_elements(page) == []
    screenshot(ada, "phone-reveal", whole=True)
    screenshot(page, "projector-reveal", whole=True)

    page.get_by_role("button", name="Next step").click()
    ada.locator(".bpe-word i.bpe-made", has_text="lo").first.wait_for(timeout=FOLLOW_MS)
    assert ada.locator(".bpe-word i.bpe-made").all_inner_texts() == ["lo", "lo"]  # low and lower
    screenshot(ada, "phone-step-2")
    assert exception_texts(page) == exception_texts(ada) == []


def test_a_long_text_is_folded_on_a_phone_and_stays_as_the_student_leaves_it(class_server, page, phone, screenshot):
    """The default model (the 1 MB sample): its 12 most frequent words, folded on the phone under its summary so
    the choices stay on the first screen; opened, it stays open while the screen asks again every second."""
    open_app(page, class_server, "Class")
    page.get_by_role("button", name="Start a class").click()
    wait_for_app(page)
    ada = phone()
    join(ada, page.locator(".bpe-url").inner_text(), "Ada")
    summary = ada.locator(".bpe-text summary")
    summary.wait_for(timeout=FOLLOW_MS)
    assert re.fullmatch(r"The text so far: its 12 most frequent words and signs of [\d,]+", summary.inner_text())
    assert not ada.locator(".bpe-text[open]").count() and choices_on_first_screen(ada)
    screenshot(ada, "folded")
    summary.click()
    ada.wait_for_timeout(2_500)  # two polls of the screen
    assert ada.locator(".bpe-text[open]").count() == 1 and len(ada.locator(".bpe-word").all()) == 12
    assert page_width(ada) <= PHONE["width"] and overlapping_elements(ada) == []
    screenshot(ada, "opened", whole=True)
    assert exception_texts(ada) == []


TEACHERS_ROW = ("Reveal", "Next step", "Ask again", "Longest token?", "Split a word", "Count tokens")


def lines_of_buttons(page, names) -> int:
    """How many lines the named buttons take, 0 if any of them is not wholly inside the window or is taller than
    the first (a label cut off or wrapped)."""
    window = page.viewport_size
    boxes = [page.get_by_role("button", name=name, exact=True).bounding_box() for name in names]
    whole = all(
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= window["width"]
        and box["y"] + box["height"] <= window["height"]
        and box["height"] == boxes[0]["height"]
        for box in boxes
    )
    return len({box["y"] for box in boxes}) if whole else 0


def fits(screen, window) -> bool:
    """No sideways scroll, no overlapping elements, no exception box."""
    return page_width(screen) <= window["width"] and not overlapping_elements(screen) and not exception_texts(screen)


def presented_class_with_ada(class_server, page, phone, address: str):
    """The projector, presenting, opens ``address`` (on the Class page) and starts a class; Ada joins it on her
    phone. Her phone."""
    page.set_viewport_size(PROJECTOR)
    open_app(page, class_server, address)
    page.get_by_role("button", name="Start a class").click()
    wait_for_app(page)
    ada = phone()
    join(ada, page.locator(".bpe-url").inner_text(), "Ada")
    return ada


def textbook_class_at_step_two(class_server, page, phone):
    """A class of Train's textbook corpus in presentation mode on the projector, Ada joined on her phone, at step 2
    once the projector's controls are checked; her phone."""
    ada = presented_class_with_ada(class_server, page, phone, "Class?preset=low&present=1")
    assert lines_of_buttons(page, TEACHERS_ROW) == 1 and unreachable_controls(page) == [] and fits(page, PROJECTOR)
    page.get_by_role("button", name="Next step").click()
    wait_for_app(page)
    return ada


def test_the_longest_token_and_our_model_s_count_from_the_projector_to_a_phone(class_server, page, phone, screenshot):
    """Train's textbook corpus (worked out by hand in the page tests): at step 2, its vote open, the class has seen
    only lo made: the teacher is told it is too few. At step 4, its vote (es + t) open, the tokens seen are lo, low,
    es, the longest low; "low newest" is low_ newest_ under that model, 2 tokens, and a guess of 3 is the closest."""
    ada = textbook_class_at_step_two(class_server, page, phone)
    screenshot(page, "projector-controls")
    page.get_by_role("button", name="Longest token?").click()
    page.get_by_text("are too few for this question").wait_for(timeout=FOLLOW_MS)
    assert fits(page, PROJECTOR)
    screenshot(page, "projector-longest-too-few")
    for _ in range(2):
        page.get_by_role("button", name="Next step").click()
        wait_for_app(page)
    page.get_by_role("button", name="Longest token?").click()
    wait_for_app(page)
    ada.get_by_text("Which is the longest token so far?").wait_for(timeout=FOLLOW_MS)
    choices = ada.locator("[class*=st-key-class_vote_] button")
    assert choices_on_first_screen(ada, ".st-key-class_vote_5_2 button")  # question 5 (after steps 1 to 4): its 3rd
    assert choices.all_inner_texts() == ["es", "lo", "low"] and fits(ada, PHONE)
    screenshot(ada, "phone-longest")
    ada.get_by_role("button", name="low", exact=True).click()
    page.get_by_text("1 vote from 1 student").wait_for(timeout=FOLLOW_MS)
    page.get_by_role("button", name="Reveal").click()
    ada.get_by_text("The longest token so far: low. You got it!").wait_for(timeout=FOLLOW_MS)
    assert fits(ada, PHONE)
    screenshot(ada, "phone-longest-revealed", whole=True)
    screenshot(page, "projector-longest-revealed")

    page.get_by_role("button", name="Count tokens").click()
    assert page.get_by_label("Sentence").input_value().startswith("Tokenizers cut")  # first opened after 2 steps
    page.locator("[data-testid=stButtonGroup]").get_by_text("our model", exact=True).click()
    wait_for_app(page)
    page.get_by_label("Sentence").fill("low newest")
    page.get_by_label("Sentence").press("Enter")
    wait_for_app(page)
    screenshot(page, "projector-count-popover")
    page.get_by_role("button", name="Ask this sentence").click()
    wait_for_app(page)
    ada.get_by_text("How many tokens will our model use for this sentence?").wait_for(timeout=FOLLOW_MS)
    guess = ada.get_by_label("Your guess")
    assert guess.is_visible() and fits(ada, PHONE)
    screenshot(ada, "phone-count")
    guess.fill("abc")
    guess.press("Enter")
    ada.get_by_role("button", name="Send").click()
    refused = ada.locator("[data-testid=stAlertContentError]", has_text="Not sent: Type a whole number of tokens")
    refused.wait_for(timeout=FOLLOW_MS)  # an error in red on her screen, not a grey line
    assert refused.bounding_box()["y"] + refused.bounding_box()["height"] <= PHONE["height"]
    screenshot(ada, "phone-guess-refused")
    guess.fill("3")
    guess.press("Enter")
    ada.get_by_role("button", name="Send").click()
    page.get_by_text("1 vote from 1 student").wait_for(timeout=FOLLOW_MS)
    page.keyboard.press("Escape")  # the popover closed: the projector shows the class
    page.get_by_role("button", name="Reveal").click()
    page.get_by_text("Our model uses 2 tokens. Closest: Ada (3).").wait_for(timeout=FOLLOW_MS)
    ada.get_by_text("Our model uses 2 tokens. Closest: Ada (3).").wait_for(timeout=FOLLOW_MS)
    assert fits(page, PROJECTOR) and fits(ada, PHONE)
    assert lines_of_buttons(page, TEACHERS_ROW) == 1 and unreachable_controls(page) == []
    screenshot(page, "projector-count-revealed", whole=True)
    screenshot(ada, "phone-count-revealed", whole=True)


def test_a_word_is_cut_by_taps_on_a_phone_and_the_projector_shows_where(class_server, page, phone, screenshot):
    """Train's textbook corpus (worked out by hand in the page tests): after step 2 (l+o, lo+w), lowest is low e s t,
    new tokens starting at places 3, 4 and 5. Ada taps low|est and lowes|t: 2 places right, none wrong."""
    ada = textbook_class_at_step_two(class_server, page, phone)
    page.get_by_role("button", name="Split a word").click()
    # first opened after Next step: its box still holds the word offered (a session-state first value was lost)
    assert page.get_by_label("Word", exact=True).input_value() == "newest"
    assert page.get_by_text("After step 2.").is_visible()
    page.get_by_label("Word", exact=True).fill("lowest")
    page.get_by_label("Word", exact=True).press("Enter")
    wait_for_app(page)
    screenshot(page, "projector-split-popover")
    page.get_by_role("button", name="Ask this word").click()
    wait_for_app(page)
    page.keyboard.press("Escape")  # the popover closed: the projector shows the class

    ada.get_by_text("How will our model split this word on its own?").wait_for(timeout=FOLLOW_MS)
    places = ada.locator("[data-testid=stButtonGroup] button")
    places.nth(4).wait_for(timeout=FOLLOW_MS)  # the taps are drawn just after the question, by the same poll
    assert places.all_inner_texts() == ["l|owest", "lo|west", "low|est", "lowe|st", "lowes|t"]
    assert all(box["y"] + box["height"] <= PHONE["height"] for box in (b.bounding_box() for b in places.all()))
    assert fits(ada, PHONE)
    places.filter(has_text="low|est").click()
    ada.get_by_text("Your vote: low · est").wait_for(timeout=FOLLOW_MS)
    places.filter(has_text="lowes|t").click()
    ada.get_by_text("Your vote: low · es · t").wait_for(timeout=FOLLOW_MS)
    screenshot(ada, "phone-split")
    page.get_by_text("1 vote from 1 student").wait_for(timeout=FOLLOW_MS)  # her first tap's vote, maybe
    page.locator(".bpe-split span.bpe-cut").nth(1).wait_for(timeout=FOLLOW_MS)  # her second tap, a poll later
    assert page.locator(".bpe-split span.bpe-cut").all_inner_texts() == ["1", "1"]  # a count over each place cut
    screenshot(page, "projector-split")

    page.get_by_role("button", name="Reveal").click()
    page.get_by_text("Our model splits it: low · e · s · t. Cut exactly right: 0 of 1 student.").wait_for(
        timeout=FOLLOW_MS
    )
    ada.get_by_text("2 places right, 0 where no token starts: 2 points.").wait_for(timeout=FOLLOW_MS)
    assert (
        ada.locator(".bpe-split span.bpe-right").count() == 2 and ada.locator(".bpe-split span.bpe-missed").count() == 1
    )
    assert fits(ada, PHONE) and fits(page, PROJECTOR)
    assert lines_of_buttons(page, TEACHERS_ROW) == 1 and unreachable_controls(page) == []
    screenshot(ada, "phone-split-revealed", whole=True)
    screenshot(page, "projector-split-revealed", whole=True)
    page.set_viewport_size(DESKTOP)
    wait_for_app(page)
    assert fits(page, DESKTOP)
    screenshot(page, "desktop-split-revealed", whole=True)


SIZES = {"desktop": DESKTOP, "phone": PHONE, "projector": PROJECTOR}
COLOURS_JS = "b => [getComputedStyle(b.querySelector('p')).color, getComputedStyle(b).backgroundColor]"


def ask_split(page, word: str) -> None:
    """The teacher asks ``word`` in Split a word's popover, which stays open with what it said."""
    page.get_by_role("button", name="Split a word").click()
    page.get_by_label("Word", exact=True).fill(word)
    page.get_by_label("Word", exact=True).press("Enter")
    wait_for_app(page)
    page.get_by_role("button", name="Ask this word").click()
    wait_for_app(page)


@pytest.mark.parametrize("size", SIZES)
def test_a_class_is_safe_to_run_from_start_to_end(class_server, page, phone, browser, screenshot, size):
    """Train's textbook corpus, the teacher's screen at ``size``: a server on 127.0.0.1 says no phone reaches it
    (and how to let them in) instead of a QR code; Ada on her phone and Bo on a screen at ``size`` vote, and after
    the reveal each one's own pick stays marked, white on blue (AA); after step 1 (l + o) wide has no merge, which
    Split a word says; End class asks first, then leaves the teacher Ada 1 point, Bo 0, as text to copy."""
    window = SIZES[size]
    page.set_viewport_size(window)
    open_app(page, class_server, "Class?preset=low&present=1" if size == "projector" else "Class?preset=low")
    page.get_by_role("button", name="Start a class").click()
    wait_for_app(page)
    problem = page.locator(".bpe-reach .bpe-problem")
    assert problem.inner_text().startswith("Phones cannot reach this address: it is this machine's own.")
    assert "start it with make class" in problem.inner_text() and not page.locator("img.bpe-qr").count()
    assert fits(page, window)
    screenshot(page, "this-machine-only")
    join_address = page.locator(".bpe-url").inner_text()

    ada, bo = phone(), browser.new_context(viewport=window).new_page()
    try:
        join(ada, join_address, "Ada")
        join(bo, join_address, "Bo")
        page.get_by_text("(this machine only)").wait_for(timeout=FOLLOW_MS)  # the join line, once someone joined
        ada.locator(".st-key-class_vote_1_1 button").click()  # B: l + o, the answer
        bo.locator(".st-key-class_vote_1_0 button").click()  # A: e + s
        page.get_by_text("2 votes from 2 students").wait_for(timeout=FOLLOW_MS)
        page.get_by_role("button", name="Reveal").click()
        for student, picked in ((ada, 1), (bo, 0)):
            mine = student.locator(f".st-key-class_vote_1_{picked} button")
            mine.filter(has_text="your pick").wait_for(timeout=FOLLOW_MS)
            assert mine.is_disabled() and contrast(*mine.evaluate(COLOURS_JS)) >= 4.5
            others = student.locator("[class*=st-key-class_vote_1_] button").all()
            assert [button.inner_text().endswith("your pick") for button in others].count(True) == 1
            assert all(contrast(*button.evaluate(COLOURS_JS)) >= 4.5 for button in others)  # readable, not faint
            assert mine.evaluate(COLOURS_JS)[1] != others[2].evaluate(COLOURS_JS)[1]  # filled apart from the rest
        assert fits(ada, PHONE) and fits(bo, window)
        mine.scroll_into_view_if_needed()
        screenshot(ada, "ada-revealed")
        screenshot(bo, "bo-revealed")

        ask_split(page, "wide")
        page.get_by_text("After step 1 our model has no merge in wide yet").wait_for()
        assert fits(page, window)
        screenshot(page, "split-warned")
        page.keyboard.press("Escape")

        page.get_by_role("button", name="End class").click()
        page.get_by_text("End the class for everyone?").wait_for()
        screenshot(page, "end-asked")
        page.keyboard.press("Escape")  # changed her mind: the class runs on
        ada.wait_for_timeout(2_000)  # two polls of her screen
        assert ada.locator(".bpe-step").inner_text() == "Step 1" and not ada.get_by_text("is over").count()
        page.get_by_role("button", name="End class").click()
        page.get_by_role("button", name="Yes, end the class").click()
        wait_for_app(page)
        page.get_by_text("is over: its final scoreboard").wait_for()
        rows = [row.split("\t") for row in page.locator(".bpe-score tr").all_inner_texts()]
        assert rows == [["Name", "Points"], ["Ada", "1"], ["Bo", "0"]]
        assert page.locator("[data-testid=stCode] code").first.inner_text() == "Name\tPoints\nAda\t1\nBo\t0"
        assert fits(page, window)
        screenshot(page, "final-scoreboard", whole=True)
        ada.get_by_text("is over.").wait_for(timeout=FOLLOW_MS)
        ada.get_by_text("Your points: 1, place 1 of 2.").wait_for(timeout=FOLLOW_MS)  # her line, and the board
        assert ada.locator(".bpe-score tr").all_inner_texts() == ["Name\tPoints", "Ada\t1", "Bo\t0"]
        assert fits(ada, PHONE)
        screenshot(ada, "phone-final-scoreboard")
        assert exception_texts(ada) == exception_texts(bo) == []
    finally:
        bo.context.close()


def test_a_projectors_first_screen_holds_the_controls_the_question_and_the_tally(class_server, page, phone, screenshot):
    """The default model (the 1 MB sample, 12 words in view) on a projector in presentation mode: the controls on
    one row, the question and its first two pairs within the 853x480 window, before the reveal as a list under
    "1 of 1 voted" (no bars a late voter could follow), after it as the tally; the model in words first, its
    settings folded."""
    ada = presented_class_with_ada(class_server, page, phone, "Class?present=1")
    ada.locator(".st-key-class_vote_1_0 button").click()
    page.get_by_text("1 of 1 voted").wait_for(timeout=FOLLOW_MS)
    assert page.get_by_text("1 vote from 1 student").is_visible() and not page.locator(".bpe-waiting svg").count()
    model = page.locator(".bpe-model")
    assert re.fullmatch(
        r"Class \w{5} · our model: 2,000 merges learned from the sample text settings", model.inner_text()
    )
    assert "built from bytes" not in model.inner_text()  # folded until asked for
    for moment in ("voted", "revealed"):
        assert lines_of_buttons(page, TEACHERS_ROW) == 1 and unreachable_controls(page) == []
        bottoms = [page.locator(".bpe-ask").bounding_box()]
        rows = ".js-plotly-plot .ytick" if moment == "revealed" else ".bpe-waiting li"  # the tally at Reveal only
        bottoms += [row.bounding_box() for row in page.locator(rows).all()[:2]]
        assert len(bottoms) == 3 and all(box["y"] + box["height"] <= PROJECTOR["height"] for box in bottoms), (
            moment,
            bottoms,
        )
        assert fits(page, PROJECTOR)
        screenshot(page, moment)
        if moment == "voted":
            page.get_by_role("button", name="Reveal").click()
            page.locator(".bpe-reveal").wait_for(timeout=FOLLOW_MS)
            page.locator(".js-plotly-plot .ytick").first.wait_for(timeout=FOLLOW_MS)  # plotly draws after the words
    ada.locator(".bpe-how summary").click()  # the settings, unfolded on her phone
    ada.wait_for_timeout(2_500)  # two polls of the screen: it stays open
    assert "built from bytes" in ada.locator(".bpe-model").inner_text()
    assert fits(ada, PHONE)
    screenshot(ada, "phone-settings")


LOCK_LABEL = "Lock the class: no new students"
LOCKED_WORDS = "This class is closed to new students: ask your teacher to open it."
DOOR_ROW = ("End class", "Students", "Open the class", "Copy link")


def test_the_teacher_removes_a_student_and_locks_the_class_against_a_late_phone(class_server, page, phone, screenshot):
    """On a desktop the teacher removes a student from the Students popover (their phone asks them to join again,
    the projector's names drop them) and locks the class: the join line says Locked, a late phone is refused in
    words; on the projector the controls stay one row, and the door's row below the class one row too."""
    page.set_viewport_size(DESKTOP)
    open_app(page, class_server, "Class")
    page.get_by_role("button", name="Start a class").click()
    wait_for_app(page)
    join_address = page.locator(".bpe-url").inner_text()
    ada, bo = phone(), phone()
    join(ada, join_address, "Ada")
    join(bo, join_address, HOSTILE_NAME)
    page.locator(".bpe-names span").nth(1).wait_for(timeout=FOLLOW_MS)
    page.get_by_role("button", name="Students", exact=True).click()
    page.get_by_role("button", name=f"Remove {HOSTILE_NAME}", exact=True).wait_for(timeout=FOLLOW_MS)
    screenshot(page, "desktop-students")
    page.get_by_role("button", name=f"Remove {HOSTILE_NAME}", exact=True).click()
    wait_for_app(page)
    assert page.get_by_text(f"{HOSTILE_NAME} is out of the class").is_visible()  # said in the popover, literal
    bo.get_by_text("This class does not know you: join it again.").wait_for(timeout=FOLLOW_MS)
    screenshot(bo, "phone-removed")
    page.keyboard.press("Escape")
    page.get_by_role("button", name=LOCK_LABEL).click()
    wait_for_app(page)
    page.locator(".bpe-join .bpe-locked").wait_for(timeout=FOLLOW_MS)
    assert page.locator(".bpe-names span").all_inner_texts() == ["Ada"]
    assert fits(page, DESKTOP)
    screenshot(page, "desktop-locked")

    late = phone()
    late.goto(join_address, wait_until="domcontentloaded")
    wait_for_app(late)
    late.get_by_label("Your name").fill("Cy")
    late.get_by_role("button", name="Join").click()
    late.get_by_text(LOCKED_WORDS).wait_for(timeout=FOLLOW_MS)
    assert fits(late, PHONE)
    screenshot(late, "phone-refused")

    page.set_viewport_size(PROJECTOR)
    page.locator("[data-testid=stSidebar] label").filter(has_text="Presentation mode").click()
    wait_for_app(page)
    assert page.locator(".bpe-join .bpe-locked").is_visible()
    assert lines_of_buttons(page, TEACHERS_ROW) == 1 and unreachable_controls(page) == [] and fits(page, PROJECTOR)
    screenshot(page, "projector-locked")
    page.get_by_role("button", name="Open the class").scroll_into_view_if_needed()
    assert lines_of_buttons(page, DOOR_ROW) == 1
    screenshot(page, "projector-door")
    page.get_by_role("button", name="Open the class").click()
    wait_for_app(page)
    assert not page.locator(".bpe-locked").count()
    page.get_by_role("button", name=LOCK_LABEL).scroll_into_view_if_needed()
    assert lines_of_buttons(page, ("End class", "Students", LOCK_LABEL, "Copy link")) == 1  # the longer label
    late.get_by_role("button", name="Join").click()
    late.get_by_text("Which pair merges next?").wait_for(timeout=FOLLOW_MS * 3)
    assert exception_texts(page) == exception_texts(late) == exception_texts(bo) == []
    assert page.dialogs == bo.dialogs == []  # no name ran as script


@pytest.mark.parametrize(
    ("window", "path"), [(DESKTOP, ""), (PHONE, ""), (PROJECTOR, "&present=1")], ids=["desktop", "phone", "projector"]
)
def test_reveal_brings_the_answer_on_screen(class_server, page, screenshot, window, path):
    """The teacher's Reveal, in the row of controls at the top: the answer it shows (why l + o merged, beside the
    tally) was drawn under the question and the tally, below a phone's screen; it is scrolled into view."""
    page.set_viewport_size(window)
    open_app(page, class_server, f"Class?preset=low{path}")
    page.get_by_role("button", name="Start a class").click()
    wait_for_app(page)
    page.get_by_role("button", name="Reveal").click()
    answer = page.locator(".st-key-class_revealed")
    answer.locator(".bpe-reveal", has_text="l + o merges: it occurs 6 times in the text.").wait_for(timeout=FOLLOW_MS)
    wait_for_app(page)
    page.wait_for_timeout(300)  # the scroll waits for the next frame
    assert wholly_in_view(page, answer), answer.bounding_box()
    assert fits(page, window)
    screenshot(page, "revealed")
    page.get_by_role("button", name="End class").click()
    page.get_by_role("button", name="Yes, end the class").click()
    wait_for_app(page)
