"""The Train page: its script (``page.py``), the form (``form_section.py``), a run of training for the session
(``training.py``: Train, a link's first model, Compare's larger sizes), its state, and its pure views (``views/``)."""
