"""The Start page's pure views: data in, text out; no Streamlit."""
