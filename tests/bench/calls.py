"""Call overhead of the generated wrappers, against what a user would write instead.

    python -m tests.bench.calls            # both modes, a table
    python -m tests.bench.calls --child on|off   # one mode in this process, JSON rows (what the table runs)

Two comparisons, each in one process, interleaved round by round (a ratio is the
median of the rounds' ratios, so that a slow minute of the machine weighs on both
sides of it):

- the checks on, PyOpenCL objects in, against PyOpenCL doing a call of the same
  shape: `enqueue_marker(queue)` for the C-named acquire/release of one buffer,
  `enqueue_barrier(queue, wait_for=[e1, e2])` for the Pythonic acquire/release
  of eight buffers with the same two events, and PyOpenCL raising its own error
  for a call the driver refuses against a check raising its `CLError`;
- the checks off (`CL_D3D_SHARING_CHECKS=0`, read at import: so a process of
  its own), cffi handles in, against the same call made with cffi alone.

The Direct3D functions do not exist on Linux, so the function every call reaches
is a stand-in: a no-op C function with the extension's prototype, built here
with the system C compiler and installed as the function the module looks up for
the platform. Everything else is real: POCL's `basic` device (its pthread device
adds microseconds of noise to every enqueue), its queue, buffers and user events,
and the package's conversions, checks and state tracking. Acquire and release
alternate, so that every call passes the state checks.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tests.support import ROOT

#: The extension measured: KHR's D3D10 sharing (acquire and release share one prototype).
MODULE = "khr_d3d10"
ACQUIRE, RELEASE = "clEnqueueAcquireD3D10ObjectsKHR", "clEnqueueReleaseD3D10ObjectsKHR"
PY_ACQUIRE, PY_RELEASE = "enqueue_acquire_d3d10_objects", "enqueue_release_d3d10_objects"
#: The switch the package reads at import, and POCL's choice of device.
CHECKS_SWITCH, POCL_DEVICE = "CL_D3D_SHARING_CHECKS", "basic"
ROUNDS = 7
#: The targets of issue 23: (checks on) C-named/marker, Pythonic/barrier, raising/PyOpenCL raising;
#: (checks off) C-named/raw cffi, Pythonic/raw cffi.
MARKER_TARGET, BARRIER_TARGET, RAISING_TARGET = 2.0, 3.0, 1.5
OFF_C_TARGET, OFF_PYTHONIC_TARGET = 1.3, 1.5

NO_OP = """
#include <CL/cl.h>
CL_API_ENTRY cl_int CL_API_CALL no_op(cl_command_queue command_queue, cl_uint num_objects,
                                      const cl_mem *mem_objects, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
    (void)command_queue; (void)num_objects; (void)mem_objects;
    (void)num_events_in_wait_list; (void)event_wait_list; (void)event;
    return CL_SUCCESS;
}
"""


@dataclass(frozen=True)
class Row:
    """One comparison: `what` took `us` microseconds per call where `reference` took `reference_us`; `ratio` is
    the median of the rounds' ratios (not the ratio of the medians)."""

    what: str
    us: float
    reference: str
    reference_us: float
    ratio: float
    target: float | None

    @property
    def met(self) -> bool:
        return self.target is None or self.ratio <= self.target


def build_no_op(folder: Path) -> int:
    """Compile the no-op and load it (once per folder); its address."""
    source, library = folder / "no_op.c", folder / "no_op.so"
    if not library.exists():
        source.write_text(NO_OP)
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-DCL_TARGET_OPENCL_VERSION=300", "-o", str(library),
                        str(source)], check=True)
    loaded = ctypes.CDLL(str(library))
    _keep.append(loaded)
    address = ctypes.cast(loaded.no_op, ctypes.c_void_p).value
    assert address
    return address


_keep: list[Any] = []


def loops_for(pair: Callable[[], None], seconds: float) -> int:
    """How many runs of `pair` take about `seconds`."""
    loops = 1
    while True:
        started = time.perf_counter()
        for _ in range(loops):
            pair()
        elapsed = time.perf_counter() - started
        if elapsed > seconds / 4:
            return max(1, int(loops * seconds / elapsed))
        loops *= 2


