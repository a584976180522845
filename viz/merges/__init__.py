"""The Merges page's views, one module per tab (step, race, tree, overview), the labels they share, the search in
a large vocabulary, and the page's own state module (``viz.merges.state``)."""
