"""Remake the data files that hold knowledge from outside the specs.

The generator must not carry facts about core OpenCL or DXGI in its code, so
they live in data files made from the official headers:

    opencl_core.json  <- Khronos CL/cl.h, CL/cl_gl.h, CL/cl_platform.h (Debian opencl-c-headers)
    external_enums.json  <- Microsoft's dxgiformat.h (as shipped by Debian mingw-w64-common)
    platform_types.json  <- the types of the platforms OpenCL shares objects with: Windows and Direct3D 9
                            (mingw-w64-common), GL (libgl-dev), EGL (libegl-dev), VA-API (libva-dev)

They are JSON, not YAML like the hand-written files beside them: no one edits
them, and every `generate` reads them (JSON in 1 ms, the same as YAML in 23 ms).

Run `python data/make_data.py` to rewrite them, or `--check` to verify that the
committed files are what the installed headers give (tests do this).

    registry/cl.xml, registry.yaml  <- a registry XML named with `--registry PATH` (`make data REGISTRY=PATH`),
                                       copied as it is after the generator has read it whole; the YAML says
                                       where it comes from (the commit, when PATH is in a clean git checkout)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
CL_DIR = Path("/usr/include/CL")
DXGI_HEADER = Path("/usr/share/mingw-w64/include/dxgiformat.h")

_TYPEDEF = re.compile(r"^typedef\s+([\w\s\*]+?)\s+(cl_\w+)\s*;", re.M)
_SCALAR = re.compile(r"^typedef\s+(u?int\d+_t|float|double)\s+(cl_\w+)\s*;", re.M)
_C_TYPEDEF = re.compile(r"^typedef\s+((?:(?:unsigned|signed)\s+)?(?:int|char|short|long))\s+(cl_\w+)\s*;", re.M)
_STRUCT_POINTER = re.compile(r"^typedef\s+struct\s+(\w+)\s*\*\s*(cl_\w+)\s*;", re.M)
_GROUP = re.compile(r"^/\*\s*(cl_\w+|Error Codes)[^*]*\*/", re.M)
_DEFINE = re.compile(r"^#define\s+(CL_\w+)\s+(.+?)\s*(?:/\*.*)?$", re.M)
_FUNCTION = re.compile(
    r"extern\s+CL_API_ENTRY\s+(?:CL_API_PREFIX__\w+\s+)?([\w\s\*]+?)\s*CL_API_CALL\s+"
    r"(cl\w+)\s*\((.*?)\)\s*CL_(?:API|EXT)_SUFFIX\w*\s*;",
    re.S,
)
#: The group name data/conventions.yaml declares for error codes.
ERROR_GROUP = yaml.safe_load((HERE / "conventions.yaml").read_text())["error_group"]
_DXGI = re.compile(r"^\s*(DXGI_FORMAT_\w+)\s*=\s*(0x[0-9a-fA-F]+|\d+)", re.M)


def canonical_type(text: str) -> str:
    """Spell a C type as `const base *` (the IR's canonical spelling)."""
    words = text.replace("*", " * ").split()
    const = "const" in words[: words.index("*")] if "*" in words else "const" in words
    base = " ".join(w for w in words if w not in ("const", "*"))
    stars = words.count("*")
    return ("const " if const else "") + base + " *" * stars


def split_params(text: str) -> list[str]:
    """Split a parameter list on top-level commas (callbacks nest parentheses)."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += {"(": 1, ")": -1}.get(char, 0)
        current += char
    parts.append(current)
    return [" ".join(p.split()) for p in parts if p.strip()]


def parse_param(text: str) -> dict[str, str]:
    text = text.replace("CL_CALLBACK", "").replace("  ", " ")
    if "(" in text:  # a callback: keep its C spelling, name from `(* name)`
        name = re.search(r"\(\s*\*\s*(\w+)\s*\)", text)
        assert name, text
        return {"name": name.group(1), "type": " ".join(text.replace(name.group(1), "", 1).split())}
    match = re.match(r"(.*?)(\w+)\s*(\[\s*\])?$", text)
    assert match, text
    type_text = match.group(1) + (" *" if match.group(3) else "")
    return {"name": match.group(2), "type": canonical_type(type_text)}


_LITERAL = re.compile(r"\(?\s*(-?)(0x[0-9a-fA-F]+|\d+)\s*(?:<<\s*(\d+))?\s*\)?")


def evaluate(literal: str) -> int | None:
    """Value of a `#define` body made of a number, or `(1 << n)`; None for anything else."""
    match = _LITERAL.fullmatch(literal.strip())
    if not match:
        return None
    sign, digits, shift = match.groups()
    value = int(digits, 16 if digits.startswith("0x") else 10) << int(shift or 0)
    return -value if sign else value


_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(?:[ \t]+([^\n]*?))?[ \t]*$", re.M)


def decorations(header: str) -> list[str]:
    """The macros a declaration may carry that make no part of its type (`CL_API_ENTRY`, `CL_CALLBACK`,
    `CL_API_SUFFIX__VERSION_1_0`): in some branch of the header defined as nothing, a calling convention or
    an attribute, or as other such macros only."""
    bodies: dict[str, list[str]] = {}
    for name, body in _MACRO.findall(header):
        bodies.setdefault(name, []).append(body or "")
    found: set[str] = set()
    while True:
        more = {name for name, texts in bodies.items() if name not in found and any(
            not body or body.startswith(("__attribute__", "__declspec")) or all(
                word in found or word in ("__stdcall", "__cdecl") for word in body.split())
            for body in texts)}
        if not more:
            return sorted(found)
        found |= more


def opencl_core() -> dict[str, Any]:
    platform = (CL_DIR / "cl_platform.h").read_text()
    header = "\n".join((CL_DIR / name).read_text() for name in ("cl.h", "cl_gl.h"))
    types: dict[str, dict[str, str]] = {}
    linux_part = platform[platform.index("#else", platform.index("typedef float                   cl_float")):]
    for base, name in _SCALAR.findall(linux_part):
        types.setdefault(name, {"kind": "scalar", "c_type": base})
    for base, name in _C_TYPEDEF.findall(platform):  # cl_GLuint ...: C's own types, on every platform
        types.setdefault(name, {"kind": "typedef", "c_type": " ".join(base.split())})
    for tag, name in _STRUCT_POINTER.findall(header):  # cl_GLsync: a pointer to a struct of another API
        if not tag.startswith("_cl_"):
            types.setdefault(name, {"kind": "typedef", "c_type": f"struct {tag} *"})
    for base, name in _TYPEDEF.findall(header):
        base = " ".join(base.split())
        if base.startswith("struct "):
            types[name] = {"kind": "handle", "c_type": base.replace(" *", "") + " *"}
        else:
            types[name] = {"kind": "typedef", "c_type": base}
    constants: dict[str, dict[str, Any]] = {}
    group = None
    for line in header.splitlines():
        heading = _GROUP.match(line)
        if heading:
            group = ERROR_GROUP if heading.group(1) == "Error Codes" else heading.group(1)
            continue
        define = _DEFINE.match(line)
        if define and not define.group(1).startswith(("CL_API", "CL_VERSION", "CL_HPP", "CL_TARGET")):
            value = evaluate(define.group(2))
            if value is not None:
                entry: dict[str, Any] = {"value": value}
                if group:
                    entry["group"] = group
                constants.setdefault(define.group(1), entry)
    functions: dict[str, dict[str, Any]] = {}
    for return_type, name, params in _FUNCTION.findall(header):
        parsed = [parse_param(p) for p in split_params(params) if p.strip() != "void"]
        functions[name] = {"return_type": canonical_type(return_type), "params": parsed}
    return {
        "origin": "Khronos CL/cl.h, CL/cl_gl.h and CL/cl_platform.h, Debian opencl-c-headers; "
        "made by data/make_data.py",
        "types": dict(sorted(types.items())),
        "constants": dict(sorted(constants.items())),
        "functions": dict(sorted(functions.items())),
        "decorations": [name for name in decorations(platform) if name.startswith("CL_")],
    }


def dxgi_format() -> dict[str, Any]:
    values = {name: int(value, 0) for name, value in _DXGI.findall(DXGI_HEADER.read_text())}
    return {
        "origin": "Microsoft dxgiformat.h, as shipped by Debian mingw-w64-common; made by data/make_data.py",
        "enums": {"DXGI_FORMAT": values},
    }


MINGW = Path("/usr/share/mingw-w64/include")
#: The headers of platform types, by platform, in the order a name is looked for (the first definition wins).
PLATFORM_HEADERS = {
    "Windows": [MINGW / name for name in ("basetsd.h", "minwindef.h", "winnt.h", "windef.h")],
    "Direct3D 9": [MINGW / name for name in ("d3d9types.h", "d3d9.h", "dxvahd.h")],
    "GL": [Path("/usr/include/GL/gl.h"), Path("/usr/include/GL/glext.h")],
    "EGL": [Path("/usr/include/KHR/khrplatform.h"), Path("/usr/include/EGL/eglplatform.h"),
            Path("/usr/include/EGL/egl.h"), Path("/usr/include/EGL/eglext.h")],
    "VA-API": [Path("/usr/include/va/va.h")],
}
#: `typedef <words> <stars>NAME;` on one line; `typedef interface NAME NAME;` (a COM interface).
_PLATFORM_TYPEDEF = re.compile(r"^[ \t]*typedef[ \t]+([\w \t*]+);", re.M)
_ENUM_TYPEDEF = re.compile(r"typedef[ \t]+enum[ \t]*\w*\s*\{[^}]*\}\s*(\w+)\s*;")
#: What the types end in: C's own words and the integer types of <stdint.h> and <stddef.h>.
_C_WORDS = {"void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "const"}
_STDINT = {f"{sign}int{bits}_t" for sign in ("", "u") for bits in (8, 16, 32, 64)} | {
    "intptr_t", "uintptr_t", "size_t", "ptrdiff_t"}


def platform_types() -> dict[str, Any]:
    """Every type of the platform headers that ends in C's own types (through the headers' typedefs), an opaque
    struct (`struct __GLsync *`), or a COM interface; an enum of a header is `int`, as C lays out an enum all of
    whose values an int holds. Windows' `__LONG32` is `long`, as on Windows (LLP64, _mingw.h)."""
    long32 = re.search(r"#define __LONG32 (\w+)", (MINGW / "_mingw.h").read_text())
    assert long32, "_mingw.h no longer defines __LONG32"
    written: dict[str, tuple[str, str]] = {}  # name -> (its definition, platform)
    kinds: dict[str, str] = {}
    for platform, headers in PLATFORM_HEADERS.items():
        for header in headers:
            text = header.read_text(errors="replace").replace("__LONG32", long32.group(1))
            for name in _ENUM_TYPEDEF.findall(text):
                written.setdefault(name, ("int", platform))
            for declaration in _PLATFORM_TYPEDEF.findall(text):
                *parts, name = declaration.replace("*", " * ").split()
                words, stars = " ".join(p for p in parts if p != "*"), parts.count("*")
                if not words or not re.fullmatch(r"[A-Za-z_]\w*", name):
                    continue
                if words == f"interface {name}":
                    kinds.setdefault(name, "interface")
                    written.setdefault(name, ("", platform))
                elif words.split()[0] not in ("enum", "union", "interface"):
                    written.setdefault(name, (words + " *" * stars, platform))
    types: dict[str, dict[str, Any]] = {}
    for name, (definition, platform) in written.items():
        if kinds.get(name) == "interface":
            types[name] = {"kind": "interface", "c_type": None, "platform": platform}
            continue
        c_type = _resolve(definition, written)
        if c_type is not None:
            types[name] = {"kind": "typedef", "c_type": c_type, "platform": platform}
    return {
        "origin": "the headers of data/make_data.py PLATFORM_HEADERS: mingw-w64 (Debian mingw-w64-common), GL "
        "(libgl-dev), EGL (libegl-dev), VA-API (libva-dev); made by data/make_data.py",
        "types": dict(sorted(types.items())),
    }


