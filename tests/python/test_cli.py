"""The `solfec` command line: decks with builtins, argv, errors, progress output."""

import os

import pytest

from conftest import ROOT

SIMPLE = """
sol = SOLFEC('DYNAMIC', 1e-3, 'out/simple')
bulk = BULK_MATERIAL(sol)
b = BODY(sol, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), bulk)
GRAVITY(sol, (0, 0, -10))
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-4, 10), 0.1)
print('Z=%.6f' % b.conf[11])
"""


def test_deck_runs_with_builtins_and_prints_progress(run_solfec):
    p = run_solfec(SIMPLE)
    assert p.returncode == 0, p.stderr
    # z = -g t^2 / 2 = -0.05 at t = 0.1
    assert "Z=-0.050000" in p.stdout
    # default verbose 'ON': a progress line with time, step and solver statistics
    assert "step 100" in p.stdout and "bodies 1" in p.stdout and "merit" in p.stdout


def test_verbose_off_prints_nothing_and_percent_prints_percentage(run_solfec):
    p = run_solfec("sol = SOLFEC('DYNAMIC', 1e-3, 'out/q')\nsol.verbose = 'OFF'\n" +
                   SIMPLE.split("\n", 2)[2].replace("sol = SOLFEC('DYNAMIC', 1e-3, 'out/simple')", ""))
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "Z=-0.050000"
    p = run_solfec(SIMPLE.replace("bulk = BULK", "sol.verbose = '%'\nbulk = BULK"))
    assert p.returncode == 0, p.stderr
    assert "100%" in p.stdout


def test_extra_arguments_reach_the_deck(run_solfec):
    deck = ("import sys\nprint('ARGV', sys.argv[1:])\nprint('NS', NON_SOLFEC_ARGV())\n"
            "print('FILE', __file__.endswith('deck.py'))\n")
    p = run_solfec(deck, args=["7", "fast"])
    assert p.returncode == 0, p.stderr
    assert "ARGV ['7', 'fast']" in p.stdout
    assert "NS ['7', 'fast']" in p.stdout
    assert "FILE True" in p.stdout


def test_deck_error_prints_traceback_at_the_deck_line_and_exits_nonzero(run_solfec):
    deck = "sol = SOLFEC('DYNAMIC', 1e-3, 'out/e')\n\nbulk = BULK_MATERIAL(sol, density=-5)\n"
    p = run_solfec(deck)
    assert p.returncode != 0
    assert "Traceback" in p.stderr
    assert 'deck.py", line 3' in p.stderr
    assert "BULK_MATERIAL" in p.stderr and "density" in p.stderr


def test_python_syntax_error_in_deck_is_reported(run_solfec):
    p = run_solfec("x = (1,\n")
    assert p.returncode != 0
    assert "SyntaxError" in p.stderr


def test_missing_deck_and_usage(run_solfec, tmp_path):
    p = run_solfec(deck_path=tmp_path / "nope.py")
    assert p.returncode != 0 and "not found" in p.stderr
    p = run_solfec(deck_path="-h")
    assert "SYNOPSIS" in p.stdout


def test_subdirectory_option_redirects_output(run_solfec, tmp_path):
    p = run_solfec("sol = SOLFEC('DYNAMIC', 1e-3, 'out/s')\nprint('OUT', sol.outpath)\n",
                   options=["-s", "run4"])
    assert p.returncode == 0, p.stderr
    assert os.path.join("out", "s", "run4") in p.stdout
    assert (tmp_path / "out" / "s" / "run4").is_dir()


def test_solver_exit_failure_terminates_with_an_error(run_solfec):
    deck = open(os.path.join(ROOT, "tests", "python", "shapes_for_tests.py")).read().replace(
        "from solfec import CONVEX, HULL", "") + """
sol = SOLFEC('DYNAMIC', 1e-3, 'out/f')
bulk = BULK_MATERIAL(sol)
BODY(sol, 'OBSTACLE', slab(), bulk)
for i in range(3):
    BODY(sol, 'RIGID', box(-0.5, -0.5, i * 0.999, 1, 1, 1), bulk)
GRAVITY(sol, (0, 0, -10))
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-12, 1, meritval=1e-16, failure='EXIT'), 0.1)
"""
    p = run_solfec(deck)
    assert p.returncode != 0
    assert "SolverError" in p.stderr and "GAUSS_SEIDEL_SOLVER" in p.stderr


def test_tutorial_deck_runs_to_the_end(run_solfec):
    deck = os.path.join(ROOT, "inp", "tutorial", "three-basic-geometric-objects.py")
    p = run_solfec(deck_path=deck)
    assert p.returncode == 0, p.stderr
    assert "time 1.000, bodies 4" in p.stdout


def test_box_of_1000_cubes_runs_to_the_end(run_solfec):
    deck = os.path.join(ROOT, "examples", "box-of-cubes", "cubes.py")
    p = run_solfec(deck_path=deck, args=["10", "0.5"], timeout=900)
    assert p.returncode == 0, p.stderr
    assert "box of 1000 cubes: t = 0.500 s" in p.stdout


