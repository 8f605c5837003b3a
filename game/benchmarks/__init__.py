"""Benchmark workloads for `python -m game.bench`."""
