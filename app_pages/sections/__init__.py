"""Widgets a page draws, grouped by job, for the pages too long to read in one file (glue, as the pages)."""
