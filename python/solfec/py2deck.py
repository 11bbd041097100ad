"""Python 2 decks (Solfec-1.0's): converted to Python 3 in memory when they do not compile as is.

The conversion is lib2to3's (Debian: python3-lib2to3) with these choices:
- `/` and `/=` keep Python 2's meaning: each `a / b` becomes `__solfec_div__(a, b)`, which
  floors when both operands are integers (`7/2 == 3`, `-7/2 == -4`) and divides otherwise
  (`7.0/2 == 3.5`, numpy arrays as numpy divides them); `x /= b` becomes
  `x = __solfec_idiv__(x, b)` (in place for arrays). A deck with
  `from __future__ import division` keeps true division.
- `long` stays a name of the deck's namespace, bound to `int` (lib2to3's fix_long would
  rename it to `int`, which a deck that has a local named `int` would then call).
- `execfile`, `reduce`, `reload`, `intern`, `unichr`, `cmp` are names of the namespace too (their
  fixers would insert import lines and shift the deck's line numbers); `execfile` and
  `import` of a Python 2 file beside the deck convert that file the same way.
- Line numbers stay the deck's own: only fixers that rewrite within a statement are used, and
  the conversion is checked to keep the line count.
"""

import functools
import importlib
import importlib.abc
import importlib.machinery
import numbers
import operator
import os
import re
import sys
import sysconfig
import warnings

# lib2to3 fixers that insert or move lines (touch_import, new statements) or need files beside
# the deck (fix_import), or change a meaning the deck namespace provides instead (fix_long,
# fix_execfile, fix_reduce, fix_reload, fix_intern).
_EXCLUDED = {"fix_long", "fix_execfile", "fix_reduce", "fix_reload", "fix_intern", "fix_import",
             "fix_tuple_params", "fix_metaclass", "fix_exitfunc", "fix_urllib", "fix_operator"}

_DIV = "__solfec_div__"
_IDIV = "__solfec_idiv__"


def solfec_div(a, b):
    """Python 2's `a / b`: floor division when both operands are integers."""
    if type(a) is float or type(b) is float:
        return a / b
    if isinstance(a, numbers.Integral) and isinstance(b, numbers.Integral):
        return a // b
    return a / b


def solfec_idiv(a, b):
    """Python 2's `a /= b`: floor division of integers, in place for arrays."""
    if type(a) is not float and type(b) is not float and \
            isinstance(a, numbers.Integral) and isinstance(b, numbers.Integral):
        return a // b
    return operator.itruediv(a, b)


def _cmp(a, b):
    return (a > b) - (a < b)


def execfile(path, globals=None, locals=None):
    """Python 2's execfile: runs the file (converted when it is Python 2) in `globals`."""
    if globals is None:
        frame = sys._getframe(1)
        globals = frame.f_globals
        if locals is None:
            locals = frame.f_locals
    elif locals is None:
        locals = globals
    with open(path, "r", encoding="utf-8") as f:
        source = f.read()
    code = compile_deck(source, path)
    if code.converted:
        for name, value in builtins_for_converted().items():
            globals.setdefault(name, value)
    exec(code.code, globals, locals)


