"""A page's address typed in another letter case (``/encode``, ``/COMPARE``, ``/train``) finds its page.

Streamlit matches the path a browser asks for against the addresses it serves exactly (the default page only at
the site's root) and shows "Page not found" for anything else; a newcomer types addresses by hand, so ``app.py``
asks this module which page a path means and sends the browser there.

>>> from session.page_registry import PageInfo
>>> pages = [PageInfo("t.py", "Train", "", "Train"), PageInfo("e.py", "Encode / Decode", "", "Encode")]
>>> served = {"", "Encode"}  # what Streamlit serves: the default page at the root
>>> requested_segment("http://host:8501/bpe/COMPARE/?present=1")
'COMPARE'
>>> page_in_other_case("ENCODE", pages, served).title
'Encode / Decode'
>>> page_in_other_case("Train", pages, served).title  # the default page's own name, which Streamlit does not serve
'Train'
>>> page_in_other_case("Encode", pages, served) is None  # served as it is: Streamlit opens it
True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from urllib.parse import unquote, urlsplit

from session.page_registry import PageInfo


def requested_segment(url: str | None) -> str:
    """The last part of the path the browser asked for (a page's address comes after any base path the server is
    given), '' for the site's root or no URL."""
    if not url:
        return ""
    return unquote(urlsplit(url).path).rstrip("/").rpartition("/")[2]


def page_in_other_case(segment: str, pages: Sequence[PageInfo], served: Collection[str]) -> PageInfo | None:
    """The page whose address is ``segment`` in any letter case, when Streamlit does not serve ``segment`` itself
    (``served``: the addresses it knows); None when it does, or when no page has that address in any case (then
    Streamlit says the page was not found)."""
    if not segment or segment in served:
        return None
    wanted = segment.casefold()
    return next((page for page in pages if page.url_path and page.url_path.casefold() == wanted), None)
