"""API tokens and users."""
