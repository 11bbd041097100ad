"""The `solfec` command line: solfec [-v] [-w] [-c] [-s SUBDIR] [-i SEC] deck.py [deck args].

The deck runs with every deck routine as a builtin (no imports needed), __file__ set, and
sys.argv = [deck, deck args...]. Errors print a traceback pointing at the deck's line and
return a non-zero exit code."""

import os
import sys
import traceback

SYNOPSIS = ("SYNOPSIS: solfec [-v [--port N]] [-w] [-c] [-s SUBDIR] [-i SECONDS] [-f] [-g WxH] "
            "path [deck arguments]\n"
            "          solfec [--python2] --convert deck.py | --help | --version\n")

HELP = """solfec {version}: the Solfec multibody contact simulator; runs a Python input deck.
""" + SYNOPSIS + """
  path          the deck (a .py file), or a directory D holding D/basename(D).py;
                arguments after it reach the deck as sys.argv[1:]
  -w            write mode: recompute even if results exist (they are overwritten)
  -c            continue: restart from the last stored frame and run to the deck's end time
  -s SUBDIR     read/write results in a sub-directory SUBDIR of every output path
  -v            open the viewer: serve the model in a browser page (docs/viewer.md)
  --port N      viewer port on 127.0.0.1 (default 0: any free port, printed)
  -i SECONDS    accepted for compatibility with Solfec-1.0 (no effect)
  -f            accepted for compatibility with Solfec-1.0 (no effect)
  -g WxH        accepted for compatibility with Solfec-1.0 (window size; no effect)
  --python2     read the deck as Python 2 (Solfec-1.0's), converted to Python 3 with
                `/` between integers flooring, also when it compiles as Python 3
                (without it only decks that do not compile as Python 3 are converted)
  --convert deck.py
                print a Solfec-1.0 (Python 2) deck converted to Python 3
  -h, --help    print this help
  --version     print the version

Without -w or -c, a SOLFEC object whose output directory holds results replays them (READ
mode, nothing is computed). One run at a time writes an output directory: a second one is
refused, naming the process that holds it.

Exit status: 0 success; 1 the deck raised an error (a traceback points at its line);
2 bad command line or deck not found; 130 interrupted (Ctrl-C).
Environment: OPENBLAS_NUM_THREADS, OMP_NUM_THREADS (default 1, see docs/cli.md).
Documentation: docs/cli.md (this command), docs/deck-language.md (the deck routines),
docs/output.md (results), docs/parallel.md (solfec-mpi).
"""


usage_failed = False   # set when main() returned 2 for a bad command line


class UsageError(Exception):
    """A bad command line: one line on stderr, then the synopsis; exit code 2."""


def _program():
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "solfec"
    return "solfec-mpi" if name.startswith("solfec-mpi") else "solfec"


def _error_output():
    """Where messages about the command line go: stderr, on rank 0 only under solfec-mpi
    (every rank sees the same command line and fails alike)."""
    from . import _mpi
    if _mpi.rank() > 0:
        return None
    return sys.stderr


def _parse(argv):
    """(path, deck arguments), or "help" / "version"; raises UsageError."""
    from . import _state
    opts = _state.options
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-v":
            opts["viewer"] = True
        elif a == "--port" or a.startswith("--port="):
            if a == "--port" and i + 1 >= len(argv):
                raise UsageError("option --port needs a value")
            value = a[len("--port="):] if "=" in a else argv[i + 1]
            if not value.isdigit() or int(value) > 65535:
                raise UsageError(f"--port needs an integer in [0, 65535], got '{value}'")
            opts["port"] = int(value)
            i += 0 if "=" in a else 1
        elif a == "-w":
            opts["write"] = True
        elif a in ("-s", "-i", "-g"):
            if i + 1 >= len(argv):
                raise UsageError(f"option {a} needs a value")
            if a == "-s":
                opts["subdir"] = argv[i + 1]
            i += 1
        elif a == "-c":
            opts["continue"] = True
        elif a == "-f":
            pass
        elif a == "--convert":
            opts["convert"] = True
        elif a == "--python2":
            opts["python2"] = True
        elif a in ("-h", "--help"):
            return "help"
        elif a == "--version":
            return "version"
        elif a.startswith("-") and a != "-":
            raise UsageError(f"unknown option '{a}'")
        else:
            return a, argv[i + 1:]
        i += 1
    raise UsageError("no deck given")


# Debian packages of modules whose name is not python3-<module>.
_DEBIAN_NAMES = {"PIL": "python3-pil", "yaml": "python3-yaml", "sklearn": "python3-sklearn",
                 "skimage": "python3-skimage", "vtk": "python3-vtk9"}


