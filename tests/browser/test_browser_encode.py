"""The Encode / Decode page in a real browser: colours, hovers, partial characters, XSS payloads, live typing."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from support.browser import choose_option, click_nav, exception_texts, open_app, open_section, wait_for_app
from support.browser_pages import TOKEN_BOXES
from support.screens import PHONE, PROJECTOR, overlapping_elements, page_on, page_width

from pages.encode.live_text import LIVE_MAX_CHARS
from session.page_registry import PAGES

LAPTOP = {"width": 1280, "height": 800}

pytestmark = pytest.mark.browser

TOKEN_TABLE = ".bpe-tt"  # the token table (drawing.card_table)
XSS_TEXT = "<img src=x onerror=alert(1)> and <script>alert(1)</script>"

_BOX_STYLES_JS = """
(selector) => Array.from(document.querySelectorAll(selector)).map((el) => {
  const style = getComputedStyle(el);
  return {background: style.backgroundColor, border: parseFloat(style.borderTopWidth),
          details: el.getAttribute('data-details'), text: el.innerText};
})
"""


def open_encode(page, base_url: str) -> None:
    # Through the router: a direct /Encode URL would run the page without app.py around it.
    open_app(page, base_url)
    click_nav(page, "Encode / Decode")
    page.wait_for_selector(TOKEN_BOXES)


# The small screens Encode is checked on: the window, the address, whether it is a touch screen
SMALL_ENCODE = {"phone": (PHONE, "", True), "projector": (PROJECTOR, "Encode?present=1", False)}


@pytest.fixture
def small_encode(browser, app_server, request):
    """The Encode page on a small screen: a touch phone, opened at desktop width (where the menu is open), then
    390x844; or, when a test asks for ``projector`` (indirect), presenting at 853x480."""
    size, address, touch = SMALL_ENCODE[getattr(request, "param", "phone")]
    with page_on(browser, LAPTOP, touch) as page:
        if address:
            open_app(page, app_server, address)
            page.wait_for_selector(TOKEN_BOXES)
        else:
            open_encode(page, app_server)
        page.set_viewport_size(size)
        yield page


def encode_text(page, text: str) -> None:
    box = page.get_by_label("Text to encode")
    box.fill(text)
    box.press("Control+Enter")
    wait_for_app(page)


def choose_tokenizer(page, label: str) -> None:
    choose_option(page, "Tokenizer", label)


WHY, DECODE, TABLE = "Why this split?", "Decode: token ids back to text", "Token table: one row per token"
IDS_SECTION = ".st-key-encode_token_ids"  # the folded "Token ids" (its label is also part of Decode's)


def shown_ids(page) -> str:
    """The token ids, "Token ids" opened first if it is folded."""
    if page.locator(f"{IDS_SECTION} details[open]").count() == 0:
        page.locator(f"{IDS_SECTION} summary").click()
        wait_for_app(page)
    return page.locator(f'{IDS_SECTION} [data-testid="stCode"]').inner_text().strip()


def token_area_text(page) -> str:
    """What the token boxes read as, with the space glyph turned back into a space."""
    return page.locator(".bpe-scroll").first.inner_text().replace("␣", " ")


def test_tokens_are_coloured_bordered_and_hoverable(app_server, page, screenshot):
    open_encode(page, app_server)
    boxes = page.evaluate(_BOX_STYLES_JS, TOKEN_BOXES)
    assert len(boxes) > 20
    assert all(a["background"] != b["background"] for a, b in zip(boxes, boxes[1:]))
    assert all(box["border"] >= 1 for box in boxes)  # boundaries visible without colour
    assert boxes[0]["details"].startswith("id ") and "bytes 48" in boxes[0]["details"]  # 'H' of the example
    # the default model is byte-level and its corpus (the sample) is ASCII: the example's é, 🙂 and … are each cut
    # into their bytes, one group of boxes a character, and none is <unk>
    assert not any(box["text"] == "<unk>" for box in boxes)
    assert page.locator(".bpe-scroll .char-group").count() == 3
    page.locator(TOKEN_BOXES).first.hover()
    assert exception_texts(page) == [] and page.page_errors == []
    screenshot(page, whole=True)


def test_gpt2_emoji_is_grouped_as_hex_bytes(app_server, page, screenshot):
    open_encode(page, app_server)
    choose_tokenizer(page, "GPT-2")
    encode_text(page, "Hello, ByteLevel BPE! a 😀 café\n\ttab")
    group = page.locator(".bpe-scroll .char-group")
    assert group.count() == 1
    assert group.locator(".tok").count() == 2
    assert "F0 9F 98" in group.inner_text()
    assert "\ufffd" not in token_area_text(page)
    assert shown_ids(page).startswith("15496, 11, 30589, 4971, 347, 11401, 0")
    assert page.locator('[data-testid="stAlert"]').filter(has_text="Round trip OK").count() == 1
    screenshot(page, whole=True)


def test_html_payloads_show_as_text_and_never_run(app_server, page, screenshot):
    open_encode(page, app_server)
    choose_tokenizer(page, "GPT-2")
    encode_text(page, XSS_TEXT)
    assert XSS_TEXT in token_area_text(page)
    assert page.locator('img[src="x"]').count() == 0
    open_section(page, DECODE)
    ids = page.get_by_label("Token ids (comma or space separated)")
    ids.fill("<img src=x onerror=alert(1)>")
    ids.press("Enter")
    wait_for_app(page)
    error = page.locator('[data-testid="stAlert"]').filter(has_text="Cannot read the ids").inner_text()
    assert "'<img'" in error
    page.get_by_role("button", name="Use ids above").click()
    wait_for_app(page)
    decoded = page.locator('[data-testid="stCode"]').last.inner_text()
    assert decoded.strip() == XSS_TEXT
    page.wait_for_timeout(500)
    assert page.dialogs == []
    assert page.locator('img[src="x"]').count() == 0
    assert exception_texts(page) == [] and page.page_errors == []
    screenshot(page, whole=True)


def test_prefix_slider_and_replay(app_server, page, screenshot):
    open_encode(page, app_server)
    choose_tokenizer(page, "Prefix of the trained model")
    full_count = page.locator(TOKEN_BOXES).count()
    slider = page.locator('[data-testid="stSlider"] input[type="range"]')
    slider.focus()
    slider.press("Home")  # 0 merges: every character is its own token
    wait_for_app(page)
    assert page.locator(TOKEN_BOXES).count() > full_count
    assert page.locator(".step-row").count() == 0  # "Why this split?" is drawn only when opened
    open_section(page, WHY)
    assert page.locator(".step-row").count() == 1  # nothing to replay without merges
    assert page.get_by_text("No merge applies to this piece").is_visible()
    assert page.get_by_text("first 0 of 2000 merges", exact=False).is_visible()
    screenshot(page, whole=True)


def metric_value(page, label: str) -> str:
    return (
        page.locator('[data-testid="stMetric"]')
        .filter(has=page.get_by_text(label, exact=True))
        .locator('[data-testid="stMetricValue"]')
        .inner_text()
    )


def test_gpt4o_shows_count_and_ids_then_special_tokens_as_text(app_server, page, screenshot):
    open_encode(page, app_server)
    choose_tokenizer(page, "GPT-4o and GPT-5 (o200k_base)")
    assert page.get_by_text("The tokenizer of GPT-4o, GPT-4o mini", exact=False).is_visible()
    encode_text(page, "Hello, world!<|endoftext|>")
    assert metric_value(page, "Tokens") == "5"
    assert metric_value(page, "Characters per token") == "5.20"  # 26 characters / 5 tokens
    assert shown_ids(page) == "13225, 11, 2375, 0, 199999"  # tiktoken's ids; <|endoftext|> is o200k's 199999
    screenshot(page, "desktop", whole=True)

    page.get_by_text("Match special tokens", exact=True).click()
    wait_for_app(page)
    ids = shown_ids(page)
    assert ids.startswith("13225, 11, 2375, 0, ") and "199999" not in ids  # now ordinary text, several tokens
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(500)
    screenshot(page, "phone", whole=True)
    assert exception_texts(page) == [] and page.page_errors == []


def test_the_text_typed_on_encode_is_the_text_on_compare(app_server, page, screenshot):
    open_encode(page, app_server)
    area = page.locator('[data-testid="stMain"] [data-testid="stTextArea"] textarea').first
    area.fill("Tokenizers cut text, and Compare counts it.")
    area.press("Control+Enter")
    wait_for_app(page)
    click_nav(page, "Compare")
    compare_area = page.locator('[data-testid="stMain"] [data-testid="stTextArea"] textarea').first
    assert compare_area.input_value() == "Tokenizers cut text, and Compare counts it."
    compare_area.fill("Back to Encode with this.")
    compare_area.press("Control+Enter")
    wait_for_app(page)
    click_nav(page, "Encode / Decode")
    assert area.input_value() == "Back to Encode with this."
    assert exception_texts(page) == [] and page.page_errors == []
    screenshot(page)


def test_choices_outlive_a_visit_to_another_page(app_server, page):
    """Encode's tokenizer, open sections and what was chosen and typed in them, the Merges step and Compare's open
    tab are as the user left them after a visit to another page."""
    open_encode(page, app_server)
    choose_tokenizer(page, "GPT-2")
    encode_text(page, "the unbelievable cat<|endoftext|>")
    open_section(page, WHY)
    # in view first: a click that scrolls the page does not open the list
    page.locator('[data-testid="stSelectbox"]').filter(has_text="Piece").scroll_into_view_if_needed()
    choose_option(page, "Piece", "␣cat")
    page.get_by_text("Match special tokens", exact=True).click()  # off: <|endoftext|> as ordinary text
    wait_for_app(page)
    open_section(page, DECODE)
    ids = page.get_by_label("Token ids (comma or space separated)")
    ids.fill("15496, 11")
    ids.press("Enter")
    wait_for_app(page)
    click_nav(page, "Merges")
    click_nav(page, "Encode / Decode")
    assert page.get_by_text("GPT-2: a vocabulary of 50,257 tokens, 50,000 of them made by merges").count() == 1
    assert not page.get_by_role("switch", name="Match special tokens").is_checked()
    assert page.get_by_role("combobox", name="Piece").input_value() == "␣cat"
    assert ids.input_value() == "15496, 11"
    assert page.locator('[data-testid="stCode"]').last.inner_text().strip() == "Hello,"
    assert page.locator(TOKEN_TABLE).count() == 0  # the table stays closed
    click_nav(page, "Merges")
    for _ in range(2):
        page.get_by_role("button", name="Next ▶").click()
        wait_for_app(page)
    step = (
        page.locator('[data-testid="stSlider"]').filter(has_text="Step").locator('[data-testid="stSliderThumbValue"]')
    )
    assert step.inner_text() == "3"
    click_nav(page, "Train")
    click_nav(page, "Merges")
    assert step.inner_text() == "3"
    click_nav(page, "Compare")
    page.get_by_role("tab", name="Real tokenizers").click()
    wait_for_app(page)
    click_nav(page, "Train")
    click_nav(page, "Compare")
    assert page.get_by_role("tab", name="Real tokenizers").get_attribute("aria-selected") == "true"
    assert exception_texts(page) == [] and page.page_errors == []


IDS_SHOWN_JS = (  # read while folded too
    "(ids) => document.querySelector('.st-key-encode_token_ids [data-testid=\"stCode\"]')?.textContent.trim() === ids"
)
FOCUS_JS = "() => [document.activeElement.getAttribute('aria-label'), document.activeElement.selectionStart]"
# Counts the Ctrl+Enter presses the page makes itself (untrusted events): one per pause in typing.
COUNT_COMMITS_JS = """() => { window.bpeCommits = 0; document.addEventListener('keydown', (event) => {
  if (!event.isTrusted && event.key === 'Enter' && event.ctrlKey) window.bpeCommits += 1; }, true); }"""


def wait_for_ids(page, ids: list[int]) -> None:
    """Wait (up to 5 s) until the token ids shown are ``ids``."""
    page.wait_for_function(IDS_SHOWN_JS, arg=", ".join(map(str, ids)), timeout=5_000)


def test_tokens_update_while_typing_and_the_box_keeps_focus(app_server, page, screenshot, tiktoken_module):
    gpt2 = tiktoken_module.get_encoding("gpt2")
    page.set_viewport_size(LAPTOP)
    open_encode(page, app_server)
    choose_tokenizer(page, "GPT-2")
    page.evaluate(COUNT_COMMITS_JS)
    area = page.get_by_label("Text to encode")
    area.fill("")
    wait_for_ids(page, [])
    wait_for_app(page)

    page.keyboard.type("Hello world")  # no Tab, no Ctrl+Enter
    wait_for_ids(page, gpt2.encode("Hello world"))  # [15496, 995]
    assert metric_value(page, "Tokens") == "2"
    assert page.evaluate(FOCUS_JS) == ["Text to encode", 11]  # still in the box, caret at the end
    wait_for_app(page)
    screenshot(page, "desktop")

    page.set_viewport_size(PHONE)
    page.keyboard.type("! How are you", delay=350)  # a pause after each key: reruns while typing lose nothing
    wait_for_ids(page, gpt2.encode("Hello world! How are you"))
    assert metric_value(page, "Characters") == "24"
    assert page.evaluate(FOCUS_JS) == ["Text to encode", 24]
    assert page.get_by_text("updates when you press Ctrl+Enter", exact=False).count() == 0
    wait_for_app(page)
    screenshot(page, "phone")

    page.set_viewport_size(LAPTOP)  # the phone's sidebar is folded away
    click_nav(page, "Compare")  # the listener goes with the page and comes back once with it
    click_nav(page, "Encode / Decode")
    area.press("End")
    before = page.evaluate("window.bpeCommits")
    page.keyboard.type("?")
    wait_for_ids(page, gpt2.encode("Hello world! How are you?"))
    wait_for_app(page)
    page.wait_for_timeout(600)
    assert page.evaluate("window.bpeCommits") == before + 1
    assert exception_texts(page) == [] and page.page_errors == []


def test_text_over_the_limit_waits_for_the_box_to_lose_focus(app_server, page, screenshot):
    open_encode(page, app_server)
    area = page.get_by_label("Text to encode")
    shown = metric_value(page, "Characters")
    area.fill("x" * (LIVE_MAX_CHARS + 1))
    page.wait_for_timeout(1_500)  # several pauses' worth: nothing may be sent meanwhile
    assert metric_value(page, "Characters") == shown
    assert page.get_by_text("updates when you press Ctrl+Enter", exact=False).count() == 0
    area.press("Tab")
    wait_for_app(page)
    assert metric_value(page, "Characters") == f"{LIVE_MAX_CHARS + 1:,}"
    note = f"Text over {LIVE_MAX_CHARS:,} characters updates when you press Ctrl+Enter or click outside the box."
    assert page.get_by_text(note).is_visible()
    assert exception_texts(page) == [] and page.page_errors == []
    screenshot(page)


# The details a focused (tapped) token box shows in a bar: its ::after, where it is, and the box's own title.
TAPPED_JS = """() => { const el = document.activeElement; const after = getComputedStyle(el, '::after');
  return {token: el.classList.contains('tok'), details: el.getAttribute('data-details'), content: after.content,
          position: after.position, bottom: after.bottom}; }"""


def test_encode_fits_a_phone_and_a_tap_shows_a_tokens_details(small_encode, screenshot):
    page = small_encode
    for label in (WHY, DECODE, TABLE):
        open_section(page, label)
    assert page_width(page) <= PHONE["width"]  # nothing makes the page scroll sideways
    assert overlapping_elements(page) == []
    metrics = [box.bounding_box() for box in page.locator('[data-testid="stMetric"]').all()]
    assert len(metrics) == 3 and len({round(box["y"]) for box in metrics}) == 1  # the counts share one row
    # the token table becomes a card per token, each line a column's name and its value: nothing scrolls sideways
    table = page.locator(TOKEN_TABLE)
    assert table.bounding_box()["x"] + table.bounding_box()["width"] <= PHONE["width"]
    assert table.evaluate("(box) => box.scrollWidth <= box.clientWidth")
    card = table.locator("tbody tr").first.locator("td")
    labels = [cell.evaluate("(td) => getComputedStyle(td, '::before').content") for cell in card.all()]
    assert labels == ['"position"', '"id"', '"token"', '"text"', '"bytes (hex)"', '"span"', '"kind"']
    assert card.nth(1).bounding_box()["y"] > card.nth(0).bounding_box()["y"]  # one under the other
    assert card.nth(1).inner_text() == shown_ids(page).split(", ")[0]
    # the decoder's box and button fit side by side or one under the other, never over each other
    box = page.get_by_label("Token ids (comma or space separated)").bounding_box()
    button = page.get_by_role("button", name="Use ids above").bounding_box()
    assert max(box["x"] + box["width"], button["x"] + button["width"]) <= PHONE["width"]
    assert box["y"] + box["height"] <= button["y"] or box["x"] + box["width"] <= button["x"]
    screenshot(page, "phone", whole=True)

    # a tap on a token box shows its details in a bar at the bottom of the screen
    token = page.locator(TOKEN_BOXES).nth(3)
    token.scroll_into_view_if_needed()
    token.tap()
    tapped = page.evaluate(TAPPED_JS)
    assert tapped["token"] and tapped["details"].startswith("id ")
    assert tapped["content"].startswith('"id ') and (tapped["position"], tapped["bottom"]) == ("fixed", "8px")
    screenshot(page, "phone-tapped")
    page.locator("h1").first.tap()  # a tap elsewhere closes it
    assert page.evaluate("() => document.activeElement.classList.contains('tok')") is False

    page.set_viewport_size({"width": 1400, "height": 900})
    assert overlapping_elements(page) == []
    screenshot(page, "desktop", whole=True)
    assert exception_texts(page) == []


WIDE = {"width": 1400, "height": 900}
# The details a token box shows as its ::after: the words, and whether they are drawn at all.
SHOWN_JS = """(el) => { const after = getComputedStyle(el, '::after');
  return {content: after.content, position: after.position, details: el.getAttribute('data-details')}; }"""
POPOVER_BACKGROUND = (0x1F, 0x24, 0x30)


def popover_under(page, token) -> tuple[int, int, int]:
    """The colour a little under ``token``'s box, where its popover is drawn."""
    box = token.bounding_box()
    shot = page.screenshot(clip={"x": box["x"] + 4, "y": box["y"] + box["height"] + 14, "width": 6, "height": 6})
    return Image.open(io.BytesIO(shot)).convert("RGB").getpixel((3, 3))


