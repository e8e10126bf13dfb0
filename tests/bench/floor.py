"""Where the checked C-named acquire/release with PyOpenCL objects spends its time: the profile behind its ratio.

    POCL_DEVICES=basic python -m tests.bench.floor

Each piece of the wrapper is timed alone in this process, on the objects of the calls
benchmark (`calls.World`): converting the PyOpenCL queue, converting the list of one
PyOpenCL buffer, reading its handle for the tracker, the tracker's check, driver
call and record (`Tracker.transit`, the no-op driver function inside), and a Python
call of six arguments that does nothing. What the whole call takes beyond their sum is
the inline work (the integer and NULL conversions, the host checks, the lookup), but
pieces timed alone run warm and take less than inside the call. So the floor is also
measured whole: the steps a checked call cannot do without (convert the queue and the
list, hold, check, call, record), inline in one hand-written function, beside
`pyopencl.enqueue_marker`, which makes a real command in C++.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bench.calls import ACQUIRE, RELEASE, World, loops_for, per_call

SECONDS = 0.05


def pieces(world: World) -> list[tuple[str, Callable[[], None], bool]]:
    """(what, a pair of runs of it, whether the state checks need it) for each piece of the checked call."""
    m, ffi, raw, cl = world.module, world.ffi, world.raw, world.cl
    marshal, state = m._marshal, m._state
    queue, one = world.queue, world.buffers[:1]
    acquire, release = getattr(m, ACQUIRE), getattr(m, RELEASE)
    c_queue, array = world.c_queue, ffi.new("cl_mem[]", world.c_buffers[:1])
    keys = ffi.unpack(array, 1)
    null = ffi.NULL

    def whole() -> None:
        acquire(queue, 1, one, 0, None, None)
        release(queue, 1, one, 0, None, None)

    def marker() -> None:
        cl.enqueue_marker(queue)
        cl.enqueue_marker(queue)

    def the_queue() -> None:
        marshal.known(ffi, queue, "cl_command_queue")
        marshal.known(ffi, queue, "cl_command_queue")

    def the_list() -> None:
        marshal.array(ffi, one, "cl_mem", True, "mem_objects", ACQUIRE, 1, "num_objects")
        marshal.array(ffi, one, "cl_mem", True, "mem_objects", RELEASE, 1, "num_objects")

    def the_keys() -> None:
        ffi.unpack(array, 1)
        ffi.unpack(array, 1)

    def the_transit() -> None:
        state.transit("acquire", keys, raw, c_queue, 1, array, 0, null, null)
        state.transit("release", keys, raw, c_queue, 1, array, 0, null, null)

    def nothing(a: object, b: object, c: object, d: object, e: object, f: object) -> None:
        return None

    def a_call() -> None:
        nothing(queue, 1, one, 0, None, None)
        nothing(queue, 1, one, 0, None, None)

    array_type = ffi.typeof("cl_mem[]")

    def floor_call(kind: str, command_queue: object, num_objects: int, mem_objects: list[Any], wait_list: object,
                   event: object) -> None:
        """What a checked call cannot do without, inline: convert the queue and the list, hold, check, call,
        record (no host checks, no integer conversions, no error reporting)."""
        handle = marshal.known(ffi, command_queue, "cl_command_queue")
        handles = marshal.pyopencl_handles(ffi, mem_objects, "cl_mem")
        assert handles is not None
        state.transit(kind, handles, raw, handle, num_objects,
                      ffi.new(array_type, handles), 0, null, null)

    def floor() -> None:
        floor_call("acquire", queue, 1, one, None, None)
        floor_call("release", queue, 1, one, None, None)

    return [
        ("the whole checked call (PyOpenCL queue, [buffer])", whole, False),
        ("the floor: those steps alone, inline in one function", floor, False),
        ("pyopencl.enqueue_marker(queue)", marker, False),
        ("converting the PyOpenCL queue (_marshal.known)", the_queue, True),
        ("converting [buffer] to a cl_mem array (_marshal.array)", the_list, True),
        ("reading its handle for the tracker (ffi.unpack)", the_keys, False),
        ("check, driver call (the no-op), record (Tracker.transit)", the_transit, True),
        ("a Python call of six arguments doing nothing", a_call, True),
    ]


def measure(world: World, seconds: float = SECONDS) -> list[tuple[str, float, bool]]:
    found = []
    for what, pair, needed in pieces(world):
        loops = loops_for(pair, seconds)
        found.append((what, min(per_call(pair, loops, world.finish) for _ in range(5)), needed))
    world.module._state.clear()
    return found


def table(found: list[tuple[str, float, bool]]) -> str:
    (whole_what, whole, _), (floor_what, floor, _), (marker_what, marker, _), *parts = found
    width = max(len(what) for what, _, _ in found) + 2
    lines = [f"{whole_what:<{width}} {whole:6.2f} µs  {whole / marker:4.1f}x the marker",
             f"{floor_what:<{width}} {floor:6.2f} µs  {floor / marker:4.1f}x the marker",
             f"{marker_what:<{width}} {marker:6.2f} µs",
             "each step timed alone (warm, so less than inside the call):"]
    lines += [f"  {what:<{width - 2}} {us:6.2f} µs{'  (a step of the floor)' if needed else ''}"
              for what, us, needed in parts]
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m tests.bench.floor", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS, help="time of one timed block")
    with tempfile.TemporaryDirectory() as folder:
        print(table(measure(World(Path(folder)), parser.parse_args().seconds)))
