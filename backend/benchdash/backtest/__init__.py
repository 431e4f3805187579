"""Backtests: stored series replayed through the detector under other thresholds (read only)."""