def test_viewer_flag_sets_viewer_true_and_needs_a_solfec_object(run_solfec):
    # the viewer itself is tested end to end in tests/python/test_viewer.py
    p = run_solfec("print('VIEWER', VIEWER())\n", options=["-v", "--port", "0"])
    assert p.returncode == 1, p.stderr
    assert "VIEWER True" in p.stdout
    assert "created no SOLFEC object" in p.stderr


def _solfec_args(tmp_path, *args):
    import subprocess
    from conftest import SOLFEC_EXE
    return subprocess.run([SOLFEC_EXE, *args], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("args, line", [
    (["-x", "deck.py"], "solfec: unknown option '-x'"),
    (["--frobnicate"], "solfec: unknown option '--frobnicate'"),
    (["-s"], "solfec: option -s needs a value"),
    (["-w", "-g"], "solfec: option -g needs a value"),
    (["--port", "http", "deck.py"], "solfec: --port needs an integer in [0, 65535], got 'http'"),
    ([], "solfec: no deck given"),
])
def test_bad_command_line_prints_one_line_and_the_synopsis_and_exits_2(tmp_path, args, line):
    (tmp_path / "deck.py").write_text("print('RAN')\n")
    p = _solfec_args(tmp_path, *args)
    assert p.returncode == 2
    assert p.stdout == ""   # the deck did not run
    lines = p.stderr.splitlines()
    assert lines[0] == line
    assert lines[1].startswith("SYNOPSIS: solfec [-v [--port N]] [-w] [-c] [-s SUBDIR]")
    assert lines[-1] == "('solfec --help' lists the options)" and len(lines) == 4
    for junk in ("Traceback", "SystemExit", "{version}"):
        assert junk not in p.stderr


def test_help_lists_every_option_the_exit_codes_and_the_docs(tmp_path):
    from solfec import __version__
    p = _solfec_args(tmp_path, "--help")
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.startswith(f"solfec {__version__}: ")
    with open(os.path.join(ROOT, "docs", "cli.md")) as f:
        doc = f.read()
    for opt in ("-w", "-c", "-s SUBDIR", "-v", "--port N", "-i SECONDS", "-f", "-g WxH",
                "--convert deck.py", "-h, --help", "--version"):
        assert f"\n  {opt} " in p.stdout or f"\n  {opt}\n" in p.stdout, opt
        assert f"`{opt.split(',')[0].split()[0]}" in doc, opt   # and docs/cli.md has it
    assert "Exit status: 0 success; 1 the deck raised an error" in p.stdout
    assert "2 bad command line or deck not found; 130 interrupted" in p.stdout
    assert "docs/cli.md" in p.stdout and "OPENBLAS_NUM_THREADS" in p.stdout
    assert "{" not in p.stdout
    assert _solfec_args(tmp_path, "-h").stdout == p.stdout


def test_version_prints_the_package_version(tmp_path):
    from solfec import __version__
    p = _solfec_args(tmp_path, "--version")
    assert p.returncode == 0 and p.stdout == f"solfec {__version__}\n" and p.stderr == ""


PACED = """
import time
sol = SOLFEC('DYNAMIC', 1e-3, 'out/p')
b = BODY(sol, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), BULK_MATERIAL(sol))
def slow(*a):
    time.sleep(0.05)   # a steady pace: 40 steps of about 0.05 s
    return 1
CALLBACK(sol, 1e-3, None, slow)
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-4, 10), 0.04)
print('END', time.strftime('%H:%M:%S'))
"""


@pytest.mark.parametrize("verbose", ["ON", "%"])
def test_progress_shows_the_percentage_and_an_eta_once_the_pace_is_known(run_solfec, verbose):
    import re
    p = run_solfec(PACED.replace("b = BODY", f"sol.verbose = '{verbose}'\nb = BODY"))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    end = lines[-1].split()[1]
    # not a terminal: a line at the first step, about one a second, one at the end
    assert len(lines) >= 4, p.stdout
    first, last, middle = lines[0], lines[-2], lines[1:-2]
    assert " 3%" in first and "ETA" not in first    # no estimate after one step
    assert "100%" in last and "ETA" not in last     # nor at the end
    assert middle and all("ETA" in ln for ln in middle)
    for ln in middle:
        pct = int(re.search(r"(\d+)%", ln).group(1))
        if verbose == "ON":   # the percentage of the RUN: step / 40
            step = int(re.search(r"step (\d+)", ln).group(1))
            assert pct == int(100 * step / 40 + 0.5)
        eta = re.search(r"ETA (\d\d):(\d\d):(\d\d) \((\d+)s left\)", ln)
        assert eta, ln
        # the estimated end within 2 s of the real end (a steady pace: the estimate is good)
        h, m, s = map(int, eta.groups()[:3])
        eh, em, es = map(int, end.split(":"))
        diff = ((h - eh) * 3600 + (m - em) * 60 + (s - es)) % 86400
        assert min(diff, 86400 - diff) <= 2, (ln, end)
