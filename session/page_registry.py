"""The app's pages, in menu order: ``app.py`` builds the navigation from this list, pages link through it, and the
tests open each page's file from it.

>>> [page.title for page in PAGES]
['Start', 'Train', 'Merges', 'Encode / Decode', 'Compare', 'Learn', 'Class']
>>> TRAIN.path, ENCODE.url_path
('pages/train/page.py', 'Encode')
"""

from __future__ import annotations

from typing import NamedTuple


class PageInfo(NamedTuple):
    path: str  # relative to the app's root folder, as st.Page and st.page_link take it
    title: str
    icon: str  # a Material icon: its font ships with Streamlit (emoji fonts may be missing)
    url_path: str  # the page's address (``/Compare``): kept as it was when the files were named 4_Compare.py


START = PageInfo("pages/start/page.py", "Start", ":material/home:", "Start")  # the default page: the site's root
TRAIN = PageInfo("pages/train/page.py", "Train", ":material/model_training:", "Train")
MERGES = PageInfo("pages/merges/page.py", "Merges", ":material/account_tree:", "Merges")
ENCODE = PageInfo("pages/encode/page.py", "Encode / Decode", ":material/translate:", "Encode")
COMPARE = PageInfo("pages/compare/page.py", "Compare", ":material/compare_arrows:", "Compare")
LEARN = PageInfo("pages/learn/page.py", "Learn", ":material/school:", "Learn")
CLASS = PageInfo("pages/classroom/page.py", "Class", ":material/groups:", "Class")
PAGES = [START, TRAIN, MERGES, ENCODE, COMPARE, LEARN, CLASS]  # the first is the default page
