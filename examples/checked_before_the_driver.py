"""A call the specification forbids, refused before the driver sees it, with the sentence it breaks.

    python examples/checked_before_the_driver.py

`CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY` is no valid `flags` for `clCreateFromD3D11BufferKHR`: the package raises
the spec's error, quoting the condition and where the text says it, and opens the text it carries at that line.
The checks run before the extension function is looked up, so this runs on any OpenCL platform, Direct3D or not.
"""

from __future__ import annotations

import ctypes

import pyopencl
from cl_d3d_sharing import errors, khr_d3d11


def main() -> int:
    context = pyopencl.create_some_context(interactive=False)
    buffer = ctypes.create_string_buffer(64)  # stands for an ID3D11Buffer, which only Windows has
    flags = pyopencl.mem_flags.READ_WRITE | pyopencl.mem_flags.WRITE_ONLY
    try:
        khr_d3d11.create_from_d3d11_buffer(context, flags, ctypes.addressof(buffer))
    except errors.InvalidValueError as error:
        print(error)
        for condition in error.conditions:
            if condition.file is not None:  # the text the package carries, at the cited line
                cited = condition.file.read_text(encoding="utf-8").splitlines()[condition.line - 1]
                print(f"{condition.file.name}:{condition.line}: {cited.strip()}")
        return 0
    print("the call was not refused")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
