"""GAUSS_SEIDEL_SOLVER(stopping='RESIDUAL') and the solvers' `resid` member: the sweeps stop
on the relative natural-map residual of the step's local problem in Siconos' units (the
impulse r = h R, M = W / h, q = B: Siconos' Moreau-Jean convention), and the value we report
is the one Siconos 4.4's fc3d_compute_error gives on the LOCDYN_DUMP of that problem
(python3-siconos; skipped without it) and an independent numpy evaluation of the formula."""

import h5py
import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import pushed_stack as stack

H = 1e-3  # pushed_stack's time step


def _dump(sol, path):
    """(M, q, mu, r) of the dumped problem in Siconos' units: M = W / h, r = h R; FCLIB
    order (N, T1, T2) per contact."""
    LOCDYN_DUMP(sol, path)
    with h5py.File(path, "r") as f:
        g = f["fclib_local"]
        m = int(g["W"]["m"][0])
        p, i, x = (np.asarray(g["W"][k]) for k in ("p", "i", "x"))
        W = np.zeros((m, m))
        for c in range(m):
            W[i[p[c]:p[c + 1]], c] = x[p[c]:p[c + 1]]
        q = np.asarray(g["vectors"]["q"], float)
        mu = np.asarray(g["vectors"]["mu"], float)
        R = np.asarray(f["solution"]["r"], float)
    return W / H, q, mu, H * R


def _numpy_error(M, q, mu, r):
    """fc3d_compute_error's formula: |r - proj_K(r - u - mu |u_T| e_N)| / max(|r|, |u|, |q|),
    u = M r + q, K the Coulomb cone {|r_T| <= mu r_N} of each contact."""
    u = M @ r + q
    C = np.empty_like(r)
    for a, m in enumerate(mu):
        s = slice(3 * a, 3 * a + 3)
        ub = u[s].copy()
        ub[0] += m * np.linalg.norm(u[s][1:])
        x = r[s] - ub
        xn, xt = x[0], x[1:]
        t = np.linalg.norm(xt)
        if t <= m * xn:
            p = x
        elif m * t <= -xn:
            p = np.zeros(3)
        else:
            a_n = (xn + m * t) / (1.0 + m * m)
            p = np.r_[a_n, m * a_n * xt / t]
        C[s] = r[s] - p
    return np.linalg.norm(C) / max(np.linalg.norm(r), np.linalg.norm(u), np.linalg.norm(q))


def _rel(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


def test_stopping_residual_member_and_validation():
    gs = GAUSS_SEIDEL_SOLVER(1e-6, 100, stopping="RESIDUAL")
    assert (gs.stopping, gs.meritval, gs.residual) == ("RESIDUAL", 1.0, 0.0)
    with pytest.raises(ValueError, match=r"GAUSS_SEIDEL_SOLVER.*'stopping'"):
        GAUSS_SEIDEL_SOLVER(1e-6, 100, stopping="SICONOS")


def test_residual_stopping_ends_at_the_first_iterate_below_the_tolerance(tmp_path):
    # Two identical runs (the same steps give the same iterations and residuals); at the
    # checked step run A solves to tol in k sweeps (resid <= tol), run B gets maxiter = k - 1
    # and returns iterate k - 1, which A tested and found above tol: B reports DIVERGED with
    # resid > tol. On the pushed stack (4-point patches, rank-deficient W), steps 4 and 9.
    tol = 1e-9
    checked = 0
    for step in (3, 8):
        sa, _ = stack(str(tmp_path / ("a%d" % step)))
        sb, _ = stack(str(tmp_path / ("b%d" % step)))
        ga = GAUSS_SEIDEL_SOLVER(tol, 1000, stopping="RESIDUAL")
        gb = GAUSS_SEIDEL_SOLVER(tol, 1000, stopping="RESIDUAL")
        for _ in range(step):
            RUN(sa, ga, H)
            RUN(sb, gb, H)
            assert ga.error == "OK" and ga.resid <= tol
            assert (ga.iters, ga.resid) == (gb.iters, gb.resid)  # same runs so far
        RUN(sa, ga, H)
        k = ga.iters
        assert ga.error == "OK" and ga.resid <= tol and k >= 3
        gb.maxiter = k - 1
        RUN(sb, gb, H)
        assert gb.error == "DIVERGED" and gb.resid > tol
        checked += 1
    assert checked == 2


def test_reported_resid_is_siconos_fc3d_compute_error_of_the_dumped_problem(tmp_path):
    # gs.resid (any stopping rule) against fc3d_compute_error on r = h R, M = W / h, q = B,
    # to 1e-8 relative: C ~ 1e-6 |r| is a difference of O(|r|) terms, so its rounding is
    # ~1e-16 / 1e-6 = 1e-10 relative (measured 1e-11 - 1e-10).
    sn = None
    try:
        import siconos.numerics as sn
    except ImportError:
        pass
    sol, _ = stack(str(tmp_path / "s"))
    checks = 0
    for stopping, eps in (("RESIDUAL", 1e-6), ("BOTH", 1e-4)):
        gs = GAUSS_SEIDEL_SOLVER(eps, 1000, stopping=stopping)
        for k in range(6):
            RUN(sol, gs, H)
            M, q, mu, r = _dump(sol, str(tmp_path / "d.h5"))
            e = _numpy_error(M, q, mu, r)
            assert _rel(gs.resid, e) < 1e-8, (stopping, k, gs.resid, e)
            if stopping == "RESIDUAL":
                assert gs.error == "OK" and gs.resid <= 1e-6
            if sn is not None:
                import scipy.sparse as sp
                Ms = sp.csc_matrix(M)
                Ms.indices, Ms.indptr = Ms.indices.astype(np.int64), Ms.indptr.astype(np.int64)
                info, sbm = sn.SBM_from_csparse(3, Ms)
                assert info == 0
                prob = sn.FrictionContactProblem(3, sn.NM_new_SBM(len(q), len(q), sbm), q, mu)
                so = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
                u = M @ r + q
                _, es = sn.fc3d_compute_error(prob, r, u, 1e-300, so, np.linalg.norm(q))
                assert _rel(gs.resid, es) < 1e-8, (stopping, k, gs.resid, es)
            checks += 1
    assert checks == 12
    if sn is None:
        pytest.skip("python3-siconos absent: checked against the numpy formula only")


def test_newton_residual_stops_on_the_same_function(tmp_path):
    # NEWTON_SOLVER(residual=...) uses the same function: with the merit test out of reach
    # every step ends at resid <= 1e-8, and resid is the numpy value of the dump.
    sol, _ = stack(str(tmp_path / "n"))
    ns = NEWTON_SOLVER(meritval=1e-30, residual=1e-8)
    for _ in range(4):
        RUN(sol, ns, H)
        assert ns.error == "OK" and ns.resid <= 1e-8
        e = _numpy_error(*_dump(sol, str(tmp_path / "n.h5")))
        assert _rel(ns.resid, e) < 1e-6  # C ~ 1e-8 |r|: rounding ~1e-8 relative
