"""Stage 2: read the facts of one Document: functions, tokens and their groups, error conditions, tables,
parameter descriptions.
"""
