"""The train page's views and its own state."""
