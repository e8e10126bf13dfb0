"""C types as the IR spells them (`const cl_mem *`, `void ( * )(int)`), and what such a spelling is made of.

One spelling for each type, whatever white space and `const` placement a text used, so that types compare as
text: the pointed-to type's `const` first, then one ` *` per pointer level; a function pointer as
`RET ( * )(ARG, ...)`, the spelling `data/opencl_core.json` gives core callbacks.
"""

from __future__ import annotations

#: Words that combine with a following type word instead of naming something.
_TYPE_PREFIXES = {"unsigned", "signed", "long", "short", "struct", "enum"}


def split_declarator(words: list[str]) -> tuple[str, str | None]:
    """(canonical type, declared name or None) from a declaration's words, `const cl_mem *objects`."""
    names = [i for i, word in enumerate(words) if word not in ("const", "*")]
    has_name = len(names) >= 2 and words[names[-2]] not in _TYPE_PREFIXES
    name = words[names[-1]] if has_name else None
    type_words = [word for i, word in enumerate(words) if not (has_name and i == names[-1])]
    return canonical_type(type_words), name


def base_type(c_type: str) -> str:
    """The type a canonical type is made of: `const cl_mem *` -> `cl_mem`, `cl_uint [4]` -> `cl_uint`; what a
    function pointer returns for `void ( * )(int)` (`parts` gives all it is made of)."""
    return c_type.partition("(")[0].partition("[")[0].removeprefix("const ").replace("*", "").strip()


def parts(c_type: str) -> list[str]:
    """The types a canonical type is made of: itself, or a function pointer's return and argument types."""
    head, paren, rest = c_type.partition("(")
    if not paren:
        return [c_type]
    arguments = rest.partition(")")[2].strip()[1:-1]
    return [head.strip()] + [a.strip() for a in arguments.split(",") if a.strip() not in ("", "void")]


def type_problem(c_type: str) -> str | None:
    """Why `c_type` (canonical) is not a C type, or None: one name, maybe after `unsigned`, `struct`..."""
    words = c_type.removeprefix("const ").replace("*", " ").split()
    if not words:
        return "a parameter without a type"
    *prefixes, last = words
    if last in ("struct", "enum") or any(word not in _TYPE_PREFIXES for word in prefixes):
        return f"`{c_type}` is not a C type"
    return None


def canonical_type(words: list[str]) -> str:
    """`const base * *`: the const of the pointed-to type first, then one ` *` per pointer level."""
    first_star = words.index("*") if "*" in words else len(words)
    const = "const" in words[:first_star]
    base = " ".join(word for word in words if word not in ("const", "*"))
    return ("const " if const else "") + base + " *" * words.count("*")


def canonical_type_text(text: str) -> str:
    """Canonical spelling of a type written as text (`IWidget*` -> `IWidget *`)."""
    return canonical_type(text.replace("*", " * ").split())
