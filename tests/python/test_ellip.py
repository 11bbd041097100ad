"""ELLIP (Solfec-1.0's ellipsoid): members, mass properties, errors, and contact physics
against closed forms and numerical references computed here with numpy/scipy."""

import math

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import slab


def model(outdir, step, friction=0.0):
    sol = SOLFEC("DYNAMIC", step, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=friction, restitution=0.0)
    return sol, bulk


def rotation(axis, degrees):
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    t = math.radians(degrees)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(t) * K + (1 - math.cos(t)) * K @ K


def test_members_follow_rotate_and_translate():
    e = ELLIP((1, 2, 3), (0.1, 0.2, 0.3), 4, 5)
    assert e.center == (1, 2, 3) and e.radii == (0.1, 0.2, 0.3)
    assert e.rot == (1, 0, 0, 0, 1, 0, 0, 0, 1)
    ROTATE(e, (1, 2, 3), (0, 0, 1), 90)
    TRANSLATE(e, (1, 0, 0))
    assert np.allclose(e.center, (2, 2, 3), atol=1e-15)
    assert np.allclose(e.radii, (0.1, 0.2, 0.3), atol=1e-15)
    # rot column by column (Solfec-1.0's cur_rot): the x semi-axis now points along +y
    assert np.allclose(np.array(e.rot).reshape(3, 3).T, rotation((0, 0, 1), 90), atol=1e-15)
    SCALE(e, (2, 2, 2))
    assert np.allclose(e.radii, (0.2, 0.4, 0.6)) and np.allclose(e.center, (4, 4, 6))


def test_rigid_body_mass_and_inertia_are_the_closed_forms(outdir):
    sol, bulk = model(outdir, 1e-3)
    a, b, c = 0.3, 0.2, 0.1
    R = rotation((1, 1, 0), 30)
    e = ELLIP((0.5, -0.5, 1.0), (a, b, c), 1, 1)
    ROTATE(e, (0.5, -0.5, 1.0), (1, 1, 0), 30)
    body = BODY(sol, "RIGID", e, bulk)
    m = 1000.0 * 4 / 3 * math.pi * a * b * c
    assert body.mass == pytest.approx(m, rel=1e-14)
    J = np.array(body.tensor).reshape(3, 3).T  # (column-wise)
    assert body.volume == pytest.approx(m / 1000.0, rel=1e-14)
    J0 = np.diag([b * b + c * c, a * a + c * c, a * a + b * b]) * m / 5
    assert np.allclose(J, R @ J0 @ R.T, rtol=0, atol=1e-14 * m)
    assert np.allclose(MASS_CENTER(body), (0.5, -0.5, 1.0), atol=1e-15)


def test_bad_arguments_name_ellip_and_the_argument(outdir):
    with pytest.raises(ValueError, match=r"ELLIP: argument 'radii\[1\]' = -0.2"):
        ELLIP((0, 0, 0), (0.1, -0.2, 0.3), 1, 1)
    with pytest.raises(ValueError, match=r"ELLIP: argument 'radii\[2\]'"):
        ELLIP((0, 0, 0), (0.1, 0.2, float("inf")), 1, 1)
    with pytest.raises((TypeError, ValueError), match="ELLIP: argument 'center'"):
        ELLIP((0, 0), (0.1, 0.2, 0.3), 1, 1)
    sol, bulk = model(outdir, 1e-3)
    with pytest.raises(ValueError, match="BODY: an ELLIP shape cannot make a FINITE_ELEMENT"):
        BODY(sol, "FINITE_ELEMENT", ELLIP((0, 0, 0), (1, 1, 1), 1, 1), bulk)


def test_resting_ellipsoid_carries_its_weight(outdir):
    # An ellipsoid with its c axis vertical (turned about z) on a floor: after settling,
    # the normal reactions sum to m g and the body stays at z = c.
    sol, bulk = model(outdir, 1e-3, friction=0.5)
    BODY(sol, "OBSTACLE", slab(top=0.0), bulk)
    a, b, c = 0.3, 0.2, 0.1
    e = ELLIP((0, 0, c), (a, b, c), 1, 1)
    ROTATE(e, (0, 0, c), (0, 0, 1), 35)
    body = BODY(sol, "RIGID", e, bulk)
    GRAVITY(sol, (0, 0, -9.81))
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 200)
    RUN(sol, gs, 0.05)
    cons = [k for k in body.constraints if k.kind == "CONTACT"]
    assert len(cons) == 1
    k = cons[0]
    n = np.array(k.base[2::3])  # (base is row-major: N = base[2], base[5], base[8])
    assert np.allclose(np.abs(n), (0, 0, 1), atol=1e-12)
    assert abs(k.R[2]) == pytest.approx(body.mass * 9.81, rel=1e-8)
    assert np.allclose(k.point[:2], (0, 0), atol=1e-9)
    assert body.conf[11] == pytest.approx(c, abs=1e-6)


