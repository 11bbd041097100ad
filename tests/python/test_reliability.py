"""One writer per output directory (docs/cli.md "One writer per output directory"): a second run
writing a directory being written is refused before it computes, naming the directory and the
holder; the first run's file stays whole; a lock left by a killed run blocks nobody; two
SOLFEC objects of one deck cannot share a directory; READ mode and decks without RUN say so.

The deck below drops a sphere in free fall (g = 10): the exact position z = -g t^2 / 2 at every
frame is how the tests recognise a frame that holds the right state (a frame of a mixed or
truncated file would not)."""

import os
import signal
import subprocess
import time

import h5py
import numpy as np
import pytest

from conftest import SOLFEC_EXE
from solfec import results

H = 1e-3
DECK = """
import os, time
sol = SOLFEC('DYNAMIC', 1e-3, 'out/w')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol)
b = BODY(sol, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
GRAVITY(sol, (0, 0, -10))
gs = GAUSS_SEIDEL_SOLVER(1e-6, 100)
RUN(sol, gs, 0.05)
hold = NON_SOLFEC_ARGV()
if hold and sol.mode == 'WRITE':   # half written: wait for the test's signal
    open(hold[0] + '.ready', 'w').close()
    t0 = time.time()
    while not os.path.exists(hold[0] + '.go') and time.time() - t0 < 120:
        time.sleep(0.02)
RUN(sol, gs, 0.05)
print('END t=%.4f z=%.8f' % (sol.time, b.conf[11]))
"""


def _deck(tmp_path):
    p = tmp_path / "deck.py"
    p.write_text(DECK)
    return p


