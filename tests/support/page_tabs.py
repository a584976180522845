"""The tabs of Merges and Compare as their pages declare them (``pages/merges/state.py``,
``pages/compare/tabs.py``): a tab added there is visited by the browser tests with no list to edit."""

from __future__ import annotations

from pages.compare import tabs as compare_tabs
from pages.merges import state as merges_state

MERGES_TAB_NAMES, COMPARE_TAB_NAMES = list(merges_state.TAB_LABELS), list(compare_tabs.TAB_LABELS)  # in the address
_MERGES_LABELS = [label for _, _, label in merges_state.TABS]  # as shown, without the icon
MERGES_TABS = _MERGES_LABELS[1:] + _MERGES_LABELS[:1]  # the one open at first last: each click opens another
COMPARE_TABS = [label for _, _, label, _, _ in compare_tabs.TABS]
