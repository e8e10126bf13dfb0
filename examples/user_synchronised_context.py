"""A Direct3D 11 device, the OpenCL devices that can share its resources, and an OpenCL context on them that the
program synchronises itself (`CL_CONTEXT_INTEROP_USER_SYNC`), which PyOpenCL's own `Context` cannot make.

    python examples/user_synchronised_context.py

Needs Windows and a driver with cl_khr_d3d11_sharing or cl_nv_d3d11_sharing; elsewhere it says which platform
lacks them and exits with status 2.
"""

from __future__ import annotations

import ctypes
import sys

import cl_d3d_sharing as cl
from cl_d3d_sharing import d3d11, errors

D3D_DRIVER_TYPE_HARDWARE = 1
D3D11_SDK_VERSION = 7


def direct3d11_device() -> ctypes.c_void_p:
    """A Direct3D 11 device on the default adapter (`D3D11CreateDevice`)."""
    device = ctypes.c_void_p()
    if sys.platform == "win32":
        created = ctypes.WinDLL("d3d11").D3D11CreateDevice(
            None, D3D_DRIVER_TYPE_HARDWARE, None, 0, None, 0, D3D11_SDK_VERSION, ctypes.byref(device), None, None)
        if created != 0:
            raise OSError(f"D3D11CreateDevice failed: 0x{created & 0xFFFFFFFF:08X}")
    return device


def main() -> int:
    platform = cl.platforms()[0]
    try:
        module = d3d11.variant(platform)
    except errors.ExtensionNotSupportedError as missing:
        print(missing)
        print("This example needs Windows and an OpenCL driver that shares memory with Direct3D 11.")
        return 2
    device = direct3d11_device()
    devices = module.get_device_ids_from_d3d11(platform, module.D3DDeviceSource.D3D11_DEVICE, device,
                                               module.D3DDeviceSet.ALL_DEVICES_FOR_D3D11)
    context = module.create_context(devices, context_d3d11_device=device,
                                    properties={cl.CL_CONTEXT_INTEROP_USER_SYNC: True})
    print(f"{module.EXTENSION}: a context on {', '.join(cl.device_name(d) for d in devices)}")
    print(f"its properties: {cl.context_properties(context)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
