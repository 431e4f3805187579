"""Retention: rules per system and branch pattern for how long runs and their raw samples are
kept, the dry-run report of what they would remove, and the daily job that applies them."""
