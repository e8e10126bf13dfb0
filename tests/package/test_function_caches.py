"""The function caches: a wrapper finds its driver function once per platform (by the handle's dispatch word
where several platforms are listed), and `install` and `forget` reset what it found.

The Direct3D functions do not exist on Linux: the driver functions are stand-ins (`install`), put in the
module's lookup cache for POCL's platform, or for a made-up one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from cl_d3d_sharing import _binding, _library, errors

from tests.package.standins import extension_module, install


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of handle `_library.platform_of` was asked about: each is two or three driver queries."""
    kinds: list[str] = []
    real = _library.platform_of

    def counting(kind: str, handle: Any) -> Any:
        kinds.append(kind)
        return real(kind, handle)

    monkeypatch.setattr(_library, "platform_of", counting)
    return kinds


ACQUIRE = "clEnqueueAcquireD3D11ObjectsKHR"


def acquire_nothing(module: Any, queue: Any) -> None:
    module.clEnqueueAcquireD3D11ObjectsKHR(queue, 0, None, 0, None, None)


def reaching(reached: list[str], label: str) -> Callable[..., int]:
    """A stand-in's body that notes `label` in `reached` and succeeds."""

    def body(*args: Any) -> int:
        reached.append(label)
        return 0

    return body


def test_one_platform_the_function_is_found_once_and_install_and_forget_reset_it(
    platform: Any, queue: Any, asked: list[str],
) -> None:
    """POCL is this machine's only platform: after the first call finds the function (asking the driver which
    platform the queue is on), the next calls take it from `Entry.only` without a query; installing another
    stand-in or forgetting empties it, so the next call finds the new one, or none."""
    module = extension_module("cl_khr_d3d11_sharing")
    assert len(_binding.platform_words()) == 1
    entry = module._fn_clEnqueueAcquireD3D11ObjectsKHR
    reached: list[str] = []
    first = install(module, platform, ACQUIRE, reaching(reached, "first"))
    assert entry.only is None
    for _ in range(3):
        acquire_nothing(module, queue)
    assert reached == ["first"] * 3 and asked == ["queue"] and entry.only is first
    second = install(module, platform, ACQUIRE, reaching(reached, "second"))
    assert entry.only is None
    acquire_nothing(module, queue)
    acquire_nothing(module, queue)
    assert reached[3:] == ["second"] * 2 and asked == ["queue"] * 2 and entry.only is second
    module._binding.forget()
    assert entry.only is None
    with pytest.raises(errors.ExtensionNotSupportedError):
        acquire_nothing(module, queue)


def test_a_null_handle_still_gets_the_drivers_answer(platform: Any, queue: Any) -> None:
    """With the function cached, a NULL queue is still refused by the driver's query, as on the first call."""
    module = extension_module("cl_khr_d3d11_sharing")
    reached: list[str] = []
    install(module, platform, ACQUIRE, reaching(reached, "it"))
    acquire_nothing(module, queue)
    with pytest.raises(errors.BY_NAME["CL_INVALID_COMMAND_QUEUE"], match="failed on argument 'command_queue'"):
        acquire_nothing(module, None)
    assert reached == ["it"]


@pytest.fixture
def two_platforms(platform: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[[bool], None]:
    """Pretend the loader listed a second platform (a made-up address), with POCL's dispatch word or another."""

    def listed(same_word: bool) -> None:
        words = dict(_binding.platform_words())
        pocl = words[_library.address(platform)]
        words[0x7E57_0000] = pocl if same_word else pocl ^ 0x10
        monkeypatch.setattr(_binding, "_platform_words", words)

    return listed


def test_several_platforms_the_function_is_found_by_the_dispatch_word(
    platform: Any, queue: Any, asked: list[str], two_platforms: Callable[[bool], None],
) -> None:
    """With two platforms there is no single function for every handle (`Entry.only` stays empty): the calls
    after the first find it by the queue's dispatch word, which only POCL's platform has, without a query;
    `install` empties that cache too."""
    two_platforms(False)
    module = extension_module("cl_khr_d3d11_sharing")
    entry = module._fn_clEnqueueAcquireD3D11ObjectsKHR
    reached: list[str] = []
    install(module, platform, ACQUIRE, reaching(reached, "first"))
    for _ in range(3):
        acquire_nothing(module, queue)
    assert reached == ["first"] * 3 and asked == ["queue"] and entry.only is None
    install(module, platform, ACQUIRE, reaching(reached, "second"))
    acquire_nothing(module, queue)
    acquire_nothing(module, queue)
    assert reached[3:] == ["second"] * 2 and asked == ["queue"] * 2
    module._binding.forget(platform)
    with pytest.raises(errors.ExtensionNotSupportedError):
        acquire_nothing(module, queue)


def test_a_dispatch_word_two_platforms_share_is_not_cached(
    platform: Any, queue: Any, asked: list[str], two_platforms: Callable[[bool], None],
) -> None:
    """One ICD with two platforms: the word does not say which platform a handle is on, so every call asks."""
    two_platforms(True)
    module = extension_module("cl_khr_d3d11_sharing")
    reached: list[str] = []
    install(module, platform, ACQUIRE, reaching(reached, "it"))
    for _ in range(3):
        acquire_nothing(module, queue)
    assert reached == ["it"] * 3 and asked == ["queue"] * 3


def test_the_one_platforms_function_is_for_that_platform_only(platform: Any) -> None:
    """A function taking the platform itself uses `Entry.only` only when given that platform: another handle
    in the platform's place (here a made-up address with a stand-in of its own, never dereferenced) is looked
    up for itself."""
    module = extension_module("cl_khr_d3d11_sharing")
    ffi = module.ffi
    name = "clGetDeviceIDsFromD3D11KHR"
    reached: list[str] = []

    other = ffi.cast("cl_platform_id", 0x7E57_0000)
    install(module, platform, name, reaching(reached, "pocl"))
    install(module, other, name, reaching(reached, "other"))
    count = ffi.new("cl_uint *")
    source, device_set = int(module.CL_D3D11_DEVICE_KHR), int(module.CL_PREFERRED_DEVICES_FOR_D3D11_KHR)
    for handle in (platform, platform, other, platform, other):
        module.clGetDeviceIDsFromD3D11KHR(handle, source, None, device_set, 0, None, count)
    assert reached == ["pocl", "pocl", "other", "pocl", "other"]
    entry = module._fn_clGetDeviceIDsFromD3D11KHR
    assert entry.only is not None and _library.address(entry.platform) == _library.address(platform)


def test_a_platform_argument_is_never_read(platform: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A platform's dispatch word comes from the platforms the loader listed, read once: an argument that is
    no listed platform is not dereferenced by the cache (the driver is asked about it, as before)."""
    words = _binding.platform_words()
    read: list[int] = []
    real = _binding.dispatch_word

    def reading(handle: Any) -> int:
        read.append(_library.address(handle))
        return real(handle)

    monkeypatch.setattr(_binding, "dispatch_word", reading)
    ffi = extension_module("cl_khr_d3d11_sharing").ffi
    assert _binding.Binding._word("platform", platform) == words[_library.address(platform)]
    assert _binding.Binding._word("platform", ffi.cast("cl_platform_id", 0x10)) is None
    assert _binding.Binding._word("platform", ffi.NULL) is None
    assert read == []
