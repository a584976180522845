"""The Learn page under Streamlit's AppTest, through app.py's router: the address's example, exercise and step,
answers checked in words, the hints, the step buttons."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest
from support.pages import ok, shown
from support.paths import APP_FILE

from pages.learn import state as learn_state
from session.page_registry import LEARN


def _open_learn(**params: str) -> AppTest:
    """A new session opening Learn at an address with ``params``, as a phone's reload does (AppTest runs the default
    page first, which writes its own address: the page's is given again before Learn runs)."""
    at = AppTest.from_file(APP_FILE, default_timeout=90)
    ok(at.run())
    at.query_params.clear()
    at.query_params.update(params)
    return ok(at.switch_page(LEARN.path).run())


def _answer(at: AppTest, exercise: str, example: str, step: int):
    return (at.radio if exercise == "next" else at.number_input)(key=learn_state.answer_key(exercise, example, step))


def test_low_step_1_a_tie_lost_then_won_in_words():
    at = _open_learn()
    assert at.title[0].value == "Learn"
    assert at.selectbox(key=learn_state.EXAMPLE_KEY).value == "low"  # the first example, step 1, next merge
    words = next(element.value for element in at.get("html") if "bpe-learn-words" in element.value)
    assert words.count('class="bpe-learn-word"') == 4 and "×5" in words and "×1" in words
    answer = _answer(at, "next", "low", 1)
    assert answer.options == ["e + s", "l + o", "o + w", "s + t", "t + _", "w + e"]  # the six tied at 6
    # the question states the rule a tie is settled by, before the first click
    assert answer.label == "Which pair does BPE merge next? When pairs tie, the one that occurs first in the text wins."
    assert not at.success and not at.error  # nothing said before an answer
    ok(answer.set_value(("e", "s")).run())
    assert shown(at.error) == (
        "Not this one: e + s occurs 6 times, as often as 5 other pairs, and the tie goes to l + o, which occurs first."
    )
    ok(_answer(at, "next", "low", 1).set_value(("l", "o")).run())
    assert not at.error
    assert (
        shown(at.success)
        == "Right: l + o merges next. It occurs 6 times, the first of the 6 pairs that occur that often."
    )
    assert "The pair counts now: l + o 6, o + w 6, w + e 6, e + s 6" in shown(at.expander[0].markdown)


def test_the_address_brings_back_example_exercise_and_step():
    at = _open_learn(example="hello", exercise="count", step="3")
    assert at.selectbox(key=learn_state.EXAMPLE_KEY).value == "hello"
    assert at.radio(key=learn_state.EXERCISE_KEY).value == "count"
    assert at.number_input(key=learn_state.STEP_KEY).value == 3
    # after h + e and he + l: hel l o ×2, w o r l d ×2, t he r e ×2, p e a c e ×1, h i ×1; the pair to count is the
    # most frequent one not merged now: hel + l merges (2), and l + o (in hel l o) is the next pair at 2
    answer = _answer(at, "count", "hello", 3)
    assert answer.label == "How many times does l \\+ o occur in the text now?"
    ok(answer.set_value(3).run())
    assert shown(at.error) == "Not quite: l + o occurs 2 times, not 3."
    assert shown(at.expander[0].markdown) == "l + o is in hel l o: count it there, times its ×, and add up."
    ok(_answer(at, "count", "hello", 3).set_value(2).run())
    assert shown(at.success) == "Right: l + o occurs 2 times."
    assert dict(at.query_params) == {"example": "hello", "exercise": "count", "step": "3"}


def test_next_step_moves_on_and_the_address_follows_while_a_bad_step_is_dropped_with_a_warning():
    at = _open_learn(example="banana_bandana", step="99")
    assert "step=99" in shown(at.warning)
    assert at.number_input(key=learn_state.STEP_KEY).value == 1
    next_button = next(button for button in at.button if button.label == "Next step ▶")
    ok(next_button.click().run())
    assert at.number_input(key=learn_state.STEP_KEY).value == 2
    assert dict(at.query_params) == {"example": "banana_bandana", "step": "2"}
    assert "**Step 2 of 6.** Merges so far: a \\+ n." in [markdown.value for markdown in at.markdown]
    # step 2: b a n a n a _ b a n d a n a _ after a + n; b + an occurs 2 times and wins
    ok(_answer(at, "next", "banana_bandana", 2).set_value(("b", "an")).run())
    assert shown(at.success).startswith("Right: b + an merges next. It occurs 2 times")


