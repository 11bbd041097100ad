"""Python 2 decks (Solfec-1.0's) run with `solfec deck.py` as they are: converted in memory with
lib2to3 when they do not compile as Python 3 (one line on stderr says so), with Python 2's
meaning of `/` between integers, `long` kept as a name, the deck's own line numbers in errors;
`solfec --convert` prints the converted deck; imports and execfile of Python 2 files beside
the deck are converted too; solfec-mpi runs them the same way (docs/deck-language.md,
"Coming from Solfec-1.0")."""

import os
import re
import shutil
import subprocess

import pytest

from conftest import BUILD, SOLFEC_EXE, ROOT

CONVERTED = "is Python 2: converted to Python 3 in memory"


def values(stdout, tag):
    for ln in stdout.splitlines():
        if ln.startswith(tag + " "):
            return ln.split()[1:]
    raise AssertionError(f"no line {tag} in:\n{stdout}")


def test_print_statements_run_and_the_conversion_is_announced_once(run_solfec):
    p = run_solfec('print "HELLO", 1, 2.5\nimport sys\nprint >>sys.stderr, "ERR"\n'
                   'd = {"a": 1}\nprint "KEY", d.has_key("a"), sorted(d.iteritems())\n'
                   'try:\n    1/0\nexcept ZeroDivisionError, e:\n    print "EXC", e.__class__.__name__\n'
                   'print "RANGE", xrange(3)[2], 3 <> 4\n')
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "HELLO") == ["1", "2.5"]
    assert values(p.stdout, "KEY") == ["True", "[('a',", "1)]"]
    assert values(p.stdout, "EXC") == ["ZeroDivisionError"]
    assert values(p.stdout, "RANGE") == ["2", "True"]
    assert p.stderr.count(CONVERTED) == 1 and "ERR" in p.stderr


def test_division_keeps_python2_meaning(run_solfec):
    # Python 2: int / int floors (towards minus infinity), any float operand divides truly.
    p = run_solfec('import numpy as np\n'
                   'print "DIV", 7/2, 7.0/2, -7/2, 1/2, 7/2.0, 2**3/3, 7 % 4/2, (7/2)/2\n'
                   'n = 5\nprint "RANGE", len(range(n/2)), range(n/2)[-1]\n'
                   'x = 7\nx /= 2\ny = 7.0\ny /= 2\nprint "IDIV", x, y\n'
                   'a = np.array([1.0, 3.0])\nb = a\nb /= 2\n'
                   'print "ARR", (a / 2)[1], a[1], b is a\n'
                   'print "NPINT", np.int64(7) / 2, 7 / np.float64(2)\n'
                   'print "TRUE", True/2, 2**-1\n')
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "DIV") == ["3", "3.5", "-4", "0", "3.5", "2", "1", "1"]
    assert values(p.stdout, "RANGE") == ["2", "1"]
    assert values(p.stdout, "IDIV") == ["3", "3.5"]
    # numpy float arrays divide as before, `/=` in place (b is a, a halved too)
    assert values(p.stdout, "ARR") == ["0.75", "1.5", "True"]
    assert values(p.stdout, "NPINT") == ["3", "3.5"]
    assert values(p.stdout, "TRUE") == ["0", "0.5"]


def test_future_division_and_python3_decks_keep_true_division(run_solfec):
    p = run_solfec('from __future__ import division\nprint "DIV", 7/2\n')
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "DIV") == ["3.5"]
    p = run_solfec('print("DIV", 7/2)\n')  # valid Python 3: not converted
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "DIV") == ["3.5"] and CONVERTED not in p.stderr


