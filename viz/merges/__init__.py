"""The merges page's views and its own state."""
