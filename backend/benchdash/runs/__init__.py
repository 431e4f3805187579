"""Runs: one execution of a system's benchmarks at one commit."""
