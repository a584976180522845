"""The app's pages, in menu order: ``app.py`` builds the navigation from this list and pages link through it.

>>> [page.title for page in PAGES]
['Train', 'Merges', 'Encode / Decode', 'Compare']
>>> TRAIN.path
'pages/1_Train.py'
"""

from __future__ import annotations

from typing import NamedTuple


class PageInfo(NamedTuple):
    path: str  # relative to the app's root folder, as st.Page and st.page_link take it
    title: str
    icon: str  # a Material icon: its font ships with Streamlit (emoji fonts may be missing)


TRAIN = PageInfo("pages/1_Train.py", "Train", ":material/model_training:")
MERGES = PageInfo("pages/2_Merges.py", "Merges", ":material/account_tree:")
ENCODE = PageInfo("pages/3_Encode.py", "Encode / Decode", ":material/translate:")
COMPARE = PageInfo("pages/4_Compare.py", "Compare", ":material/compare_arrows:")
PAGES = [TRAIN, MERGES, ENCODE, COMPARE]  # the first is the default page