def per_call(pair: Callable[[], None], loops: int, after: Callable[[], None], calls_per_pair: int = 2) -> float:
    """Microseconds per call of `pair` (which makes `calls_per_pair` calls): the least of three blocks of `loops`
    runs, the collector off; `after` runs between blocks, untimed (the queue finishes its markers there)."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(3):
            started = time.perf_counter()
            for _ in range(loops):
                pair()
            best = min(best, (time.perf_counter() - started) / loops / calls_per_pair * 1e6)
            after()
    finally:
        if enabled:
            gc.enable()
    return best


@dataclass(frozen=True)
class Case:
    what: str
    pair: Callable[[], None]
    reference: str
    reference_pair: Callable[[], None]
    target: float | None


def compare(cases: list[Case], after: Callable[[], None], rounds: int, seconds: float) -> list[Row]:
    """Every case and its reference, round after round, each timed in the same round as its reference."""
    loops = {id(c): (loops_for(c.pair, seconds), loops_for(c.reference_pair, seconds)) for c in cases}
    after()
    times: dict[int, list[tuple[float, float]]] = {id(c): [] for c in cases}
    for _ in range(rounds):
        for case in cases:
            mine, theirs = loops[id(case)]
            times[id(case)].append((per_call(case.pair, mine, after), per_call(case.reference_pair, theirs, after)))
    rows = []
    for case in cases:
        pairs = times[id(case)]
        rows.append(Row(case.what, statistics.median(p[0] for p in pairs), case.reference,
                        statistics.median(p[1] for p in pairs), statistics.median(p[0] / p[1] for p in pairs),
                        case.target))
    return rows


class World:
    """POCL's basic device through PyOpenCL: a context and queue, buffers, two complete user events, another
    context's event (for a call the driver refuses), and the module under test with the no-op installed."""

    def __init__(self, folder: Path) -> None:
        import pyopencl

        from tests.support import generated_module

        self.cl = pyopencl
        found = [p for p in pyopencl.get_platforms() if "Portable Computing Language" in p.name]
        if not found:
            raise SystemExit("bench: no POCL platform; install Debian's pocl-opencl-icd and ocl-icd-libopencl1")
        device = found[0].get_devices()[0]
        self.context = pyopencl.Context([device])
        self.queue = pyopencl.CommandQueue(self.context)
        self.buffers = [pyopencl.Buffer(self.context, pyopencl.mem_flags.READ_WRITE, 64) for _ in range(8)]
        self.events = [pyopencl.UserEvent(self.context) for _ in range(2)]
        for event in self.events:
            event.set_status(pyopencl.command_execution_status.COMPLETE)
        self.elsewhere = pyopencl.UserEvent(pyopencl.Context([device]))
        self.module = generated_module(MODULE)
        ffi = self.ffi = self.module.ffi
        no_op = build_no_op(folder)
        self.raw = ffi.cast(f"{ACQUIRE}_fn", no_op)
        platform = ffi.cast("cl_platform_id", found[0].int_ptr)
        for name in (ACQUIRE, RELEASE):
            self.module._binding.install(platform, name, ffi.cast(f"{name}_fn", no_op))
        self.c_queue = ffi.cast("cl_command_queue", self.queue.int_ptr)
        self.c_buffers = [ffi.cast("cl_mem", b.int_ptr) for b in self.buffers]
        self.c_events = [ffi.cast("cl_event", e.int_ptr) for e in self.events]
        self.device_name = device.name

    def finish(self) -> None:
        self.queue.finish()


def checks_on(world: World) -> list[Case]:
    """PyOpenCL objects in, the checks on, against PyOpenCL."""
    cl, m, queue = world.cl, world.module, world.queue
    acquire, release = getattr(m, ACQUIRE), getattr(m, RELEASE)
    py_acquire, py_release = getattr(m, PY_ACQUIRE), getattr(m, PY_RELEASE)
    one, buffers, events, elsewhere = world.buffers[:1], world.buffers, world.events, [world.elsewhere]
    error = m._errors.CLError

    def marker() -> None:
        cl.enqueue_marker(queue)
        cl.enqueue_marker(queue)

    def c_named() -> None:
        acquire(queue, 1, one, 0, None, None)
        release(queue, 1, one, 0, None, None)

    def barrier() -> None:
        cl.enqueue_barrier(queue, wait_for=events)
        cl.enqueue_barrier(queue, wait_for=events)

    def pythonic() -> None:
        py_acquire(queue, buffers, wait_for=events, as_pyopencl=True)
        py_release(queue, buffers, wait_for=events, as_pyopencl=True)

    def pyopencl_raising() -> None:
        for _ in range(2):
            try:
                cl.enqueue_barrier(queue, wait_for=elsewhere)
            except cl.LogicError:
                continue

    def host_check() -> None:  # num_objects > 0 and mem_objects is NULL
        for _ in range(2):
            try:
                acquire(queue, 1, None, 0, None, None)
            except error:
                continue

    c_named()  # the tracker knows the buffer now, and that it is not acquired

    def state_check() -> None:  # released but not acquired
        for _ in range(2):
            try:
                release(queue, 1, one, 0, None, None)
            except error:
                continue

    return [
        Case(f"{ACQUIRE} / {RELEASE}, 1 PyOpenCL buffer (C-named, checked)", c_named, "pyopencl.enqueue_marker(queue)",
             marker, MARKER_TARGET),
        Case(f"{PY_ACQUIRE} / {PY_RELEASE}, 8 PyOpenCL buffers + 2 events (Pythonic, checked)", pythonic,
             "pyopencl.enqueue_barrier(queue, wait_for=[e1, e2])", barrier, BARRIER_TARGET),
        Case("a host check raising its CLError (num_objects > 0, mem_objects NULL)", host_check,
             "PyOpenCL raising LogicError (a wait list of another context)", pyopencl_raising, RAISING_TARGET),
        Case("a state check raising its CLError (released, not acquired)", state_check,
             "PyOpenCL raising LogicError (a wait list of another context)", pyopencl_raising, RAISING_TARGET),
    ]


