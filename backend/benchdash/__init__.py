"""benchdash: self-hosted continuous-benchmarking dashboard (server side)."""

__version__ = "0.1.0"
