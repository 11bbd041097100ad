"""NEWTON_SOLVER in decks (manual 4.1.11) against GAUSS_SEIDEL_SOLVER, and the FCLIB round
trip of LOCDYN_DUMP / FCLIB_SOLVE."""

import warnings

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, slab


def stack(outdir, n=3, friction=0.5, push=0.0):
    """n unit-ish boxes stacked on a floor slab (gravity 10); the top one pushed sideways."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=friction)
    # redundant 4-point faces on purpose (rank-deficient W, see below); with one point
    # per pair the single-piece boxes rock about their face centres
    CONTACT_POINTS(sol, 4)
    BODY(sol, "OBSTACLE", slab(), bulk)
    bodies = []
    for k in range(n):
        bodies.append(BODY(sol, "RIGID", box(-0.5 + 0.05 * k, -0.5, 1.0 * k, 1, 1, 1), bulk))
    if push:
        INITIAL_VELOCITY(bodies[-1], (push, 0, 0), (0, 0, 0))
    GRAVITY(sol, (0, 0, -10))
    return sol, bodies


def trajectory(outdir, solver, steps=40, push=0.0):
    sol, bodies = stack(outdir, push=push)
    conf = []
    for _ in range(steps):
        RUN(sol, solver, 1e-3)
        conf.append(np.concatenate([b.conf for b in bodies]))
    return np.array(conf), sol


@pytest.mark.parametrize("push", [0.0, 0.5])
def test_stack_of_boxes_follows_the_gauss_seidel_trajectory(tmp_path, push):
    gs = GAUSS_SEIDEL_SOLVER(1e-12, 5000, meritval=1e-14)
    nt = NEWTON_SOLVER(meritval=1e-14, maxiter=200)
    a, _ = trajectory(str(tmp_path / "gs"), gs, push=push)
    b, sol = trajectory(str(tmp_path / "nt"), nt, push=push)
    assert sol.ncon > 0
    assert nt.error == "OK" and not nt.fallback
    assert nt.merit <= 1e-14
    assert len(nt.merhist) == nt.iters
    # Both solve every step to g <= 1e-14 (relative velocity residual ~1e-7 of the free
    # velocity ~ g h = 0.01 m/s): positions over 40 steps of 1 ms agree to ~1e-9 m.
    assert np.abs(a - b).max() < 1e-7
    if push:  # the top box slid by more than that
        assert np.abs(a - a[0]).max() > 1e-6
    else:  # boxes laid on each other are in contact from the first step and stay at rest
        assert np.abs(a - a[0]).max() < 1e-9


def test_newton_solver_arguments_and_defaults():
    s = NEWTON_SOLVER()
    assert (s.meritval, s.maxiter, s.linmaxiter, s.epsilon, s.delta, s.nonmonlength,
            s.gsflag) == (1e-8, 1000, 10, 0.25, 0.0, 5, "ON")
    with pytest.raises(ValueError, match="NEWTON_SOLVER.*'epsilon'"):
        NEWTON_SOLVER(epsilon=1.5)
    with pytest.raises(ValueError, match="NEWTON_SOLVER.*'maxiter'"):
        NEWTON_SOLVER(maxiter=0)
    with pytest.raises(ValueError, match="NEWTON_SOLVER.*'gsflag'"):
        NEWTON_SOLVER(gsflag="MAYBE")


def test_locdyn_dump_writes_fclib_layout_and_gauss_seidel_reproduces_the_run(tmp_path):
    h5py = pytest.importorskip("h5py")
    gs = GAUSS_SEIDEL_SOLVER(1e-12, 5000, meritval=1e-16)
    _, sol = trajectory(str(tmp_path / "out"), gs, steps=5, push=0.5)
    path = str(tmp_path / "locdyn.h5")
    nc = LOCDYN_DUMP(sol, path)
    assert nc == sol.ncon > 0
    with h5py.File(path, "r") as f:
        g = f["fclib_local"]
        assert g["spacedim"][0] == 3
        W = g["W"]
        m = int(W["m"][0])
        assert m == int(W["n"][0]) == 3 * nc and int(W["nz"][0]) == -1
        assert len(W["p"]) == m + 1 and W["p"][-1] == int(W["nzmax"][0]) == len(W["x"])
        q, mu = np.array(g["vectors"]["q"]), np.array(g["vectors"]["mu"])
        assert q.shape == (m,) and np.allclose(mu, 0.5)
        assert "title" in g["info"]
        # u = W r + q holds for the stored solution (CSC product by hand).
        Wd = np.zeros((m, m))
        p, i, x = np.array(W["p"]), np.array(W["i"]), np.array(W["x"])
        for j in range(m):
            Wd[i[p[j]:p[j + 1]], j] = x[p[j]:p[j + 1]]
        r, u = np.array(f["solution"]["r"]), np.array(f["solution"]["u"])
    assert np.abs(Wd @ r + q - u).max() < 1e-12 * max(1.0, np.abs(u).max())
    # FCLIB order (N, T1, T2): the contacts of resting boxes push (r_N > 0).
    rr = r.reshape(nc, 3)
    assert rr[:, 0].sum() > 0 and np.all(rr[:, 0] >= -1e-12)
    # The run's contact reactions, in FCLIB order, from the constraints themselves.
    run_R = np.array([[c.R[2], c.R[0], c.R[1]] for c in sol.constraints])
    assert np.abs(rr - run_R).max() < 1e-12 * np.abs(run_R).max()
    # Re-solving the file reproduces them: both solves reach g <= 1e-16 (velocity residual
    # ~1e-8 of the free velocity) on the same W; redundant 4-point face contacts make R
    # unique only up to null-space components, so compare velocities tightly and the
    # total normal force (fixed by the momentum balance) to 1e-6.
    for solver in (GAUSS_SEIDEL_SOLVER(1e-12, 5000, meritval=1e-16),
                   NEWTON_SOLVER(meritval=1e-16, maxiter=300),
                   AUTO_SOLVER(meritval=1e-16, maxiter=5000)):
        R, U, merit = FCLIB_SOLVE(path, solver)
        assert merit <= 1e-16
        assert np.abs(U - u.reshape(nc, 3)).max() < 1e-6 * np.abs(q).max()
        assert R[:, 0].sum() == pytest.approx(rr[:, 0].sum(), rel=1e-6)


def test_fclib_solve_rejects_penalty_solver(tmp_path):
    with pytest.raises(TypeError, match="FCLIB_SOLVE"):
        FCLIB_SOLVE(str(tmp_path / "x.h5"), PENALTY_SOLVER())


def test_newton_failure_falls_back_to_gauss_seidel(tmp_path):
    # One Newton iteration per step cannot reach g <= 1e-15 on the sliding stack: the error
    # is reported and Gauss-Seidel (gsflag 'ON') finishes the solve; with 'OFF' it stays.
    nt = NEWTON_SOLVER(meritval=1e-15, maxiter=1)
    a, _ = trajectory(str(tmp_path / "on"), nt, steps=3, push=0.5)
    assert nt.fallback and nt.error == "OK" and nt.merit <= 1e-15
    assert "GAUSS_SEIDEL_SOLVER" in nt.message
    off = NEWTON_SOLVER(meritval=1e-15, maxiter=1, gsflag="OFF")
    trajectory(str(tmp_path / "off"), off, steps=3, push=0.5)
    assert not off.fallback and off.error == "DIVERGED" and off.merit > 1e-15


def test_locdyn_dump_folds_bilateral_rows_into_q(tmp_path):
    h5py = pytest.importorskip("h5py")
    # A box resting on the floor whose top corner is held by FIX_DIRECTION along x: one
    # bilateral row, not written; its reaction folded into q keeps the run's solution exact.
    sol, bodies = stack(str(tmp_path / "out"), n=1, push=0.0)
    FIX_DIRECTION(bodies[0], (0.5, 0.5, 1.0), (1, 0, 0))
    INITIAL_VELOCITY(bodies[0], (0.3, 0, 0), (0, 0, 0))
    gs = GAUSS_SEIDEL_SOLVER(1e-12, 5000, meritval=1e-16)
    RUN(sol, gs, 1e-3)  # (later the held corner tips the box off the floor)
    path = str(tmp_path / "fd.h5")
    with pytest.warns(UserWarning, match="1 bilateral"):
        nc = LOCDYN_DUMP(sol, path)
    assert nc == sol.ncon - 1 > 0
    with h5py.File(path, "r") as f:
        assert int(f["fclib_local/W/m"][0]) == 3 * nc
        r = np.array(f["solution/r"]).reshape(nc, 3)
    R, U, merit = FCLIB_SOLVE(path, NEWTON_SOLVER(meritval=1e-16, maxiter=300))
    assert merit <= 1e-16
    # Total normal contact force equals the run's (momentum balance with the folded
    # bilateral reaction), to the 1e-6 relative accuracy of g <= 1e-16 solves.
    assert R[:, 0].sum() == pytest.approx(r[:, 0].sum(), rel=1e-6)
    assert r[:, 0].sum() > 0


def test_run_rejects_spring_dashpot_contacts_with_newton(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, model="SPRING_DASHPOT", friction=0.1, spring=1e6, dashpot=0.0)
    BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), bulk)
    with pytest.raises(ValueError, match="SPRING_DASHPOT"):
        RUN(sol, NEWTON_SOLVER(), 1e-3)