def test_python2_option_reads_a_python3_compatible_deck_as_python2(run_solfec, tmp_path):
    # Solfec-1.0 decks that compile as Python 3 (print(x), no print statement) still mean
    # Python 2's `/`: 7/2 = 3, range(n/2) with an int. --python2 converts them as well.
    deck = ('n = 7\nprint("DIV", n/2, 7.0/2, -7/2)\nx = 9\nx /= 2\nprint("IDIV", x)\n'
            'print("RANGE", len(range(n/2)))\n')
    p = run_solfec(deck)  # compiles as Python 3: Python 3's meaning, no conversion
    assert values(p.stdout, "DIV") == ["3.5", "3.5", "-3.5"] and "converted" not in p.stderr
    assert values(p.stdout, "IDIV") == ["4.5"]
    assert p.returncode == 1 and "TypeError: 'float' object cannot be interpreted" in p.stderr
    p = run_solfec(deck, options=("--python2",))
    assert p.returncode == 0, p.stderr
    # Python 2: ints floor; print("a", b) prints the tuple ("a", b), as Python 2 did
    assert p.stdout.splitlines() == ["('DIV', 3, 3.5, -4)", "('IDIV', 4)", "('RANGE', 3)"]
    assert p.stderr.count("read as Python 2 (--python2): converted to Python 3") == 1
    # --convert with --python2 prints the forced conversion
    p = run_solfec(deck, options=("--python2", "--convert"))
    assert p.returncode == 0, p.stderr
    assert 'print(("DIV", __solfec_div__(n, 2), 7.0/2, __solfec_div__(-7, 2)))' in p.stdout
    # a module beside the deck is read as Python 2 too
    (tmp_path / "helper.py").write_text("def half(n):\n    return n/2\n")
    p = run_solfec("from helper import half\nprint(half(5))\n", options=("--python2",))
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["2"]


def test_long_next_to_a_local_named_int(run_solfec):
    # lib2to3's fix_long would turn long(n) into int(n), which calls the local int = 3.
    p = run_solfec('def f(n):\n    int = 3\n    return long(n) + int\n'
                   'print "LONG", f(4), long(2.7), isinstance(5, (int, long))\n')
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "LONG") == ["7", "2", "True"]


def test_errors_point_at_the_decks_own_lines(run_solfec):
    deck = ('print "start"\n'            # 1
            'x = 7/2\n'                  # 2
            'for i in xrange(2):\n'      # 3
            '  print i,\n'               # 4
            'y = (x /\n'                 # 5
            '     2)\n'                  # 6
            'print undefined_name\n')    # 7
    p = run_solfec(deck)
    assert p.returncode == 1
    assert 'deck.py", line 7' in p.stderr and "NameError" in p.stderr
    # the traceback quotes the deck's own line 7
    assert 'print undefined_name' in p.stderr
    # a syntax error that is one in Python 2 too: its line
    p = run_solfec('print "a"\nx = 1\nif x = 2:\n  pass\n')
    assert p.returncode == 1
    assert 'deck.py", line 3' in p.stderr and "SyntaxError" in p.stderr


def test_mixed_tab_and_space_indentation_reads_as_python2(run_solfec):
    # Python 2: a tab indents to the next multiple of 8 columns (Python 3 refuses the mix).
    p = run_solfec('for i in range(2):\n        x = i\n\tprint "TAB", x\n')
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "TAB") == ["0"]


def test_convert_prints_the_converted_deck_and_runs_nothing(run_solfec, tmp_path):
    deck = ('sol = SOLFEC("DYNAMIC", 1e-3, "out/x")\nprint "N", 7/2\nx = 3\nx /= 2\n'
            'z = long(2)\n')
    p = run_solfec(deck, options=("--convert",))
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        'sol = SOLFEC("DYNAMIC", 1e-3, "out/x")', 'print("N", __solfec_div__(7, 2))',
        'x = 3', 'x = __solfec_idiv__(x, 2)', 'z = long(2)']
    assert not (tmp_path / "out").exists()
    # the printed deck is Python 3 (with the helpers bound) and runs as the original does
    conv = tmp_path / "conv.py"
    conv.write_text(p.stdout.replace('sol = SOLFEC("DYNAMIC", 1e-3, "out/x")', ''))
    import sys
    r = subprocess.run([sys.executable, "-c",
                        "import sys; sys.path.insert(0, %r); from solfec import py2deck\n"
                        "ns = dict(py2deck.builtins_for_converted())\n"
                        "exec(compile(open(%r).read(), 'conv.py', 'exec'), ns)"
                        % (os.path.join(BUILD, "python"), str(conv))],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["N", "3"]


def test_python2_files_imported_or_execfiled_beside_the_deck(run_solfec, tmp_path):
    (tmp_path / "mylib.py").write_text('def half(n):\n    print "HALF", n/2\n    return n/2\n')
    (tmp_path / "inc.py").write_text('print "INC", 9/2\nshared = 5/2\n')
    p = run_solfec('from mylib import *\nimport os\n'
                   'execfile(os.path.join(os.path.dirname(__file__), "inc.py"))\n'
                   'print "MAIN", half(7), shared\n')
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "HALF") == ["3"]
    assert values(p.stdout, "INC") == ["4"]
    assert values(p.stdout, "MAIN") == ["3", "2"]


