"""RUN computes without holding Python's GIL (src/bindings/domain_py.cc): another Python
thread runs while the steps compute, and every call back into Python (FORCE callbacks,
CALLBACK functions, PUT_SPRING functions) takes the GIL again and gives the same physics."""

import threading
import time

import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, slab


def test_a_python_thread_runs_while_run_computes(outdir):
    # A stack of boxes on a floor, ~0.5 s of computing. With the GIL held through RUN the
    # other thread could not take a single turn until RUN returned.
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.5)
    BODY(sol, "OBSTACLE", slab(), bulk)
    for k in range(4):
        BODY(sol, "RIGID", box(-0.25, -0.25, 0.5 * k, 0.5, 0.5, 0.5), bulk)
    GRAVITY(sol, (0, 0, -9.81))
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.002)

    th = threading.Thread(target=ticker)
    th.start()
    time.sleep(0.01)
    t0 = time.perf_counter()
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.3)
    t1 = time.perf_counter()
    stop.set()
    th.join()
    during = [t for t in ticks if t0 < t < t1]
    print(f"RUN took {t1 - t0:.3f} s; the other thread ticked {len(during)} times meanwhile")
    assert t1 - t0 > 0.05
    # The ticker wakes every 2 ms: at least a quarter of the possible ticks (it shares the two
    # cores with the stepping) shows the steps do not hold the GIL.
    assert len(during) >= 0.25 * (t1 - t0) / 0.002


def test_force_callback_and_callback_take_the_gil_during_run(outdir):
    # A sphere held against gravity by a FORCE callback returning its weight: it stays at rest
    # (the split midpoint scheme integrates constant forces exactly); a CALLBACK every 0.01 s
    # of 0.1 s is called 10 times (plus at most the one at t = 0.1), from the stepping loop.
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 1), 0.1, 1, 1), bulk)
    GRAVITY(sol, (0, 0, -9.81))
    m = b.mass
    calls = {"force": 0, "callback": 0}

    def hold(q, u, t, h):
        calls["force"] += 1
        return (0.0, 0.0, m * 9.81, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    def count():
        calls["callback"] += 1
        return 1

    FORCE(b, "SPATIAL", (0, 0, 0), (0, 0, 1), hold)
    CALLBACK(sol, 0.01, (), count)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.1)
    assert sol.time == pytest.approx(0.1, abs=1e-12)
    assert calls["force"] >= 100  # once a step at least
    assert calls["callback"] in (10, 11)
    v = b.velo[3:6]
    assert max(abs(x) for x in v) < 1e-12
    assert b.conf[11] == pytest.approx(1.0, abs=1e-12)


def test_an_exception_in_a_callback_during_run_reaches_the_deck(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 1), 0.1, 1, 1), bulk)

    def boom(q, u, t, h):
        raise RuntimeError("from the FORCE callback")

    FORCE(b, "SPATIAL", (0, 0, 0), (0, 0, 1), boom)
    with pytest.raises(RuntimeError, match="from the FORCE callback"):
        RUN(sol, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.01)