def _resolve(definition: str, written: dict[str, tuple[str, str]]) -> str | None:
    """`definition` in C's own words, following the headers' typedefs; None when it ends elsewhere."""
    seen: set[str] = set()
    while True:
        words = definition.replace("*", " * ").split()
        named = [w for w in words if w not in _C_WORDS and w != "*"]
        if not named or named in ([w] for w in _STDINT):
            return canonical_type(definition)
        if words[0] == "struct" and len(named) == 2 and "*" in words:  # a pointer to an opaque struct
            return canonical_type(definition)
        if len(named) != 1 or named[0] in seen or named[0] not in written or not written[named[0]][0]:
            return None
        seen.add(named[0])
        inner = written[named[0]][0]
        definition = " ".join(inner if w == named[0] else w for w in words)


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


REGISTRY_COPY = "registry/cl.xml"
REGISTRY_PROVENANCE = "registry.yaml"


def _git(folder: Path, *argv: str) -> str | None:
    """What git says of `folder`'s checkout, or None (no git, not a checkout, or it fails)."""
    git = shutil.which("git")
    if git is None:
        return None
    done = subprocess.run([git, "-C", str(folder), *argv], capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL)
    return done.stdout.strip() if done.returncode == 0 else None


def _repository(remote: str) -> str | None:
    """`owner/name` of a remote's URL (`https://host/owner/name.git`, `git@host:owner/name`), without the
    user, password or port a URL may hold; None for a local remote."""
    if "://" in remote:
        parts = urllib.parse.urlsplit(remote)
        path = parts.path if parts.hostname else ""
    else:
        host, colon, path = remote.partition(":")
        path = path if colon and "/" not in host else ""
    path = path.strip("/").removesuffix(".git")
    return path if re.fullmatch(r"[\w.-]+(?:/[\w.-]+)+", path) else None


