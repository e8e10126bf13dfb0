"""The loader and the platform queries, on POCL; the environment override and the missing-library message."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from cl_d3d_sharing import _library, errors
from cl_d3d_sharing._core_ffi import ffi as core_ffi

from tests.package.standins import real_platform_extensions
from tests.support import GENERATED, missing


def run_python(code: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(GENERATED), **environment}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                          check=False)


def test_the_loader_finds_the_library_by_its_linux_name(platform: Any) -> None:
    assert _library.library_path() == "libOpenCL.so.1"


def test_pocl_is_listed_with_its_extensions(platform: Any) -> None:
    assert _library.platform_name(platform) == "Portable Computing Language"
    assert list(_library.platform_extensions(platform)) == real_platform_extensions()


def test_devices_know_their_platform(platform: Any, device: Any) -> None:
    assert _library.address(_library.device_platform(device)) == _library.address(platform)
    assert _library.device_extensions(device)


def test_a_context_leads_to_its_platform_and_devices(platform: Any, device: Any, context: Any, queue: Any) -> None:
    found, devices = _library.platform_of("context", context)
    assert _library.address(found) == _library.address(platform)
    assert [_library.address(d) for d in devices] == [_library.address(device)]
    found, devices = _library.platform_of("queue", queue)
    assert _library.address(found) == _library.address(platform)


def test_importing_loads_no_library() -> None:
    result = run_python("""
        import cl_d3d_sharing.khr_d3d11 as m, cl_d3d_sharing.d3d10, cl_d3d_sharing.formats
        print(m.EXTENSION)
        print(any("libOpenCL" in line for line in open("/proc/self/maps")))
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["cl_khr_d3d11_sharing", "False"]


