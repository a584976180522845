"""A live class played through ``live_class.room`` on both stores: the teacher's key, joining, voting, revealing,
the scoreboard, and a class that ends. Expected results are worked out by hand from the rules in the issue."""

from __future__ import annotations

import pytest
from live_class_fixtures import pair_question

from live_class import room, rules
from live_class.kinds import COSTLIEST, COUNT, PAIR, SPLIT, merges_seen
from live_class.records import Question
from live_class.rules import IDLE_SECONDS, ClassProblem

CHOICES = pair_question().choices
EVERY_PLACE = ("1", "2", "3", "4", "5")  # between every two letters of "lowest"


def ask_pair(store, code, key, now=3.0):
    return room.ask(store, code, key, PAIR, "Step 1", CHOICES, "a + n", now=now)


def test_only_the_teachers_key_moves_the_class(store):
    code, key = room.start_class(store, now=0.0)
    other_code, other_key = room.start_class(store, now=0.0)
    assert code != other_code and rules.read_code(code) == code
    assert store.class_record(code).teacher_hash != key  # the store keeps a hash, never the key
    for wrong_key in (None, "", other_key, key + "x"):
        with pytest.raises(ClassProblem, match="Only the teacher"):
            room.show(store, code, wrong_key, now=1.0, step=5)
        with pytest.raises(ClassProblem, match="Only the teacher"):
            ask_pair(store, code, wrong_key)
    assert store.class_record(code).step == 0 and store.questions(code) == []
    room.show(store, code, key, now=2.0, step=5, model_title="Bible, 50 merges")
    assert (store.class_record(code).step, store.class_record(code).model_title) == (5, "Bible, 50 merges")


def test_students_join_with_clean_distinct_names(store):
    code, _ = room.start_class(store, now=0.0)
    ada = room.join(store, code, "  Ada  Lovelace\t", now=1.0)
    hostile = room.join(store, code, "<b>Bo</b>", now=2.0)
    assert rules.is_student_id(ada) and ada != hostile
    assert store.students(code) == {ada: "Ada Lovelace", hostile: "<b>Bo</b>"}
    with pytest.raises(ClassProblem, match="already called ADA LOVELACE, or a name that looks the same"):
        room.join(store, code, "ADA LOVELACE", now=3.0)
    with pytest.raises(ClassProblem, match="at most 40 characters; yours has 41"):
        room.join(store, code, "x" * 41, now=3.0)
    assert room.join(store, code, "y" * 40, now=3.0)
    with pytest.raises(ClassProblem, match="There is no class"):
        room.join(store, "ZZZZZ", "Cy", now=3.0)


def test_a_pair_question_from_ask_to_scoreboard(store):
    code, key = room.start_class(store, now=0.0)
    ada, bo, cy = (room.join(store, code, name, now=1.0) for name in ("Ada", "Bo", "Cy"))
    number = ask_pair(store, code, key)
    assert store.class_record(code).question == number == 1
    assert room.vote(store, code, ada, number, "n + a", now=4.0) == "Your vote: n + a"
    assert room.vote(store, code, ada, number, "a + n", now=5.0) == "Your vote: a + n"  # changed
    room.vote(store, code, bo, number, "b + a", now=5.0)
    with pytest.raises(ClassProblem, match="not one of the choices"):
        room.vote(store, code, cy, number, "<script>", now=5.0)
    with pytest.raises(ClassProblem, match="Join the class first"):
        room.vote(store, code, "a" * 16, number, "a + n", now=5.0)
    assert rules.tally(CHOICES, store.votes(code, number)) == [("a + n", 1), ("n + a", 0), ("b + a", 1)]
    assert room.results(store, code) == [("Ada", 0), ("Bo", 0), ("Cy", 0)]  # nothing revealed yet
    assert room.reveal(store, code, key, now=6.0).answer == "a + n"
    with pytest.raises(ClassProblem, match="Too late"):
        room.vote(store, code, cy, number, "a + n", now=7.0)
    assert room.results(store, code) == [("Ada", 1), ("Bo", 0), ("Cy", 0)]


