"""The compare page's pure views: data in, escaped HTML or a plotly figure out; no Streamlit."""
