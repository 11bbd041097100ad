"""`solfec-mpi` under mpirun (2 ranks): the deck runs on every rank and gives the serial
answer (to rounding; the decomposition itself: test_mpi_decomposition.py), only rank 0 writes the output, NCPU/RANK/BARRIER answer for the job, and an error on
one rank ends every rank with its message printed once. Skipped when solfec-mpi is not built
(MPI or Zoltan missing) or mpirun is not installed."""

import os
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, ROOT, SOLFEC_EXE

SOLFEC_MPI = os.path.join(BUILD, "solfec-mpi")
MPIRUN = shutil.which("mpirun")
pytestmark = pytest.mark.skipif(not (os.path.isfile(SOLFEC_MPI) and MPIRUN),
                                reason="solfec-mpi not built (needs MPI and Zoltan) or no mpirun")

# Open MPI refuses to start as root (containers) without these; --oversubscribe lets 3 ranks
# share the 2 cores of CI.
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1"}

# Three cubes dropped on a floor, one sliding: contact, friction and impacts in 150 steps.
DECK = open(os.path.join(ROOT, "tests", "python", "shapes_for_tests.py")).read().replace(
    "from solfec import CONVEX, HULL", "") + """
sol = SOLFEC('DYNAMIC', 1e-3, 'out/cubes')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
SURFACE_MATERIAL(sol, friction=0.3)
BODY(sol, 'OBSTACLE', slab(), bulk)
cubes = [BODY(sol, 'RIGID', box(-1.5 + 1.1 * i, -0.25, 0.01 + 0.05 * i, 0.5, 0.5, 0.5), bulk)
         for i in range(3)]
INITIAL_VELOCITY(cubes[0], (1.0, 0, 0), (0, 0, 0.5))
GRAVITY(sol, (0, 0, -10))
# Each rank reports into its own file (stdout of several ranks may interleave mid-line).
rep = open('rank%d.txt' % RANK(), 'w')
print('JOB', RANK(), NCPU(sol), all(HERE(sol, b) for b in cubes), BARRIER(), file=rep)
print('MODE', sol.mode, file=rep, flush=True)
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 1000, meritval=1e-12), 0.15)
for b in cubes:
    print('CONF', b.id, ' '.join('%.12e' % x for x in b.conf), file=rep)
rep.close()
print('CONF-STDOUT', cubes[0].conf[9])
"""


def mpirun(tmp_path, deck, np=2, env=None, timeout=60):
    (tmp_path / "deck.py").write_text(deck)
    cmd = [MPIRUN, "--oversubscribe", "-np", str(np), SOLFEC_MPI, "deck.py"]
    full_env = dict(os.environ, **MPI_ENV, **(env or {}))
    return subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=timeout,
                          env=full_env)


def run_serial(directory, deck, timeout=120):
    """Runs `deck` with the serial `solfec` launcher in `directory` (created); asserts success."""
    directory.mkdir()
    (directory / "deck.py").write_text(deck)
    s = subprocess.run([SOLFEC_EXE, "deck.py"], cwd=directory, capture_output=True, text=True,
                       timeout=timeout)
    assert s.returncode == 0, s.stderr
    return s


def lines(text, tag):
    return [ln for ln in text.splitlines() if ln.startswith(tag)]


def report(directory, rank):
    return (directory / f"rank{rank}.txt").read_text()


def test_two_ranks_reproduce_the_serial_run_and_only_rank0_writes(tmp_path):
    serial_dir = tmp_path / "serial"
    run_serial(serial_dir, DECK, timeout=60)
    p = mpirun(tmp_path, DECK)
    assert p.returncode == 0, p.stderr
    # Both ranks ran the deck: each reports its rank, the job size 2, HERE and BARRIER True.
    assert lines(report(tmp_path, 0), "JOB") == ["JOB 0 2 True True"]
    assert lines(report(tmp_path, 1), "JOB") == ["JOB 1 2 True True"]
    assert lines(report(serial_dir, 0), "JOB") == ["JOB 0 1 True True"]
    # The ranks own different cubes (domain decomposition, docs/parallel.md) and every rank
    # holds the current configuration of all after RUN; they equal the serial run's to
    # rounding (the solver's sums are added in another order): 1e-12 on values of order 1.
    conf_serial = lines(report(serial_dir, 0), "CONF")
    assert len(conf_serial) == 3
    for r in (0, 1):
        conf = lines(report(tmp_path, r), "CONF")
        assert [c.split()[:2] for c in conf] == [c.split()[:2] for c in conf_serial]
        for a, b in zip(conf, conf_serial):
            assert max(abs(float(x) - float(y)) for x, y in
                       zip(a.split()[2:], b.split()[2:])) < 1e-12
    # Only rank 0's stdout reaches the terminal.
    assert len(lines(p.stdout, "CONF-STDOUT")) == 1
    # Only rank 0 wrote into out/cubes: one results file, equal to the serial one frame by frame.
    files = sorted(os.listdir(tmp_path / "out" / "cubes"))
    assert files == sorted(os.listdir(serial_dir / "out" / "cubes"))
    sys.path.insert(0, os.path.join(BUILD, "python"))
    from solfec.results import Results
    import numpy as np
    with Results(str(tmp_path / "out" / "cubes")) as a, \
            Results(str(serial_dir / "out" / "cubes")) as b:
        assert a.nframes == b.nframes > 1
        fa, fb = a.frame(a.nframes - 1), b.frame(b.nframes - 1)
        assert np.abs(fa.q - fb.q).max() < 1e-12 and np.abs(fa.u - fb.u).max() < 1e-9


