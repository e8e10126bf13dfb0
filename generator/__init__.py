"""Read OpenCL extension specification text and generate Python bindings from it."""

__version__ = "0.1.0"
