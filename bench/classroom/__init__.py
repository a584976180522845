"""A classroom on several app replicas behind nginx, and simulated students that speak Streamlit's protocol."""