def test_stdout_of_other_ranks_is_discarded_unless_asked_for(tmp_path):
    p = mpirun(tmp_path, "print('HELLO', RANK())\n")
    assert p.returncode == 0, p.stderr
    assert lines(p.stdout, "HELLO") == ["HELLO 0"]
    # Kept, each line whole: under PYTHONUNBUFFERED (set in CI) print('HELLO', k) is four
    # writes, and two ranks' pieces mixed ("HELLOHELLO 0", " 1") before the deck's output was
    # made line buffered when every rank prints.
    deck = "for i in range(300):\n    print('HELLO', RANK(), i)\n"
    p = mpirun(tmp_path, deck, env={"SOLFEC_MPI_STDOUT": "all", "PYTHONUNBUFFERED": "1"})
    assert p.returncode == 0, p.stderr
    got = lines(p.stdout, "HELLO")
    expected = [f"HELLO {r} {i}" for r in (0, 1) for i in range(300)]
    assert sorted(got) == sorted(expected), p.stdout[:2000]


@pytest.mark.parametrize("np", [2, 3])
def test_error_on_one_rank_terminates_all_ranks_with_the_message_once(tmp_path, np):
    # The other ranks go on into a BARRIER rank 1 never reaches: without the abort they hang.
    deck = ("BARRIER()\nif RANK() == 1:\n    raise ValueError('boom on rank one')\n"
            "BARRIER()\nprint('NEVER')\n")
    p = mpirun(tmp_path, deck, np=np, timeout=30)
    out = p.stdout + p.stderr
    assert p.returncode != 0
    assert out.count("Traceback") == 1, out
    assert out.count("rank 1: ValueError: boom on rank one") == 1, out
    assert "rank 0: Traceback" not in out
    assert "NEVER" not in out


def test_error_on_every_rank_is_printed_once_from_rank0(tmp_path):
    p = mpirun(tmp_path, "BULK_MATERIAL(SOLFEC('DYNAMIC', 1e-3, 'out/e'), density=-5)\n",
               timeout=30)
    out = p.stdout + p.stderr
    assert p.returncode != 0
    assert out.count("Traceback") == 1, out
    assert "rank 0: Traceback" in out and "density" in out


def test_second_run_reads_rank0_results_on_every_rank_and_w_recomputes(tmp_path):
    assert mpirun(tmp_path, DECK).returncode == 0
    p = mpirun(tmp_path, DECK)   # valid results exist: READ on both ranks
    assert p.returncode == 0, p.stderr
    assert [lines(report(tmp_path, r), "MODE") for r in (0, 1)] == [["MODE READ"]] * 2
    cmd = [MPIRUN, "--oversubscribe", "-np", "2", SOLFEC_MPI, "-w", "deck.py"]
    p = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, **MPI_ENV))
    assert p.returncode == 0, p.stderr
    assert [lines(report(tmp_path, r), "MODE") for r in (0, 1)] == [["MODE WRITE"]] * 2


def test_viewer_option_is_refused_by_every_rank_with_one_message(tmp_path):
    (tmp_path / "deck.py").write_text("print('RAN')\n")
    cmd = [MPIRUN, "--oversubscribe", "-np", "2", SOLFEC_MPI, "-v", "deck.py"]
    p = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=30,
                       env=dict(os.environ, **MPI_ENV))
    assert p.returncode != 0
    assert p.stderr.count("viewer (-v) is not available under MPI") == 1, p.stderr
    assert "RAN" not in p.stdout
