"""Profiles stored with runs: folded stacks per benchmark, their trees, and differential
profiles (the root cause named on an alert)."""
