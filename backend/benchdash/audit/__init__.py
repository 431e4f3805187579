"""Who changed what: an append-only audit log (thresholds, tokens, sessions)."""
