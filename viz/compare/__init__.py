"""The Compare page's views: curves and sizes as data, the compression curves as light HTML, the plotly figures of
the other tabs, the tabs' settings and texts, the published tokenizers side by side, and the page's own state
module (``viz.compare.state``)."""
