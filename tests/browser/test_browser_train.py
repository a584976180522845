"""The Train page in a real browser: presets, pasting, uploading, training, and coming back to it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import pytest
from support.browser import MAIN, click_nav, exception_texts, open_app, open_section, wait_for_app
from support.browser_pages import TRAIN_BUTTON, choose_corpus, train
from support.screens import PHONE, PROJECTOR, overlapping_elements, page_width

from bpe_core.formats import model_from_json
from pages.train.views.progress import STARTING

pytestmark = pytest.mark.browser

# Train with the sample trained by words + </w> (the page's defaults are byte-level): the form and the model in words
WORDS_ADDRESS = "Train?" + urlencode(
    {"preset": "sample", "merges": "2000", "split": "whitespace", "eow": "</w>", "units": "chars", "tie": "first"}
)
MERGE_TABLE = f'{MAIN} [data-testid="stDataFrame"]'
PROGRESS = f'{MAIN} [data-testid="stProgress"]'
# The texts the training status shows, in order, as the page changes: the bar's, and the spinner's (which
# Streamlit shows half a second after training starts, with the time elapsed).
RECORD_STATUS_JS = """() => {
  window.__bar = []; window.__spinner = [];
  const note = (list, text) => { if (text && list[list.length - 1] !== text) list.push(text); };
  new MutationObserver(() => {
    const spinner = document.querySelector('[data-testid="stMain"] [data-testid="stSpinner"]');
    const bar = document.querySelector('[data-testid="stMain"] [data-testid="stProgress"]');
    if (spinner) note(window.__spinner, spinner.innerText.trim());
    if (bar) note(window.__bar, bar.innerText.trim());
  }).observe(document, {subtree: true, childList: true, characterData: true});
}"""
# Counts every change to the settings column (the second column of the page) from now on.
WATCH_THE_FORM_JS = """() => {
  window.__formChanges = 0;
  const form = document.querySelectorAll('[data-testid="stMain"] [data-testid="stColumn"]')[1];
  new MutationObserver(changes => { window.__formChanges += changes.length; })
    .observe(form, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def first_merges(page) -> str:
    return page.locator(f"{MAIN} [data-testid='stHtml']").filter(has_text="First merges").inner_text()


def assert_clean(page) -> None:
    assert exception_texts(page) == []
    assert page.page_errors == []
    assert page.dialogs == []


def test_default_model_then_preset_survives_a_page_switch(app_server, page, screenshot):
    open_app(page, app_server, "Train")
    assert page.locator(MERGE_TABLE).count() == 0  # the table of all merges is drawn only when opened
    page.get_by_text("All merges, as a table").click()
    wait_for_app(page)
    assert page.locator(MERGE_TABLE).is_visible()
    assert "t h → th" in first_merges(page)  # the KJV sample's first merge
    screenshot(page, "default", whole=True)

    choose_corpus(page, "Textbook: banana_bandana_")
    train(page)
    merges = first_merges(page)
    assert "a n → an" in merges and "b an → ban" in merges
    assert page.locator(MERGE_TABLE).is_visible()
    assert "preset=banana_bandana" in page.url and "merges=6" in page.url
    screenshot(page, "banana_bandana", whole=True)

    click_nav(page, "Merges")
    click_nav(page, "Train")
    assert "a n → an" in first_merges(page)
    assert page.locator(MERGE_TABLE).is_visible()  # still open
    corpus_box = page.locator(f'{MAIN} [data-testid="stSelectbox"]').filter(has_text="Corpus")
    assert corpus_box.locator("input").input_value() == "Textbook: banana_bandana_"
    assert_clean(page)
    screenshot(page, "after_page_switch", whole=True)


@pytest.mark.parametrize("size", [{"width": 1400, "height": 900}, PHONE])
def test_a_textbook_size_stays_behind_on_a_real_corpus(app_server, page, size):
    """ "low" trains vocabulary 50 at min frequency 2; moving to the Bible brings back its own sizes and says so in
    a caption beside the settings, not in a toast over the page (on a phone it covered the title and Train)."""
    page.set_viewport_size(size)
    open_app(page, app_server, "Train")
    choose_corpus(page, "Textbook: low lower newest widest")
    choose_corpus(page, "Real text: King James Bible")
    note = page.locator(f'{MAIN} [data-testid="stCaptionContainer"]').filter(has_text="Changed for this corpus")
    assert "stop after 2,000 merges (was: stop at a vocabulary of 50 tokens)" in note.inner_text()
    assert page.locator('[data-testid="stToast"]').count() == 0
    train(page)
    assert "2,000 of them made by merges" in page.locator('[data-testid="stSidebar"]').inner_text()
    assert_clean(page)


def test_pasted_corpus_trains(app_server, page, screenshot):
    open_app(page, app_server, "Train")
    choose_corpus(page, "Paste your own text")
    area = page.locator(f"{MAIN} textarea")
    area.fill("low lower lowest low low")
    area.press("Control+Enter")
    wait_for_app(page)
    train(page)
    assert "l o → lo" in first_merges(page)
    assert "preset=paste" in page.url

    open_section(page, "Save or load a tokenizer")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download model JSON").first.click()
    saved = model_from_json(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved.merges[0] == ("l", "o")
    assert_clean(page)
    screenshot(page, whole=True)


def test_the_first_click_after_typing_trains(app_server, page, screenshot):
    """No Ctrl+Enter, no click elsewhere: the text box hands over its text as the click takes the focus."""
    open_app(page, app_server, "Train")
    choose_corpus(page, "Paste your own text")
    assert page.locator(TRAIN_BUTTON).is_enabled()
    page.locator(f"{MAIN} textarea").fill("hug hug pug hug")
    train(page)
    assert "u g → ug" in first_merges(page)
    assert "Trained on: your pasted text" in page.locator(MAIN).inner_text()
    assert_clean(page)
    screenshot(page)


def test_a_press_redraws_the_result_and_a_new_model_the_sidebar_too(app_server, page, screenshot):
    """Train again on the same settings: only the button and the result are drawn again (redrawing the form took
    longer than the press). A new model reruns the whole page, so the sidebar names it."""
    open_app(page, app_server, "Train")
    sidebar = page.locator('[data-testid="stSidebar"]')
    assert "2,000 of them made by merges" in sidebar.inner_text()
    page.evaluate(WATCH_THE_FORM_JS)
    train(page)
    assert page.evaluate("window.__formChanges") == 0
    assert "t h → th" in first_merges(page)

    merges = page.locator(f'{MAIN} [data-testid="stNumberInput"]').filter(has_text="Merges").locator("input")
    merges.fill("40")
    merges.press("Enter")
    wait_for_app(page)
    train(page)
    assert "40 of them made by merges" in sidebar.inner_text()
    assert "merges=40" in page.url
    assert_clean(page)
    screenshot(page)


@pytest.mark.parametrize("size", [{"width": 1400, "height": 900}, PHONE])
def test_an_empty_corpus_answers_the_click_with_a_warning_in_view(app_server, page, size):
    """The warning is scrolled into view as a result is (under the form it was below the fold), and says the result
    under it is the model from before."""
    page.set_viewport_size(size)
    open_app(page, app_server, "Train")
    choose_corpus(page, "Paste your own text")
    train(page)
    warning = page.locator(f'{MAIN} [data-testid="stAlertContentWarning"]').filter(
        has_text="Choose or enter a corpus to train on. Nothing was trained: the result below is still the current"
    )
    assert warning.count() == 1
    page.wait_for_function(  # the scroll runs in the next frame
        "(el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }",
        arg=warning.element_handle(),
        timeout=5_000,
    )
    assert_clean(page)


def test_upload_rejects_latin1_and_accepts_utf8(app_server, page, screenshot):
    open_app(page, app_server, "Train")
    choose_corpus(page, "Upload .txt files")
    page.locator(f'{MAIN} input[type="file"]').first.set_input_files(
        [
            {"name": "latin1.txt", "mimeType": "text/plain", "buffer": "café au lait".encode("latin-1")},
            {"name": "good.txt", "mimeType": "text/plain", "buffer": "\ufeffhug hug pug".encode("utf-8")},
        ]
    )
    wait_for_app(page)
    error = page.locator(f'{MAIN} [data-testid="stAlert"]').filter(has_text="latin1.txt")
    assert "not UTF-8" in error.inner_text()
    train(page)
    assert "u g → ug" in first_merges(page)
    assert_clean(page)
    screenshot(page, whole=True)


def test_the_largest_recipe_shows_its_progress_from_the_click_on(app_server, page, screenshot):
    """minbpe basic on the 1 MB sample: one piece of a million bytes, the longest training of the recipes."""
    open_app(page, app_server, "Train")
    page.get_by_role("button", name="minbpe basic").click()
    wait_for_app(page)
    merges = page.locator(f'{MAIN} [data-testid="stNumberInput"]').filter(has_text="Merges").locator("input")
    merges.fill("1500")  # a size no other test trains, so the shared model store cannot answer at once
    merges.press("Enter")
    wait_for_app(page)
    page.evaluate(RECORD_STATUS_JS)
    page.locator(TRAIN_BUTTON).click()
    page.locator(PROGRESS).filter(has_text="Merging").wait_for()
    screenshot(page, "training")
    wait_for_app(page)
    bar, spinner = page.evaluate("window.__bar"), page.evaluate("window.__spinner")
    assert bar[0] == STARTING  # from the click on, before the trainer's first report
    assert bar[1:] and all(text.startswith("Merging: ") and text.endswith(" of 1,500 merges") for text in bar[1:])
    made = [int(text.split()[1].replace(",", "")) for text in bar[1:]]
    assert made == sorted(set(made))  # only forward
    assert spinner and all(text.startswith("Training") and "second" in text for text in spinner)
    assert page.locator(PROGRESS).count() == 0  # gone once trained
    # The most frequent pair of bytes in the sample: "th", 38,045 times (counted with collections.Counter).
    assert "t h → th" in first_merges(page)
    assert "no split · built from bytes" in page.locator(MAIN).inner_text()
    assert_clean(page)
    screenshot(page, "trained", whole=True)


def test_train_fits_a_phone(app_server, page, screenshot):
    open_app(page, app_server, "Train")
    page.set_viewport_size(PHONE)
    for label in ("What the settings mean", "More settings", "All merges, as a table", "Save or load a tokenizer"):
        open_section(page, label)
    assert page_width(page) <= PHONE["width"]  # nothing makes the page scroll sideways
    assert overlapping_elements(page) == []
    stats = [box.bounding_box() for box in page.locator(".bpe-result .stat").all()]
    assert len(stats) == 4 and len({round(box["y"]) for box in stats}) == 2  # two metrics a row
    assert max(box["x"] + box["width"] for box in stats) <= PHONE["width"]
    assert page.locator(MERGE_TABLE).bounding_box()["width"] <= PHONE["width"]  # it scrolls in its own box
    assert_clean(page)
    screenshot(page, "phone", whole=True)


@pytest.mark.parametrize(
    ("size", "address"),
    [
        ({"width": 1400, "height": 900}, WORDS_ADDRESS),
        (PHONE, WORDS_ADDRESS),
        (PROJECTOR, WORDS_ADDRESS + "&present=1"),
    ],
    ids=["desktop", "phone", "projector"],
)
def test_settings_are_said_in_plain_words_with_their_names_on_demand(app_server, page, screenshot, size, address):
    page.set_viewport_size(size)
    open_app(page, app_server, address)
    page.get_by_role("button", name="GPT-2 byte-level (default)").click()
    toast = page.locator('[data-testid="stToast"]').filter(has_text="Changed")
    toast.wait_for()
    # the recipe's changes in the form's words, whole: a toast folds its fourth line away behind "view more"
    said = toast.inner_text()
    assert (
        "Changed split whitespace → gpt2, units characters → bytes, marker </w> → none, tie-break first seen → " in said
    )
    assert "lowest ids." in said
    assert toast.get_by_text("view more").count() == 0
    assert toast.bounding_box()["x"] + toast.bounding_box()["width"] <= size["width"]
    wait_for_app(page)
    open_section(page, "More settings")
    tie_break = page.locator(f'{MAIN} [data-testid="stSelectbox"]').filter(has_text="Tie-break")
    assert (
        tie_break.locator("input").input_value() == "lowest ids"
    )  # the rule in words; "hf" stays the address's and the glossary's
    # The model's settings in words, their own names in the tooltip beside them.
    described = page.locator(f'{MAIN} [data-testid="stMarkdown"]').filter(has_text="equal counts: the pair seen first")
    assert "built from characters · a marker </w> ends each word" in described.inner_text()
    described.locator('[data-testid="stTooltipIcon"]').hover()
    tooltip = page.locator('[data-testid="stTooltipContent"]')
    tooltip.wait_for()
    assert "Pre-tokenization: whitespace · Units: chars (characters) · End-of-word marker: </w>" in tooltip.inner_text()
    assert page_width(page) <= size["width"]
    assert_clean(page)
    screenshot(page, f"plain-settings-{size['width']}")