def test_the_environment_variable_overrides_the_library(platform: Any) -> None:
    with open("/proc/self/maps") as maps:
        path = next(line.split()[-1] for line in maps if "libOpenCL.so" in line)
    result = run_python("""
        import cl_d3d_sharing as cl
        print(cl.library_path(), [cl.platform_name(p) for p in cl.platforms()])
    """, CL_D3D_SHARING_OPENCL_LIBRARY=path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(path + " ")
    assert "Portable Computing Language" in result.stdout


def test_a_missing_override_says_what_was_tried() -> None:
    result = run_python("""
        import cl_d3d_sharing as cl
        from cl_d3d_sharing.errors import LibraryNotFoundError
        try:
            cl.platforms()
        except LibraryNotFoundError as error:
            print(error.tried, error.environment)
            print(error)
    """, CL_D3D_SHARING_OPENCL_LIBRARY="/nowhere/libOpenCL.so")
    assert result.returncode == 0, result.stderr
    first, message = result.stdout.split("\n", 1)
    assert first == "('/nowhere/libOpenCL.so',) CL_D3D_SHARING_OPENCL_LIBRARY"
    assert "tried /nowhere/libOpenCL.so" in message
    assert "set CL_D3D_SHARING_OPENCL_LIBRARY" in message


def test_with_no_library_at_all_every_name_is_named() -> None:
    result = run_python("""
        from cl_d3d_sharing import _library
        from cl_d3d_sharing.errors import LibraryNotFoundError
        _library.LIBRARY_NAMES["linux"] = ("libNoOpenCL.so.1", "libNoOpenCL.so")
        try:
            _library.library()
        except LibraryNotFoundError as error:
            print(error)
    """)
    assert result.returncode == 0, result.stderr
    assert "tried libNoOpenCL.so.1, libNoOpenCL.so" in result.stdout
    assert "CL_D3D_SHARING_OPENCL_LIBRARY" in result.stdout


def test_the_names_tried_per_system() -> None:
    assert _library.LIBRARY_NAMES["win32"] == ("OpenCL.dll",)
    assert _library.LIBRARY_NAMES["linux"] == ("libOpenCL.so.1", "libOpenCL.so")
    assert _library.LIBRARY_NAMES["darwin"][0] == "/System/Library/Frameworks/OpenCL.framework/OpenCL"


def test_loading_is_once_even_from_many_threads(platform: Any) -> None:
    result = run_python("""
        from concurrent.futures import ThreadPoolExecutor
        from cl_d3d_sharing import _library
        opened = []
        real = _library.ffi.dlopen
        _library.ffi = type("Counting", (), {"dlopen": lambda self, name: opened.append(name) or real(name)})()
        with ThreadPoolExecutor(8) as pool:
            loaded = list(pool.map(lambda _: _library.library(), range(64)))
        print(len(opened), len({id(lib) for lib in loaded}))
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "1"]


def test_a_failed_query_becomes_query_failed(platform: Any) -> None:
    with pytest.raises(_library.QueryFailed) as caught:
        _library.platform_of("context", core_ffi.NULL)
    assert caught.value.code < 0


def test_library_not_found_is_an_os_error() -> None:
    error = errors.LibraryNotFoundError(["a.so"], "VAR")
    assert isinstance(error, OSError) and isinstance(error, errors.Error)


@pytest.mark.parametrize("name", ["libz.so.1", "libm.so.6", "libffi.so.8"])
def test_a_library_that_is_not_opencl_is_not_found_naming_what_it_lacks(name: str) -> None:
    """CL_D3D_SHARING_OPENCL_LIBRARY naming a real library that is not OpenCL: it loaded, and the first call
    failed with cffi's error naming one symbol (or called whatever had the name). Now loading looks up every
    function the package calls and refuses the library, naming those it lacks."""
    path = next((f"{folder}/{name}" for folder in ("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64")
                 if os.path.exists(f"{folder}/{name}")), None)
    if path is None:
        missing(f"{name}, a library that is not OpenCL")
    result = run_python("""
        import cl_d3d_sharing as cl
        from cl_d3d_sharing import errors
        for question in (cl.platforms, cl.library_path):
            try:
                question()
            except errors.LibraryNotFoundError as error:
                print(type(error).__name__, error.tried)
                print(" ".join(str(error).split()))
    """, CL_D3D_SHARING_OPENCL_LIBRARY=str(path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == lines[2] == f"LibraryNotFoundError ({str(path)!r},)"
    assert f"{path} (not an OpenCL library: it has no " in lines[1]
    assert "clGetPlatformIDs, clGetPlatformInfo" in lines[1] and "clSetMemObjectDestructorCallback" in lines[1]


@pytest.mark.parametrize("given", ["x", b"a", 2.5, 3, None, core_ffi.new("int[1]")[0]])
def test_address_takes_only_a_cffi_handle_or_pointer(given: object) -> None:
    """A one-character string was cast to its code point (`address("x") == 120`), a float truncated."""
    import cl_d3d_sharing

    with pytest.raises(TypeError, match=r"address\(\) takes a cffi handle or pointer, not "):
        cl_d3d_sharing.address(given)  # type: ignore[arg-type]
    assert cl_d3d_sharing.address(core_ffi.cast("cl_context", 0x40)) == 0x40


# -- a library that lies about the size of its answers ------------------------------

LYING_PROGRAM = """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (1 << 32, 1 << 32))  # the code before asked for gigabytes: fail fast
    import cl_d3d_sharing as cl
    import cl_d3d_sharing.khr_d3d11
    from cl_d3d_sharing import EXTENSIONS

    def first():
        return cl.platforms()[0]

    def device_ids(name):
        module = __import__("cl_d3d_sharing." + name, fromlist=["x"])
        api = module.EXTENSION.split("_")[2]
        every = next(m for m in module.D3DDeviceSet if "ALL" in m.name)
        found = getattr(module, f"get_device_ids_from_{api}")(first(), next(iter(module.D3DDeviceSource)), None, every)
        return len(found)

    questions = {
        "platforms": lambda: len(cl.platforms()),
        "platform_name": lambda: cl.platform_name(first()),
        "platform_name by address": lambda: cl.platform_name(cl.address(first())),
        "supported": lambda: cl.khr_d3d11.supported(first()),
        "devices": lambda: len(cl.devices(first())),
        "device_name": lambda: cl.device_name(cl.devices(first())[0]),
        **{f"device ids ({name})": (lambda name=name: device_ids(name)) for name in EXTENSIONS.values()},
    }
    for question, ask in questions.items():
        try:
            answer = f"ok {ask()!r}"
        except Exception as error:
            answer = f"{type(error).__name__} {' '.join(str(error).split())}"
        print(question, answer, sep="|", flush=True)
"""
PLATFORMS = "clGetPlatformIDs: CL_OUT_OF_HOST_MEMORY (-6): the OpenCL library answered 4294967295 platforms, more than"
DEVICES = "clGetDeviceIDs: CL_OUT_OF_HOST_MEMORY (-6): the OpenCL library answered 4294967295 devices, more than the"
DEVICE_IDS = [f"device ids ({name})" for name in ("khr_d3d10", "khr_d3d11", "nv_d3d10", "nv_d3d11")]
#: How each lie shows in the answers that differ from the honest library's.
LIES = {
    "platform_count": {question: f"OutOfHostMemoryError {PLATFORMS}" for question in (
        "platforms", "platform_name", "platform_name by address", "supported", "devices", "device_name", *DEVICE_IDS)},
    "platform_name_size": {question: "OutOfHostMemoryError clGetPlatformInfo: CL_OUT_OF_HOST_MEMORY (-6): the OpenCL "
                           "library answered 18446744073709551615 bytes, more than the 16777216"
                           for question in ("platform_name", "platform_name by address", "supported", *DEVICE_IDS)},
    "platform_info_size": {question: "OutOfHostMemoryError clGetPlatformInfo: CL_OUT_OF_HOST_MEMORY (-6): the OpenCL "
                           "library answered 1099511627776 bytes"
                           for question in ("platform_name", "platform_name by address", "supported", *DEVICE_IDS)},
    "device_count": {"devices": f"OutOfHostMemoryError {DEVICES}", "device_name": f"OutOfHostMemoryError {DEVICES}"},
    "device_info_size": {"device_name": "OutOfHostMemoryError clGetDeviceInfo: CL_OUT_OF_HOST_MEMORY (-6): the OpenCL "
                         "library answered 18446744073709551615 bytes"},
    "direct3d_count": {f"device ids ({name})": f"OutOfHostMemoryError {function}: CL_OUT_OF_HOST_MEMORY (-6): the "
                       "OpenCL library answered 4294967295 devices" for name, function in (
                           ("khr_d3d10", "clGetDeviceIDsFromD3D10KHR"), ("khr_d3d11", "clGetDeviceIDsFromD3D11KHR"),
                           ("nv_d3d10", "clGetDeviceIDsFromD3D10NV"), ("nv_d3d11", "clGetDeviceIDsFromD3D11NV"))},
    "platform_garbage": {"platform_name by address": "ValueError platform_name() argument 'platform' = 0x1234 is not a "
                         "live OpenCL object (cl_platform_id): nothing can be read there"},
}


@pytest.fixture
def lying_library(tmp_path: Path, compiler: str, headers: None) -> str:
    built = tmp_path / "liblying.so"
    source = Path(__file__).with_name("lying_library.c")
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(built), str(source)], check=True)
    return str(built)


def ask_lying(library: str, lie: str) -> dict[str, str]:
    result = run_python(LYING_PROGRAM, CL_D3D_SHARING_OPENCL_LIBRARY=library, LYING=lie)
    assert result.returncode == 0, f"died with {result.returncode}: {result.stdout[-2000:]} {result.stderr[-2000:]}"
    return dict(line.split("|", 1) for line in result.stdout.splitlines())


@pytest.mark.parametrize("lie", sorted(LIES))
def test_a_library_that_lies_about_its_answers_sizes_is_refused_saying_so(lying_library: str, lie: str) -> None:
    """A library that answers 4294967295 platforms or devices, or a name of 2**64 - 1 bytes, was taken at its word:
    the package made room for them (a MemoryError, an OverflowError from cffi, or gigabytes and minutes), and read
    the first word of platforms it listed directly (0x1234 killed the process). Now such an answer is the CLError
    of CL_OUT_OF_HOST_MEMORY saying what the library answered, and a listed platform's word is read through
    `_memory`. No real driver can be made to lie: `lying_library.c` is a stand-in for one, built with gcc."""
    honest = ask_lying(lying_library, "")
    assert set(honest.values()) <= {"ok 1", "ok 'Lying'", "ok True", "ok 'Lying device'"}, honest
    found = ask_lying(lying_library, lie)
    assert found.keys() == honest.keys()
    for question, answer in found.items():
        if question in LIES[lie]:
            assert answer.startswith(LIES[lie][question]), (question, answer)
        else:
            assert answer == honest[question], (question, answer)
