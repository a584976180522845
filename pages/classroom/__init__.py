"""The Class page: its script, the teacher's screens (``teacher.py``, ``asking.py``, ``projector.py``), the
student's (``student.py``), the cookies that survive a reload, its state, and its pure views (``views/``)."""
