"""Scenarios that hung the package, run in a process of their own: `python -m tests.package.stress NAME`.

A deadlock cannot be caught inside the process that has it, so `test_threads.py` runs each scenario here
with a time bound and reads what it printed. Memory objects and the destructor callbacks that report
their end are POCL's; the Direct3D functions do not exist on Linux, so each scenario installs stand-in
driver functions (`standins.Driver`: Python callbacks with the extension's prototypes) that do what the spec
says a driver does.

- `cycles`: the issue's loop. Created memory objects sit in reference cycles, so the cycle collector,
  which runs wherever an allocation triggers it, releases them inside the package's own locked sections;
  POCL then calls the destructor callback on that thread, which used to wait for a lock its thread held.
- `threads`: THREADS threads creating, acquiring, releasing and dropping objects in cycles, each with
  `gc.collect()` at random points and a low collection threshold.
- `fork`: a thread is inside a driver call (holding its objects) when another thread forks; the child
  must be able to call on those objects (it used to wait for a thread it does not have).
- `finalizers`: two threads as in `threads`, with objects in cycles whose finalizers call the package
  themselves (the package had two locks, taken in both orders by a finalizer and another thread).
- `interrupt`: KeyboardInterrupts from a timer at random moments of acquire/release (whose driver is a C
  function, so they land in the package's own code), until one leaves a hold behind (at the first
  instruction of `let_go`); another thread's call on the object must then still end.

Each prints `ok ...` and exits 0 when the scenario ends with exact tracked state.
"""

from __future__ import annotations

import ctypes
import gc
import os
import random
import signal
import sys
import threading
import time
import traceback
from typing import Any

from tests.package.standins import MODULES, Driver, check, extension_module
from tests.support import generated_module

errors = generated_module("errors")

core_ffi = generated_module("_core_ffi").ffi
EXTENSION = "cl_nv_d3d10_sharing"
THREADS = 6


def pocl() -> tuple[Any, Any, Any]:
    """POCL's platform, a context and a queue, made with the core entry points."""
    runtime = generated_module("_library")
    platform = next(p for p in runtime.platforms() if "Portable Computing Language" in runtime.platform_name(p))
    device = runtime.devices(platform)[0]
    lib = runtime.library()
    error = core_ffi.new("cl_int *")
    context = lib.clCreateContext(core_ffi.NULL, 1, core_ffi.new("cl_device_id[]", [device]), core_ffi.NULL,
                                  core_ffi.NULL, error)
    check(error[0], "clCreateContext")
    queue = lib.clCreateCommandQueue(context, device, 0, error)
    check(error[0], "clCreateCommandQueue")
    return platform, context, queue


def exact(module: Any) -> str:
    """After every object was dropped and collected: nothing is left in the tracker."""
    gc.collect()
    state = module._state.snapshot()
    assert state == {"acquired": set(), "known": set(), "wraps": {}}, state
    return "ok"


def cycles(rounds: int) -> str:
    platform, context, _ = pocl()
    module = extension_module(EXTENSION)
    Driver(module, platform, context)
    create = module.create_from_d3d10_buffer
    for i in range(1, rounds + 1):
        made = create(context, 0, 0x10000 + i)
        cycle: list[Any] = [made]
        cycle.append(cycle)
    del made, cycle
    return f"{exact(module)} {rounds} objects created in cycles"


def threads(rounds: int) -> str:
    platform, context, queue = pocl()
    module = extension_module(EXTENSION)
    driver = Driver(module, platform, context)
    gc.set_threshold(5, 1, 1)
    start = threading.Barrier(THREADS)

    def work(number: int) -> None:
        chance = random.Random(number)
        start.wait()
        for r in range(rounds):
            made = module.create_from_d3d10_buffer(context, 0, 0x100000 * (number + 1) + r)
            with module.acquired(queue, [made]):
                if chance.random() < 0.05:
                    gc.collect()
            module.enqueue_acquire_d3d10_objects(queue, [made])
            module.enqueue_release_d3d10_objects(queue, [made])
            cycle: list[Any] = [made, module._state]
            cycle.append(cycle)
            if chance.random() < 0.05:
                gc.collect()

    run_threads(work, THREADS)
    assert driver.held == set()
    return f"{exact(module)} {THREADS} threads x {rounds} rounds"


