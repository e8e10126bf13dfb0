"""A released PyOpenCL object, or a look-alike holding a freed address, is refused by name, never a crash.

A released PyOpenCL object used to crash the process inside the driver (PyOpenCL still reports the freed
address), so these cases run in a child interpreter: a crash there fails the test by its exit code
instead of killing pytest. The Direct3D functions do not exist on Linux: the child installs stand-ins
(`ffi.callback`s of the generated function-pointer types, in the module's lookup cache for POCL's platform)
that record whether they were reached.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from typing import Any

import pytest

from tests.package.standins import EXTENSIONS, MODULES, api, pyopencl
from tests.support import GENERATED

#: Runs each scenario on one extension module and prints `scenario|exception or ok|stand-ins reached|message`.
CHILD = textwrap.dedent('''
    import sys
    import pyopencl as cl

    module = __import__(sys.argv[1], fromlist=["EXTENSION"])
    api = sys.argv[2]
    ffi = module.ffi
    pocl = next(p for p in cl.get_platforms() if "Portable Computing Language" in p.name)
    context = cl.Context(pocl.get_devices()[:1])
    queue = cl.CommandQueue(context)
    platform = ffi.cast("cl_platform_id", pocl.int_ptr)
    reached, seen = [], []
    acquire, release = f"enqueue_acquire_{api}_objects", f"enqueue_release_{api}_objects"


    def stand_in(name):
        def body(q, count, mems, waiting, wait_list, event):
            reached.append(name)
            seen.extend(int(ffi.cast("uintptr_t", mems[i])) for i in range(count))
            return 0
        c_name = module.C_NAMES[name]
        module._binding.install(platform, c_name, ffi.callback(c_name + "_fn", body))


    stand_in(acquire)
    stand_in(release)


    class LookAlike:
        """What another wrapper library may offer: an int_ptr, and no PyOpenCL class."""
        def __init__(self, address):
            self.int_ptr = address


    def live():
        return cl.Buffer(context, cl.mem_flags.READ_WRITE, 64)


    def released():
        made = live()
        made.release()
        return made


    def watched_then_released():
        made = live()
        getattr(module, acquire)(queue, [made])
        getattr(module, release)(queue, [made])  # the tracker watches it now: the probe is skipped until...
        made.release()  # ... OpenCL's destructor callback says it is gone
        getattr(module, acquire)(queue, [made])


    def live_objects():
        made = [live(), live()]
        getattr(module, acquire)(queue, made)
        assert seen == [m.int_ptr for m in made], (seen, made)
        assert module._state.snapshot()["acquired"] == {m.int_ptr for m in made}
        getattr(module, release)(queue, made)


    def run_acquired():
        with module.acquired(queue, [released()]):
            pass


    keep = live()
    scenarios = {
        "c function": lambda: getattr(module, module.C_NAMES[acquire])(queue, 1, [released()], 0, None, None),
        "pythonic": lambda: getattr(module, acquire)(queue, [keep, released()]),
        "release": lambda: getattr(module, release)(queue, [released()]),
        "acquired": run_acquired,
        "wait_for": lambda: getattr(module, acquire)(queue, [keep], wait_for=[LookAlike(released().int_ptr)]),
        "look-alike context": lambda: getattr(module, f"create_from_{api}_buffer")(
            LookAlike(released().int_ptr), 0, 0xD3D0),
        "buffer as context": lambda: getattr(module, f"create_from_{api}_buffer")(released(), 0, 0xD3D0),
        "watched, then released": watched_then_released,
        "live": live_objects,
    }
    for scenario, call in scenarios.items():
        reached.clear()
        seen.clear()
        try:
            call()
            outcome, message = "ok", ""
        except Exception as error:
            outcome, message = type(error).__name__, str(error).replace("\\n", " ")
        print(scenario, outcome, ",".join(reached), message, sep="|", flush=True)
''')

RELEASED = "is a Buffer whose OpenCL object was released"
#: What a look-alike's int_ptr holding a freed address is told (its kind is its own word: proved as an address).
FREED = "is not a live OpenCL object (%s): its first word is no OpenCL platform's dispatch table (a released object"
#: scenario -> (outcome, stand-ins reached, what the message says)
EXPECTED = {
    "c function": ("ValueError", "", f"argument 'mem_objects[0]' {RELEASED}"),
    "pythonic": ("ValueError", "", f"argument 'mem_objects[1]' {RELEASED}"),
    "release": ("ValueError", "", f"argument 'mem_objects[0]' {RELEASED}"),
    "acquired": ("ValueError", "", f"argument 'mem_objects[0]' {RELEASED}"),
    "wait_for": ("ValueError", "", f"argument 'wait_for[0]' is a LookAlike whose int_ptr 0x ... {FREED % 'cl_event'}"),
    "look-alike context": ("ValueError", "",
                           f"argument 'context' is a LookAlike whose int_ptr 0x ... {FREED % 'cl_context'}"),
    "buffer as context": ("TypeError", "", "argument 'context' must be a Context (cl_context), not Buffer"),
    "watched, then released": ("ValueError", "acquire,release", f"argument 'mem_objects[0]' {RELEASED}"),
    "live": ("ok", "acquire,release", ""),
}


@pytest.mark.parametrize("extension", EXTENSIONS)
def test_a_released_pyopencl_object_is_refused_not_a_crash(extension: str, platform: Any) -> None:
    """Released PyOpenCL buffers (and look-alikes holding a freed address) in every handle position of the
    C-named and the Pythonic functions raise an error naming the parameter before any stand-in is reached;
    live ones still pass. Runs in a child interpreter: a regression here is a segfault."""
    pyopencl()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(GENERATED), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-c", CHILD, MODULES[extension], api(extension)],
                            capture_output=True, text=True, env=env, timeout=120, check=False)
    assert result.returncode == 0, f"the child died with {result.returncode}:\n{result.stdout}\n{result.stderr}"
    outcomes = {}
    for line in result.stdout.splitlines():
        scenario, outcome, reached, message = line.split("|", 3)
        outcomes[scenario] = (outcome, reached, message)
    assert outcomes.keys() == EXPECTED.keys()
    for scenario, (outcome, reached, fragment) in EXPECTED.items():
        got_outcome, got_reached, message = outcomes[scenario]
        expected_reached = reached.replace("acquire", f"enqueue_acquire_{api(extension)}_objects") \
            .replace("release", f"enqueue_release_{api(extension)}_objects")
        assert (got_outcome, got_reached) == (outcome, expected_reached), (scenario, message)
        assert all(part in message for part in fragment.split(" ... ")), (scenario, message)
