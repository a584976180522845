"""The Encode / Decode page's views: naming and parsing tools, the replay of one piece ("Why this split?"), the
text box that updates as the user types, and the page's own state module (``viz.encode.state``)."""
