"""The textbook's merges of ``banana_bandana_`` with no split (tests/conftest.py's ``banana`` model), worked out by
hand: a+n (4 times), b+an, an+a, ana+_ (2 each), ban+ana_, banana_+ban (once each); ties go to the pair seen first.
Standard library only: every kind of test may import it."""

from __future__ import annotations

BANANA_BANDANA_MERGES = (("a", "n"), ("b", "an"), ("an", "a"), ("ana", "_"), ("ban", "ana_"), ("banana_", "ban"))
BANANA_BANDANA = [" ".join(pair) for pair in BANANA_BANDANA_MERGES]  # as the pages' tables spell them
