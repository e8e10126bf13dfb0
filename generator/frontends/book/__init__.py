"""Stage 1 for a Khronos checkout: the OpenCL book, read as the spec build reads it, cut into one text per extension.

Since 2024 a KHR extension has no text of its own: an appendix page gives its metadata, and its commands are
reference pages of the core book inside `ifdef::<extension>[]`, whose prototypes, values and attribute dictionary
the build makes from the registry XML. `checkout` recognises such a folder, `preprocess` runs the AsciiDoc
preprocessor once over the whole book, `dictionary` makes from the XML what the build would, and `assemble` cuts
out each extension's lines into one AsciiDoc text that the AsciiDoc front-end reads, every line still citing
the book's file and line.
"""
