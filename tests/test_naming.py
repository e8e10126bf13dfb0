"""Python names from C names, and the identifier check every spec name passes."""

from __future__ import annotations

import pytest

from generator import naming
from generator.errors import InputError

ACRONYMS = frozenset({"KHR", "NV", "CL", "GL"})


@pytest.mark.parametrize(("c_name", "expected"), [
    ("mem_info", "MemInfo"),
    ("gl_object_type", "GLObjectType"),
    ("invalid_gfx4_device_khr", "InvalidGFX4DeviceKHR"),
    ("d3d_device_source", "D3DDeviceSource"),
    ("__odd__name", "OddName"),
])
def test_class_names(c_name: str, expected: str) -> None:
    assert naming.class_name(c_name, ACRONYMS) == expected


@pytest.mark.parametrize(("c_name", "expected"), [
    ("CL_GL_OBJECT_BUFFER_KHR", "GL_OBJECT_BUFFER"),
    ("CL_RGBA", "RGBA"),
    ("CL_2D_THING_KHR", "CL_2D_THING_KHR"),  # a short name may not start with a digit
    ("CL_NONE_KHR", "NONE"),
    ("CL_None_KHR", "CL_None_KHR"),  # `None` is a keyword: the C name stays
    ("CL_KHR", "KHR"),
])
def test_member_names(c_name: str, expected: str) -> None:
    assert naming.member_name(c_name, "CL_", "_KHR") == expected


@pytest.mark.parametrize("name", ["class", "None", "match", "a-b", "1abc", "x y", "a\nb", "", "name\"", "é"])
def test_what_cannot_be_a_python_name_is_an_input_error(name: str) -> None:
    with pytest.raises(InputError) as caught:
        naming.identifier(name, "specs/x.txt:12", "token")
    assert caught.value.render().startswith(f"specs/x.txt:12:1: error: token {name!r} cannot be a Python name")


def test_a_plain_identifier_passes() -> None:
    assert naming.identifier("clFooKHR", None) == "clFooKHR"


def test_sources_split_at_the_last_colon() -> None:
    assert naming.split_source("specs/a:b.txt:7") == ("specs/a:b.txt", 7)
    assert naming.split_source("specs/a.txt") == ("specs/a.txt", None)
    assert naming.split_source(None) == ("<specs>", None)
