"""The live class's views: questions made from a model (checked against the textbook and tiktoken), the tally
figure, and every name and choice escaped."""

from __future__ import annotations

from bpe_core import textbook
from pages.classroom.views.live_view import count_result, follow_html, names_html, scoreboard_html, tally_figure
from pages.classroom.views.questions import CHOICES, gpt4_count, pair_question

HOSTILE = "<img src=x onerror=alert(1)>"


def test_each_step_asks_for_the_pair_the_textbook_merges(banana):
    """banana_bandana_: a+n, b+an, an+a, ana+_, ban+ana_, banana_+ban (the banana fixture, by hand)."""
    expected = textbook.train_merges("banana_bandana_", banana.config, merges=6)
    for step, (left, right) in enumerate(expected, start=1):
        prompt, choices, answer = pair_question(banana, step) or ("", (), "")
        assert prompt == f"Step {step}" and answer == f"{left} + {right}"
        assert answer in choices and len(set(choices)) == len(choices) <= CHOICES
        assert list(choices) == sorted(choices)  # reading order: the winner's place gives nothing away
    assert pair_question(banana, 0) is None and pair_question(banana, 7) is None


def test_the_first_step_offers_the_best_rivals(banana):
    """Before step 1, b a n a n a _ b a n d a n a _ has a+n 4 times, n+a 3, b+a and a+_ twice, _+b, n+d and d+a
    once: the three best rivals of a+n are n+a, b+a and a+_."""
    _, choices, _ = pair_question(banana, 1)
    assert choices == ("a + _", "a + n", "b + a", "n + a")


def test_the_count_question_is_gpt4s_own_count(tiktoken_module):
    reference = tiktoken_module.get_encoding("cl100k_base")
    for sentence in ("Hello world", "Tokenizers cut unbelievably long words.", "日本語のテキスト 🙂"):
        assert gpt4_count(sentence) == len(reference.encode(sentence))


def test_the_tally_marks_the_answer_only_after_the_reveal():
    before = tally_figure([("a + n", 2), ("n + a", 0)])
    after = tally_figure([("a + n", 2), ("n + a", 0)], answer="n + a")
    assert list(before.data[0].y) == ["a + n", "n + a"] and list(before.data[0].x) == [2, 0]
    assert len(set(before.data[0].marker.color)) == 1
    assert after.data[0].y[0] == "a + n" and "n + a ✓" in after.data[0].y[1]
    assert after.data[0].marker.color[1] != after.data[0].marker.color[0]
    # the counts read level and large on a projector: plotly would turn them to fit a thin bar
    assert (after.data[0].textangle, after.data[0].textfont.size, after.data[0].textposition) == (0, 18, "outside")


def test_names_choices_and_sentences_stay_literal():
    assert HOSTILE not in names_html([HOSTILE]) and "&lt;img src=x onerror=alert(1)&gt;" in names_html([HOSTILE])
    assert HOSTILE not in scoreboard_html([(HOSTILE, 1)])
    assert HOSTILE not in follow_html("ABCDE", 2, HOSTILE)
    settings = f'" onmouseover="alert(1)" {HOSTILE}'  # a second line: the settings, as a tooltip and folded
    banner = follow_html("ABCDE", 2, f"our model\n{settings}")
    assert HOSTILE not in banner and '" onmouseover' not in banner and banner.count("&quot; onmouseover") == 2
    assert "<img" not in "".join(tally_figure([(HOSTILE, 1)]).data[0].y)


def test_the_count_result_names_every_closest_guess():
    students = {"s1": "Ada", "s2": "Bo", "s3": "Cy"}
    said = count_result("GPT-4 uses", 10, {"s1": "8", "s2": "12", "s3": "11"}, students)
    assert said == "GPT-4 uses 10 tokens. Closest: Cy (11)."
    said = count_result("Our model uses", 10, {"s1": "8", "s2": "12"}, students)
    assert said == "Our model uses 10 tokens. Closest: Ada (8), Bo (12)."


def test_a_byte_level_models_pairs_are_the_text_they_spell():
    """ "low lower lowest" in GPT-2's recipe: pieces low, ␣lower, ␣lowest; l+o and o+w occur 3 times each and
    ␣+l twice. l+o wins the tie (seen first, and the smaller ids), and a space is written ␣, never GPT-2's Ġ."""
    from bpe_core import Config, train

    model = train("low lower lowest", Config(split="gpt2", units="bytes"), merges=2)
    _, choices, answer = pair_question(model, 1)
    assert answer == "l + o"
    assert "␣ + l" in choices and not any("Ġ" in choice for choice in choices)


def test_a_right_to_left_name_keeps_the_sentence_around_it_in_order():
    dana = "\u05d3\u05e0\u05d4"
    said = count_result("GPT-4 uses", 7, {"s1": "5", "s2": "9"}, {"s1": dana, "s2": "Bo"})
    assert said == f"GPT-4 uses 7 tokens. Closest: \u2068{dana}\u2069 (5), Bo (9)."
