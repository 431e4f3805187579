"""benchdash client: format adapters, `benchdash/v1` documents and the `benchdash` command."""

__version__ = "0.1.0"
