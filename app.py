"""BPE Explorer: entry point and page router.

Run with ``make run`` (or ``streamlit run app.py``). Each page lives in its folder ``pages/<page>/`` and is listed
in ``session/page_registry.py``; this file only sets up the page, the shared sidebar, the model a first visit's address
names, and the navigation between pages (``st.navigation``, the only way a page runs).
"""

import streamlit as st

from drawing import escape
from drawing.describe import model_size
from pages.encode import live_text
from pages.train import training
from session import state
from session.page_paths import page_in_other_case, requested_segment
from session.page_registry import PAGES
from session.presenting import presentation_css

presenting = state.start_presentation(st.query_params.to_dict())  # ?present=1, or the sidebar's toggle
st.set_page_config(
    page_title="BPE Explorer",
    page_icon="🧩",
    layout="wide",
    initial_sidebar_state="collapsed" if presenting else "auto",
)
state.published_store()  # the engine keeps the published tokenizers in the server's budget from the first run on
state.piece_caches()  # and the pieces its tokenizers have cut within theirs


# A page chosen in the sidebar while it lies over the page (a phone; Streamlit folds it itself only for a phone's
# browser name, not for a narrow window) folds the sidebar, so that the page chosen is seen. Constant script, one
# listener per page (a rerun mounts the component again: a call first removes the listener an earlier left).
_FOLD_SIDEBAR_JS = """
let stopEarlier;

export default function ({parentElement}) {
  const doc = parentElement.ownerDocument;
  stopEarlier?.();
  const sidebar = () => doc.querySelector('[data-testid="stSidebar"]');
  const liesOverPage = () => {
    const main = doc.querySelector('[data-testid="stMain"]');
    return main && sidebar()?.getBoundingClientRect().right > main.getBoundingClientRect().left + 1;
  };
  const fold = () => {
    if (sidebar()?.dataset.collapsed === "false" && liesOverPage()) {
      doc.querySelector('[data-testid="stSidebarCollapseButton"] button')?.click();
    }
  };
  const onClick = (event) => {
    if (event.target.closest?.('[data-testid="stSidebarNav"] a')) setTimeout(fold, 50);  // after Streamlit's own
  };
  doc.addEventListener("click", onClick, true);
  stopEarlier = () => doc.removeEventListener("click", onClick, true);
  return stopEarlier;
}
"""
_FOLD_SIDEBAR_HTML = '<span class="bpe-fold-sidebar"></span>'
_FOLD_SIDEBAR_CSS = ".stElementContainer:has(.bpe-fold-sidebar) { display: none; }"
_fold_sidebar = st.components.v2.component(
    "bpe_fold_sidebar", html=_FOLD_SIDEBAR_HTML, css=_FOLD_SIDEBAR_CSS, js=_FOLD_SIDEBAR_JS, isolate_styles=False
)


def render_sidebar():
    """The sidebar's title, Presentation mode toggle and model line (and the script that folds it on a phone), drawn
    before the page runs so that a page that stops early (``st.stop``: Encode's Conversation mode, an error) keeps
    them. Returns the model line's slot, which ``show_model_line`` fills again after the page, for the model it just
    trained or loaded."""
    with st.sidebar:
        st.markdown("### :material/extension: BPE Explorer")
        st.toggle(  # above the model line, so that a projector's 480 pixels show it whole below the page links
            "Presentation mode",
            key=state.PRESENT_KEY,
            help="For a projector: larger type, the sidebar folded away. ← and → step through the merges.",
        )
        model_line = st.empty()
        _fold_sidebar()
    show_model_line(model_line)
    return model_line


def show_model_line(slot) -> None:
    tok = state.model_if_any()
    slot.caption("No model trained yet" if tok is None else f"Current model: {model_size(tok)}")


EARLY_CODE_KEY = "bpe_early_code"  # the hidden box of load_encode_code_early, and its CSS class


def load_encode_code_early() -> None:
    """After a session's first page, one element of each kind Encode draws and whose browser code Streamlit fetches
    only on first use (text area, metric, code block, toggle, the live-typing component), so that the page most
    visited second shows at once: its first visit takes 0.16 s with them and 0.44 s without, for the first page's
    Train button usable at 1.30 s instead of 1.15 s (medians of 10 interleaved loads; the spreads overlap). Plotly,
    the slider and the segmented control are left to their pages: drawn here too they kept that button a placeholder
    until 2.35 s. The box is one pixel tall (the hiding style is itself code fetched on first use, so until it arrives
    the clip keeps the placeholders out of sight and nothing moves), at the sidebar's foot, and gone on the next run."""
    with st.sidebar.container(key=EARLY_CODE_KEY, height=1, border=False):
        st.html("<style>.st-key-bpe_early_code{display:none}</style>")  # the box's class
        st.text_area("early text", key=f"{EARLY_CODE_KEY}_text", disabled=True)
        st.metric("early metric", 0)
        st.code("early code", language=None)
        st.toggle("early toggle", key=f"{EARLY_CODE_KEY}_toggle", disabled=True)
        live_text.load_early()


first_run = state.model_if_any() is None  # only a session's first run has no model
if first_run:
    training.first_model(st.query_params.to_dict())  # the one a reload or a shared link names, else the default
model_line = render_sidebar()
if released := state.released_notice():  # its model was released: trained again, or the default now
    st.warning(escape.markdown(released), icon=":material/memory:")
if presenting:
    st.html(presentation_css())
# The default page is served at the root alone; its own name is left free, so that /Train (or its name in any
# case) can be answered as the other pages' names are.
pages = {
    page: st.Page(
        page.path, title=page.title, icon=page.icon, url_path=page.url_path if index else "", default=index == 0
    )
    for index, page in enumerate(PAGES)
}


def run_page_in_any_case() -> None:
    """Run the page the address names. An address Streamlit does not serve but a page has in another letter case
    (``/encode``, ``/COMPARE``; ``/Train``, the default page being served at the root) is answered by a hidden page
    of that exact address, which sends the browser on to the page itself with its query parameters, instead of
    Streamlit's "Page not found"."""
    requested = requested_segment(st.context.url)
    served = {st_page.url_path for st_page in pages.values()} if requested else set()  # bare mode: no URL, no pages
    meant = page_in_other_case(requested, PAGES, served)
    other_case = st.Page(lambda: None, title=meant.title, url_path=requested, visibility="hidden") if meant else None
    current = st.navigation([*pages.values(), *([other_case] if other_case else [])])
    if meant and current is other_case:
        params = [(name, value) for name in st.query_params for value in st.query_params.get_all(name)]
        st.switch_page(pages[meant], query_params=params)
    current.run()


try:
    run_page_in_any_case()
finally:
    show_model_line(model_line)  # what the page just trained or loaded
if first_run:  # after the page: its own code is fetched first
    load_encode_code_early()