def _surface(center, radii, R, u, v):
    s = np.stack([np.cos(u) * np.cos(v), np.sin(u) * np.cos(v), np.sin(v)], axis=-1)
    return np.asarray(center) + (s * np.asarray(radii)) @ R.T


def test_two_ellipsoids_contact_point_and_normal_match_a_closest_point_reference(
        outdir, keep_geometric_epsilon):
    # Two ellipsoids a little apart, GEOMETRIC_EPSILON above their distance (closer than it:
    # touching, gap 0): the contact normal and point must be the closest points' direction
    # and midpoint, found here by minimising |x(u1, v1) - y(u2, v2)| over both surface
    # parametrisations (scipy BFGS from the best pair of a grid), an independent formulation.
    from scipy.optimize import minimize
    ca, ra, Ra = np.array([0.0, 0.0, 0.0]), (0.5, 0.2, 0.3), rotation((0, 1, 1), 28.6)
    cb, rb, Rb = np.array([0.95, 0.2, 0.1]), (0.4, 0.25, 0.15), rotation((1, -1, 2), 68.8)
    g = np.linspace(0, 2 * np.pi, 41)[:-1]
    h = np.linspace(-np.pi / 2, np.pi / 2, 21)[1:-1]
    U, V = np.meshgrid(g, h)
    Pa = _surface(ca, ra, Ra, U, V).reshape(-1, 3)
    Pb = _surface(cb, rb, Rb, U, V).reshape(-1, 3)
    uv = np.stack([U.ravel(), V.ravel()], 1)
    d2 = ((Pa[:, None, :] - Pb[None, :, :]) ** 2).sum(-1)
    i, j = np.unravel_index(np.argmin(d2), d2.shape)

    def dist2(p):
        return float(((_surface(ca, ra, Ra, p[0], p[1]) -
                       _surface(cb, rb, Rb, p[2], p[3])) ** 2).sum())

    best = minimize(dist2, np.r_[uv[i], uv[j]], method="BFGS", options={"gtol": 1e-15})
    p = best.x
    xa, xb = _surface(ca, ra, Ra, p[0], p[1]), _surface(cb, rb, Rb, p[2], p[3])
    d = np.linalg.norm(xb - xa)
    n_ref, point_ref = (xb - xa) / d, 0.5 * (xa + xb)
    assert 0.005 < d < 0.3
    GEOMETRIC_EPSILON(2 * d)

    sol, bulk = model(outdir, 1e-3)
    ea = ELLIP(tuple(ca), ra, 1, 1)
    ROTATE(ea, tuple(ca), (0, 1, 1), 28.6)
    eb = ELLIP(tuple(cb), rb, 1, 1)
    ROTATE(eb, tuple(cb), (1, -1, 2), 68.8)
    BODY(sol, "OBSTACLE", ea, bulk)
    B = BODY(sol, "RIGID", eb, bulk)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 1e-3)  # no gravity: nothing moves
    cons = [k for k in B.constraints if k.kind == "CONTACT"]
    assert len(cons) == 1
    k = cons[0]
    n = np.array(k.base[2::3])  # (base is row-major: N = base[2], base[5], base[8])
    n = n if n @ n_ref > 0 else -n  # (orientation: from the obstacle into the body)
    # the reference's accuracy: BFGS on the squared distance to ~1e-8 in the parameters
    assert np.linalg.norm(n - n_ref) < 1e-6
    assert np.linalg.norm(np.array(k.point) - point_ref) < 1e-6
    assert k.gap == 0.0


