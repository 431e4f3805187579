"""Systems, their benchmarks, metrics, branches and testbeds."""