def raw_cases(world: World, checked: bool) -> list[Case]:
    """cffi handles in, against the same call through cffi alone; targets only with the checks off."""
    m, ffi, raw, queue = world.module, world.ffi, world.raw, world.c_queue
    acquire, release = getattr(m, ACQUIRE), getattr(m, RELEASE)
    py_acquire, py_release = getattr(m, PY_ACQUIRE), getattr(m, PY_RELEASE)
    one, buffers, events = ffi.new("cl_mem[]", world.c_buffers[:1]), world.c_buffers, world.c_events
    null = ffi.NULL
    mode = "checked" if checked else "checks off"

    def raw_pair() -> None:
        raw(queue, 1, one, 0, null, null)
        raw(queue, 1, one, 0, null, null)

    def c_named() -> None:
        acquire(queue, 1, one, 0, None, None)
        release(queue, 1, one, 0, None, None)

    def raw_lists() -> None:
        """What a cffi user writes for the same lists: arrays made, the event handed back."""
        for _ in range(2):
            out = ffi.new("cl_event *")
            raw(queue, len(buffers), ffi.new("cl_mem[]", buffers), len(events), ffi.new("cl_event[]", events), out)

    def pythonic() -> None:
        py_acquire(queue, buffers, wait_for=events)
        py_release(queue, buffers, wait_for=events)

    return [
        Case(f"{ACQUIRE} / {RELEASE}, 1 cffi handle (C-named, {mode})", c_named, "the same call through cffi",
             raw_pair, None if checked else OFF_C_TARGET),
        Case(f"{PY_ACQUIRE} / {PY_RELEASE}, 8 cffi handles + 2 events (Pythonic, {mode})", pythonic,
             "the same lists through cffi", raw_lists, None if checked else OFF_PYTHONIC_TARGET),
    ]


def child(checks: str, rounds: int, seconds: float) -> list[Row]:
    """This process's rows (the switch was read when the package was imported, so it must match `checks`)."""
    with tempfile.TemporaryDirectory() as folder:
        world = World(Path(folder))
        on = world.module._library.CHECKS
        if on != (checks == "on"):
            raise SystemExit(f"bench: the package's checks are {'on' if on else 'off'}, not {checks}")
        cases = checks_on(world) + raw_cases(world, True) if on else raw_cases(world, False)
        rows = compare(cases, world.finish, rounds, seconds)
        world.module._binding.forget()
        world.module._state.clear()
        return rows


def measure(rounds: int = ROUNDS, seconds: float = 0.05) -> list[Row]:
    """Both modes, each in a process of its own on POCL's basic device."""
    rows = []
    for checks in ("on", "off"):
        env = {**os.environ, CHECKS_SWITCH: "1" if checks == "on" else "0", "POCL_DEVICES": POCL_DEVICE}
        done = subprocess.run([sys.executable, "-m", "tests.bench.calls", "--child", checks, "--rounds", str(rounds),
                               "--seconds", str(seconds)], cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"bench: the calls with the checks {checks} failed:\n{done.stderr}")
        rows += [Row(**row) for row in json.loads(done.stdout)]
    return rows


def table(rows: list[Row]) -> str:
    width = max(len(r.what) for r in rows)
    lines = [f"{'call':<{width}}  {'µs':>6}  {'against':>6}  {'ratio':>6}  target  (against what)"]
    for r in rows:
        target = f"<= {r.target}x {'met' if r.met else 'MISSED'}" if r.target is not None else "(none)"
        lines.append(f"{r.what:<{width}}  {r.us:6.2f}  {r.reference_us:6.2f}  {r.ratio:5.2f}x  {target:<14}"
                     f"  ({r.reference})")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.calls", description=__doc__.splitlines()[0])
    parser.add_argument("--child", choices=("on", "off"), help="measure this process's mode, print JSON rows")
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--seconds", type=float, default=0.05, help="time of one timed block")
    args = parser.parse_args()
    if args.child:
        print(json.dumps([asdict(row) for row in child(args.child, args.rounds, args.seconds)]))
        return 0
    rows = measure(args.rounds, args.seconds)
    print(table(rows))
    return 0 if all(r.met for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
