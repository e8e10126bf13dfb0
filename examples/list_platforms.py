"""Which OpenCL platforms this machine has, their devices, and the Direct3D sharing each platform supports.

    python examples/list_platforms.py

Runs anywhere OpenCL does: on Linux every platform says "not supported".
"""

from __future__ import annotations

import cl_d3d_sharing as cl
from cl_d3d_sharing import d3d10, d3d11


def main() -> int:
    platforms = cl.platforms()
    if not platforms:
        print("no OpenCL platform")
        return 1
    for platform in platforms:
        print(cl.platform_name(platform))
        for device in cl.devices(platform):
            print(f"  device: {cl.device_name(device)}")
        for name, facade in (("Direct3D 10", d3d10), ("Direct3D 11", d3d11)):
            variants = [variant.EXTENSION for variant in facade.variants(platform)]
            print(f"  {name}: {', '.join(variants) if variants else 'not supported'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