SOLFEC_MPI = os.path.join(BUILD, "solfec-mpi")
MPIRUN = shutil.which("mpirun")


@pytest.mark.skipif(not (os.path.isfile(SOLFEC_MPI) and MPIRUN), reason="no solfec-mpi/mpirun")
def test_solfec_mpi_runs_a_python2_deck(tmp_path):
    (tmp_path / "deck.py").write_text(
        'sol = SOLFEC("DYNAMIC", 1e-3, "out/p2")\n'
        'print "RANKDIV", RANK(), 7/2, NCPU(sol)\n')
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    p = subprocess.run([MPIRUN, "--oversubscribe", "-np", "2", SOLFEC_MPI, "deck.py"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "RANKDIV") == ["0", "3", "2"]
    assert p.stderr.count(CONVERTED) == 1  # rank 0 says it once


@pytest.mark.skipif(not (os.path.isfile(SOLFEC_MPI) and MPIRUN), reason="no solfec-mpi/mpirun")
def test_solfec_mpi_python2_option(tmp_path):
    (tmp_path / "deck.py").write_text("n = 7\nprint(n/2)\n")  # compiles as Python 3
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    for options, out in (((), "3.5"), (("--python2",), "3")):
        p = subprocess.run([MPIRUN, "--oversubscribe", "-np", "2", SOLFEC_MPI, *options,
                            "deck.py"], cwd=tmp_path, capture_output=True, text=True,
                           timeout=120, env=env)
        assert p.returncode == 0, p.stderr
        assert set(p.stdout.split()) == {out}, p.stdout
    assert p.stderr.count("read as Python 2 (--python2)") == 1  # rank 0 says it once


CORPUS = next((c for c in (os.path.join(os.path.dirname(ROOT), "shared", "solfec1-decks"),
                           "/work/shared/solfec1-decks") if os.path.isdir(c)), None)


@pytest.mark.skipif(CORPUS is None, reason="the Solfec-1.0 corpus (../shared/solfec1-decks) "
                    "is not beside the clone")
def test_a_solfec1_corpus_deck_runs_through_the_launcher(tmp_path):
    # inp/rotating-bar.py: Python 2 (print statements, long(1./h1), 1/h1); MODAL_ANALYSIS of
    # a bar, then its rotation for 1 s.
    shutil.copytree(os.path.join(CORPUS, "inp"), tmp_path / "inp",
                    copy_function=shutil.copyfile)
    p = subprocess.run([SOLFEC_EXE, "inp/rotating-bar.py"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stderr.count(CONVERTED) == 1
    assert re.search(r"^t=1\s.*\bstep 64\b", p.stdout, re.M), p.stdout[-500:]  # ran to its end



def test_python2_module_functions_python3_removed(run_solfec):
    # time.clock (Python 2 on Unix: processor time) and random.seed of any hashable object
    # (Python 2 seeds with its hash: the same object gives the same sequence).
    p = run_solfec('import time, random, datetime\nt0 = time.clock()\n'
                   's = sum(i * i for i in range(200000))\nt1 = time.clock()\n'
                   'd = datetime.datetime(2020, 1, 2)\nrandom.seed(d)\na = random.random()\n'
                   'random.seed(d)\nb = random.random()\n'
                   'print "CLOCK", t1 >= t0, type(t0).__name__, a == b\n')
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "CLOCK") == ["True", "float", "True"]


def test_python2_string_module_functions(run_solfec):
    p = run_solfec('import string\n'
                   'print "STR", string.join(["a", "b"], "-"), string.atoi("42") + 1, '
                   'string.split("x y"), string.upper("q"), string.atof("2.5") * 2, '
                   'string.strip("  s ")\n')
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "STR") == ["a-b", "43", "['x',", "'y']", "Q", "5.0", "s"]


def test_round_keeps_python2_meaning(run_solfec):
    # Python 2: round returns a float and rounds halves away from zero (Python 3: an int for
    # one argument, halves to even).
    p = run_solfec('print "ROUND", round(2.5), round(-2.5), round(0.125, 2), round(7), '
                   'type(round(1.2)).__name__\n')
    assert p.returncode == 0, p.stderr
    assert values(p.stdout, "ROUND") == ["3.0", "-3.0", "0.13", "7.0", "float"]
