"""Stage 4: the drafts checked against each other and the registry XML, error conditions read as predicates, and
the tally of what was read and kept.
"""