def test_two_overlapping_ellipsoids_give_the_penetration_depth():
    # Overlapping: gap = - the penetration depth = max over unit n of
    # min_B n.y - max_A n.x; the reference maximises it over n (scipy) with the extremes of
    # n.x taken over a dense sampling of each surface refined by scipy on (u, v).
    from scipy.optimize import minimize
    ca, ra, Ra = np.zeros(3), (0.5, 0.2, 0.3), rotation((0, 1, 1), 28.6)
    cb, rb, Rb = np.array([0.7, 0.2, 0.1]), (0.4, 0.25, 0.15), rotation((1, -1, 2), 68.8)
    g = np.linspace(0, 2 * np.pi, 121)[:-1]
    h = np.linspace(-np.pi / 2, np.pi / 2, 61)
    U, V = np.meshgrid(g, h)

    def extreme(c, r, R, n, sign):  # min over the surface of sign * n.x, refined
        P = _surface(c, r, R, U, V) @ n * sign
        i = np.unravel_index(np.argmin(P), P.shape)
        res = minimize(lambda q: sign * _surface(c, r, R, q[0], q[1]) @ n,
                       [U[i], V[i]], method="BFGS", options={"gtol": 1e-13})
        return sign * res.fun

    def f(angles):
        t, p = angles
        n = np.array([math.cos(t) * math.cos(p), math.sin(t) * math.cos(p), math.sin(p)])
        return -(extreme(cb, rb, Rb, n, +1) - extreme(ca, ra, Ra, n, -1))

    d = (cb - ca) / np.linalg.norm(cb - ca)
    best = minimize(f, [math.atan2(d[1], d[0]), math.asin(d[2])], method="Nelder-Mead",
                    options={"xatol": 1e-10, "fatol": 1e-13})
    depth_ref = best.fun  # = - max f
    t, p = best.x
    n_ref = np.array([math.cos(t) * math.cos(p), math.sin(t) * math.cos(p), math.sin(p)])

    from solfec import _solfec
    ea = ELLIP(tuple(ca), ra, 1, 1)
    ROTATE(ea, tuple(ca), (0, 1, 1), 28.6)
    eb = ELLIP(tuple(cb), rb, 1, 2)
    ROTATE(eb, tuple(cb), (1, -1, 2), 68.8)
    g = _solfec.piece_contact(ea._shape, 0, eb._shape, 0, 1e-6)
    assert depth_ref > 0.02  # a deep overlap: the test is not about round-off
    # the reference: Nelder-Mead on the angles to 1e-10 and BFGS on the surfaces
    assert g["gap"] == pytest.approx(-depth_ref, abs=1e-8)
    assert np.linalg.norm(np.array(g["normal"]) - n_ref) < 1e-4
    assert g["surfaces"] == (1, 2)
    # the same pair seen from b: the normal flips, gap and point stay
    h = _solfec.piece_contact(eb._shape, 0, ea._shape, 0, 1e-6)
    assert h["gap"] == pytest.approx(g["gap"], abs=1e-12)
    assert np.allclose(h["normal"], -np.array(g["normal"]), atol=1e-9)
    assert np.allclose(h["point"], g["point"], atol=1e-9)


@pytest.mark.parametrize("friction, inertia_about", [(0.0, "centre"), (1.0, "contact")])
def test_prolate_spheroid_rocks_with_the_small_oscillation_period(outdir, friction,
                                                                  inertia_about):
    # A prolate spheroid (a, b, b), long axis along x, lying on a floor, given a small spin
    # about y. Its centre height is z(t) = sqrt(a^2 sin^2 t + b^2 cos^2 t) (the support
    # function), so V'' = m g (a^2 - b^2) / b at rest. Frictionless, it rocks about its centre
    # (no horizontal force): w^2 = V'' / I_c; rolling without slip (friction 1), about the
    # contact point: w^2 = V'' / (I_c + m b^2); I_c = m (a^2 + b^2) / 5.
    a, b, g, h = 0.2, 0.1, 9.81, 1e-3
    Ic = (a * a + b * b) / 5
    I = Ic if inertia_about == "centre" else Ic + b * b
    T_ref = 2 * math.pi / math.sqrt(g * (a * a - b * b) / b / I)
    sol, bulk = model(outdir, h, friction=friction)
    BODY(sol, "OBSTACLE", slab(top=0.0), bulk)
    body = BODY(sol, "RIGID", ELLIP((0, 0, b), (a, b, b), 1, 1), bulk)
    INITIAL_VELOCITY(body, (0, 0, 0), (0, 0.5, 0))  # amplitude ~0.03 rad
    GRAVITY(sol, (0, 0, -g))
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 200)
    th, ts = [], []
    while sol.time < 2.3 * T_ref:
        RUN(sol, gs, h)
        q = body.conf
        th.append(math.atan2(-q[2], q[0]))  # rotation of the long axis about y
        ts.append(sol.time)
    th, ts = np.array(th), np.array(ts)
    assert 0.02 < th.max() < 0.04
    idx = np.where((th[:-1] > 0) & (th[1:] <= 0))[0]
    cross = ts[idx] + (ts[idx + 1] - ts[idx]) * th[idx] / (th[idx] - th[idx + 1])
    assert len(cross) >= 2
    # amplitude 0.03 rad changes the period by ~th^2/16 relative; the time step by
    # ~(w h)^2: 1% covers both with a wide margin, and the two cases differ by 40%
    assert np.diff(cross).mean() == pytest.approx(T_ref, rel=1e-2)


