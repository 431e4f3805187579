"""Series: the points of one (system, benchmark, metric, branch, testbed) over time."""