def fork() -> str:
    platform, context, queue = pocl()
    module = extension_module(EXTENSION)
    driver = Driver(module, platform, context)
    made = module.create_from_d3d10_buffer(context, 0, 0x1234)
    driver.slow_thread = "inside"
    inside = threading.Thread(target=module.enqueue_acquire_d3d10_objects, args=(queue, [made]), name="inside")
    inside.start()
    assert driver.inside.wait(60)
    child = os.fork()
    if child == 0:  # the child: the thread inside the driver does not exist here
        signal.alarm(20)  # a hang ends the child, and the parent reports it
        try:
            module.enqueue_acquire_d3d10_objects(queue, [made])
            status = 0
        except BaseException as error:
            print(f"child: {error!r}", file=sys.stderr)
            status = 1
        os._exit(status)
    _, status = os.waitpid(child, 0)
    driver.go.set()
    inside.join(60)
    module.enqueue_release_d3d10_objects(queue, [made])
    assert os.waitstatus_to_exitcode(status) == 0, f"the child ended with {os.waitstatus_to_exitcode(status)}"
    return "ok the child called on the objects a thread of its parent held"


def finalizers(rounds: int) -> str:
    platform, context, queue = pocl()
    module = extension_module(EXTENSION)
    Driver(module, platform, context)
    gc.set_threshold(3, 1, 1)
    sys.setswitchinterval(1e-6)
    counter = iter(range(1, 1 << 40))

    class CallsBack:
        """A caller's object whose finalizer uses the package, in a cycle of its own."""

        def __init__(self) -> None:
            self.me = self

        def __del__(self) -> None:
            made = module.create_from_d3d10_buffer(context, 0, 0x4000_0000 + next(counter))
            module.enqueue_acquire_d3d10_objects(queue, [made])
            module.enqueue_release_d3d10_objects(queue, [made])

    def work(number: int) -> None:
        for _ in range(rounds):
            made = module.create_from_d3d10_buffer(context, 0, 0x100_0000 * (number + 1) + next(counter))
            module.enqueue_acquire_d3d10_objects(queue, [made])
            module.enqueue_release_d3d10_objects(queue, [made])
            CallsBack()
            cycle: list[Any] = [made]
            cycle.append(cycle)

    run_threads(work, 2)
    return f"{exact(module)} 2 threads x {rounds} rounds with finalizers calling the package"


def interrupt(seconds: int) -> str:
    platform, context, queue = pocl()
    module = extension_module(EXTENSION)
    Driver(module, platform, context)
    made = module.create_from_d3d10_buffer(context, 0, 0x7000)
    flush = ctypes.cast(ctypes.CDLL(generated_module("_library").library_path()).clFlush, ctypes.c_void_p).value
    for name in ("clEnqueueAcquireD3D10ObjectsNV", "clEnqueueReleaseD3D10ObjectsNV"):
        module._binding.install(platform, name, module.ffi.cast(f"{name}_fn", flush))  # returns 0, runs no Python

    def raise_interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, raise_interrupt)
    interrupts, stale, ends = 0, False, time.monotonic() + seconds
    while not stale and time.monotonic() < ends:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.00003 + (interrupts % 50) * 1e-6)
            while True:
                module.enqueue_acquire_d3d10_objects(queue, [made])
                module.enqueue_release_d3d10_objects(queue, [made])
        except KeyboardInterrupt:
            interrupts += 1
        except errors.CLError:
            pass  # interrupted between acquire and release: the release below
        signal.setitimer(signal.ITIMER_REAL, 0)
        stale = bool(module._state._calls)
        if module._state.snapshot()["acquired"]:
            module.enqueue_release_d3d10_objects(queue, [made])
    done = threading.Event()

    def other() -> None:
        module.enqueue_acquire_d3d10_objects(queue, [made])
        module.enqueue_release_d3d10_objects(queue, [made])
        done.set()

    threading.Thread(target=other, daemon=True).start()
    assert done.wait(30), "another thread's call waits for a hold nobody will let go"
    left = "left a hold behind" if stale else "left no hold behind"
    return f"ok {interrupts} interrupts, the last {left}; another thread's call on the object ended"


def run_threads(work: Any, count: int) -> None:
    failures: list[str] = []

    def guarded(number: int) -> None:
        try:
            work(number)
        except BaseException as error:
            failures.append("".join(traceback.format_exception(error)))

    workers = [threading.Thread(target=guarded, args=(n,)) for n in range(count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == [], "\n".join(failures)


def main(name: str, rounds: int) -> int:
    assert set(MODULES) >= {EXTENSION}
    scenarios = {"cycles": cycles, "threads": threads, "finalizers": finalizers, "interrupt": interrupt}
    said = fork() if name == "fork" else scenarios[name](rounds)
    print(said, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0))