def test_a_count_question_goes_to_the_closest_guesses(store):
    code, key = room.start_class(store, now=0.0)
    ada, bo, cy = (room.join(store, code, name, now=1.0) for name in ("Ada", "Bo", "Cy"))
    number = room.ask(store, code, key, COUNT, "Hello world", (), "7", now=2.0)
    room.vote(store, code, ada, number, "5", now=3.0)
    room.vote(store, code, bo, number, " 9 ", now=3.0)  # as far above as Ada is below: both win
    room.vote(store, code, cy, number, "1,000", now=3.0)
    with pytest.raises(ClassProblem, match="whole number"):
        room.vote(store, code, cy, number, "-3", now=3.0)
    room.reveal(store, code, key, now=4.0)
    assert room.results(store, code) == [("Ada", 1), ("Bo", 1), ("Cy", 0)]


def test_a_languages_question_goes_to_those_who_tap_the_costliest(store):
    code, key = room.start_class(store, now=0.0)
    ada, bo = (room.join(store, code, name, now=1.0) for name in ("Ada", "Bo"))
    choices = ("Chinese (Mandarin)", "English", "Greek", "Hindi")
    number = room.ask(store, code, key, COSTLIEST, "The same text in each, counted by GPT-4", choices, "Greek", now=2.0)
    assert room.vote(store, code, ada, number, "Greek", now=3.0) == "Your vote: Greek"
    room.vote(store, code, bo, number, "Chinese (Mandarin)", now=3.0)
    with pytest.raises(ClassProblem, match="not one of the choices"):
        room.vote(store, code, bo, number, "Klingon", now=3.0)
    assert COSTLIEST.reveal(room.reveal(store, code, key, now=4.0)) == "Needs the most tokens: Greek."
    assert room.results(store, code) == [("Ada", 1), ("Bo", 0)]


def test_a_split_question_scores_each_place_right_less_each_place_wrong(store):
    """lowest after the merges l+o, lo+w, e+s: low|es|t, places 3 and 5. Ada cuts low|es|t (2 points), Bo cuts
    everywhere (3, 5 right; 1, 2, 4 wrong: 0, not -1), Cy cuts nowhere (0), Di cuts low|est (1)."""
    code, key = room.start_class(store, now=0.0)
    ada, bo, cy, di = (room.join(store, code, name, now=1.0) for name in ("Ada", "Bo", "Cy", "Di"))
    number = room.ask(store, code, key, SPLIT, "lowest", EVERY_PLACE, "3,5", now=2.0)
    assert room.vote(store, code, ada, number, " 5, 3 ", now=3.0) == "Your vote: low · es · t"
    assert room.vote(store, code, bo, number, "1,2,3,4,5", now=3.0) == "Your vote: l · o · w · e · s · t"
    assert room.vote(store, code, cy, number, "", now=3.0) == "Your vote: lowest (not cut)"
    assert room.vote(store, code, di, number, "3", now=3.0) == "Your vote: low · est"
    for outside in ("0", "6", "x", "-1", "3.5", "99999", "00003", "1" * 5000):
        with pytest.raises(ClassProblem, match='Cut "lowest" between its letters, where the question offers'):
            room.vote(store, code, cy, number, outside, now=4.0)
    assert store.votes(code, number) == {ada: "3,5", bo: "1,2,3,4,5", cy: "", di: "3"}
    room.reveal(store, code, key, now=5.0)
    assert room.results(store, code) == [("Ada", 2), ("Di", 1), ("Bo", 0), ("Cy", 0)]
    room.ask(store, code, key, PAIR, "Step 2", CHOICES, "a + n", now=6.0)
    room.vote(store, code, bo, number + 1, "a + n", now=7.0)
    room.reveal(store, code, key, now=8.0)
    assert room.results(store, code) == [("Ada", 2), ("Bo", 1), ("Di", 1), ("Cy", 0)]  # the points add up


