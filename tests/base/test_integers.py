"""C integer literals as the specs write them (generator/base/integers.py): every base, shifts, and the 64-bit bound."""

from __future__ import annotations

import pytest

from generator.base import integers


@pytest.mark.parametrize(("literal", "value"), [
    ("0x4010", 0x4010),
    ("0X1f", 31),
    ("-1002", -1002),
    ("0", 0),
    ("010", 8),
    ("0b101", 5),
    ("42u", 42),
    ("42ULL", 42),
    ("(1 << 4)", 16),
    ("(1u<<63)", 1 << 63),
    ("(0 << 200)", 0),
    ("((cl_bitfield)1 << 31)", 1 << 31),
    ("(((cl_bitfield)1) << 63)", 1 << 63),
    ("( ( cl_bitfield ) 1u << 2 )", 4),
    ("0xFFFFFFFFFFFFFFFF", (1 << 64) - 1),
    ("18446744073709551615", (1 << 64) - 1),
    ("-9223372036854775808", -(1 << 63)),
    ("0x" + "0" * 5000 + "1", 1),
])
def test_a_literal_has_its_c_value(literal: str, value: int) -> None:
    assert integers.value(literal) == value


@pytest.mark.parametrize("literal", [
    "0x10000000000000000",
    "18446744073709551616",
    "-9223372036854775809",
    "(1 << 64)",
    "(1 << 100000000000)",
    "9" * 5000,
    "0x" + "1" * 5000,
    "-" + "7" * 100_000,
])
def test_a_literal_no_c_integer_holds_is_refused_without_converting_it(literal: str) -> None:
    """5,000 decimal digits are past Python's int-string limit (a ValueError of its own), a huge shift would take
    minutes: both are refused by their length."""
    with pytest.raises(integers.LiteralError) as caught:
        integers.value(literal)
    message = str(caught.value)
    assert message.endswith(f"does not fit a 64-bit C integer ({integers.LOWEST}..{integers.HIGHEST})")
    assert len(message) < 160, "a long literal is shortened"


@pytest.mark.parametrize(("literal", "why"), [
    ("09", "a digit its base does not have"),
    ("1f", "a digit its base does not have"),
    ("1.5", "is not a C integer"),
    ("", "is not a C integer"),
    ("(1 << (2 << 3))", "one shift of two numbers at most"),
    ("((((1 << 2))))", "one shift of two numbers at most"),
    ("((cl_bitfield) << 2)", "one shift of two numbers at most"),
    ("((cl_bitfield)x << 2)", "is not a C integer"),
])
def test_what_is_no_c_integer_literal_is_refused(literal: str, why: str) -> None:
    with pytest.raises(integers.LiteralError, match="is not a C integer") as caught:
        integers.value(literal)
    assert why in str(caught.value)


def test_a_short_literal_is_shown_whole_and_a_long_one_by_its_ends() -> None:
    assert integers.shorten("0x4010") == "0x4010"
    assert integers.shorten("1" + "0" * 98 + "2") == "10000000000000000000...00000002 (100 characters)"
