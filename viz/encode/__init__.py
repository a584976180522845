"""The encode page's views and its own state."""
