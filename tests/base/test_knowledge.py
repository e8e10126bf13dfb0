"""The declared data files: what they hold, and that they are what the official headers say."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from generator.base import knowledge
from generator.base.errors import InputError
from generator.base.knowledge import DATA_DIR, Knowledge
from tests.support import CliRun


def test_data_files_are_what_the_headers_give(headers: None) -> None:
    result = subprocess.run([sys.executable, str(DATA_DIR / "make_data.py"), "--check"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("name", "c_type", "header", "written"), [
    ("UINT", "unsigned int", "/usr/share/mingw-w64/include/minwindef.h", "typedef unsigned int UINT;"),
    ("HANDLE", "void *", "/usr/share/mingw-w64/include/winnt.h", "typedef void *HANDLE;"),
    ("GLsync", "struct __GLsync *", "/usr/include/GL/glext.h", "typedef struct __GLsync *GLsync;"),
    ("EGLImageKHR", "void *", "/usr/include/EGL/eglext.h", "typedef void *EGLImageKHR;"),
    ("VASurfaceID", "unsigned int", "/usr/include/va/va.h", "typedef VAGenericID VASurfaceID;"),
])
def test_platform_types_end_in_c_types_as_their_headers_write_them(knowledge: Knowledge, name: str, c_type: str,
                                                                   header: str, written: str, headers: None) -> None:
    assert knowledge.platform_types[name] == c_type
    assert written in " ".join(Path(header).read_text(errors="replace").split())


def test_platform_interfaces_are_known_by_name(knowledge: Knowledge) -> None:
    assert knowledge.is_interface("IDXVAHD_Device") and "IDXVAHD_Device" not in knowledge.platform_types
    assert knowledge.platforms["GLsync"] == "GL" and knowledge.platforms["UINT"] == "Windows"


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
    assert knowledge.is_constant_name("CL_BLOCK_16x16_ACME") and not knowledge.is_constant_name("CL_x16")
    assert knowledge.is_interface("IUnknown") and not knowledge.is_interface("Int")
    assert knowledge.is_known_type("UINT") and knowledge.is_known_type("cl_uint")


@pytest.fixture
def data_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of data/ that the generator reads instead (the caches of what it read are emptied around the test)."""
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    monkeypatch.setattr(knowledge, "DATA_DIR", folder)
    knowledge.load.cache_clear()
    knowledge.load_package.cache_clear()
    yield folder
    knowledge.load.cache_clear()
    knowledge.load_package.cache_clear()


@pytest.mark.parametrize(
    ("name", "old", "new", "at_the_edit", "words"),
    [
        ("package.yaml", "  name: cl_d3d_sharing\n", "  name: [cl_d3d_sharing]\n", True, "/package/name"),
        ("package.yaml", "count_before_array: true", "count_before_array: yes please", True, "boolean"),
        ("package.yaml", "constant_prefix: CL_\n", "constant_prefix: CL_\nconstant_prefix: CL_\n", False, "again"),
        ("package.yaml", "module: '^cl_(?P<module>", "module: '^cl_((?P<module>", False, "regular expression"),
        ("conventions.yaml", "error_type: cl_int\n", "", False, "'error_type' is a required"),
        ("conventions.yaml", "enum_base_type: cl_uint", "enum_base_type: &t cl_uint", True, "anchor"),
        ("opencl_core.json", '"value": -30,', '"value": "-30",', False, "is not of type integer"),
        ("external_enums.json", '"enums": {', '"enums": {"A": {"B": 1, "B": 2}, ', False, "stands twice"),
        # beyond the schema's shapes: what the generator reads out of the values
        ("package.yaml", "module: '^cl_(?P<module>", "module: '^cl_(?P<other>", True, "no group named module"),
        ("conventions.yaml", "(?P<vendor>[a-z0-9]+)", "([a-z0-9]+)", True, "no group named vendor"),
        ("package.yaml", "function_pointer_type: '{function}_fn'", "function_pointer_type: '{0}_fn'", True,
         "must hold {function} and no other field"),
        ("package.yaml", "function_pointer_type: '{function}_fn'", "function_pointer_type: '{function'", True,
         "is not a format template"),
        ("package.yaml", "function_pointer_type: '{function}_fn'",
         "function_pointer_type: '{function:>999999999999}'", True, "must hold {function} and no other field"),
        ("package.yaml", "function_pointer_type: '{function}_fn'",
         "function_pointer_type: '{function.__class__.__name__}'", True, "must hold {function} and no other"),
        ("package.yaml", "release_event: clReleaseEvent", "release_event: clReleaseEvents", True,
         "'clReleaseEvents' is no core OpenCL function"),
        ("package.yaml", "success: CL_SUCCESS", "success: CL_SUCCES", True, "'CL_SUCCES' is no core OpenCL constant"),
        ("platform_types.json", '"UINT": {\n   "kind": "typedef",\n   "c_type": "unsigned int"',
         '"UINT": {\n   "kind": "typedef",\n   "c_type": "unsigned int )"', False, "is not a C type"),
        ("platform_types.json", '"IDXVAHD_Device": {\n   "kind": "interface"',
         '"IDXVAHD_Device": {\n   "kind": "class"', False, "is not one of"),
    ],
)
def test_a_broken_data_file_is_an_input_error_naming_it(
    data_copy: Path, main: Callable[..., CliRun], name: str, old: str, new: str, at_the_edit: bool, words: str,
) -> None:
    text = (data_copy / name).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (data_copy / name).write_text(text.replace(old, new), encoding="utf-8")
    status, _, err = main("generate", "--out", str(data_copy.parent / "out"), "--force")
    assert status == 2, err
    line = text[: text.index(old)].count("\n") + 1
    assert err.startswith(f"{data_copy / name}:{line}:" if at_the_edit else f"{data_copy / name}:"), err
    assert words in err.splitlines()[0], err


