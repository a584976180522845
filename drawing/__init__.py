"""Pure drawing helpers every page uses: data in, escaped HTML, Markdown or a plotly figure out (escaping, notation,
token boxes and their popovers and key, card tables, an open model's steps, models and settings in words). No
Streamlit: each is unit-tested on its own."""
