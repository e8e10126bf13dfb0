"""Stage 3: one draft per extension from the facts of all its texts, with what damaged texts lost recovered and
what they leave out taken from the registry XML.
"""
