"""The Encode / Decode page: its script, its header, folded sections and Conversation mode, the live text box
(``live_text.py``), its state, and its pure views (``views/``)."""
