"""The Class page's views: where students reach the app (this machine's address on the room's network, its QR
code), and the page's own state module (``viz.classroom.state``)."""
