"""Stage 3: one extension (the frozen records of `ir.model`) from the facts of all its texts, with what damaged
texts lost recovered and what they leave out taken from the registry XML; each step makes the records it amends
anew.
"""
