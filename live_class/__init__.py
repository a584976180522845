"""The live class: a teacher's questions and the room's votes, kept outside the app process so that every replica
sees the same class and a restarted one loses nothing. ``rules`` decides (who may do what, who wins), ``store`` is
the one small interface with two implementations: ``sqlite_store`` (the embedded default) and ``redis_store``."""
