"""Benchmarks: our trainer and encoder side by side with HF tokenizers (run: ``make bench``)."""