@pytest.mark.parametrize("small_encode", list(SMALL_ENCODE), indirect=True)
def test_a_small_screen_shows_the_first_tokens_while_a_sentence_is_typed(small_encode, screenshot):
    page = small_encode
    area = page.get_by_label("Text to encode")
    area.fill("")
    if page.evaluate("navigator.maxTouchPoints > 0"):  # a finger on the phone, a mouse at the projector
        area.tap()
    else:
        area.click()
    sentence = "The cat sat on the mat, said the tokenizer."
    page.keyboard.type(sentence)  # no Ctrl+Enter: the tokens follow the typing
    page.wait_for_function(
        "(n) => [...document.querySelectorAll('[data-testid=stMetric]')].some((m) => m.innerText.includes(n))",
        arg=f"{len(sentence)}",
    )
    wait_for_app(page)
    first = page.locator(TOKEN_BOXES).first.bounding_box()
    assert page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") == 0  # not scrolled
    assert 0 < first["y"] and first["y"] + first["height"] <= page.viewport_size["height"]  # inside the first screen
    assert metric_value(page, "Characters") == f"{len(sentence)}"
    screenshot(page)
    assert exception_texts(page) == []


def test_a_desktop_shows_a_tokens_details_in_a_popover_on_hover_click_and_tab(app_server, page, screenshot):
    page.set_viewport_size(WIDE)
    open_encode(page, app_server)
    token = page.locator(TOKEN_BOXES).nth(3)
    hidden = page.evaluate(SHOWN_JS, token.element_handle())
    assert hidden["content"] == "none" and hidden["details"].startswith("id ")
    assert token.get_attribute("title") is None  # no small native tooltip beside the popover

    token.hover()
    shown = page.evaluate(SHOWN_JS, token.element_handle())
    assert shown["content"] == '"' + hidden["details"].replace("\n", "\\a ") + '"'  # the tap bar's words
    assert shown["position"] == "fixed"  # the token area's scrolling never clips it
    assert popover_under(page, token) == POPOVER_BACKGROUND  # drawn right under the token
    screenshot(page, "hover")

    page.mouse.move(2, 2)
    assert page.evaluate(SHOWN_JS, token.element_handle())["content"] == "none"
    token.click()  # a click keeps it (focus) until the mouse points at another token
    assert page.evaluate(SHOWN_JS, token.element_handle())["content"].startswith('"id ')
    page.mouse.move(2, 2)
    assert page.evaluate(SHOWN_JS, token.element_handle())["content"].startswith('"id ')
    other = page.locator(TOKEN_BOXES).nth(8)
    other.hover()  # one popover at a time: the hovered token's
    assert page.evaluate(SHOWN_JS, token.element_handle())["content"] == "none"
    assert page.evaluate(SHOWN_JS, other.element_handle())["content"].startswith('"id ')

    page.mouse.move(2, 2)
    area = page.get_by_label("Text to encode")
    area.focus()
    page.keyboard.press("Tab")  # from the text box, Tab reaches the token area (the keys scroll it)
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Text cut into tokens"
    page.keyboard.press("Tab")  # then its first token
    first = page.locator(TOKEN_BOXES).first
    assert page.evaluate("() => document.activeElement.classList.contains('tok')")
    assert page.evaluate(SHOWN_JS, first.element_handle())["content"].startswith('"id ')
    assert popover_under(page, first) == POPOVER_BACKGROUND
    page.keyboard.press("Tab")  # and the next
    assert page.evaluate(SHOWN_JS, page.locator(TOKEN_BOXES).nth(1).element_handle())["content"].startswith('"id ')
    wait_for_app(page)  # leaving the text box sent its text
    screenshot(page, "tab")
    assert exception_texts(page) == [] and page.page_errors == []


