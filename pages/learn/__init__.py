"""The Learn page: its script, its state, and its pure views (``views/``: the textbook lesson, the coding
exercises, the words and vocabulary as HTML)."""