def _python2_string_module():
    # Python 2's string module functions (string.join(words, sep), string.atoi(s)...), which
    # Python 3 removed in favour of str methods; added only where the name is free.
    import string
    funcs = {
        "atof": float, "atoi": lambda s, base=10: int(s, base),
        "atol": lambda s, base=10: int(s, base),
        "capitalize": lambda s: s.capitalize(), "expandtabs": lambda s, n=8: s.expandtabs(n),
        "find": lambda s, *a: s.find(*a), "rfind": lambda s, *a: s.rfind(*a),
        "index": lambda s, *a: s.index(*a), "rindex": lambda s, *a: s.rindex(*a),
        "count": lambda s, *a: s.count(*a), "lower": lambda s: s.lower(),
        "upper": lambda s: s.upper(), "swapcase": lambda s: s.swapcase(),
        "split": lambda s, sep=None, maxsplit=-1: s.split(sep, maxsplit),
        "splitfields": lambda s, sep=None, maxsplit=-1: s.split(sep, maxsplit),
        "rsplit": lambda s, sep=None, maxsplit=-1: s.rsplit(sep, maxsplit),
        "join": lambda words, sep=" ": sep.join(words),
        "joinfields": lambda words, sep=" ": sep.join(words),
        "strip": lambda s, chars=None: s.strip(chars),
        "lstrip": lambda s, chars=None: s.lstrip(chars),
        "rstrip": lambda s, chars=None: s.rstrip(chars),
        "replace": lambda s, old, new, count=-1: s.replace(old, new, count),
        "ljust": lambda s, w, c=" ": s.ljust(w, c), "rjust": lambda s, w, c=" ": s.rjust(w, c),
        "center": lambda s, w, c=" ": s.center(w, c), "zfill": lambda s, w: str(s).zfill(w),
        "letters": string.ascii_letters, "lowercase": string.ascii_lowercase,
        "uppercase": string.ascii_uppercase, "maketrans": str.maketrans,
    }
    for name, f in funcs.items():
        if not hasattr(string, name):
            setattr(string, name, f)


def _python2_modules():
    # Module functions Python 3 removed or narrowed, which lib2to3 does not rewrite: time.clock
    # (Python 2 on Unix: the processor time of the process);
    # random.seed of any hashable object (Python 2 seeded with its hash; Python 3.11 refuses
    # e.g. a datetime).
    import random
    import time
    if not hasattr(time, "clock"):
        time.clock = time.process_time
    _python2_string_module()
    if not getattr(random.seed, "_solfec_py2", False):
        seed = random.seed

        def py2_seed(a=None, *args, **kwargs):
            if a is not None and not isinstance(a, (int, float, str, bytes, bytearray)):
                a = hash(a)
            return seed(a, *args, **kwargs)
        py2_seed._solfec_py2 = True
        random.seed = py2_seed


def _round2(number, ndigits=0):
    """Python 2's round: a float, halves rounded away from zero (Python 3 returns an int for
    one argument and rounds halves to even: round(2.5) is 3.0 in Python 2, 2 in Python 3)."""
    if not isinstance(number, numbers.Real):
        return round(number, ndigits)
    import math
    m = 10.0 ** ndigits
    y = abs(float(number)) * m
    z = math.floor(y)
    if y - z >= 0.5:
        z += 1.0
    return math.copysign(z / m, float(number))


def builtins_for_converted():
    """Names a converted deck's namespace gets (Python 2 builtins and the division helpers)."""
    _python2_modules()
    return {_DIV: solfec_div, _IDIV: solfec_idiv, "long": int, "execfile": execfile,
            "reduce": functools.reduce, "reload": importlib.reload, "intern": sys.intern,
            "unichr": chr, "cmp": _cmp, "round": _round2}


