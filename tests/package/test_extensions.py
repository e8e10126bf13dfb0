"""Every function of all four extensions, called on POCL, which has none of them."""

from __future__ import annotations

from typing import Any

import pytest
from cl_d3d_sharing import _runtime, d3d10, d3d11
from cl_d3d_sharing.errors import ExtensionNotSupportedError

from tests.package.conftest import extension_module
from tests.package.test_runtime import real_platform_extensions
from tests.support import load_truth

ALL_FUNCTIONS = [(name, f) for name, data in sorted(load_truth().items()) for f in data["functions"]]

#: A plausible value for each parameter, by C type (where a name does not decide it).
RESOURCE = 0xD3D0


def arguments(module: Any, params: list[dict[str, str]], handles: dict[str, Any]) -> list[Any]:
    """Arguments a valid call could have: every handle real, every count matching its array."""
    values: list[Any] = []
    for param in params:
        kind, name = param["type"], param["name"]
        if kind in handles:
            values.append(handles[kind])
        elif name == "d3d_device_source":
            values.append(next(iter(module.D3DDeviceSource)))
        elif name == "d3d_device_set":
            values.append(next(iter(module.D3DDeviceSet)))
        elif name == "flags":
            values.append(1)  # CL_MEM_READ_WRITE
        elif name == "num_objects":
            values.append(1)
        elif name == "mem_objects" and kind.startswith("const"):
            values.append([0x1000])
        elif name == "mem_objects":  # NVIDIA's release functions take a `cl_mem *`: a C array, not a list
            values.append(module.ffi.new("cl_mem[]", [module.ffi.cast("cl_mem", 0x1000)]))
        elif name == "num_devices":
            values.append(module.ffi.new("cl_uint *"))
        elif kind.endswith("*") and "const" not in kind:
            values.append(None if name != "d3d_object" and "ID3D" not in kind else RESOURCE)
        else:
            values.append(0)
    return values


@pytest.fixture
def handles(platform: Any, context: Any, queue: Any) -> dict[str, Any]:
    return {"cl_platform_id": platform, "cl_context": context, "cl_command_queue": queue}


@pytest.mark.parametrize(("extension", "function"), ALL_FUNCTIONS, ids=[f["name"] for _, f in ALL_FUNCTIONS])
def test_every_function_names_pocls_real_extensions(
    extension: str, function: dict[str, Any], handles: dict[str, Any], platform: Any
) -> None:
    module = extension_module(extension)
    module._binding.forget()
    with pytest.raises(ExtensionNotSupportedError) as caught:
        getattr(module, function["name"])(*arguments(module, function["params"], handles))
    error = caught.value
    assert error.extension == extension
    assert error.platform == "Portable Computing Language"
    assert list(error.available) == real_platform_extensions()
    assert str(error).startswith(f"{extension} is not supported by platform 'Portable Computing Language'")
    assert " ".join(real_platform_extensions()) in str(error)


def test_the_devices_extensions_are_named_where_a_device_is_known(queue: Any, device: Any) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    module._binding.forget()
    with pytest.raises(ExtensionNotSupportedError) as caught:
        module.clEnqueueAcquireD3D11ObjectsKHR(queue, 0, None, 0, None, None)
    assert list(caught.value.device_extensions.values()) == [_runtime.device_extensions(device)]


def test_an_invalid_handle_is_the_specs_error_not_a_lookup(context: Any) -> None:
    module = extension_module("cl_khr_d3d10_sharing")
    from cl_d3d_sharing.errors import InvalidContextError

    with pytest.raises(InvalidContextError) as caught:
        module.clCreateFromD3D10BufferKHR(None, 1, RESOURCE, None)
    assert caught.value.function == "clCreateFromD3D10BufferKHR"
    assert caught.value.condition == "context is not a valid context"
    assert caught.value.source is not None and caught.value.source.startswith("specs/cl_khr_d3d10_sharing.txt:")


@pytest.mark.parametrize("facade", [d3d10, d3d11])
def test_the_facades_try_khr_first_and_name_both(facade: Any, platform: Any) -> None:
    assert [m.VENDOR for m in facade.VARIANTS] == ["KHR", "NV"]
    assert facade.supported(platform) == []
    with pytest.raises(ExtensionNotSupportedError) as caught:
        facade.variant(platform)
    assert caught.value.extension == " or ".join(facade.EXTENSIONS)
