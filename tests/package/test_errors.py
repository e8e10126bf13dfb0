"""The errors module: one class per code, core OpenCL's and each extension's."""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from cl_d3d_sharing import errors

from tests.package.standins import extension_module
from tests.support import GENERATED, ROOT, load_truth


def test_core_codes_are_all_there(knowledge: object) -> None:
    from generator.base.knowledge import load

    core = {name: entry["value"] for name, entry in load().core_constants.items()
            if entry.get("group") == "error_code" and entry["value"] != 0}
    assert {name: errors.BY_NAME[name].code for name in core} == core
    assert errors.InvalidValueError.code == -30 and errors.InvalidValueError.name == "CL_INVALID_VALUE"
    assert errors.OutOfHostMemoryError.code == -6


@pytest.mark.parametrize("extension", sorted(load_truth()))
def test_every_code_an_extension_defines_or_lists_has_a_class(extension: str) -> None:
    truth = load_truth()[extension]
    listed = {code for function in truth["functions"] for code in function["errors"]}
    defined = {t["name"]: t["value"] for t in truth["tokens"] if t["value"] < 0}
    for name in listed | set(defined):
        assert issubclass(errors.BY_NAME[name], errors.CLError)
    for name, value in defined.items():
        assert errors.BY_NAME[name].code == value


def test_same_value_different_vendor_different_class() -> None:
    khr, nv = errors.BY_NAME["CL_INVALID_D3D10_DEVICE_KHR"], errors.BY_NAME["CL_INVALID_D3D10_DEVICE_NV"]
    assert khr.code == nv.code == -1002 and khr is not nv
    assert khr.__name__ == "InvalidD3D10DeviceKHRError" and nv.__name__ == "InvalidD3D10DeviceNVError"
    assert extension_module("cl_khr_d3d10_sharing")._ERRORS[-1002] is khr
    assert extension_module("cl_nv_d3d10_sharing")._ERRORS[-1002] is nv


def test_the_message_quotes_the_spec() -> None:
    error = errors.InvalidValueError("clF", [errors.Condition("x is zero", "specs/a.txt:3")])
    assert str(error) == "clF: CL_INVALID_VALUE (-30); the spec gives this code if\n  - x is zero [specs/a.txt:3]"
    assert (error.condition, error.source) == ("x is zero", "specs/a.txt:3")
    assert isinstance(error, errors.Error)


@pytest.mark.parametrize("extension", sorted(load_truth()))
def test_every_citation_leads_to_the_text_the_package_carries(extension: str) -> None:
    """An installed package has no `specs/` of the project: it carries its own copies, and each condition's
    `file`, `line` (and `column`, in the text whose line breaks were lost) lead to the words it cites."""
    conditions = [c for codes in extension_module(extension)._CONDITIONS.values() for cs in codes.values() for c in cs]
    assert conditions
    for condition in conditions:
        assert condition.file is not None and condition.file.is_relative_to(GENERATED / "cl_d3d_sharing" / "specs")
        text = condition.file.read_text(encoding="utf-8")
        assert text == (ROOT / condition.source.split(":")[0]).read_text(encoding="utf-8-sig")
        line = text.splitlines()[condition.line - 1]
        if condition.column is not None:
            assert condition.line == 1 and line[condition.column - 1:].startswith(("CL_", "Returned", "Add "))
        else:
            assert line.strip(), condition  # a line of the text, never past its end
    elsewhere = errors.Condition("x", "specs/other.txt:3")
    assert (elsewhere.file, elsewhere.line, elsewhere.column) == (None, 3, None)
    first = errors.Condition("x", "a:b.txt:1:7")
    assert (first.file, first.line, first.column) == (None, 1, 7)


def test_extension_not_supported_names_everything() -> None:
    error = errors.ExtensionNotSupportedError("cl_x", "P", ["a", "b"], device_extensions={"D": ["c"]})
    assert str(error) == "cl_x is not supported by platform 'P'; its extensions: a b; device 'D': c"


def test_errors_survive_pickling() -> None:
    for error in (errors.InvalidValueError("clF", [errors.Condition("x", "s:1")]),
                  errors.ExtensionNotSupportedError("cl_x", "P", ["a"]),
                  errors.LibraryNotFoundError(["a.so"], "VAR")):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error) and copy.__dict__ == error.__dict__


def test_a_refusal_quotes_a_list_as_it_was_passed_and_says_so_once_asked() -> None:
    """The message is made when first asked for (raising and catching stays cheap), from the arguments as they were
    passed: a caller that reuses its list after catching the error does not change what the error says."""
    check = errors.Check(-30, ("x is zero",), (errors.Condition("x is zero", "specs/a.txt:3"),))
    mems = ["first"]
    error = errors.violation("clF", check, {}, {"mem_objects": mems, "x": 0}, found=0x10)
    assert error._text is None and error.arguments["mem_objects"] is mems
    mems[:] = ["second", "third"]
    assert "holds for mem_objects=['first'], x=0 (the object at 0x10)" in str(error)
    assert error.detail is not None and error.detail in str(error) and repr(error) == f"CLError({str(error)!r})"
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error) and copy.detail == error.detail and copy.found == 0x10


