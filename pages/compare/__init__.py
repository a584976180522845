"""The Compare page: its script, its tabs (``tabs.py``, ``parts.py``, ``real.py``), its state, and its pure views
(``views/``: curves and sizes as data, figures, the published tokenizers side by side)."""
