"""The compare page's views and its own state."""