def _solfec(tmp_path, *args, **kw):
    return subprocess.run([SOLFEC_EXE, *map(str, args)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, **kw)


def _start_holding(tmp_path, deck, *options):
    """Starts a writing run in the background and returns it once its first RUN is in the
    file (it then waits for tmp_path/sig.go)."""
    sig = tmp_path / "sig"
    p = subprocess.Popen([SOLFEC_EXE, *options, str(deck), str(sig)], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.time()
    while not (tmp_path / "sig.ready").exists():
        if p.poll() is not None:
            raise AssertionError(f"the first run ended early: {p.communicate()}")
        if time.time() - t0 > 60:
            p.kill()
            raise AssertionError("the first run did not write its first RUN within 60 s")
        time.sleep(0.02)
    return p


def _check_whole_file(out, t_end):
    """Every frame of the file readable, one per step from 0 to t_end, each holding the free
    fall z = -5 t^2 (to 1e-9 m: the rigid integrator is exact for constant acceleration)."""
    path = results.results_path(str(out))
    with h5py.File(path, "r") as f:   # a clean close: plain h5py opens it
        assert int(f["frames/table"].shape[0]) >= round(t_end / H) + 1
    with results.Results(str(out)) as r:
        n = round(t_end / H) + 1
        assert r.nframes == n
        np.testing.assert_allclose(r.times, np.arange(n) * H, atol=1e-12)
        for i in range(r.nframes):
            fr = r.frame(i)
            (bid,) = [int(x) for x in fr.bodies["id"]]
            z = fr.body_q(bid)[11]
            assert abs(z + 5.0 * fr.time ** 2) < 1e-9, (i, fr.time, z)


def test_second_writer_is_refused_and_the_first_file_stays_whole(tmp_path):
    deck = _deck(tmp_path)
    first = _start_holding(tmp_path, deck, "-w")
    try:
        out = os.path.join("out", "w")
        for opts in (["-w"], ["-c"]):
            p = _solfec(tmp_path, *opts, deck)
            assert p.returncode == 1, (opts, p.stdout, p.stderr)
            assert f"output directory '{out}' is being written by another solfec run" in p.stderr
            assert f"pid {first.pid} on host " in p.stderr and "deck deck.py" in p.stderr
            assert "END" not in p.stdout   # stopped before computing
        # without -w the results so far replay (READ mode), saying that they are being written
        p = _solfec(tmp_path, deck)
        assert p.returncode == 0, p.stderr
        assert f"READ mode: '{out}' is being written by another solfec run (pid {first.pid}" \
            in p.stderr
    finally:
        (tmp_path / "sig.go").touch()
        stdout, stderr = first.communicate(timeout=120)
    assert first.returncode == 0, stderr
    assert "END t=0.1000 z=-0.05000000" in stdout
    _check_whole_file(tmp_path / "out" / "w", 0.1)
    # the lock is gone with the first run: -w recomputes
    p = _solfec(tmp_path, "-w", deck)
    assert p.returncode == 0, p.stderr
    _check_whole_file(tmp_path / "out" / "w", 0.1)


def test_lock_of_a_killed_run_blocks_neither_continue_nor_write(tmp_path):
    deck = _deck(tmp_path)
    first = _start_holding(tmp_path, deck)
    first.send_signal(signal.SIGKILL)
    first.communicate(timeout=60)
    lock = tmp_path / "out" / "w" / ".solfec.lock"
    assert f"pid {first.pid} " in lock.read_text()   # the stale file stays, unlocked
    p = _solfec(tmp_path, "-c", deck)
    assert p.returncode == 0, p.stderr
    assert "END t=0.1000 z=-0.05000000" in p.stdout
    _check_whole_file(tmp_path / "out" / "w", 0.1)
    p = _solfec(tmp_path, "-w", deck)
    assert p.returncode == 0, p.stderr


def test_two_solfec_objects_of_one_deck_cannot_share_an_output_directory(tmp_path):
    deck = """
a = SOLFEC('DYNAMIC', 1e-3, 'out/a')
del a                                  # a dropped object gives its directory up
a = SOLFEC('DYNAMIC', 1e-3, 'out/a')
print('SECOND OK')
b = SOLFEC('QUASI_STATIC', 1e-3, 'out/./a/')
print('NOT REACHED')
"""
    (tmp_path / "deck.py").write_text(deck)
    p = _solfec(tmp_path, "deck.py")
    assert p.returncode == 1
    assert "SECOND OK" in p.stdout and "NOT REACHED" not in p.stdout
    assert "SOLFEC: the output directory 'out/./a/' is already used by another SOLFEC " \
           "object of this deck" in p.stderr
    assert 'deck.py", line 6' in p.stderr


def test_read_mode_and_a_deck_without_run_say_so_in_one_line(tmp_path):
    deck = _deck(tmp_path)
    p = _solfec(tmp_path, deck)
    assert p.returncode == 0 and "READ mode" not in p.stderr, p.stderr
    p = _solfec(tmp_path, deck)
    assert p.returncode == 0, p.stderr
    lines = [ln for ln in p.stderr.splitlines() if ln]
    assert lines == ["solfec: READ mode: 'out/w' holds results (101 frames, t = 0 to 0.1) of "
                     "an earlier run, which the deck replays; nothing is computed (run with -w "
                     "to recompute, -c to continue)"]
    (tmp_path / "norun.py").write_text("sol = SOLFEC('DYNAMIC', 1e-3, 'out/n')\n"
                                       "BODY(sol, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), "
                                       "BULK_MATERIAL(sol))\n")
    p = _solfec(tmp_path, "norun.py")
    assert p.returncode == 0
    assert p.stderr == ("solfec: the deck called no RUN: no time step was computed and no "
                        "results were written ('out/n')\n")


def test_solfec_mpi_writer_is_refused_on_every_rank_without_hanging(tmp_path):
    import shutil
    from conftest import BUILD
    mpi_exe, mpirun = os.path.join(BUILD, "solfec-mpi"), shutil.which("mpirun")
    if not (os.path.isfile(mpi_exe) and mpirun):
        pytest.skip("solfec-mpi not built or no mpirun")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    deck = _deck(tmp_path)
    first = _start_holding(tmp_path, deck, "-w")
    try:
        p = subprocess.run([mpirun, "-np", "2", mpi_exe, "-w", str(deck)], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60, env=env)
    finally:
        (tmp_path / "sig.go").touch()
        first.communicate(timeout=120)
    assert p.returncode != 0
    assert p.stderr.count(f"is being written by another solfec run (pid {first.pid}") == 1
    assert "rank 0: ValueError: SOLFEC: the output directory" in p.stderr
    assert first.returncode == 0
    _check_whole_file(tmp_path / "out" / "w", 0.1)
