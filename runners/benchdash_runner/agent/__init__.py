"""The runner agent: a procrastinate worker for one system's queue (`benchdash-runner`)."""
