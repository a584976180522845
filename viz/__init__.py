"""Pure builders for the pages: plotly figures and escaped HTML, plus the shared session state.

Everything here except ``state`` is free of Streamlit so it can be unit-tested directly.
"""
