"""Deck arguments of the solver extensions: GAUSS_SEIDEL_SOLVER(residual=...) (stop on the
relative natural-map residual, Siconos' fc3d error) and NEWTON_SOLVER(proximal=...,
smoothing=...): defaults, validation messages, and their effect on a stack of boxes whose
4-point contact faces make W rank-deficient."""

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import pushed_stack as stack


def test_defaults_and_members():
    gs = GAUSS_SEIDEL_SOLVER(1e-6, 100)
    assert gs.residual == 0.0  # off: the manual's stopping tests only
    assert GAUSS_SEIDEL_SOLVER(1e-6, 100, residual=1e-5).residual == 1e-5
    ns = NEWTON_SOLVER()
    assert (ns.proximal, ns.smoothing) == (0.0, 10)
    ns = NEWTON_SOLVER(proximal=0.1, smoothing=0)
    assert (ns.proximal, ns.smoothing) == (0.1, 0)
    ns.proximal, ns.smoothing = 0.5, 20
    assert (ns.proximal, ns.smoothing) == (0.5, 20)


@pytest.mark.parametrize("make,arg", [
    (lambda: GAUSS_SEIDEL_SOLVER(1e-6, 100, residual=-1e-6), "residual"),
    (lambda: GAUSS_SEIDEL_SOLVER(1e-6, 100, residual=float("nan")), "residual"),
    (lambda: NEWTON_SOLVER(proximal=-0.1), "proximal"),
    (lambda: NEWTON_SOLVER(proximal=float("inf")), "proximal"),
    (lambda: NEWTON_SOLVER(smoothing=-1), "smoothing"),
])
def test_bad_values_raise_value_error_naming_routine_and_argument(make, arg):
    with pytest.raises(ValueError, match=r"(GAUSS_SEIDEL|NEWTON)_SOLVER.*'%s'" % arg):
        make()


@pytest.mark.parametrize("make,arg", [
    (lambda: GAUSS_SEIDEL_SOLVER(1e-6, 100, residual="small"), "residual"),
    (lambda: NEWTON_SOLVER(proximal="on"), "proximal"),
    (lambda: NEWTON_SOLVER(smoothing=2.5), "smoothing"),
])
def test_wrong_types_raise_type_error_naming_the_argument(make, arg):
    with pytest.raises(TypeError, match="'%s'" % arg):
        make()


def test_residual_stops_gauss_seidel_at_the_relative_residual(tmp_path):
    # epsilon and meritval out of reach: only the residual test (or maxiter) can stop the
    # sweeps; a looser residual must take fewer sweeps, each step converging ('OK').
    iters = {}
    for res in (1e-4, 1e-8):
        sol, _ = stack(str(tmp_path / ("r%g" % res)))
        gs = GAUSS_SEIDEL_SOLVER(1e-15, 2000, meritval=1e-30, residual=res)
        gs.itershist = "ON"
        RUN(sol, gs, 0.02)
        assert gs.error == "OK"
        iters[res] = sum(gs.itershist)
    assert iters[1e-4] < iters[1e-8]


def test_newton_proximal_and_smoothing_reach_the_merit(tmp_path):
    # Both extensions change only the iteration path: every step ends at merit <= 1e-10
    # without the Gauss-Seidel fallback, and the final states agree with plain Newton
    # (gsflag 'ON' as a safety net there) to the precision the merit implies (~1e-9 m).
    confs = []
    for kw in ({"smoothing": 0}, {"proximal": 0.1}, {}):
        sol, bodies = stack(str(tmp_path / ("n%d" % len(confs))))
        ns = NEWTON_SOLVER(meritval=1e-10, **kw)
        for _ in range(20):
            RUN(sol, ns, 1e-3)
            assert ns.merit <= 1e-10
            if ns.smoothing > 0:
                assert not ns.fallback  # Newton (with its smoothing) did it alone
        confs.append(np.concatenate([np.array(b.conf) for b in bodies]))
    assert np.abs(confs[1] - confs[0]).max() < 1e-7
    assert np.abs(confs[2] - confs[0]).max() < 1e-7