def git_blob(data: bytes) -> str:
    """git's hash of a file's bytes (`git hash-object`): names one version of the file in any repository."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def registry_provenance(path: Path, data: bytes) -> dict[str, str | None]:
    """`registry.yaml` for a copy of `path`: its digests, and the checkout's commit when the file is that
    commit's own (an edited, ignored or untracked file names none). No path of this machine is recorded."""
    blob = git_blob(data)
    source, commit, date = path.name, None, None
    top = _git(path.resolve().parent, "rev-parse", "--show-toplevel")
    if top:
        relative = path.resolve().relative_to(Path(top).resolve()).as_posix()
        remote = _git(Path(top), "remote", "get-url", "origin")
        source = f"{(_repository(remote) if remote else None) or Path(top).name} {relative}"
        if _git(Path(top), "rev-parse", f"HEAD:{relative}") == blob:
            found = _git(Path(top), "log", "-1", "--format=%H %cs")
            commit, date = found.split() if found else (None, None)
    return {"file": REGISTRY_COPY, "source": source, "commit": commit, "date": date, "blob": blob,
            "sha256": hashlib.sha256(data).hexdigest()}


def copy_registry(path: Path) -> int:
    """Copy the registry XML at `path` into data/ with its provenance, once the generator has read it whole; an
    input error (exit 2) and nothing written when it cannot."""
    from generator.base.errors import InputError
    from generator.base.source import SpecFile
    from generator.frontends import registry_xml

    try:
        spec = SpecFile.read(path)
        if not registry_xml.recognises(spec.text):
            raise InputError(spec.path, None, "not a registry XML (no <registry> at its start)")
        registry_xml.read(spec)
    except InputError as error:
        print(error.render(), file=sys.stderr)
        return 2
    data = path.read_bytes()
    provenance = registry_provenance(path, data)
    if provenance["sha256"] != spec.digest:
        print(f"{path}: error: changed while it was read; run again", file=sys.stderr)
        return 2
    header = ("# The registry XML `generate` leans on when --specs holds none (README: \"A registry to lean on\").\n"
              "# Written with the copy by `make data REGISTRY=path/to/cl.xml`;"
              " a copy whose sha256 differs is refused.\n")
    _replace(HERE / REGISTRY_COPY, data)
    _replace(HERE / REGISTRY_PROVENANCE, (header + yaml.safe_dump(provenance, sort_keys=False)).encode())
    print(f"data/{REGISTRY_COPY}: copied from {provenance['source']} ({provenance['commit'] or 'no commit'})",
          file=sys.stderr)
    return 0


