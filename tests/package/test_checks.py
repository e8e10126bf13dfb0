"""Every host clause of the four extensions fires its check, and a neighbouring call passes.

The arguments are found from the IR's predicates by a small interpreter written
here, independent of the generator's compiler: for each clause, a call that makes
it (and no other host clause) true, and a call one argument away that makes none
true. The first must raise the clause's error class before any lookup; the second
passes every check and, on POCL, reaches `ExtensionNotSupportedError`.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from cl_d3d_sharing import errors

from tests.package.clauses import HOST, Arguments, call, mentioned
from tests.package.standins import IR, RESOURCE, Handles, extension_module
from tests.support import ROOT, cited


@pytest.mark.parametrize(
    ("extension", "function", "error", "clause"), HOST,
    ids=[f"{f['name']}:{c['clause'][:50]}" for _, f, _, c in HOST],
)
def test_a_host_clause_fires_and_its_neighbour_passes(
    extension: str, function: dict[str, Any], error: dict[str, Any], clause: dict[str, Any],
    handles: Handles,
) -> None:
    module = extension_module(extension)
    arguments = Arguments(module, function, handles)
    firing = arguments.firing(clause)
    cls = errors.BY_NAME[error["code"]]
    with pytest.raises(cls) as caught:
        call(module, function, firing)
    raised = caught.value
    assert raised.checked and raised.code == cls.code and raised.function == function["name"]
    same = {c["clause"] for c in arguments.clauses if c["predicate"] == clause["predicate"]}
    assert raised.clause in same
    assert repr(raised.clause) in str(raised)
    assert (error["condition"], cited(error)) in [(c.text, c.source) for c in raised.conditions]
    assert f"[{cited(error)}]" in str(raised)
    for name in mentioned(clause["predicate"]):
        assert raised.arguments[name] is firing[name]
        assert f"{name}=" in str(raised)
    with pytest.raises(errors.ExtensionNotSupportedError):
        call(module, function, arguments.neighbour(firing, clause))


def test_every_extension_has_host_clauses() -> None:
    assert {name for name, *_ in HOST} == set(IR)
    assert len(HOST) >= 60


def test_a_callers_errcode_ret_receives_a_checked_code(context: Any) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    mine = module.ffi.new("cl_int *")
    with pytest.raises(errors.BY_NAME["CL_INVALID_VALUE"]):
        module.clCreateFromD3D11BufferKHR(context, 3, RESOURCE, mine)  # READ_WRITE | WRITE_ONLY: two access modes
    assert mine[0] == errors.BY_NAME["CL_INVALID_VALUE"].code


@pytest.mark.parametrize("flags", [0, 1, 2, 4])
def test_zero_and_each_single_access_mode_are_valid_flags(context: Any, flags: int) -> None:
    module = extension_module("cl_khr_d3d11_sharing")
    with pytest.raises(errors.ExtensionNotSupportedError):
        module.clCreateFromD3D11BufferKHR(context, flags, RESOURCE, None)


@pytest.mark.parametrize("flags", [3, 5, 6, 7, 8, 1 << 40])
def test_combined_or_other_flags_are_not(context: Any, flags: int) -> None:
    module = extension_module("cl_nv_d3d10_sharing")
    with pytest.raises(errors.BY_NAME["CL_INVALID_VALUE"]) as caught:
        module.clCreateFromD3D10BufferNV(context, flags, RESOURCE, None)
    assert caught.value.clause == "values specified in flags are not valid"


def test_the_readme_shows_the_message_a_refused_call_raises(context: Any) -> None:
    """The README's last example (flags 3, a POCL context, a stand-in buffer address: the check fires before any
    lookup) prints, as its comment says, the class, the clause, the arguments and the cited condition."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    call = re.search(r"^ +khr\.create_from_d3d11_buffer\(context, (\d+), buffer\).*\nexcept errors\.(\w+) as",
                     text, re.M)
    assert call is not None
    shown = re.findall(r"^# (.*)$", text[call.end():text.index("```", call.end())], re.M)
    with pytest.raises(errors.CLError) as raised:
        extension_module("cl_khr_d3d11_sharing").create_from_d3d11_buffer(context, int(call[1]), RESOURCE)
    assert type(raised.value).__name__ == call[2]
    assert str(raised.value).split() == " ".join(shown).split()  # the README wraps its long first line
