"""The `solfec` command line: solfec [-v] [-w] [-c] [-s SUBDIR] [-i SEC] deck.py [deck args].

The deck runs with every deck routine as a builtin (no imports needed), __file__ set, and
sys.argv = [deck, deck args...]. Errors print a traceback pointing at the deck's line and
return a non-zero exit code."""

import os
import sys
import traceback

USAGE = """solfec {version}
SYNOPSIS: solfec [-v [--port N]] [-w] [-c] [-s SUBDIR] [-i SECONDS] path [deck arguments]
  -v          open the viewer: serve the model in a browser page (docs/viewer.md)
  --port N    viewer port on 127.0.0.1 (default 0: any free port, printed)
  -w          write mode: recompute even if results exist
  -c          continue: restart from the last stored frame and run to the deck's end time
  -s SUBDIR   read/write results in a sub-directory of every output path
  -i SECONDS  (accepted for compatibility)
  path        the deck (a .py file), or a directory D holding D/basename(D).py
"""


def _parse(argv):
    from . import _state
    opts = _state.options
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-v":
            opts["viewer"] = True
        elif a == "--port" or a.startswith("--port="):
            if a == "--port" and i + 1 >= len(argv):
                raise SystemExit("solfec: option --port needs a value\n" + USAGE)
            value = a[len("--port="):] if "=" in a else argv[i + 1]
            if not value.isdigit() or int(value) > 65535:
                raise SystemExit(f"solfec: --port needs an integer in [0, 65535], got "
                                 f"'{value}'\n" + USAGE)
            opts["port"] = int(value)
            i += 0 if "=" in a else 1
        elif a == "-w":
            opts["write"] = True
        elif a in ("-s", "-i", "-g"):
            if i + 1 >= len(argv):
                raise SystemExit(f"solfec: option {a} needs a value\n" + USAGE)
            if a == "-s":
                opts["subdir"] = argv[i + 1]
            i += 1
        elif a == "-c":
            opts["continue"] = True
        elif a == "-f":
            pass
        elif a in ("-h", "--help"):
            return None
        elif a.startswith("-") and a != "-":
            raise SystemExit(f"solfec: unknown option '{a}'\n" + USAGE)
        else:
            return a, argv[i + 1:]
        i += 1
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
    with open(path, "r", encoding="utf-8") as f:
        source = f.read()
    namespace = {name: getattr(solfec, name) for name in solfec.__all__}
    namespace.update({"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})
    sys.argv = [path] + list(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        code = compile(source, path, "exec")
        exec(code, namespace)
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
        traceback.print_exception(etype, value, tb.tb_next)
        return 1
    finally:
        sys.stdout.flush()
    return 0


def main(argv=None):
    from . import __version__
    argv = sys.argv[1:] if argv is None else argv
    parsed = _parse(argv)
    if parsed is None:
        sys.stdout.write(USAGE.format(version=__version__))
        return 0 if argv else 1
    return run_deck(*parsed)


if __name__ == "__main__":
    sys.exit(main())
