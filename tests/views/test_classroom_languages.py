"""The class's languages question (pages/classroom/views/questions.py): its first languages under GPT-4, counted by
tiktoken, and the choices it refuses in words."""

import pytest

from bpe_core.languages import bundled_texts
from pages.classroom.views.questions import LANGUAGES, costliest_question

NAMES = {"eng": "English", "cmn": "Chinese (Mandarin)", "hin": "Hindi", "ell": "Greek"}


def test_the_first_languages_under_gpt4_make_greek_the_costliest(tiktoken_module):
    encoding = tiktoken_module.get_encoding("cl100k_base")
    counts = {code: len(encoding.encode_ordinary(text)) for code, text in bundled_texts(LANGUAGES).items()}
    assert max(counts, key=counts.get) == "ell"
    assert costliest_question(counts, NAMES, "GPT-4") == (
        "The same text in each, counted by GPT-4",
        ("Chinese (Mandarin)", "English", "Greek", "Hindi"),
        "Greek",
    )


def test_a_tie_for_the_most_tokens_or_a_wrong_number_of_languages_is_refused_in_words():
    with pytest.raises(ValueError, match="^Hindi and Greek need as many tokens: choose others.$"):
        costliest_question({"eng": 3, "hin": 9, "ell": 9}, NAMES, "our model")
    with pytest.raises(ValueError, match="^Choose two to 4 languages.$"):
        costliest_question({"eng": 3}, NAMES, "GPT-4")
