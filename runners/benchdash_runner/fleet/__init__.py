"""`benchdash run`: queue a run on the runner fleet from CI and wait for its verdict."""
