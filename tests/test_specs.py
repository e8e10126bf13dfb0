"""specs/ holds the texts byte for byte as received: their damage is part of the job."""

from __future__ import annotations

import hashlib

from tests.support import SPECS

#: SHA-256 of each file as received (the workplace's shared/specs/, 2026-11-21).
RECEIVED = {
    "README.md": "24df30642f04f8ef88ce3fa8e905c974a9cf6c0fa0b1dd5c10ed9572ca62f52e",
    "clEnqueueAcquireD3D11ObjectsKHR.txt": "80c0fa75dccc46ff283633fba44425656bcce37f136f8492311f54569bea93ac",
    "clEnqueueReleaseD3D10ObjectsKHR.txt": "6860340c7bd3e2aeb6a12af73ac46c1d46d0ceeb7ca7a08d0b136bee03e7a634",
    "cl_khr_d3d10_sharing.txt": "f74b31ef14b4ad193809bbef9400e0963b4f94210fd358fc89db6107d23099e1",
    "cl_khr_d3d11_sharing.txt": "797df12d8f17dc3b80896000a0ad4a661bbf60c668cff647f7d061a0048a289d",
    "cl_nv_d3d10_sharing.txt": "5e47e43c190d87333aacc9171f18b3b342a9ed87b43df826663b285656c12560",
    "cl_nv_d3d11_sharing.txt": "b390e15661aa34e6c81c12ba4fd22d3d3e3e4b53573545a98d1183dd5eec54ad",
}


def test_specs_are_unchanged() -> None:
    found = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in SPECS.iterdir() if p.is_file()}
    assert found == RECEIVED
