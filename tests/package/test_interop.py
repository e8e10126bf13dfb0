"""What an extension adds to core OpenCL, on POCL: the context constructor (up to the extension check, and,
with the platform taken to list the extension, POCL's own clCreateContext) and the info queries (POCL answers
that it knows none of the extension's tokens). Real calls throughout: POCL through the ocl-icd loader."""

from __future__ import annotations

from typing import Any

import cl_d3d_sharing
import pytest
from cl_d3d_sharing import errors

from tests.package.standins import EXTENSIONS, extension_module, pyopencl

#: CL_CONTEXT_PLATFORM, the property every context constructor gives itself (cl.h).
PLATFORM = 0x1084


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


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_a_context_made_with_a_core_property_has_it_on_pocl(
    extension: str, device: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`properties={CL_CONTEXT_INTEROP_USER_SYNC: True}` reaches POCL's clCreateContext, which keeps it: the
    context's own properties say so, read back through the package (PyOpenCL's `Context.properties` refuses the
    list). The one stand-in: POCL lists no Direct3D extension, so the platform is taken to list it."""
    module = extension_module(extension)
    monkeypatch.setattr(module._binding, "supported", lambda *args: True)
    made = module.create_context([device], properties={cl_d3d_sharing.CL_CONTEXT_INTEROP_USER_SYNC: True})
    found = cl_d3d_sharing.context_properties(made)
    assert found[cl_d3d_sharing.CL_CONTEXT_INTEROP_USER_SYNC] == 1
    assert [cl_d3d_sharing.address(p) for p in cl_d3d_sharing.platforms()].count(found[PLATFORM]) == 1
    made = module.create_context([device], properties={cl_d3d_sharing.CL_CONTEXT_INTEROP_USER_SYNC: True},
                                 as_pyopencl=True)
    assert isinstance(made, pyopencl().Context)
    assert cl_d3d_sharing.context_properties(made)[cl_d3d_sharing.CL_CONTEXT_INTEROP_USER_SYNC] == 1
    plain = cl_d3d_sharing.context_properties(module.create_context([device]))
    assert list(plain) == [PLATFORM]


@pytest.mark.parametrize(("properties", "raised", "says"), [
    ({PLATFORM: 1}, ValueError, "the platform is the devices' own"),
    ({0x7FFF: True}, ValueError, "32767 is no context property create_context() takes; it takes "
                                 "CL_CONTEXT_INTEROP_USER_SYNC (4229)"),
    ({4229: 1}, TypeError, "(CL_CONTEXT_INTEROP_USER_SYNC) must be a bool, not int"),
    ({4229: "yes"}, TypeError, "must be a bool, not str"),
    ({"4229": True}, TypeError, "'properties' must be an int"),
    ("properties", TypeError, "must map context properties to values, not str"),
    (3, TypeError, "must map context properties to values, not int"),
])
@pytest.mark.parametrize("extension", EXTENSIONS)
def test_a_core_property_outside_what_the_constructor_takes_is_refused_before_any_call(
    extension: str, device: Any, properties: Any, raised: type[Exception], says: str,
) -> None:
    """On POCL, which lists no Direct3D extension: the arguments are refused first, as every call's are."""
    with pytest.raises(raised) as caught:
        extension_module(extension).create_context([device], properties=properties)
    assert "create_context() argument 'properties" in str(caught.value) and says in str(caught.value)


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_the_extensions_own_property_is_its_keyword_not_a_core_one(extension: str, device: Any) -> None:
    module = extension_module(extension)
    keyword = next(iter(module.create_context.__kwdefaults__))
    token = next(value for name, value in vars(module).items() if name.startswith("CL_CONTEXT_")
                 and name.endswith("_DEVICE_" + module.VENDOR))
    with pytest.raises(ValueError, match=rf"give it as create_context\({keyword}=\.\.\.\)"):
        module.create_context([device], properties={token: True})
