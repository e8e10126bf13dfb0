"""Stage 4: the merged extensions checked against each other and the registry XML, error conditions read as
predicates, and the tally of what was read and kept; each step returns the extensions it amends made anew.
"""