def _drop(outdir, kind, interval=None):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.3, restitution=0.0)
    BODY(sol, "OBSTACLE", slab(top=0.0), bulk)
    e = ELLIP((0, 0, 0.12), (0.2, 0.15, 0.1), 3, 4)
    ROTATE(e, (0, 0, 0.12), (1, 0, 0), 20)
    b = BODY(sol, kind, e, bulk)
    INITIAL_VELOCITY(b, (0.1, 0, -0.5), (0, 0, 1.0))
    GRAVITY(sol, (0, 0, -9.81))
    if interval:
        OUTPUT(sol, interval)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 500), 0.06)
    return sol, b


def test_results_store_the_ellipsoid_and_read_mode_restores_its_body(outdir):
    from solfec import results
    sol, b = _drop(outdir, "PSEUDO_RIGID", 0.01)
    assert sol.mode == "WRITE"
    # the floor stopped its fall (free flight would end with the centre at z = 0.072)
    assert b.conf[11] > 0.09
    conf = b.conf
    sol2, b2 = _drop(outdir, "PSEUDO_RIGID", 0.01)
    assert sol2.mode == "READ"
    SEEK(sol2, 0.06)
    assert b2.conf == conf  # (the shape follows the restored F and x)
    with results.Results(outdir) as res:
        (c, r, rot, volid, surfid), = res.shape(b.id)["ellipsoids"]
        assert np.allclose(c, (0, 0, 0.12)) and np.allclose(r, (0.2, 0.15, 0.1))
        assert np.allclose(rot, rotation((1, 0, 0), 20), atol=1e-15)
        assert (volid, surfid) == (3, 4)


def test_xdmf_export_puts_the_ellipsoid_surface_where_the_body_is(outdir):
    import h5py
    from solfec import results, xdmf
    sol, b = _drop(outdir, "RIGID", 0.02)
    with results.Results(outdir) as res:
        paths = xdmf.export(res)
        last = len(res.times) - 1
    q = np.array(b.conf)
    L, x = q[:9].reshape(3, 3, order="F"), q[9:12]
    Rc = L @ rotation((1, 0, 0), 20)  # current axes
    with h5py.File(paths[0].replace("-bodies.xmf", ".h5"), "r") as f:
        P, T = f[f"f{last}/points"][:], f[f"f{last}/triangles"][:]
        cells = f[f"f{last}/body"][:] == b.id
    V = P[np.unique(T[cells])]
    assert len(V) > 100
    level = np.linalg.norm(((V - x) @ Rc) / (0.2, 0.15, 0.1), axis=1)
    assert np.allclose(level, 1.0, atol=1e-12)  # every exported vertex on the ellipsoid


def test_overlapping_and_split_take_ellipsoids():
    # OVERLAPPING: an ellipsoid overlaps a box when its support reaches into it (here the
    # lowest point of the ellipsoid, z = c - sqrt(Q_zz), against the box top z = 0).
    floor = slab(top=0.0)
    R = rotation((1, 0, 0), 40)
    Qzz = (R @ np.diag([0.3, 0.2, 0.1]) ** 2 @ R.T)[2, 2]
    near = ELLIP((0, 0, math.sqrt(Qzz) - 1e-3), (0.3, 0.2, 0.1), 1, 1)
    far = ELLIP((1, 0, math.sqrt(Qzz) + 1e-3), (0.3, 0.2, 0.1), 1, 1)
    for e in (near, far):
        ROTATE(e, e.center, (1, 0, 0), 40)
    kept = OVERLAPPING(floor, [near, far])
    assert isinstance(kept, ELLIP) and kept.center[0] == 0
    assert OVERLAPPING(floor, COPY(kept), gap=-0.9e-3) is not None  # 1 mm deep
    assert OVERLAPPING(floor, COPY(kept), gap=-1.1e-3) is None
    # SPLIT puts an ellipsoid whole on the side of its centre
    below, above = SPLIT(kept, (0, 0, 0.5), (0, 0, 1))
    assert above is None and isinstance(below, ELLIP)
    assert np.allclose(below.radii, (0.3, 0.2, 0.1))