# Every frame while the first page loads: the tallest the early code's box was, and each place the sidebar's links and
# the page's title were seen at, by their text (they must never move)
FIRST_PAINT_RECORDER = """
window.__firstPaint = {earlyHeight: 0, places: {}};
const look = () => {
  const record = window.__firstPaint;
  const early = document.querySelector('.st-key-bpe_early_code');
  if (early && early.getClientRects().length)
    record.earlyHeight = Math.max(record.earlyHeight, early.getBoundingClientRect().height);
  for (const anchor of document.querySelectorAll('[data-testid="stSidebarNavLink"], [data-testid="stMain"] h1')) {
    const name = anchor.innerText.trim();
    (record.places[name] = record.places[name] || new Set()).add(Math.round(anchor.getBoundingClientRect().top));
  }
  requestAnimationFrame(look);
};
requestAnimationFrame(look);
"""


def chunk_names(urls: list[str]) -> set[str]:
    """The names of the browser code files among ``urls`` (``Slider`` for ``.../Slider.WU6er_Bo.js``)."""
    return {url.rsplit("/", 1)[-1].split(".")[0] for url in urls if url.endswith(".js")}


def test_the_first_page_fetches_encodes_code_and_no_more(app_server, page):
    """After the first page, Encode's text area, metric, code block, toggle and live-typing component are drawn in a
    hidden box (app.load_encode_code_early): Encode's first visit fetches no code. Plotly and the slider are not
    fetched before their pages (they kept the first page's Train button a placeholder 1.2 s longer). While the first
    page loads the box is never taller than a pixel, and the links and the title never move."""
    fetched = []
    page.on("request", lambda request: fetched.append(request.url))
    page.add_init_script(FIRST_PAINT_RECORDER)
    open_app(page, app_server, "Train")  # a first page with no slider of its own (Start has one)
    record = page.evaluate(
        "({...window.__firstPaint, places: Object.fromEntries("
        "Object.entries(window.__firstPaint.places).map(([name, tops]) => [name, [...tops]]))})"
    )
    assert record["earlyHeight"] <= 1 and not page.locator(".st-key-bpe_early_code").is_visible()
    assert len(record["places"]) == len(PAGES) + 1  # the pages' links and the title
    assert {name: tops for name, tops in record["places"].items() if len(tops) > 1} == {}  # each seen at one place
    assert not chunk_names(fetched) & {"Slider", "PlotlyChart"}, sorted(chunk_names(fetched))
    first_load = len(fetched)
    click_nav(page, "Encode / Decode")
    assert chunk_names(fetched[first_load:]) == set()
    assert page.locator(".st-key-bpe_early_code").count() == 0  # drawn on the first run only
    click_nav(page, "Merges")
    assert "Slider" in chunk_names(fetched[first_load:])


