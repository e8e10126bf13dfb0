"""The declared data files: what they hold, and that they are what the official headers say."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.knowledge import DATA_DIR, Knowledge

HEADERS = [Path("/usr/include/CL/cl.h"), Path("/usr/share/mingw-w64/include/dxgiformat.h")]


@pytest.mark.skipif(
    not all(p.exists() for p in HEADERS) and os.environ.get("CI") != "true",
    reason="needs Debian opencl-c-headers and mingw-w64-common (.ci/run installs them)",
)
def test_data_files_are_what_the_headers_give() -> None:
    result = subprocess.run([sys.executable, str(DATA_DIR / "make_data.py"), "--check"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_core_knowledge(knowledge: Knowledge) -> None:
    assert knowledge.core_constants["CL_INVALID_VALUE"] == {"value": -30, "group": "error_code"}
    assert knowledge.constant_group("CL_RGBA") == "cl_channel_order"
    assert knowledge.external_enums["DXGI_FORMAT"]["DXGI_FORMAT_B8G8R8A8_UNORM"] == 87
    assert knowledge.core_functions["clGetImageInfo"].param_type("param_name") == "cl_image_info"
    assert knowledge.core_types["cl_mem"]["kind"] == "handle"


def test_naming_conventions(knowledge: Knowledge) -> None:
    assert knowledge.extension_parts("cl_acme_widget_sharing") == ("acme", "widget_sharing")
    assert knowledge.extension_parts("clFoo") is None
    assert knowledge.is_function_name("clFoo") and not knowledge.is_function_name("cl_foo")
    assert knowledge.is_constant_name("CL_FOO_BAR") and not knowledge.is_constant_name("CLFOO")
    assert knowledge.is_interface("IUnknown") and not knowledge.is_interface("Int")
    assert knowledge.is_known_type("UINT") and knowledge.is_known_type("cl_uint")


def test_the_c_language(knowledge: Knowledge) -> None:
    language = knowledge.c_language
    assert {"register", "restrict", "_Bool", "typeof", "offsetof"} <= language.keywords
    assert all(isinstance(word, str) for word in language.keywords), "YAML reads a bare true as a boolean"
    assert {"true", "false"} <= language.keywords
    assert language.refuses("_Reserved") and language.refuses("__x") and language.refuses("while")
    assert language.refuses("_lower") is None and language.refuses("widget") is None
    assert language.pointer_levels == 12