def test_a_right_to_left_word_is_isolated_in_the_sentences_around_it(store):
    """A Hebrew word (shalom) in "Your vote: ..." and the reveal sits between U+2068 and U+2069, so that the
    sentence's full stop and points stay where a reader of the sentence expects them; a Latin word is left alone."""
    code, key = room.start_class(store, now=0.0)
    ada = room.join(store, code, "Ada", now=1.0)
    shalom = "\u05e9\u05dc\u05d5\u05dd"
    number = room.ask(store, code, key, SPLIT, shalom, ("1", "2", "3"), "2", now=2.0)
    assert room.vote(store, code, ada, number, "2", now=3.0) == "Your vote: \u2068\u05e9\u05dc · \u05d5\u05dd\u2069"
    question = room.reveal(store, code, key, now=4.0)
    assert SPLIT.reveal(question) == "Our model splits it: \u2068\u05e9\u05dc · \u05d5\u05dd\u2069."
    assert PAIR.reveal(pair_question()) == "The pair merged: a + n."
    salam = "\u0633\u0644\u0627\u0645"  # Arabic letters: a bidirectional class of their own (AL), isolated too
    assert (
        SPLIT.vote_said(Question(2, "split", salam, ("2",), "2"), "2")
        == f"Your vote: \u2068{salam[:2]} · {salam[2:]}\u2069"
    )


def test_a_split_question_takes_only_the_places_it_offers(store):
    """An accented e (e + a combining accent) is one letter: "ét" offers place 2 only, never 1."""
    code, key = room.start_class(store, now=0.0)
    ada = room.join(store, code, "Ada", now=1.0)
    number = room.ask(store, code, key, SPLIT, "e\u0301t", ("2",), "2", now=2.0)
    with pytest.raises(ClassProblem, match="where the question offers"):
        room.vote(store, code, ada, number, "1", now=3.0)
    assert room.vote(store, code, ada, number, "2", now=3.0) == "Your vote: e\u0301 · t"


@pytest.mark.parametrize(
    ("offered", "answer"),
    [(EVERY_PLACE, ""), (EVERY_PLACE, "0"), (EVERY_PLACE, "6"), (EVERY_PLACE, "5,3"), (EVERY_PLACE, "3,3")]
    + [(EVERY_PLACE, "x"), (("1", "2"), "3"), (("0", "3"), "3"), (("3", "6"), "3"), (("x",), "3")],
)
def test_a_split_question_offers_places_inside_its_word_and_its_answer_among_them(store, offered, answer):
    code, key = room.start_class(store, now=0.0)
    with pytest.raises(ValueError, match="a split question offers places inside its word, its answer one or more"):
        room.ask(store, code, key, SPLIT, "lowest", offered, answer, now=1.0)
    assert store.questions(code) == []


def test_asking_again_closes_the_question_before(store):
    code, key = room.start_class(store, now=0.0)
    ada = room.join(store, code, "Ada", now=1.0)
    first = ask_pair(store, code, key)
    second = room.ask(store, code, key, PAIR, "Step 2", CHOICES, "b + a", now=4.0)
    assert second == first + 1
    with pytest.raises(ClassProblem, match="Too late"):
        room.vote(store, code, ada, first, "a + n", now=5.0)
    assert room.vote(store, code, ada, second, "b + a", now=5.0)


def test_a_withdrawn_question_leaves_every_screen_and_the_next_is_numbered_after_it(store):
    """The teacher's model changed to one with no race at the step shown: the open question is withdrawn (no screen
    shows it, no vote is taken for it), and the next question asked is number 2, not number 1 again."""
    code, key = room.start_class(store, now=0.0)
    ada = room.join(store, code, "Ada", now=1.0)
    first = ask_pair(store, code, key)
    room.vote(store, code, ada, first, "n + a", now=4.0)
    room.withdraw(store, code, key, now=5.0)
    assert store.class_record(code).question == 0  # every screen waits for the next question
    with pytest.raises(ClassProblem, match="Too late"):
        room.vote(store, code, ada, first, "a + n", now=6.0)
    with pytest.raises(ClassProblem, match="Only the teacher"):
        room.withdraw(store, code, "not the key", now=6.0)
    second = room.ask(store, code, key, PAIR, "Step 1", CHOICES, "b + a", now=7.0)
    assert second == 2 and store.votes(code, second) == {}  # her vote stays with the question withdrawn
    assert store.votes(code, first) == {ada: "n + a"}


def test_the_longest_token_leaves_out_the_merge_whose_vote_is_open():
    """At step 3 with its pair question open, the class has seen two merges made; once it is revealed (or another
    question closed it), three."""
    open_pair = Question(5, "pair", "Step 3", CHOICES, "a + n")
    assert merges_seen(3, open_pair) == 2
    assert merges_seen(3, open_pair.replace(revealed=True)) == 3
    assert merges_seen(3, Question(6, "longest", "After step 3", ("ab", "abc", "c"), "abc")) == 3
    assert merges_seen(3, None) == 3


