"""Reduced bases (python/solfec/bases.py): MODAL_ANALYSIS of a free-free bar against bar and
beam theory and its cache, RIGID_DISPLACEMENTS, POD of snapshots from a known subspace, and
COROTATED_DISPLACEMENTS of TL runs (WRITE-mode collection and READ-mode frames)."""

import os

import numpy as np
import pytest

from solfec import (BODY, BULK_MATERIAL, COROTATED_DISPLACEMENTS, HEX, INITIAL_VELOCITY,
                    MODAL_ANALYSIS, NEWTON_SOLVER, POD, REGISTER_BASE, RIGID_DISPLACEMENTS,
                    RUN, SOLFEC)
from solfec import _solfec, bases

E, RHO, A_, L = 1e6, 1e3, 0.1, 1.0  # bar 1 x 0.1 x 0.1 along x, nu = 0


def bar(outdir, nx=20, nyz=2, young=E):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=young, poisson=0.0, density=RHO)
    corners = [0, 0, 0, L, 0, 0, L, A_, 0, 0, A_, 0, 0, 0, A_, L, 0, A_, L, A_, A_, 0, A_, A_]
    return sol, BODY(sol, "FINITE_ELEMENT", HEX(corners, nx, nyz, nyz, 1, [1] * 6), mat)


def modes(evecs, num):
    return np.asarray(evecs).reshape(num, -1).T


def axial_fraction(m, v):
    w = m * v * v
    return w[0::3].sum() / w.sum()


def first_frequencies(m, evals, E_):
    """(first longitudinal, first bending) angular frequency of a modal base."""
    lon = ben = None
    for k in range(6, len(evals)):
        f = axial_fraction(m, E_[:, k])
        if ben is None and f < 0.1:
            ben = np.sqrt(evals[k])
        if lon is None and f > 0.9:
            lon = np.sqrt(evals[k])
    return lon, ben


def test_modal_analysis_of_free_bar_matches_theory(tmp_path):
    """Rigid modes first (evals 0, Rayleigh quotients < 1e-8 of the first elastic one),
    E^T M E = I to 1e-10, residuals |K v - lambda M v| < 1e-8 |lambda M v|. Longitudinal
    (pi/L) sqrt(E/rho) = 99.35 rad/s: lumped linear elements underestimate it by about
    (pi h/L)^2/24 (0.10% at 20 elements), so within 0.3%, closer at 40 elements. Euler-Bernoulli
    free-free bending 4.730^2 sqrt(EI/(rho A L^4)) = 20.42 rad/s: Timoshenko effects lower the
    3-D value ~3% and HEX8 shear locking raises it: within 5% (measured +1.3%)."""
    sol, b = bar(str(tmp_path / "a"))
    d = sol._domain
    evals, evecs = MODAL_ANALYSIS(b, 14)
    m = _solfec.fe_lumped_mass(d, b._id)
    n = m.size
    assert evals.shape == (14,) and evecs.shape == (14 * n,)
    E_ = modes(evecs, 14)
    np.testing.assert_array_equal(evals[:6], 0.0)
    G = E_.T @ (m[:, None] * E_)
    assert np.abs(G - np.eye(14)).max() < 1e-10
    KE = _solfec.fe_reference_stiffness_product(d, b._id, E_)
    rq = np.einsum("ij,ij->j", E_, KE)
    assert np.abs(rq[:6]).max() < 1e-8 * evals[6]
    res = KE[:, 6:] - (m[:, None] * E_[:, 6:]) * evals[6:]
    assert (np.linalg.norm(res, axis=0) < 1e-8 * evals[6:] *
            np.linalg.norm(m[:, None] * E_[:, 6:], axis=0)).all()
    assert np.all(np.diff(evals[6:]) >= 0)
    lon, ben = first_frequencies(m, evals, E_)
    lon_exact = np.pi / L * np.sqrt(E / RHO)
    ben_exact = 4.730 ** 2 * np.sqrt(E * A_ ** 2 / 12 / (RHO * L ** 4))
    assert abs(lon - lon_exact) / lon_exact < 3e-3
    assert abs(ben - ben_exact) / ben_exact < 0.05
    sol2, b2 = bar(str(tmp_path / "b"), nx=40)
    ev2, ec2 = MODAL_ANALYSIS(b2, 14)
    lon2, _ = first_frequencies(_solfec.fe_lumped_mass(sol2._domain, b2._id), ev2,
                                modes(ec2, 14))
    assert abs(lon2 - lon_exact) < abs(lon - lon_exact)