@pytest.mark.parametrize("size", [LAPTOP, PHONE, PROJECTOR], ids=["desktop", "phone", "projector"])
def test_a_text_cut_at_n_tokens_shows_what_is_kept_and_what_is_cut(app_server, page, screenshot, size):
    """GPT-2 in 4 tokens: Hello , Ġworld ! (by its vocabulary); the rest is struck through, the kept part copyable."""
    page.set_viewport_size(size)
    open_app(page, app_server, "Encode?tokenizer=gpt2&input=Hello,%20world!%20Bye.&open=cut&cut=4")
    rest = page.locator('[aria-label="The text cut to the token budget"] s')
    rest.scroll_into_view_if_needed()
    assert rest.inner_text() == " Bye."
    assert page.locator('[data-testid="stCode"] code').last.inner_text() == "Hello, world!"
    assert page.get_by_text("Keeps 13 of 18 characters (4 of the 4 tokens allowed)").is_visible()
    assert page_width(page) <= size["width"] and exception_texts(page) == []
    screenshot(page)


# Whether a character draws with a real glyph of the fonts the page asks for, not the box a missing glyph draws as:
# drawn on a canvas in the element's font, it must differ from a character no font has (a private-use one).
_GLYPH_DRAWN_JS = """([selector, char]) => {
  const font = getComputedStyle(document.querySelector(selector)).font;
  const draw = (c) => {
    const canvas = document.createElement('canvas'); canvas.width = 60; canvas.height = 60;
    const context = canvas.getContext('2d'); context.font = font; context.fillText(c, 10, 40);
    return Array.from(context.getImageData(0, 0, 60, 60).data).join(',');
  };
  return draw(char) !== draw('\\uE000');
}"""


