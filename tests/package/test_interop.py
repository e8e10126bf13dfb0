"""What an extension adds to core OpenCL, on POCL: the context constructor (up to the extension check, and,
with the platform taken to list the extension, POCL's own clCreateContext) and the info queries (POCL answers
that it knows none of the extension's tokens). Real calls throughout: POCL through the ocl-icd loader."""

from __future__ import annotations

from typing import Any

import pytest
from cl_d3d_sharing import errors

from tests.package.standins import EXTENSIONS, extension_module, pyopencl


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_a_context_on_a_platform_without_the_extension_is_refused_before_any_call(
    extension: str, device: Any,
) -> None:
    module = extension_module(extension)
    keyword = next(iter(module.create_context.__kwdefaults__))  # the extension's device property
    with pytest.raises(errors.ExtensionNotSupportedError, match=extension):
        module.create_context([device], **{keyword: 0x1000})


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_with_the_extension_listed_pocl_makes_the_context_or_refuses_the_property(
    extension: str, device: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = extension_module(extension)
    monkeypatch.setattr(module._binding, "supported", lambda *args: True)  # POCL lists no Direct3D extension
    made = module.create_context([device], as_pyopencl=True)  # no property given: POCL's own context
    assert isinstance(made, pyopencl().Context) and made.devices[0].int_ptr == int(module.ffi.cast("uintptr_t", device))
    keyword = next(k for k in module.create_context.__kwdefaults__ if k != "as_pyopencl")
    with pytest.raises(errors.CLError) as caught:  # POCL knows no such property
        module.create_context([device], **{keyword: 0x1000})
    assert caught.value.routine == "clCreateContext" and not caught.value.checked
    with pytest.raises(ValueError, match="at least one device"):
        module.create_context([])


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_the_info_queries_ask_the_core_functions(extension: str, context: Any) -> None:
    cl = pyopencl()
    module = extension_module(extension)
    queries = [name for name in module.__all__ if name.startswith(("mem_", "image_", "context_"))
               and callable(getattr(module, name)) and name != "create_context"]
    assert queries
    own = cl.Context.from_int_ptr(int(module.ffi.cast("uintptr_t", context)), retain=True)
    buffer = cl.Buffer(own, cl.mem_flags.READ_WRITE, 64)
    for name in queries:
        handle = own if name.startswith("context_") else buffer
        with pytest.raises(errors.CLError) as caught:  # POCL: not a param_name it knows
            getattr(module, name)(handle)
        assert caught.value.routine.startswith("clGet") and caught.value.code == errors.InvalidValueError.code
