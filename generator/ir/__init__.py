"""Stage 5: the YAML IR, written, validated against its schema and read back as the typed, frozen model every
later stage reads.
"""