def test_with_pyopencl_imported_its_own_except_clauses_catch_them() -> None:
    """PyOpenCL's class by PyOpenCL's rule (extension codes are below CL_INVALID_VALUE: logic errors)."""
    import pyopencl
    module = extension_module("cl_khr_d3d11_sharing")
    with pytest.raises(pyopencl.LogicError) as caught:
        module.clCreateFromD3D11BufferKHR(None, 99, None, None)  # refused by its check: flags
    raised = caught.value
    assert isinstance(raised, errors.InvalidValueError) and isinstance(raised, pyopencl.Error)
    assert (raised.code, raised.routine, raised.what) == (-30, "clCreateFromD3D11BufferKHR", str(raised))
    assert type(pickle.loads(pickle.dumps(raised))) is errors.InvalidValueError
    plain = "from cl_d3d_sharing import errors as e; import sys; assert e.raised(e.InvalidValueError) is " \
            "e.InvalidValueError and 'pyopencl' not in sys.modules"  # PyOpenCL is never imported for it
    subprocess.run([sys.executable, "-c", plain], check=True, cwd=GENERATED)
    assert issubclass(errors.raised(errors.MemObjectAllocationFailureError), pyopencl.MemoryError)
    assert issubclass(errors.raised(errors.OutOfResourcesError), pyopencl.RuntimeError)


def test_platforms_as_pyopencl_objects(platform: object) -> None:
    import cl_d3d_sharing
    import pyopencl
    assert [p.int_ptr for p in cl_d3d_sharing.platforms(as_pyopencl=True)] == [
        int(cl_d3d_sharing.address(p)) for p in cl_d3d_sharing.platforms()]
    assert all(isinstance(p, pyopencl.Platform) for p in cl_d3d_sharing.platforms(as_pyopencl=True))


def test_with_pyopencl_imported_extension_not_supported_is_a_pyopencl_error(queue: object, platform: Any) -> None:
    """POCL has none of the four extensions: a C-named call, a Pythonic one and a facade's `variant` each raise
    ExtensionNotSupportedError, which `except pyopencl.Error` catches too (it did not: a PyOpenCL program's usual
    clause let it through), answering PyOpenCL's `.routine` and `.what`; its `.code` is None (no call returned
    one). A pickled copy is the package's own class."""
    import pyopencl
    from cl_d3d_sharing import d3d11

    module = extension_module("cl_khr_d3d11_sharing")
    module._binding.forget()
    acquire = "clEnqueueAcquireD3D11ObjectsKHR"  # the function looked up; the facade names the extensions
    calls: list[tuple[str, Callable[[], object]]] = [
             (acquire, lambda: module.clEnqueueAcquireD3D11ObjectsKHR(queue, 0, None, 0, None, None)),
             (acquire, lambda: module.enqueue_acquire_d3d11_objects(queue, [])),
             (" or ".join(d3d11.EXTENSIONS), lambda: d3d11.variant(platform))]
    for routine, call in calls:
        with pytest.raises(pyopencl.Error) as caught:
            call()
        raised = caught.value
        assert isinstance(raised, errors.ExtensionNotSupportedError) and isinstance(raised, errors.Error)
        assert raised.routine == routine
        assert (raised.what, raised.code) == (str(raised), None)
        assert str(raised).startswith(f"{raised.extension} is not supported by platform 'Portable Computing Language'")
        assert type(pickle.loads(pickle.dumps(raised))) is errors.ExtensionNotSupportedError
    plain = "from cl_d3d_sharing import errors as e; import sys; assert e.raised(e.ExtensionNotSupportedError) is " \
            "e.ExtensionNotSupportedError and e.raised(e.LibraryNotFoundError) is e.LibraryNotFoundError"
    subprocess.run([sys.executable, "-c", plain], check=True, cwd=GENERATED)
    assert not issubclass(errors.raised(errors.LibraryNotFoundError), pyopencl.Error)  # no platform's error


def test_a_failed_core_query_is_its_error_class_not_an_internal_one(platform: object) -> None:
    """The package's own questions (a device's name, releasing a memory object, a facade's answer) let a failed
    query out as `_library.QueryFailed`, which no caller could name; now it is the code's CLError, and, with
    PyOpenCL, PyOpenCL's class for it."""
    import cl_d3d_sharing
    import pyopencl
    from cl_d3d_sharing._core_ffi import ffi

    for call, error in ((lambda: cl_d3d_sharing.device_name(ffi.NULL), errors.InvalidDeviceError),
                        (lambda: cl_d3d_sharing.device_extensions(ffi.NULL), errors.InvalidDeviceError),
                        (lambda: cl_d3d_sharing.release_mem_object(ffi.NULL), errors.InvalidMemObjectError)):
        with pytest.raises(error) as caught:
            call()
        assert isinstance(caught.value, pyopencl.LogicError) and caught.value.function.startswith("cl")
