"""Pure builders for the pages: plotly figures and escaped HTML, and the session state.

At the top, what pages share (escaping, notation, naming, the model and upload stores, token boxes, the shared
state); below, one folder per page (``train``, ``merges``, ``encode``, ``compare``) with its views and its own
``state`` module.
Only the state modules, ``model_io`` and ``encode.live_text`` import Streamlit (``tests/test_layers.py``).
"""
