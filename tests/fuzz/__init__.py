"""Fuzzing the ingestion: damaged seed specs must give valid output or a clean input error, never worse.

`make test` runs a quick, fixed-seed share (`test_fuzz.py`); `make fuzz` runs
`python -m tests.fuzz`, the long run on every core, and prints its figures.
"""