def _make_div_fixer():
    from lib2to3 import fixer_base, pytree
    from lib2to3.fixer_util import Call, Comma, Name
    from lib2to3.pgen2 import token
    from lib2to3.pygram import python_symbols as syms

    def _float_literal(node):  # `1./h` needs no call: a float literal makes `/` true division
        v = node.value if node.type == token.NUMBER else ""
        return not v.lower().startswith("0x") and any(c in v for c in ".eEjJ")

    def call(fn, left, op, right):
        left = left.clone()
        right = right.clone()
        pre = left.prefix
        left.prefix = ""
        comma = Comma()
        if "\n" in op.prefix or "\\" in op.prefix:  # keep line breaks where they were
            comma.prefix = op.prefix
        if right.prefix == "":
            right.prefix = " "
        return Call(Name(fn, prefix=pre), [left, comma, right])

    class FixSolfecDiv(fixer_base.BaseFix):
        """`a / b` -> `__solfec_div__(a, b)`; `x /= b` -> `x = __solfec_idiv__(x, b)`."""
        BM_compatible = False
        order = "post"  # inner terms first: (a/b)/c nests the calls
        PATTERN = "term< any+ > | expr_stmt< any '/=' any >"

        def transform(self, node, results):
            kids = node.children
            if node.type == syms.expr_stmt:
                target, op, value = kids
                new_value = call(_IDIV, target, pytree.Leaf(token.SLASH, "/"), value)
                new_value.prefix = value.prefix if value.prefix else " "
                return pytree.Node(syms.expr_stmt, [target.clone(),
                                                    pytree.Leaf(token.EQUAL, "=", prefix=op.prefix),
                                                    new_value], prefix=node.prefix)
            if not any(k.type == token.SLASH for k in kids[1::2]):
                return None
            left = kids[0]
            for i in range(1, len(kids), 2):
                op, right = kids[i], kids[i + 1]
                if op.type == token.SLASH and not (_float_literal(left) or _float_literal(right)):
                    left = call(_DIV, left, op, right)
                else:
                    left = pytree.Node(syms.term, [left.clone(), op.clone(), right.clone()])
            left.prefix = node.prefix
            return left

    return FixSolfecDiv


def _tool(division):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from lib2to3 import refactor
    names = [n for n in refactor.get_fixers_from_package("lib2to3.fixes")
             if n.rsplit(".", 1)[1] not in _EXCLUDED]
    div_fixer = _make_div_fixer() if division else None

    class Tool(refactor.RefactoringTool):
        def get_fixers(self):
            pre, post = super().get_fixers()
            if div_fixer is not None:
                post.append(div_fixer(self.options, self.fixer_log))
            return pre, post

    return Tool(names)


class ConversionError(SyntaxError):
    """A deck that is neither Python 3 nor Python 2 (shown as a SyntaxError)."""


def _expand_indent_tabs(source):
    # Python 2 reads a tab in indentation as up to the next multiple of 8 columns; Python 3
    # refuses indentation that mixes tabs and spaces.
    out = []
    for line in source.splitlines(True):
        m = re.match(r"[ \t]*", line)
        lead = m.group(0)
        out.append(lead.expandtabs(8) + line[len(lead):] if "\t" in lead else line)
    return "".join(out)


