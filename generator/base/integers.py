"""Integers the specs write (token values, numbers in conditions), read as C reads them and bounded first.

Python will not turn a decimal string of more than 4,300 digits into an int (nor such an int back into
text), and `1 << n` with a huge `n` takes as long as it likes: so a literal wider than any C integer is
refused by the count of its digits (or its shift), before anything is converted.
"""

from __future__ import annotations

import re

#: The widest C integer types, `long long` and `unsigned long long`: 64 bits on every platform OpenCL runs on
#: (C17 5.2.4.2.1 requires at least that much). No C type can hold a value outside this range.
BITS = 64
LOWEST = -(1 << (BITS - 1))
HIGHEST = (1 << BITS) - 1
WIDEST = f"a {BITS}-bit C integer ({LOWEST}..{HIGHEST})"

#: `0x1F`, `0b101` (C23), `017` (octal), `42`, each with any of C's suffixes (`u`, `l`, `ll`, `ul` ...).
_LITERAL = re.compile(r"(?P<sign>[-+]?)(?P<base>0[xX]|0[bB]|0(?=[0-9])|)(?P<digits>[0-9A-Fa-f]+)"
                      r"(?:[uU]?[lL]{0,2}|[lL]{1,2}[uU])")
#: A cast before a number: `(cl_bitfield)`.
_CAST = re.compile(r"\(\s*[A-Za-z_]\w*\s*\)")
_RADIX = {"0x": 16, "0X": 16, "0b": 2, "0B": 2, "0": 8, "": 10}
#: How many digits a value of `BITS` bits needs at most, in each radix.
_MOST_DIGITS = {16: BITS // 4, 8: -(-BITS // 3), 2: BITS, 10: len(str(HIGHEST))}


class LiteralError(ValueError):
    """A literal that is no C integer, or whose value no C integer type holds; the message says which."""


def value(literal: str) -> int:
    """The value of the C integer literal `literal`: optionally negative, or `(a << n)` as headers write a bit
    (`a` maybe cast to a type, `((cl_bitfield)1 << 3)`: the cast only says how wide the bit may go), or a
    number in parentheses, maybe cast (`((cl_x)0)`)."""
    text = literal.strip()
    if text.startswith("(") and text.endswith(")") and "<<" in text:
        left, _, right = _CAST.sub("", text[1:-1]).partition("<<")
        left = left.strip()
        while left.startswith("(") and left.endswith(")"):
            left = left[1:-1].strip()
        if not left or "(" in left or ")" in left or "(" in right or "<<" in right:
            raise LiteralError(f"{shorten(text)} is not a C integer (one shift of two numbers at most)")
        base, places = _number(left.strip()), _number(right.strip())
        if places < 0 or (base and places >= BITS):
            raise LiteralError(f"{shorten(text)} does not fit {WIDEST}")
        return _bounded(base << places, text)
    inner = text
    while len(inner) > 2 and inner[0] == "(" and inner[-1] == ")":  # a number in parentheses, maybe cast: `((cl_x)0)`
        inner = inner[1:-1].strip()
        if (cast := _CAST.match(inner)) and inner[cast.end():].strip():
            inner = inner[cast.end():].strip()
    try:
        return _number(inner)
    except LiteralError:
        if inner == text:
            raise
        raise LiteralError(f"{shorten(text)} is not a C integer") from None


def _number(text: str) -> int:
    match = _LITERAL.fullmatch(text)
    if match is None:
        raise LiteralError(f"{shorten(text)} is not a C integer")
    radix = _RADIX[match["base"]]
    digits = match["digits"].lstrip("0") or "0"
    if len(digits) > _MOST_DIGITS[radix]:  # before any conversion: Python refuses long decimal strings
        raise LiteralError(f"{shorten(text)} does not fit {WIDEST}")
    if any(int(digit, 16) >= radix for digit in digits):
        raise LiteralError(f"{shorten(text)} is not a C integer (a digit its base does not have)")
    number = int(digits, radix)
    return _bounded(-number if match["sign"] == "-" else number, text)


def _bounded(number: int, text: str) -> int:
    if not LOWEST <= number <= HIGHEST:
        raise LiteralError(f"{shorten(text)} does not fit {WIDEST}")
    return number


def shorten(text: str, most: int = 40) -> str:
    """A long literal cut to its ends and its length, so a message about it stays one line."""
    if len(text) <= most:
        return text
    return f"{text[: most // 2]}...{text[-8:]} ({len(text)} characters)"
