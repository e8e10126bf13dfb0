"""`_memory`: whether this process may read or write memory at an address, asked without crashing, by each way
it has on Linux (`process_vm_readv`/`process_vm_writev`, and /proc/self/maps where a sandbox refuses those),
over pages mapped, unmapped, PROT_NONE and read-only. A wrong answer would be a crash, so the questions run in
a child interpreter, which prints the answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tests.support import GENERATED

CHILD = textwrap.dedent('''
    import ctypes, json, mmap, sys
    from cl_d3d_sharing import _memory

    PAGE = mmap.PAGESIZE
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    # five pages: read-write, unmapped, PROT_NONE, read-only, read-write
    base = libc.mmap(None, 5 * PAGE, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
    ctypes.c_uint64.from_address(base).value = 0x0123456789ABCDEF
    ctypes.c_uint64.from_address(base + 3 * PAGE).value = 42
    ctypes.c_uint64.from_address(base + 4 * PAGE).value = 7
    assert libc.munmap(base + PAGE, PAGE) == 0
    assert libc.mprotect(base + 2 * PAGE, PAGE, 0) == 0  # PROT_NONE
    assert libc.mprotect(base + 3 * PAGE, PAGE, mmap.PROT_READ) == 0
    # a file of 8 bytes mapped over two pages: the second lies past the file's end (SIGBUS when touched)
    import os, tempfile
    handle, name = tempfile.mkstemp()
    os.write(handle, b"\x2a" + bytes(7))
    filed = libc.mmap(None, 2 * PAGE, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED, handle, 0)
    os.unlink(name)
    # the kernel's [vvar] pages: the maps say r, and some of them are SIGBUS when read
    kernel = [int(line.split("-")[0], 16) for line in open("/proc/self/maps") if "[vvar" in line]
    way = {"process_vm": _memory._linux, "maps": _memory._maps}[sys.argv[1]]()
    assert way is not None
    ranges = {
        "a read-write page": (base, PAGE),
        "one word": (base, 8),
        "the last word before a hole": (base + PAGE - 8, 8),
        "a word over the hole's edge": (base + PAGE - 4, 8),
        "the unmapped page": (base + PAGE, 8),
        "the PROT_NONE page": (base + 2 * PAGE, 8),
        "the read-only page": (base + 3 * PAGE, PAGE),
        "from the first page to the last, over all": (base, 5 * PAGE),
        "the read-only and the last page": (base + 3 * PAGE, 2 * PAGE),
        "the last page": (base + 4 * PAGE, PAGE),
        "NULL": (0, 8),
        "past the top of the address space": ((1 << 64) - 4, 8),
        "nothing at all": (base, 0),
        "a file's page": (filed, 8),
        "a file's mapping past its end": (filed + PAGE, 8),
        "a file's two pages": (filed, 2 * PAGE),
        **{f"the kernel's page {i}": (start, 8) for i, start in enumerate(kernel[:1])},
    }
    answers = {name: [way.readable(*where), way.writable(*where)] for name, where in ranges.items()}
    words = {name: way.word(where) for name, where in [("first", base), ("read-only", base + 3 * PAGE),
                                                       ("unmapped", base + PAGE), ("PROT_NONE", base + 2 * PAGE),
                                                       ("file", filed), ("past the file's end", filed + PAGE)]}
    spans = [line.split()[0].split("-") for line in open("/proc/self/maps") if "[vvar" in line]
    pages = [page for low, high in spans for page in range(int(low, 16), int(high, 16), PAGE)]
    words["kernel"] = sorted({str(way.word(page)) for page in pages})
    after = [ctypes.c_uint64.from_address(base).value, ctypes.c_uint64.from_address(base + 4 * PAGE).value]
    print(json.dumps({"ranges": answers, "words": words, "after": after}))
''')

#: range -> (readable, writable)
EXPECTED = {
    "a read-write page": [True, True],
    "one word": [True, True],
    "the last word before a hole": [True, True],
    "a word over the hole's edge": [False, False],
    "the unmapped page": [False, False],
    "the PROT_NONE page": [False, False],
    "the read-only page": [True, False],
    "from the first page to the last, over all": [False, False],
    "the read-only and the last page": [True, False],
    "the last page": [True, True],
    "NULL": [False, False],
    "past the top of the address space": [False, False],
    "nothing at all": [False, False],
    "a file's page": [True, True],
    "a file's mapping past its end": [False, False],
    "a file's two pages": [False, False],
    "the kernel's page 0": [False, False],
}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux ways (the package trusts elsewhere)")
@pytest.mark.parametrize("way", ["process_vm", "maps"])
def test_each_way_tells_what_may_be_read_and_written(way: str) -> None:
    """A PROT_NONE page was read as readable (/proc/self/mem forces the access), and a range was proved by its
    first and last word only (a hole inside passed). Writing proves nothing by changing it: the words written
    back are the words that were there. A file's mapping past its end and the kernel's [vvar] pages, which the
    maps say may be read, are SIGBUS when read: the maps' way read them, and died."""
    env = {**os.environ, "PYTHONPATH": str(GENERATED)}
    result = subprocess.run([sys.executable, "-c", CHILD, way], capture_output=True, text=True, env=env,
                            timeout=120, check=False)
    assert result.returncode == 0, f"the child died with {result.returncode}:\n{result.stderr}"
    found = json.loads(result.stdout)
    assert found["ranges"] == {name: answer for name, answer in EXPECTED.items() if name in found["ranges"]}
    assert found["words"] == {"first": 0x0123456789ABCDEF, "read-only": 42, "unmapped": None, "PROT_NONE": None,
                              "file": 42, "past the file's end": None, "kernel": found["words"]["kernel"]}
    assert found["words"]["kernel"] in ([], ["None"])  # none of the kernel's pages is taken for memory (or none is)
    assert found["after"] == [0x0123456789ABCDEF, 7]
