"""History out: a system's (or every) history as JSON lines, one series as CSV."""
