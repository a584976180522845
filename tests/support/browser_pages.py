"""Where the browser tests find things on the app's pages, and the steps more than one of them takes: Train's corpus
and its button, Encode's token boxes and a conversation's counts, every view of the app by its address."""

from __future__ import annotations

from support.browser import MAIN, wait_for_app
from support.page_tabs import COMPARE_TAB_NAMES, MERGES_TAB_NAMES

TRAIN_BUTTON = f'{MAIN} [data-testid="stBaseButton-primary"]'
TOKEN_BOXES = ".bpe-scroll .tok"  # a text's tokens, one box each (a conversation's too)
# Every view a class may be shown, in presentation mode, with how many tabs it has: each page, each tab of Merges
# and Compare, Encode's sections opened and its Conversation mode, each of Learn's exercises
EVERY_VIEW = [
    ("?present=1", 0),  # Start, the root
    ("Train?present=1", 0),
    *((f"Merges?present=1&tab={tab}", len(MERGES_TAB_NAMES)) for tab in MERGES_TAB_NAMES),
    ("Encode?present=1&open=why,decode,table", 0),
    ("Encode?present=1&mode=chat", 0),  # Conversation mode
    *((f"Compare?present=1&tab={tab}", len(COMPARE_TAB_NAMES)) for tab in COMPARE_TAB_NAMES),
    *((f"Learn?present=1&exercise={exercise}", 0) for exercise in ("next", "count", "encode", "decode")),
    ("Class?present=1", 0),
]


def choose_corpus(page, label: str) -> None:
    """Pick ``label`` in Train's Corpus box and wait for the app."""
    page.locator(f'{MAIN} [data-testid="stSelectbox"]').filter(has_text="Corpus").locator("input").click()
    page.get_by_role("option", name=label).click()
    wait_for_app(page)


def train(page) -> None:
    """Press Train and wait for the training's run."""
    page.locator(TRAIN_BUTTON).click()
    wait_for_app(page)


def chat_counts(page) -> list[str]:
    """The counts above a conversation's prompt, as shown: in all, in messages, (by the tools,) by the format."""
    return page.locator('.st-key-encode_counts [data-testid="stMetricValue"]').all_inner_texts()
