"""Stage 6: the package's and the docs' models made from the IR, rendered through the templates, and the cffi
modules.
"""
