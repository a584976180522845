"""The Merges page: its script, one section per tab (``tabs.py``), the arrow keys (``step_keys.py``), its state,
and its pure views, one per tab (``views/``)."""