def _hang(signum: int, frame: object) -> None:
    raise TimeoutError("reading the guides hung")


@pytest.mark.parametrize("make", [lambda p: p.write_bytes(b"# Guide\n\xff\n"), os.mkfifo, Path.mkdir],
                         ids=["not-utf8", "fifo", "folder"])
def test_a_guide_that_cannot_be_read_is_an_input_error(tmp_path: Path, make: Callable[[Path], None]) -> None:
    (tmp_path / "good.md").write_text("# Good\n", encoding="utf-8")
    make(tmp_path / "bad.md")
    previous = signal.signal(signal.SIGALRM, _hang)  # a FIFO waits for a writer for ever: a failure, not a hang
    signal.alarm(20)
    try:
        with pytest.raises(InputError) as caught:
            knowledge.read_guides(tmp_path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert caught.value.path.endswith("bad.md")
def test_the_c_language(knowledge: Knowledge) -> None:
    language = knowledge.c_language
    assert {"register", "restrict", "_Bool", "typeof", "offsetof"} <= language.keywords
    assert all(isinstance(word, str) for word in language.keywords), "YAML reads a bare true as a boolean"
    assert {"true", "false"} <= language.keywords
    assert language.refuses("_Reserved") and language.refuses("__x") and language.refuses("while")
    assert language.refuses("_lower") is None and language.refuses("widget") is None
    assert language.pointer_levels == 12


def test_function_names_may_hold_underscores_and_digits() -> None:
    known = knowledge.load()
    assert known.is_function_name("clCreateFromVA_APIMediaSurfaceINTEL")
    assert known.is_function_name("clCreateFromD3D11BufferKHR")
    assert not known.is_function_name("cl_mem") and not known.is_function_name("CL_INVALID_VALUE")


def test_core_types_of_other_apis_are_core_types(knowledge: Knowledge) -> None:
    """cl_gl.h's functions take cl_GLuint, cl_GLenum ...: cl_platform.h and cl_gl.h define them."""
    assert knowledge.core_types["cl_GLuint"] == {"kind": "typedef", "c_type": "unsigned int"}
    assert knowledge.core_types["cl_GLsync"] == {"kind": "typedef", "c_type": "struct __GLsync *"}
    used = {t for f in knowledge.core_functions.values() for _, t in f.params}
    assert {"cl_GLuint", "cl_GLenum", "cl_GLint"} <= {t.removeprefix("const ").rstrip(" *") for t in used}
    assert "CL_API_CALL" in knowledge.decorations and "CL_CALLBACK" in knowledge.decorations