def _replace(target: Path, data: bytes) -> None:
    """Write `target` whole or not at all."""
    target.parent.mkdir(exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def registry_stale() -> str | None:
    """Why the copy is not the file `registry.yaml` describes, or None."""
    provenance = yaml.safe_load((HERE / REGISTRY_PROVENANCE).read_text())
    data = (HERE / provenance["file"]).read_bytes()
    if hashlib.sha256(data).hexdigest() != provenance["sha256"]:
        return f"data/{provenance['file']} is not the file data/{REGISTRY_PROVENANCE} describes (sha256)"
    if git_blob(data) != provenance["blob"]:
        return f"data/{provenance['file']} is not the file data/{REGISTRY_PROVENANCE} describes (blob)"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the files differ from the headers")
    parser.add_argument("--registry", type=Path, metavar="PATH", help="copy this registry XML (cl.xml) into data/")
    args = parser.parse_args()
    if args.check and args.registry is not None:
        parser.error("--check compares and writes nothing; --registry writes")
    try:  # the headers first: a run that cannot read them replaces nothing
        outputs = {"opencl_core.json": render(opencl_core()), "external_enums.json": render(dxgi_format()),
                   "platform_types.json": render(platform_types())}
    except OSError as error:
        print(f"{error.filename}: error: {error.strerror}; `make data` reads the installed official headers "
              "(Debian opencl-c-headers, mingw-w64-common, libgl-dev, libegl-dev, libva-dev)", file=sys.stderr)
        return 2
    if args.registry is not None and (status := copy_registry(args.registry)) != 0:
        return status
    stale = [name for name, text in outputs.items()
             if args.check and (not (HERE / name).exists() or (HERE / name).read_text() != text)]
    if args.check:
        for name in stale:
            print(f"data/{name} differs from what the headers give", file=sys.stderr)
        why = registry_stale()
        if why is not None:
            print(why, file=sys.stderr)
        return 1 if stale or why else 0
    for name, text in outputs.items():
        (HERE / name).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