def test_modal_analysis_cache_is_reused_and_checked(tmp_path):
    _, b = bar(str(tmp_path / "out"), nx=6, nyz=1)
    path = str(tmp_path / "modes.npz")
    solves = bases._stats["modal_solves"]
    ev1, ec1 = MODAL_ANALYSIS(b, 10, path=path)
    assert bases._stats["modal_solves"] == solves + 1 and os.path.isfile(path)
    stamp = os.stat(path).st_mtime_ns
    ev2, ec2 = MODAL_ANALYSIS(b, 10, path=path)
    assert bases._stats["modal_solves"] == solves + 1  # read, not recomputed
    assert os.stat(path).st_mtime_ns == stamp
    np.testing.assert_array_equal(ev1, ev2)
    np.testing.assert_array_equal(ec1, ec2)
    with pytest.raises(ValueError, match=r"MODAL_ANALYSIS.*'path'"):
        MODAL_ANALYSIS(b, 12, path=path)  # num mismatch
    with open(path, "wb") as f:
        f.write(b"not a cache")
    with pytest.raises(ValueError, match=r"MODAL_ANALYSIS.*'path'"):
        MODAL_ANALYSIS(b, 10, path=path)
    with pytest.raises(ValueError, match=r"MODAL_ANALYSIS.*'num'"):
        MODAL_ANALYSIS(b, 5)


def test_rigid_displacements_are_orthonormal_and_strain_free(tmp_path):
    sol, b = bar(str(tmp_path / "out"), nx=6, nyz=1)
    R = modes(RIGID_DISPLACEMENTS(b), 6)
    assert np.abs(R.T @ R - np.eye(6)).max() < 1e-13
    KR = _solfec.fe_reference_stiffness_product(sol._domain, b._id, R)
    K1 = _solfec.fe_reference_stiffness_product(sol._domain, b._id, np.eye(R.shape[0]))
    assert np.linalg.norm(KR) < 1e-12 * np.linalg.norm(K1)  # round-off of K0's entries


def principal_sines(A, B):
    """Sines of the principal angles between the column spans of A and B (equal dimension):
    singular values of (I - Qa Qa^T) Qb, accurate for small angles."""
    Qa, _ = np.linalg.qr(A)
    Qb, _ = np.linalg.qr(B)
    return np.linalg.svd(Qb - Qa @ (Qa.T @ Qb), compute_uv=False)


def test_pod_recovers_known_subspace_with_rigid_modes_first():
    rng = np.random.default_rng(5)
    n, k = 90, 4
    R = rng.standard_normal((n, 6))
    B = rng.standard_normal((n, k))
    S = R @ rng.standard_normal((6, 40)) + B @ rng.standard_normal((k, 40))
    evals, evecs = POD(S, 6 + k, R.T.reshape(-1))  # rigid given flat, mode after mode
    E_ = modes(evecs, 6 + k)
    assert np.abs(E_.T @ E_ - np.eye(6 + k)).max() < 1e-12
    np.testing.assert_array_equal(evals[:6], 0.0)
    assert (evals[6:] > 0).all() and np.all(np.diff(evals[6:]) <= 0)
    assert principal_sines(E_[:, :6], R).max() < 1e-12           # rigid span first
    assert principal_sines(E_, np.hstack((R, B))).max() < 1e-12  # the whole known subspace
    for j in range(6):  # each rigid mode keeps its direction (Gram-Schmidt order)
        assert E_[:, j] @ R[:, j] > 0
    with pytest.raises(ValueError, match=r"POD.*'num'"):
        POD(S, 6 + k + 1, R)  # the snapshots span only k deformation modes


def test_corotated_displacement_binding_removes_rotation_and_keeps_stretch(tmp_path):
    sol, b = bar(str(tmp_path / "out"), nx=6, nyz=1)
    d = sol._domain
    X = np.array(b.conf).reshape(-1, 3)
    m = _solfec.fe_lumped_mass(d, b._id)[0::3]
    Xc = (m[:, None] * X).sum(0) / m.sum()
    th = 2.5
    Rz = np.array([[np.cos(th), -np.sin(th), 0], [np.sin(th), np.cos(th), 0], [0, 0, 1]])
    U = np.diag([1.03, 0.98, 1.01])
    rigid = (X - Xc) @ Rz.T + (1, 2, 3)
    stretched = (X - Xc) @ (Rz @ U).T + (-1, 0, 2)
    D, rot = _solfec.corotated_displacements(d, b._id, np.column_stack(
        (rigid.reshape(-1), stretched.reshape(-1))))
    assert np.abs(D[:, 0]).max() < 1e-13 * L
    np.testing.assert_allclose(D[:, 1].reshape(-1, 3), (X - Xc) @ (U - np.eye(3)).T, rtol=0,
                               atol=1e-13 * L)
    np.testing.assert_allclose(rot[1], Rz, rtol=0, atol=1e-13)


