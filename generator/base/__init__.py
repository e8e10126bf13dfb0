"""What every stage uses: input errors and diagnostics, spec files and safe loading, the knowledge of data/, the
grammars, C declarations and integers, the names the generated code may use.
"""
