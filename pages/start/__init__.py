"""The Start page, the site's first screen: a text cut into tokens by the session's model, re-cut as a slider adds
merges, and a line each to the other pages (``views/``: the sample text, the slider's stops, the counts in words)."""