@pytest.mark.parametrize("size", [LAPTOP, PHONE, PROJECTOR], ids=["desktop", "phone", "projector"])
def test_the_key_names_only_the_whitespace_shown_and_the_replay_writes_spaces_as_its_pieces(
    app_server, page, screenshot, size
):
    """A text with spaces and a Windows line end (\\r\\n) but no tab: the key names ␣, ↵ and ← (the carriage return,
    drawn by a real glyph), no tab; GPT-2's replay of " there" writes ␣there as the list of pieces names it."""
    page.set_viewport_size(size)
    open_app(page, app_server, "Encode?tokenizer=gpt2&input=Hi%20there%0D%0Ayou&open=why")
    glyphs_line = page.locator(".legend .item").nth(1)
    glyphs_line.scroll_into_view_if_needed()
    assert glyphs_line.inner_text() == "␣ a space, ↵ a newline, ← a carriage return"
    for char in "␣↵←":
        assert page.evaluate(_GLYPH_DRAWN_JS, [".legend .item i", char]), f"{char} draws as a missing glyph"
    replay = page.locator(".step-row")
    replay.last.scroll_into_view_if_needed()
    assert "Ġ" not in " ".join(replay.all_inner_texts())
    assert replay.last.locator(".tok").all_inner_texts() == ["␣there"]  # GPT-2 has " there" as one token (612)
    assert page.get_by_text("Key: ␣ a space.").is_visible()
    assert page_width(page) <= size["width"] and exception_texts(page) == []
    screenshot(page)