def spinning_cube(outdir, young, form="TL", base=None):
    sol = SOLFEC("DYNAMIC", 2e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=young, poisson=0.25, density=RHO)
    c = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
    if base is not None:
        REGISTER_BASE(sol, base, "pod")
        base = "pod"
    b = BODY(sol, "FINITE_ELEMENT", HEX([0.1 * v for v in c], 2, 2, 2, 1, [1] * 6), mat,
             form=form, base=base)
    b.scheme = "DEF_LIM"
    INITIAL_VELOCITY(b, (0.1, 0, 0), (0, 0, 2.0))
    return sol, b


def test_corotated_displacements_of_spinning_stiff_body_vanish(tmp_path):
    """A stiff cube (a = 0.1, E = 1e12) spun at w = 2 rad/s for 0.2 s (0.4 rad) under TL: the
    centrifugal strain rho w^2 a^2 / E ~ 4e-11 is negligible, but each step's q += h u moves
    the nodes off the rigid rotation by O((h w)^2 a) (the stiff body pulls them back): the
    co-rotated displacements stay below (h w)^2 a = 1.6e-6 m (measured 2e-7 m) while the rigid
    displacements reach 0.02 m. Exactness to round-off for imposed rigid motions is checked
    on the binding above. Snapshots are collected during RUN (WRITE) and read from the
    frames (READ)."""
    out = str(tmp_path / "out")
    sol, b = spinning_cube(out, 1e12)
    assert COROTATED_DISPLACEMENTS(sol, b).shape == (81, 0)  # starts collecting every step
    x0 = np.array(b.conf)
    RUN(sol, NEWTON_SOLVER(), 0.2)
    D = COROTATED_DISPLACEMENTS(sol, b)
    assert D.shape[0] == 81 and D.shape[1] >= 99
    assert np.abs(np.array(b.conf) - x0).max() > 0.01  # it did rotate
    bound = (2e-3 * 2.0) ** 2 * 0.1
    assert np.abs(D).max() < bound
    sol2, b2 = spinning_cube(out, 1e12)
    assert sol2.mode == "READ"
    Dr = COROTATED_DISPLACEMENTS(sol2, b2)
    assert Dr.shape[0] == 81 and Dr.shape[1] >= 2
    assert np.abs(Dr).max() < bound
    assert COROTATED_DISPLACEMENTS(sol2, b2, sampling=0.1).shape[1] < Dr.shape[1]


def test_pod_of_tl_snapshots_gives_a_usable_bc_ro_base(tmp_path):
    """Worked example of docs/deck-language.md: TL run -> COROTATED_DISPLACEMENTS -> POD ->
    REGISTER_BASE -> BODY(form='BC-RO'); the base is orthonormal with the rigid modes first."""
    sol, b = spinning_cube(str(tmp_path / "out"), 1e5)
    COROTATED_DISPLACEMENTS(sol, b, 0.01)
    RUN(sol, NEWTON_SOLVER(), 0.1)
    S = COROTATED_DISPLACEMENTS(sol, b)
    assert S.shape[1] >= 9 and np.abs(S).max() > 1e-7  # spinning stretches the soft cube
    rigid = RIGID_DISPLACEMENTS(b)
    evals, evecs = POD(S, 9, rigid)
    E_ = modes(evecs, 9)
    assert np.abs(E_.T @ E_ - np.eye(9)).max() < 1e-12
    assert principal_sines(E_[:, :6], modes(rigid, 6)).max() < 1e-12
    sol2, b2 = spinning_cube(str(tmp_path / "ro"), 1e5, form="BC-RO", base=(evals, evecs))
    c0 = np.array(b2._mass_center())
    RUN(sol2, NEWTON_SOLVER(), 0.02)
    # a free body's mass centre moves at the initial 0.1 m/s (rigid modes in the base)
    np.testing.assert_allclose(np.array(b2._mass_center()) - c0, (0.002, 0, 0), atol=1e-9)