def test_a_class_ends_by_the_teacher_or_after_four_idle_hours(store):
    code, key = room.start_class(store, now=0.0)
    ada = room.join(store, code, "Ada", now=100.0)
    ask_pair(store, code, key, now=200.0)
    room.vote(store, code, ada, 1, "a + n", now=300.0)  # a vote is activity too
    assert room.open_class(store, code, now=300.0 + IDLE_SECONDS - 1)
    with pytest.raises(ClassProblem, match="is over"):
        room.open_class(store, code, now=300.0 + IDLE_SECONDS)
    with pytest.raises(ClassProblem, match="is over"):
        room.reveal(store, code, key, now=300.0 + IDLE_SECONDS)

    code, key = room.start_class(store, now=0.0)
    with pytest.raises(ClassProblem, match="Only the teacher"):
        room.end_class(store, code, "not the key", now=1.0)
    room.end_class(store, code, key, now=1.0)
    with pytest.raises(ClassProblem, match="is over"):
        room.join(store, code, "Ada", now=2.0)


def test_reveal_needs_a_question(store):
    code, key = room.start_class(store, now=0.0)
    with pytest.raises(ClassProblem, match="Ask a question first"):
        room.reveal(store, code, key, now=1.0)


def test_a_question_of_a_kind_this_app_does_not_ask_is_one_clear_error(store):
    """A store written by another version of the app: voting and scoring refuse it alike (kinds.kind_of)."""
    code, key = room.start_class(store, now=0.0)
    ada = room.join(store, code, "Ada", now=1.0)
    store.put_question(code, Question(1, "poll", "Tea or coffee?", ("tea", "coffee"), "tea"))
    store.update_class(code, 2.0, question=1)
    with pytest.raises(
        ValueError,
        match="unknown question kind 'poll' \\(this app asks: pair, longest, count, model_count, split, costliest\\)",
    ):
        room.vote(store, code, ada, 1, "tea", now=3.0)
    room.reveal(store, code, key, now=4.0)
    with pytest.raises(ValueError, match="unknown question kind 'poll'"):
        room.results(store, code)


def test_a_pair_question_needs_its_answer_among_its_choices(store):
    code, key = room.start_class(store, now=0.0)
    with pytest.raises(ValueError, match="a pair question needs its answer among its choices"):
        room.ask(store, code, key, PAIR, "Step 1", CHOICES, "x + y", now=1.0)
    assert room.ask(store, code, key, COUNT, "Hello world", (), "2", now=1.0) == 1  # a count has no choices


@pytest.mark.parametrize(
    "lookalike",
    [
        "\u0410da",  # Cyrillic capital A
        "Ada\u034f",  # a combining grapheme joiner, which draws nothing
        "Ada\ufe0f",  # a variation selector
        "\uff21\uff44\uff41",  # fullwidth letters
        "A\u200bda",  # a zero-width space inside
        "A\u0064\u0061",  # the same letters written as escapes: the same name
    ],
)
def test_a_name_that_looks_like_one_taken_is_refused(store, lookalike):
    code, _ = room.start_class(store, now=0.0)
    ada = room.join(store, code, "Ada", now=1.0)
    with pytest.raises(ClassProblem, match="or a name that looks the same"):
        room.join(store, code, lookalike, now=2.0)
    assert store.students(code) == {ada: "Ada"}
    assert room.join(store, code, "Adam", now=3.0)  # a different name still joins


@pytest.mark.parametrize("first", ["Bob", "Max"])
def test_a_capital_lookalike_cannot_join_beside_the_name_it_imitates(store, first):
    """The issue's names: Cyrillic В and М, Greek Β and Μ, Cherokee Ᏼ in front of a name already taken."""
    code, _ = room.start_class(store, now=0.0)
    room.join(store, code, first, now=1.0)
    lookalikes = {"Bob": ["\u0412ob", "\u0392ob", "\u13f4ob", "bob"], "Max": ["\u041cax", "\u039cax", "MAX"]}[first]
    for name in lookalikes:
        with pytest.raises(ClassProblem, match="or a name that looks the same"):
            room.join(store, code, name, now=2.0)
    assert list(store.students(code).values()) == [first]
