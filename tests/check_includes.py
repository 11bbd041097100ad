#!/usr/bin/env python3
"""Checks the #include lines of src/ against the module layers of docs/design.md.

Each row of the table under "## Modules and dependencies" in docs/design.md names a folder
of src/ and the modules it may include ("all of the above": every module of the rows above
it). A file of src/<module>/ may include "<module>/...", headers of its own folder, and
"<other>/..." for the listed others only. External libraries stay in their layers: MPI and
Zoltan in parallel (and the apps), HDF5 and zlib in io, pybind11/Python in bindings and apps,
Siconos numerics in solvers.
The library never ends the process: MPI_Abort, std::exit and std::abort are the launchers'
(src/apps), the library throws.
Exit status 1 with one line per forbidden include; run by ctest (include_layers) and pytest
(tests/python/test_include_layers.py)."""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTERNAL = {  # header prefix -> modules that may include it
    "mpi.h": {"parallel", "apps"},
    "zoltan": {"parallel", "apps"},
    "hdf5.h": {"io"},
    "H5": {"io"},
    "zlib.h": {"io"},
    "pybind11/": {"bindings", "apps"},
    "Python.h": {"bindings", "apps"},
    "siconos/": {"solvers"},  # optional Siconos numerics: SICONOS_SOLVER
}
ENDS_PROCESS = re.compile(r"\b(MPI_Abort|std::exit|std::abort|std::quick_exit)\s*\(")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def allowed_modules(design_text, src_modules):
    """module -> set of modules it may include, from the design table."""
    section = design_text.split("## Modules and dependencies", 1)
    if len(section) < 2:
        raise SystemExit("check_includes: docs/design.md has no '## Modules and dependencies' "
                         "section with the module table")
    allowed, above = {}, []
    for line in section[1].splitlines():
        if line.startswith("## "):
            break
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] not in src_modules:
            continue
        folder, includes = cells[0], cells[-1]
        if "all of the above" in includes:
            names = set(above)
        else:
            names = {w.strip().strip("`") for w in includes.split(",")} & set(src_modules)
        allowed[folder] = names
        above.append(folder)
    return allowed


def violations(root=ROOT):
    src = os.path.join(root, "src")
    modules = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    with open(os.path.join(root, "docs", "design.md"), encoding="utf-8") as f:
        allowed = allowed_modules(f.read(), modules)
    out = [f"docs/design.md: no row for src/{m}/ in the module table"
           for m in modules if m not in allowed]
    for m in modules:
        for dirpath, _, files in os.walk(os.path.join(src, m)):
            for name in sorted(files):
                if not name.endswith((".h", ".cc")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if m != "apps":
                    code = re.sub(r"//[^\n]*", "", text)  # calls, not comments naming them
                    for call in ENDS_PROCESS.finditer(code):
                        line = code.count("\n", 0, call.start()) + 1
                        out.append(f"{rel}:{line}: {call.group(1)} ends the process; throw "
                                   f"instead (the launcher in src/apps decides)")
                for match in INCLUDE.finditer(text):
                    kind, header = match.groups()
                    line = text.count("\n", 0, match.start()) + 1
                    if kind == "<":
                        for prefix, who in EXTERNAL.items():
                            if header.startswith(prefix) and m not in who:
                                out.append(f"{rel}:{line}: <{header}> is for "
                                           f"{', '.join(sorted(who))} only")
                        continue
                    first = header.split("/", 1)[0]
                    if "/" not in header or first == m or first not in modules:
                        continue  # own folder, own module, or not a module of src/
                    if first not in allowed.get(m, set()):
                        out.append(f"{rel}:{line}: \"{header}\": {m} may not include {first} "
                                   f"(docs/design.md allows: "
                                   f"{', '.join(sorted(allowed.get(m, ()))) or 'none'})")
    return out


def main():
    found = violations()
    for v in found:
        print(v)
    if found:
        print(f"check_includes: {len(found)} forbidden include(s)", file=sys.stderr)
        return 1
    print("check_includes: every include of src/ follows docs/design.md's module layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