def _missing_module_line(name):
    """The line naming the Debian package of a module missing from this interpreter."""
    top = name.split(".")[0]
    pkg = _DEBIAN_NAMES.get(top, "python3-" + top.lower().replace("_", "-"))
    return (f"{_program()}: the Python module '{top}' is missing from {sys.executable} (the "
            f"Python {_program()} runs): install the Debian package {pkg} (sudo apt install "
            f"{pkg}), or give its directory in PYTHONPATH")


def _tell_if_nothing_computed():
    """One line on stderr when the deck created SOLFEC objects to compute (WRITE mode) but
    called RUN on none of them: no results are written (not in viewer mode, where RUN waits)."""
    from . import _state
    if _state.options.get("viewer"):
        return
    live = [ref() for ref in _state.solfec_objects]
    live = [s for s in live if s is not None]
    writing = [s for s in live if getattr(s, "_mode", None) == "WRITE"]
    if writing and not any(getattr(s, "_ran", False) for s in live):
        err = _error_output()
        if err is not None:
            sys.stdout.flush()
            paths = ", ".join(f"'{s.outpath}'" for s in writing)
            err.write(f"{_program()}: the deck called no RUN: no time step was computed and "
                      f"no results were written ({paths})\n")


def _read_source(path):
    """The deck's text: UTF-8 (PEP 3120) or the encoding its first two lines declare (PEP 263,
    as Solfec-1.0 decks may); None after one line on stderr if it is neither."""
    import io
    import tokenize
    with open(path, "rb") as f:
        data = f.read()
    try:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError:
            encoding = "utf-8"   # no valid cookie and not UTF-8 in the first lines: say where
        return data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        what = f"byte 0x{data[e.start]:02x} on line {line} is not {e.encoding}"
    except (SyntaxError, LookupError) as e:   # a cookie naming an unknown encoding
        what = str(e.args[0] if e.args else e)
    err = _error_output()
    if err is not None:
        err.write(f"{_program()}: cannot read the deck '{path}': {what}; save it as UTF-8, or "
                  f"declare its encoding in its first two lines (e.g. '# -*- coding: latin-1 "
                  f"-*-', PEP 263)\n")
    return None


def run_deck(path, args):
    """Executes the deck at `path` with the deck language as builtins; returns an exit code."""
    import solfec
    from . import _state
    if os.path.isdir(path):
        path = os.path.join(path, os.path.basename(os.path.normpath(path)) + ".py")
    if not os.path.isfile(path):
        sys.stderr.write(f"solfec: deck '{path}' not found\n")
        return 2
    _state.options["deck"] = os.path.abspath(path)
    _state.options["argv"] = list(args)
    source = _read_source(path)
    if source is None:
        return 1
    if _state.options.get("convert"):
        from . import py2deck
        return py2deck.print_converted(source, path)
    namespace = {name: getattr(solfec, name) for name in solfec.__all__}
    namespace.update({"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})
    sys.argv = [path] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        from . import py2deck  # Python 2 (Solfec-1.0) decks: converted in memory
        code = py2deck.compile_for_run(source, path, namespace)
        exec(code, namespace)
        _tell_if_nothing_computed()
        if _state.options["viewer"]:  # the deck's objects stay alive in `namespace` meanwhile
            from .viewer import serve
            return serve(_state.options.get("port", 0))
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except KeyboardInterrupt:
        sys.stdout.flush()
        sys.stderr.write("\nsolfec: interrupted\n")
        return 130
    except BaseException:
        sys.stdout.flush()
        etype, value, tb = sys.exc_info()
        # Drop this function's frame; keep the deck's and the library's frames.
        tb = tb.tb_next
        if isinstance(value, SyntaxError):  # the deck's line only, not the compiling frames
            tb = None
        traceback.print_exception(etype, value, tb)
        if isinstance(value, ModuleNotFoundError) and value.name:
            err = _error_output()
            if err is not None:
                err.write(_missing_module_line(value.name) + "\n")
        return 1
    finally:
        sys.stdout.flush()
    return 0


def main(argv=None):
    from ._version import __version__
    argv = sys.argv[1:] if argv is None else argv
    try:
        parsed = _parse(argv)
    except UsageError as e:
        global usage_failed
        usage_failed = True   # solfec-mpi: every rank returns 2, no abort
        err = _error_output()
        if err is not None:
            err.write(f"{_program()}: {e}\n" + SYNOPSIS.replace("solfec", _program()) +
                      f"('{_program()} --help' lists the options)\n")
        return 2
    if parsed == "help":
        sys.stdout.write(HELP.format(version=__version__).replace("solfec ", _program() + " "))
        return 0
    if parsed == "version":
        sys.stdout.write(f"{_program()} {__version__}\n")
        return 0
    return run_deck(*parsed)


if __name__ == "__main__":
    sys.exit(main())
