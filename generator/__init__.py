"""Read OpenCL extension specification text and generate Python bindings from it."""

from pathlib import Path

__version__ = "0.1.0"

#: The project's folder: grammar/, templates/ and data/ are read from here.
ROOT = Path(__file__).resolve().parent.parent