def test_encode_and_decode_checked_in_words():
    at = _open_learn(example="low", exercise="encode", step="4")
    answer = at.text_input(key=learn_state.answer_key("encode", "low", 4))
    assert answer.label.startswith("Encode “lowest” with the merges so far")
    ok(answer.set_value("low est _").run())
    assert shown(at.error) == "Not quite: after 3 merges lowest is low es t _ (4 tokens), not low est _."
    assert "after e + s: low es t _" in shown(at.expander[0].markdown)
    ok(at.text_input(key=learn_state.answer_key("encode", "low", 4)).set_value("low es t _").run())
    assert shown(at.success) == "Right: lowest is low es t _ (4 tokens) after 3 merges."

    ok(at.radio(key=learn_state.EXERCISE_KEY).set_value("decode").run())
    # <unk> 0, _ 1, d 2, e 3, i 4, l 5, n 6, o 7, r 8, s 9, t 10, w 11, lo 12, low 13, es 14: newest is n e w es t _
    answer = at.text_input(key=learn_state.answer_key("decode", "low", 4))
    assert answer.label == "Which word do the ids 6, 3, 11, 14, 10, 1 spell?"
    vocabulary = next(element.value for element in at.get("html") if "The vocabulary now" in element.value)
    assert '14 =</span><span class="sym">es</span>' in vocabulary and "&lt;unk&gt;" in vocabulary
    ok(answer.set_value("newest").run())
    assert shown(at.success) == "Right: the ids spell newest."
    assert "14 = es" in shown(at.expander[0].markdown)
    assert dict(at.query_params) == {"exercise": "decode", "step": "4"}  # the first example, the default, left out
    assert "Key: _ ends a word." in shown(at.caption)


def test_banana_s_space_mark_is_named_and_typed_as_an_underscore():
    at = _open_learn(example="banana", exercise="encode", step="3")
    assert "Key: Ġ is a space (type it as _ in an answer)." in shown(at.caption)
    ok(at.text_input(key=learn_state.answer_key("encode", "banana", 3)).set_value("ban an a _ ban").run())
    assert shown(at.success) == "Right: banana ban is ban an a Ġ ban (5 tokens) after 2 merges."


def test_a_typed_answer_is_shown_as_text_and_a_hostile_address_gives_the_defaults():
    at = _open_learn(example="<script>", exercise="encode", step="2")
    assert "example=<script>: " in shown(at.warning) and at.selectbox(key=learn_state.EXAMPLE_KEY).value == "low"
    typed = "<img src=x onerror=alert(1)> :red[x] **b**"
    ok(at.text_input(key=learn_state.answer_key("encode", "low", 2)).set_value(typed).run())
    (said,) = at.error
    assert said.value.endswith(r"not \<img src\=x onerror\=alert\(1\)\> \:red\[x\] \*\*b\*\*\.")  # every mark escaped
    assert shown(at.error).endswith(f"not {typed}.")


def test_a_step_past_the_examples_merges_shows_its_last_and_says_so():
    at = _open_learn(example="banana_bandana", step="8")  # a whole number the address allows; this example has 6
    assert shown(at.info) == "Step 8 is past the 6 merges of banana_bandana_: here is step 6."
    assert at.number_input(key=learn_state.STEP_KEY).value == 6
    assert dict(at.query_params) == {"example": "banana_bandana", "step": "6"}


def test_the_encode_box_shows_how_an_answer_is_typed_marks_included():
    """low's words end in _, which its answer needs: the empty box says "e.g. l o w _", not "e.g. l o w"."""
    at = _open_learn(example="low", exercise="encode", step="4")
    box = at.text_input(key=learn_state.answer_key("encode", "low", 4))
    assert box.placeholder == "e.g. l o w _"
    ok(box.input("low es t _").run())
    assert shown(at.success) == "Right: lowest is low es t _ (4 tokens) after 3 merges."


def test_which_language_costs_most_is_answered_in_words_without_the_step():
    at = _open_learn(exercise="premium")
    assert at.radio(key=learn_state.EXERCISE_KEY).value == "premium"
    assert not at.number_input and not at.selectbox and not at.button  # no example, no step beyond the textbook
    assert "Universal Declaration of Human Rights" in shown(at.caption)  # the texts' source is named
    answer = at.radio(key=learn_state.answer_key("premium", "gpt4", 1))
    assert answer.options == ["English", "Chinese (Mandarin)", "Hindi", "Greek"]
    ok(answer.set_value("hin").run())
    assert shown(at.error).startswith("Not this one: Hindi takes 1,788 tokens, and Greek needs more.")  # tiktoken's
    ok(at.radio(key=learn_state.answer_key("premium", "gpt4", 1)).set_value("ell").run())
    assert "Greek 2,796 tokens (7.7 times English's 362)" in shown(at.success)
    assert at.query_params["exercise"] == "premium"


def test_the_prompt_s_last_token_shows_the_lone_space_and_explains_token_healing():
    at = _open_learn(exercise="healing")
    assert "“The” “\u00a0answer” “\u00a0is” “\u00a0”" in shown(at.markdown)  # GPT-2's cut of “The answer is ”
    ok(at.radio(key=learn_state.answer_key("healing", "gpt2", 1)).set_value("apart").run())
    assert shown(at.error).startswith("Not quite: GPT-2 cuts “The answer is the” ending in “\u00a0the”, one token.")
    assert "Token healing" in shown(at.error)
    ok(at.radio(key=learn_state.EXERCISE_KEY).set_value("count").run())  # back to the textbook: example and step
    assert at.selectbox(key=learn_state.EXAMPLE_KEY).value == "low"
    assert at.number_input(key=learn_state.STEP_KEY).value == 1
