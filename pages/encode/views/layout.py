"""The Encode page's own CSS: the counts kept to one short row, so the token boxes start close under the text box
(on a phone, inside the first screen while a sentence is typed).

>>> counts_css().startswith('<style>.st-key-encode_counts [data-testid="stMetricValue"]')
True
"""

from __future__ import annotations

COUNTS_KEY = "encode_counts"  # the counts' row (a container: its key becomes the class st-key-encode_counts)

_COUNTS_CSS = (
    '<style>.st-key-{key} [data-testid="stMetricValue"]{{font-size:1.75rem;line-height:1.25}}'
    '.st-key-{key} [data-testid="stMetricLabel"]{{min-height:0;margin-bottom:0}}'
    '@media (max-width:640px){{.st-key-{key} [data-testid="stMetricValue"]{{font-size:1.35rem}}}}</style>'
)


def counts_css() -> str:
    """The counts' values a size smaller than Streamlit's metrics, smaller again on a narrow screen."""
    return _COUNTS_CSS.format(key=COUNTS_KEY)
