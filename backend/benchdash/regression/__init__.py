"""The regression engine: pure statistics, no database (see `engine`)."""