def convert(source, path="<deck>"):
    """The Python 3 text of the Python 2 deck `source` (same line numbers)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from lib2to3.pgen2.parse import ParseError
        from lib2to3.pgen2.tokenize import TokenError
    text = _expand_indent_tabs(source)
    if not text.endswith("\n"):
        text += "\n"
    division = not re.search(r"^\s*from\s+__future__\s+import\s+[^#\n]*\bdivision\b", text, re.M)
    tool = _tool(division)
    try:
        tree = tool.refactor_string(text, path)
    except ParseError as e:
        lineno, col = e.context[1]
        lines = text.splitlines()
        line = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
        raise ConversionError("invalid syntax (as Python 2 and as Python 3)",
                              (path, lineno, col + 1, line + "\n")) from None
    except (TokenError, IndentationError) as e:
        raise ConversionError(f"invalid syntax (as Python 2: {e})", (path, 1, 1, "")) from None
    out = str(tree)
    if not source.endswith("\n") and out.endswith("\n"):
        out = out[:-1]
    if out.count("\n") != source.count("\n"):  # a fixer moved lines: should not happen
        raise ConversionError("the Python 2 conversion changed the deck's line count "
                              "(please report this deck)", (path, 1, 1, ""))
    return out


class Compiled:
    def __init__(self, code, converted, text):
        self.code, self.converted, self.text = code, converted, text


def _forced():
    """`solfec --python2`: every deck (and Python file beside it) is read as Python 2."""
    try:
        from . import _state
        return bool(_state.options.get("python2"))
    except Exception:  # noqa: BLE001 - outside the launcher
        return False


def compile_deck(source, path, announce=True, python2=None):
    """Compiles the deck; converts it first when it is Python 2 (does not compile as Python 3)
    or when `python2` is true (default: `solfec --python2`). Returns a Compiled."""
    python2 = _forced() if python2 is None else python2
    if python2:
        try:
            text = convert(source, path)
        except ConversionError as py2_error:
            raise SyntaxError(py2_error.msg, (py2_error.filename, py2_error.lineno,
                                              py2_error.offset, py2_error.text)) from None
        what = "read as Python 2 (--python2)"
    else:
        try:
            return Compiled(compile(source, path, "exec"), False, source)
        except SyntaxError as py3_error:
            try:
                text = convert(source, path)
            except ConversionError as py2_error:
                # Report the reading that got further: that is the deck's dialect.
                if (py2_error.lineno or 0) > (py3_error.lineno or 0):
                    raise SyntaxError(py2_error.msg, (py2_error.filename, py2_error.lineno,
                                                      py2_error.offset, py2_error.text)) from None
                raise py3_error from None
        what = "is Python 2"
    code = compile(text, path, "exec")
    if announce:
        flag = "--python2 " if python2 else ""
        sys.stderr.write(f"solfec: {path} {what}: converted to Python 3 in memory "
                         f"(solfec {flag}--convert {path} shows the result)\n")
        sys.stderr.flush()
    return Compiled(code, True, text)


# Imports of Python 2 modules beside the deck (`from mylib import *`): the same conversion.
def _library_dirs():
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            dirs.add(os.path.realpath(p))
    for p in sys.path:
        if "-packages" in p:
            dirs.add(os.path.realpath(p))
    dirs.add(os.path.realpath(os.path.dirname(os.path.dirname(__file__))))
    return tuple(d + os.sep for d in dirs)


class _Py2Loader(importlib.machinery.SourceFileLoader):
    def get_code(self, fullname):
        path = self.get_filename(fullname)
        with open(path, "r", encoding="utf-8") as f:
            source = f.read()
        self._compiled = compile_deck(source, path)
        return self._compiled.code

    def exec_module(self, module):
        code = self.get_code(module.__name__)
        if self._compiled.converted:
            for name, value in builtins_for_converted().items():
                module.__dict__.setdefault(name, value)
        exec(code, module.__dict__)


class _Py2Finder(importlib.abc.MetaPathFinder):
    def __init__(self):
        self.skip = _library_dirs()

    def find_spec(self, fullname, path, target=None):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            return None
        origin = os.path.realpath(spec.origin)
        if origin.startswith(self.skip):
            return None
        try:
            with open(origin, "r", encoding="utf-8") as f:
                compile(f.read(), origin, "exec")
            if not _forced():
                return None  # Python 3: the ordinary loader
        except (SyntaxError, UnicodeDecodeError, OSError):
            pass
        spec.loader = _Py2Loader(fullname, spec.origin)
        return spec


def install_import_hook():
    if not any(isinstance(f, _Py2Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Py2Finder())


def _rank0():
    from . import _mpi
    return _mpi.rank() == 0


def compile_for_run(source, path, namespace):
    """The deck's code object for `solfec deck.py`: converted when it is Python 2 (one line on
    stderr says so), with the Python 2 names added to `namespace`; imports of Python 2 files
    beside the deck convert them too."""
    install_import_hook()
    compiled = compile_deck(source, path, announce=_rank0())
    if compiled.converted:
        for name, value in builtins_for_converted().items():
            namespace.setdefault(name, value)
    return compiled.code


def print_converted(source, path, out=None):
    """`solfec --convert deck.py`: prints the deck as it runs (converted when Python 2)."""
    out = sys.stdout if out is None else out
    try:
        compiled = compile_deck(source, path, announce=False)
    except SyntaxError as e:
        sys.stderr.write(f"solfec: {path}:{e.lineno}: {e.msg}\n")
        return 1
    if not compiled.converted:
        sys.stderr.write(f"solfec: {path} compiles as Python 3: printed unchanged\n")
    out.write(compiled.text)
    if compiled.text and not compiled.text.endswith("\n"):
        out.write("\n")
    return 0
