"""Every function of all four extensions, called on POCL, which has none of them."""

from __future__ import annotations

from typing import Any

import pytest
from cl_d3d_sharing import _library, d3d10, d3d11
from cl_d3d_sharing.errors import ExtensionNotSupportedError

from tests.package.standins import (
    ALL_FUNCTIONS,
    RESOURCE,
    Handles,
    arguments,
    extension_module,
    real_platform_extensions,
)


@pytest.mark.parametrize(("extension", "function"), ALL_FUNCTIONS, ids=[f["name"] for _, f in ALL_FUNCTIONS])
def test_every_function_names_pocls_real_extensions(
    extension: str, function: dict[str, Any], handles: Handles
) -> None:
    module = extension_module(extension)
    module._binding.forget()
    with pytest.raises(ExtensionNotSupportedError) as caught:
        getattr(module, function["name"])(*arguments(module, function, handles).values())
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
    assert list(caught.value.device_extensions.values()) == [_library.device_extensions(device)]


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
    assert facade.supported(platform) is False  # one return type with the variants' own `supported`
    assert [module.supported(platform) for module in facade.VARIANTS] == [False, False]
    assert facade.variants(platform) == []
    with pytest.raises(ExtensionNotSupportedError) as caught:
        facade.variant(platform)
    assert caught.value.extension == " or ".join(facade.EXTENSIONS)
