"""SIMPLIFIED_CRACK and RT_SPLIT (Solfec-1.0 lng.c, cra.c, bod.c): a bar stretched past its
tensile strength splits at the crack plane into bodies of the sides' masses (density x the
volume of each side), the split keeps linear and angular momentum exactly (the parts carry
the parent's velocity field), the cut faces carry the crack's surface ids, and a bar below
the strength does not split; PSEUDO_RIGID and FINITE_ELEMENT. RT_SPLIT of a hex block along
an inner face layer: masses, carried node states, new surface ids, the parts flying apart
under opposite end loads as free bodies do; a face set that leaves the mesh connected opens
a slit. The results record the split (NEWBODS / DELBODS) and READ mode replays it."""

import os

import numpy as np
import pytest

from solfec import (BODY, BULK_MATERIAL, CALLBACK, CONTACT_EXCLUDE_BODIES, CONVEX, DISPLACEMENT,
                    FORCE, GAUSS_SEIDEL_SOLVER, HEX, HISTORY, OUTPUT, PIPE, RT_SPLIT, RUN,
                    SIMPLIFIED_CRACK, SOLFEC, SPLIT, TETRAHEDRALIZE, VELOCITY, _solfec)
from solfec import results
from fe_decks_for_tests import bar_corners

L, A = 1.0, 0.1          # bar [0, L] x [0, A] x [0, A]
RHO, E, NU = 1000.0, 1e6, 0.0
XC = 0.3                 # crack plane x = XC (an element face of the FE mesh below)
RATE = 0.5               # initial stretching rate dF_xx/dt [1/s]
OMEGA = 2.0              # initial spin about z [rad/s]
STEP = 1e-4
GAUSS = np.array([-1.0, 1.0]) / np.sqrt(3.0)


def box_gauss(x0, x1):
    """2x2x2 Gauss points and weights of the box [x0, x1] x [0, A] x [0, A] (exact for the
    quadratic integrands x(X) x v(X) of affine and trilinear-free fields on a box)."""
    V = (x1 - x0) * A * A
    pts = [((x0 + x1) / 2 + (x1 - x0) / 2 * g, A / 2 + A / 2 * h, A / 2 + A / 2 * k)
           for g in GAUSS for h in GAUSS for k in GAUSS]
    return pts, [V / 8.0] * 8


def prb_momenta(bodies):
    """Linear and angular momentum (about the origin) of PSEUDO_RIGID box bodies, integrated
    exactly from their velocity fields (VELOCITY, DISPLACEMENT at Gauss points)."""
    p, l = np.zeros(3), np.zeros(3)
    for b in bodies:
        pts, w = box_gauss(*b._x_extent)
        for X, wi in zip(pts, w):
            x = np.add(X, DISPLACEMENT(b, X))
            v = np.array(VELOCITY(b, X))
            p += RHO * wi * v
            l += RHO * wi * np.cross(x, v)
    return p, l


def fe_momenta(sol, bodies):
    """Linear and angular momentum of FE bodies: sum over nodes of m_a u_a and
    m_a x_a x u_a with the lumped masses (what the time stepping carries)."""
    p, l = np.zeros(3), np.zeros(3)
    for b in bodies:
        m = np.array(_solfec.fe_lumped_mass(b._d, b.id, "test")).reshape(-1, 3)[:, 0]
        x = np.array(b.conf).reshape(-1, 3)
        u = np.array(b.velo).reshape(-1, 3)
        p += (m[:, None] * u).sum(axis=0)
        l += (m[:, None] * np.cross(x, u)).sum(axis=0)
    return p, l


def stretch_and_spin_field(X, center):
    """Initial velocity: stretching along x about the centre plus a spin about z."""
    r = np.subtract(X, center)
    return np.array([RATE * r[0] - OMEGA * r[1], OMEGA * r[0], 0.0])


def prb_bar(outdir, ft):
    sol = SOLFEC("DYNAMIC", STEP, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=NU, density=RHO)
    v = [0, 0, 0, L, 0, 0, L, A, 0, 0, A, 0, 0, 0, A, L, 0, A, L, A, A, 0, A, A]
    faces = [4, 0, 3, 2, 1, 1, 4, 4, 5, 6, 7, 1, 4, 0, 1, 5, 4, 1, 4, 1, 2, 6, 5, 1,
             4, 2, 3, 7, 6, 1, 4, 3, 0, 4, 7, 1]
    b = BODY(sol, "PSEUDO_RIGID", CONVEX(v, faces, 1), bulk)
    b._x_extent = (0.0, L)  # referential x-extent of the box (prb_momenta)
    c = np.array(b.center)
    # dF/dt = G about the centre (v(centre) = 0), the stretch-and-spin field
    G = np.array([[RATE, -OMEGA, 0.0], [OMEGA, 0.0, 0.0], [0.0, 0.0, 0.0]])
    # find the layout of dF/dt in BODY.velo (row- or column-major) from VELOCITY
    u = [0.0] * 12
    u[1] = 1.0  # entry 1: (1,0) in column-major, (0,1) in row-major
    b.velo = u
    col_major = abs(VELOCITY(b, tuple(c + [1.0, 0, 0]))[1] - 1.0) < 1e-12
    Gf = G.flatten(order="F" if col_major else "C")
    b.velo = list(Gf) + [0.0, 0.0, 0.0]
    for X in ((0, 0, 0), (L, A, A), (0.2, 0.05, 0.0)):
        assert np.allclose(VELOCITY(b, X), stretch_and_spin_field(X, c), atol=1e-12)
    return sol, bulk, b


def test_prb_bar_splits_at_the_plane_past_ft_keeping_mass_and_momentum(outdir):
    ft = 1e3
    sol, bulk, b = prb_bar(outdir, ft)
    m0 = b.mass
    seen = {}

    def before():  # registered first: runs before the crack check of the same step
        seen["pre"] = (sol.time, prb_momenta(sol.bodies), len(sol.bodies))
        return 1

    def after():
        if len(sol.bodies) == 2 and "post" not in seen:
            for part in sol.bodies:
                part._x_extent = (XC, L) if part.center[0] > XC else (0.0, XC)
            seen["post"] = (sol.time, prb_momenta(sol.bodies), seen["pre"])
        return 1

    CALLBACK(sol, STEP, (), before)
    SIMPLIFIED_CRACK(b, (XC, A / 2, A / 2), (1, 0, 0), (7, 8), "TENSILE", ft=ft)
    CALLBACK(sol, STEP, (), after)
    OUTPUT(sol, STEP)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 40 * STEP)
    assert "post" in seen, "the bar did not split"
    t, (p1, l1), (t0, (p0, l0), n0) = seen["post"]
    assert t == pytest.approx(t0) and n0 == 1  # the same step, before and after the split
    # tension n.sigma.n = E eps (nu = 0, small strain) passed ft = 1 kPa, i.e. eps = 1e-3
    # at RATE 0.5/s: at t = 2e-3 s (+ a step)
    assert 2e-3 - 1e-12 <= t <= 2e-3 + 1.5 * STEP
    parts = sorted(sol.bodies, key=lambda x: x.center[0])
    assert [p.kind for p in parts] == ["PSEUDO_RIGID"] * 2
    assert parts[0].mass == pytest.approx(RHO * XC * A * A, rel=1e-12)
    assert parts[1].mass == pytest.approx(RHO * (L - XC) * A * A, rel=1e-12)
    assert parts[0].mass + parts[1].mass == pytest.approx(m0, rel=1e-12)
    # the split keeps the momenta to round-off (the parts carry the parent's field)
    scale_p = RHO * L * A * A * RATE * L
    assert np.abs(p1 - p0).max() < 1e-12 * scale_p
    assert np.abs(l1 - l0).max() < 1e-12 * np.abs(l0).max()
    assert abs(l0[2]) > 0.01  # the spin is there
    # cut faces: surfid 7 on the part below the plane (outward +x), 8 above
    with results.Results(outdir) as res:
        for part, sid, nx in ((parts[0], 7, 1.0), (parts[1], 8, -1.0)):
            (verts, faces, surfids, volid), = res.shape(part.id)["convexes"]
            cut = [s for f, s in zip(faces, surfids)
                   if np.allclose(np.asarray(verts)[f][:, 0], XC)]
            assert cut == [sid]
        assert res.has_body(b.id)


def test_prb_bar_below_ft_does_not_split(outdir):
    sol, bulk, b = prb_bar(outdir, None)
    ft = 2e4  # the tension stays near E RATE t = 1e6 * 0.5 * 4e-3 = 2 kPa
    SIMPLIFIED_CRACK(b, (XC, A / 2, A / 2), (1, 0, 0), 3, "TENSILE", ft=ft)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 40 * STEP)
    assert [x.id for x in sol.bodies] == [b.id]
    t = _solfec.crack_tension(b._d, b.id, (XC, A / 2, A / 2), (1, 0, 0))
    assert 0.05 * ft < t < ft


def fe_bar(outdir, nx=10, ny=2, nz=2):
    sol = SOLFEC("DYNAMIC", STEP, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=NU, density=RHO)
    b = BODY(sol, "FINITE_ELEMENT", HEX(bar_corners(L, A), nx, ny, nz, 1, [1] * 6), bulk)
    c = np.array(b.center)
    X = np.array(b.conf).reshape(-1, 3)
    b.velo = [float(v) for x in X for v in stretch_and_spin_field(x, c)]
    return sol, bulk, b


def test_fe_bar_splits_at_the_element_faces_past_ft(outdir):
    ft = 2e3
    sol, bulk, b = fe_bar(outdir)
    m0, n0 = b.mass, len(b.conf) // 3
    seen = {}

    def before():
        seen["pre"] = (sol.time, fe_momenta(sol, sol.bodies), len(sol.bodies))
        return 1

    def after():
        if len(sol.bodies) == 2 and "post" not in seen:
            seen["post"] = (sol.time, fe_momenta(sol, sol.bodies), seen["pre"])
        return 1

    CALLBACK(sol, STEP, (), before)
    SIMPLIFIED_CRACK(b, (XC, A / 2, A / 2), (1, 0, 0), (7, 8), "TENSILE", ft=ft)
    CALLBACK(sol, STEP, (), after)
    OUTPUT(sol, 5 * STEP)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 80 * STEP)
    assert "post" in seen, "the bar did not split"
    t, (p1, l1), (t0, (p0, l0), npre) = seen["post"]
    assert t == pytest.approx(t0) and npre == 1
    parts = sorted(sol.bodies, key=lambda x: x.center[0])
    assert parts[0].mass == pytest.approx(RHO * XC * A * A, rel=1e-12)
    assert parts[1].mass == pytest.approx(RHO * (L - XC) * A * A, rel=1e-12)
    assert parts[0].mass + parts[1].mass == pytest.approx(m0, rel=1e-12)
    # 3x3 cut nodes duplicated; node states carried (the momenta to round-off)
    assert sum(len(p.conf) // 3 for p in parts) == n0 + 9
    assert np.abs(p1 - p0).max() < 1e-12 * RHO * L * A * A * RATE * L
    assert np.abs(l1 - l0).max() < 1e-12 * np.abs(l0).max()
    # the cut faces (2 x 2 quads on x = XC) carry 7 below and 8 above
    for part, sid, other in ((parts[0], 7, 8), (parts[1], 8, 7)):
        faces = _solfec.body_mesh_boundary_faces(part._d, part.id)
        cut = [s for nodes, s in faces if s in (7, 8)]
        assert cut == [sid] * 4
    # the results record the split: NEWBODS 2 and DELBODS 1 at one frame, and the parent's
    # history ends at the split
    th = HISTORY(sol, ["NEWBODS", "DELBODS", "BODS"], 0.0, sol.time)
    k = int(np.argmax(np.asarray(th[1]) > 0))
    assert th[1][k] == 2 and th[2][k] == 1 and th[3][k] == 2
    assert sum(th[1]) == 2 and sum(th[2]) == 1
    assert th[0][k] >= t - 1e-12


def test_fe_bar_below_ft_does_not_split(outdir):
    sol, bulk, b = fe_bar(outdir)
    ft = 2e4
    SIMPLIFIED_CRACK(b, (XC, A / 2, A / 2), (1, 0, 0), 1, "TENSILE", ft=ft)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 40 * STEP)
    assert [x.id for x in sol.bodies] == [b.id]
    t = _solfec.crack_tension(b._d, b.id, (XC, A / 2, A / 2), (1, 0, 0))
    assert 0.05 * ft < t < ft


@pytest.mark.parametrize("kind", ["hex", "tet"])
def test_fe_bar_splits_through_elements_past_ft_remeshed(outdir, tmp_path, kind):
    """A crack plane through the middle of an element layer (x = 0.35 on the 10 x 2 x 2 hex
    bar; the same bar as TETRAHEDRALIZE's tetrahedra): past ft each side is re-meshed with
    tetrahedra (Solfec-1.0's MESH_Split with remesh). The parts' masses are density x the
    sides' volumes (polyhedral boundary: exact to round-off); their node positions and
    velocities are the parent's motion interpolated at the new nodes, so linear momentum is
    kept to the interpolation error of the parent's field on the new mesh (measured: hex
    6e-7, tet 8e-16 of rho L A^2 RATE L; the bound 1e-5). (Angular momentum with lumped
    masses depends on the mesh's lumped inertia: the hex -> tet change moves it by 4e-3
    relative, so it is not asserted.) The cut faces lie on the plane, carry 7 below and 8
    above and cover the cross-section."""
    ft, xc = 2e3, 0.35
    sol, bulk, b = fe_bar(outdir)
    if kind == "tet":
        sol = SOLFEC("DYNAMIC", STEP, outdir + "-tet")
        sol.verbose = "OFF"
        bulk = BULK_MATERIAL(sol, young=E, poisson=NU, density=RHO)
        mesh = TETRAHEDRALIZE(HEX(bar_corners(L, A), 10, 2, 2, 1, [1] * 6),
                              str(tmp_path / "bar.npz"), volume=1e-4)
        b = BODY(sol, "FINITE_ELEMENT", mesh, bulk)
        c = np.array(b.center)
        b.velo = [float(v) for x in np.array(b.conf).reshape(-1, 3)
                  for v in stretch_and_spin_field(x, c)]
    m0 = b.mass
    seen = {}

    def before():
        seen["pre"] = fe_momenta(sol, sol.bodies)
        return 1

    def after():
        if len(sol.bodies) == 2 and "post" not in seen:
            seen["post"] = (fe_momenta(sol, sol.bodies), seen["pre"])
        return 1

    CALLBACK(sol, STEP, (), before)
    SIMPLIFIED_CRACK(b, (xc, A / 2, A / 2), (1, 0, 0), (7, 8), "TENSILE", ft=ft)
    CALLBACK(sol, STEP, (), after)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 60 * STEP)
    assert "post" in seen, "the bar did not split"
    (p1, _), (p0, _) = seen["post"]
    parts = sorted(sol.bodies, key=lambda x: x.center[0])
    assert parts[0].mass == pytest.approx(RHO * xc * A * A, rel=1e-12)
    assert parts[1].mass == pytest.approx(RHO * (L - xc) * A * A, rel=1e-12)
    assert parts[0].mass + parts[1].mass == pytest.approx(m0, rel=1e-12)
    assert np.abs(p1 - p0).max() < 1e-5 * RHO * L * A * A * RATE * L
    for part, sid, other in ((parts[0], 7, 8), (parts[1], 8, 7)):
        X = np.array(_solfec.fe_referential_nodes(part._d, part.id, "test"))
        faces = _solfec.body_mesh_boundary_faces(part._d, part.id)
        cut = [X[list(f)] for f, s in faces if s == sid]
        assert cut and not [f for f, s in faces if s == other]
        assert max(np.abs(P[:, 0] - xc).max() for P in cut) < 1e-12
        area = sum(0.5 * np.linalg.norm(np.cross(P[1] - P[0], P[2] - P[0])) for P in cut)
        assert area == pytest.approx(A * A, rel=1e-12)


def test_fe_ring_cracked_through_elements_next_to_the_point_stays_one_slit_body(outdir):
    """topoadj 'ON' on the 8-sector pipe (a ring) with the plane x = 0.25 through its elements:
    the section is two strips; only the one next to the point opens (Solfec-1.0's re-meshed
    topological split: the ring re-meshed whole with that strip inside, then split along
    it), so the ring becomes one slit body of the same mass, the strip's faces carrying 2 on
    the side below the plane and 3 above. Its motion, a translation plus a spin (affine in
    X), is interpolated exactly at the new nodes, so the linear momentum (sum m_a u_a =
    integral of rho v) is kept to round-off."""
    sol = SOLFEC("DYNAMIC", STEP, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=NU, density=RHO)
    ring = BODY(sol, "FINITE_ELEMENT", PIPE((0, 0, 0), (0, 0, 2), 0.5, 1, 1, 8, 1, 1, [1] * 6),
                bulk, label="ring")
    X = np.array(ring.conf).reshape(-1, 3)
    ring.velo = [float(v) for x in X for v in (1.0 - OMEGA * x[1], 0.5 + OMEGA * x[0], 0.0)]
    m0 = ring.mass
    seen = {}

    def before():  # the momentum at the end of the step, before the crack check
        seen["pre"] = fe_momenta(sol, sol.bodies)[0]
        return 1

    CALLBACK(sol, STEP, (), before)
    SIMPLIFIED_CRACK(ring, (0.25, 0.9, 1.0), (1, 0, 0), (2, 3), "TENSILE", "ON", ft=-1.0)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), STEP)
    assert [b.label for b in sol.bodies] == ["ring"] and sol.bodies[0].id != ring.id
    part = sol.bodies[0]
    assert part.mass == pytest.approx(m0, rel=1e-12)
    p1 = fe_momenta(sol, [part])[0]
    # after the one step before the split the field is affine up to the step's elastic
    # response, whose interpolation error is what remains (measured 2.7e-12 relative)
    assert np.abs(p1 - seen["pre"]).max() < 1e-10 * np.abs(seen["pre"]).max()
    Xp = np.array(_solfec.fe_referential_nodes(part._d, part.id, "test"))
    faces = _solfec.body_mesh_boundary_faces(part._d, part.id)
    for sid in (2, 3):
        cut = [Xp[list(f)] for f, s in faces if s == sid]
        assert cut and max(np.abs(P[:, 0] - 0.25).max() for P in cut) < 1e-12
        assert min(P[:, 1].min() for P in cut) > 0.0  # the strip next to the point (y > 0)


def test_simplified_crack_argument_errors(outdir):
    sol, bulk, b = fe_bar(outdir)
    v = [0, 0, 0, L, 0, 0, L, A, 0, 0, A, 0, 0, 0, A, L, 0, A, L, A, A, 0, A, A]
    faces = [4, 0, 3, 2, 1, 1, 4, 4, 5, 6, 7, 1, 4, 0, 1, 5, 4, 1, 4, 1, 2, 6, 5, 1,
             4, 2, 3, 7, 6, 1, 4, 3, 0, 4, 7, 1]
    embedded = BODY(sol, "FINITE_ELEMENT", CONVEX(v, faces, 1), bulk,
                    mesh=HEX(bar_corners(L, A), 10, 2, 2, 1, [1] * 6))
    with pytest.raises(ValueError, match="cuts through 4 elements of the body's background"):
        SIMPLIFIED_CRACK(embedded, (0.35, A / 2, A / 2), (1, 0, 0), 1, "TENSILE", ft=1.0)
    with pytest.raises(ValueError, match="does not intersect"):
        SIMPLIFIED_CRACK(b, (2 * L, A / 2, A / 2), (1, 0, 0), 1, "TENSILE", ft=1.0)
    with pytest.raises(ValueError, match="criterion"):
        SIMPLIFIED_CRACK(b, (XC, A / 2, A / 2), (1, 0, 0), 1, "SHEAR", ft=1.0)
    with pytest.raises(ValueError, match="topoadj"):
        SIMPLIFIED_CRACK(b, (XC, A / 2, A / 2), (1, 0, 0), 1, "TENSILE", topoadj="YES")
    r = BODY(sol, "RIGID", HEX(bar_corners(L, A), 2, 1, 1, 1, [1] * 6), bulk)
    with pytest.raises(ValueError, match="only PSEUDO_RIGID and FINITE_ELEMENT"):
        SIMPLIFIED_CRACK(r, (0.5, A / 2, A / 2), (1, 0, 0), 1, "TENSILE")


def block(outdir, nx=4, ny=2, nz=2):
    sol = SOLFEC("DYNAMIC", STEP, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=0.25, density=RHO)
    b = BODY(sol, "FINITE_ELEMENT", HEX(bar_corners(L, A), nx, ny, nz, 1, [1] * 6), bulk,
             label="block")
    return sol, bulk, b


def layer_faces(b, x):
    X = np.array(b.conf).reshape(-1, 3)
    on = {i for i, p in enumerate(X) if abs(p[0] - x) < 1e-12}
    return [list(f) for f in b.mesh.inter_element_faces() if set(f) <= on]


def test_rt_split_block_parts_fly_apart_under_opposite_end_loads(outdir):
    sol, bulk, b = block(outdir)
    m0, n0 = b.mass, len(b.conf) // 3
    F = 5.0
    FORCE(b, "SPATIAL", (0.0, A / 2, A / 2), (-1, 0, 0), F)
    FORCE(b, "SPATIAL", (L, A / 2, A / 2), (1, 0, 0), F)
    solver = GAUSS_SEIDEL_SOLVER(1e-8, 100)
    RUN(sol, solver, 20 * STEP)
    faces = layer_faces(b, L / 2)
    assert len(faces) == 4
    q0, u0 = np.array(b.conf).reshape(-1, 3), np.array(b.velo).reshape(-1, 3)
    b2, lst1, lst2 = RT_SPLIT(b, faces, 5, 6, "left", "right")
    assert b2 is not None and b.label == "left" and b2.label == "right"
    parts = (b, b2) if b.center[0] < b2.center[0] else (b2, b)
    for p, lst in ((b, lst1), (b2, lst2)):
        assert np.array_equal(np.array(p.conf).reshape(-1, 3), q0[lst])  # states carried
        assert np.array_equal(np.array(p.velo).reshape(-1, 3), u0[lst])
    assert len(lst1) + len(lst2) == n0 + 9
    assert parts[0].mass == pytest.approx(m0 / 2, rel=1e-12)
    assert parts[1].mass == pytest.approx(m0 / 2, rel=1e-12)
    for p in parts:  # sid1 where the face's outward normal agrees with the listed face's
        cut = sorted(s for nodes, s in _solfec.body_mesh_boundary_faces(p._d, p.id)
                     if s in (5, 6))
        assert len(cut) == 4 and len(set(cut)) == 1
    sids = {p.center[0] < L / 2: _solfec.body_mesh_boundary_faces(p._d, p.id) for p in parts}
    assert {s for _, s in sids[True] if s in (5, 6)} != {s for _, s in sids[False]
                                                           if s in (5, 6)}
    # free parts under their end loads: momentum grows by F t (contact between them, at
    # their touching cut faces while they recoil, is excluded here)
    CONTACT_EXCLUDE_BODIES(parts[0], parts[1])
    P = {p.id: fe_momenta(sol, [p])[0] for p in parts}
    t0 = sol.time
    RUN(sol, solver, 20 * STEP)
    dt = sol.time - t0
    left, right = parts
    assert fe_momenta(sol, [left])[0] == pytest.approx(P[left.id] + [-F * dt, 0, 0], abs=1e-9)
    assert fe_momenta(sol, [right])[0] == pytest.approx(P[right.id] + [F * dt, 0, 0], abs=1e-9)


def test_rt_split_with_faces_leaving_the_mesh_connected_opens_a_slit(outdir):
    sol, bulk, b = block(outdir)
    m0, n0 = b.mass, len(b.conf) // 3
    X = np.array(b.conf).reshape(-1, 3)
    half = [f for f in layer_faces(b, L / 2) if max(X[f][:, 1]) <= A / 2 + 1e-12]
    assert len(half) == 2  # the y < A/2 half of the layer
    old = b.id
    b2, lst1, lst2 = RT_SPLIT(b, half, 5, 6)
    assert b2 is None and lst2 is None and b.id != old and b.label == "block"
    # the half layer's nodes off its front (the line y = A/2, where the elements still join
    # around the node) are doubled: the 3 on y = 0
    assert len(lst1) == n0 + 3
    doubled = sorted({tuple(X[i]) for i in lst1 if lst1.count(i) == 2})
    assert [p[1] for p in doubled] == [0.0] * 3 and all(p[0] == L / 2 for p in doubled)
    assert b.mass == pytest.approx(m0, rel=1e-12)
    cut = [s for _, s in _solfec.body_mesh_boundary_faces(b._d, b.id) if s in (5, 6)]
    assert sorted(cut) == [5, 5, 6, 6]


def test_rt_split_errors(outdir):
    sol, bulk, b = block(outdir)
    with pytest.raises(ValueError, match="No splitting happened"):
        RT_SPLIT(b, [[0, 1, 2]], 1, 2)
    with pytest.raises(ValueError, match="neither 3 nor 4"):
        RT_SPLIT(b, [[0, 1]], 1, 2)
    with pytest.raises((ValueError, TypeError), match="list of lists"):
        RT_SPLIT(b, [1, 2, 3], 1, 2)


READ_DECK = """
import numpy as np
L, A, XC, RATE, STEP = 1.0, 0.1, 0.3, 0.5, 1e-4
sol = SOLFEC('DYNAMIC', STEP, 'out')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol, young=1e6, poisson=0.0, density=1000.0, label='steel')
b = BODY(sol, 'FINITE_ELEMENT', HEX([0,0,0, L,0,0, L,A,0, 0,A,0, 0,0,A, L,0,A, L,A,A, 0,A,A],
         10, 2, 2, 1, [1]*6), bulk, label='bar')
X = np.array(b.conf).reshape(-1, 3)
c = np.array(b.center)
b.velo = [float(v) for x in X for v in (RATE * (x[0] - c[0]), 0.0, 0.0)]
SIMPLIFIED_CRACK(b, (XC, A/2, A/2), (1, 0, 0), (7, 8), 'TENSILE', ft=1e3)
OUTPUT(sol, 5 * STEP)
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 60 * STEP)
print('MODE', sol.mode)
print('BODIES', sorted((x.id, x.label, round(x.mass, 9)) for x in sol.bodies))
if sol.mode == 'WRITE':
    print('TIME', sol.time)
    print('PARTS', sorted((x.id, [round(v, 12) for v in x.conf[:6]]) for x in sol.bodies))
else:
    dur = DURATION(sol)
    th = HISTORY(sol, [(b, (0.1, A/2, A/2), 'DX')], dur[0], dur[1])
    ok = [t for t, v in zip(th[0], th[1]) if np.isfinite(v)]
    print('HIST', len(ok), ok[-1], int(np.isnan(th[1]).sum()), th[0][-1])
    SEEK(sol, dur[1])
    print('LAST', sorted((x.id, x.label, round(x.mass, 9)) for x in sol.bodies))
    print('PARTS', sorted((x.id, [round(v, 12) for v in x.conf[:6]]) for x in sol.bodies))
    SEEK(sol, 0.0)
    print('FIRST', sorted((x.id, x.label) for x in sol.bodies))
"""


def lines(out, key):
    return [ln.split(" ", 1)[1] for ln in out.splitlines() if ln.startswith(key + " ")]


@pytest.mark.parametrize("xc", [0.3, 0.35])  # along element faces; through elements (re-meshed)
def test_read_mode_replays_the_split(run_solfec, xc):
    deck = READ_DECK.replace("XC, RATE, STEP = 1.0, 0.1, 0.3,", f"XC, RATE, STEP = 1.0, 0.1, {xc},")
    w = run_solfec(deck)
    assert w.returncode == 0, w.stderr
    assert lines(w.stdout, "MODE") == ["WRITE"]
    parts = eval(lines(w.stdout, "BODIES")[0])
    assert [p[1] for p in parts] == ["bar/1", "bar/2"]
    assert [p[2] for p in parts] == [pytest.approx(10 * xc), pytest.approx(10 * (1 - xc))]
    r = run_solfec(deck)
    assert r.returncode == 0, r.stderr
    assert lines(r.stdout, "MODE") == ["READ"]
    assert eval(lines(r.stdout, "FIRST")[0]) == [(0, "bar")]
    # the last frame holds the two parts, with the masses and states written
    assert eval(lines(r.stdout, "LAST")[0]) == parts
    assert lines(r.stdout, "PARTS") == lines(w.stdout, "PARTS")
    # the bar's history ends at the split: values in the frames before it, NaN (absent) after
    n, t_last, n_absent, t_end = lines(r.stdout, "HIST")[0].split()
    assert int(n) >= 2 and int(n_absent) >= 2 and float(t_last) < float(t_end)
    assert float(t_end) == pytest.approx(float(lines(w.stdout, "TIME")[0]))


CORPUS = next((c for c in ("/work/shared/solfec1-decks",) if os.path.isdir(c)), None)


@pytest.mark.skipif(CORPUS is None, reason="the Solfec-1.0 corpus is not here")
def test_tetrahedralize_reads_solfec1_mesh_file_and_rt_split_cuts_it_on_a_plane(outdir):
    """inp/devel/runtime-split ships Solfec-1.0's TETRAHEDRALIZE cache of its pipe (msh.c
    MESH_Write: HDF5 + FastLZ): read back it is that pipe (volume of the 8-sided pipe),
    and the faces on its mid plane split it in two halves of equal mass."""
    path = os.path.join(CORPUS, "inp/devel/runtime-split/pipe1.mesh")
    m = TETRAHEDRALIZE(PIPE((4, 0, 0), (0, 0, 2), 0.5, 1, 1, 8, 1, 1, [1] * 6), path)
    assert m.nnod == 32 and len(m.inter_element_faces()) == 64
    sol = SOLFEC("DYNAMIC", STEP, outdir)
    bulk = BULK_MATERIAL(sol, young=E, poisson=0.25, density=RHO)
    b = BODY(sol, "FINITE_ELEMENT", m, bulk, label="pipe")
    # regular octagons of circumradii 0.5 and 1.5 (sector nodes at k 45 deg), height 2
    octagon = lambda r: 2.0 * np.sqrt(2.0) * r * r
    assert b.volume == pytest.approx(2.0 * (octagon(1.5) - octagon(0.5)), rel=1e-12)
    faces = b.mesh.inter_element_faces_on_plane((4.0, 0.0, 0.0), (0, 1, 0))
    assert len(faces) == 4  # two quads (sector boundaries at 0 and 180 deg), 2 triangles each
    b2, lst1, lst2 = RT_SPLIT(b, faces, 1, 2, "a", "b")
    assert b.mass == pytest.approx(b2.mass, rel=1e-12)
    assert b.mass + b2.mass == pytest.approx(RHO * b.volume * 2, rel=1e-12)


def test_split_of_a_mesh_along_its_faces_halves_and_slit():
    """SPLIT of a MESH (Solfec-1.0's inter-element split, inp/splits.py): the 8-sector pipe
    cut by the plane through its axis along two sector boundaries gives two halves of half
    the volume with the cut faces' ids below / above; with topoadj 'ON' only the boundary
    next to the point opens: one mesh with a slit (4 nodes doubled)."""
    def pipe():
        return PIPE((0, 0, 0), (0, 0, 2), 0.5, 1, 1, 8, 1, 1, [1] * 6)
    a, b = SPLIT(pipe(), (1, 0, 0), (0, 1, 0), (2, 3))
    assert a is not None and b is not None
    assert all(a.node(i)[1] <= 1e-12 for i in range(a.nnod))
    assert all(b.node(i)[1] >= -1e-12 for i in range(b.nnod))
    assert a.nnod == b.nnod == 2 * 2 * 5  # 5 node columns of a half, 2 radii x 2 heights
    assert len(a.nodes_on_surface(2)) == 8 and a.nodes_on_surface(3) == []
    assert len(b.nodes_on_surface(3)) == 8 and b.nodes_on_surface(2) == []
    s, none = SPLIT(pipe(), (1, 0, 0), (0, 1, 0), (2, 3), "ON")
    assert none is None and s.nnod == 32 + 4
    assert len(s.nodes_on_surface(2)) == 4 and len(s.nodes_on_surface(3)) == 4
    with pytest.raises(ValueError, match="cuts through 8 elements .* remesh is 'OFF'"):
        SPLIT(pipe(), (0, 0, 1.0), (0, 0, 1), (2, 3), remesh="OFF")


def _cut_faces(mesh, sid):
    """Boundary faces of a MESH object with surface id `sid`: (node coordinates, area)."""
    s = mesh._get("test")
    X = np.array(s.mesh_nodes())
    out = []
    for f, fs in s.mesh_boundary_faces():
        if fs == sid:
            P = X[list(f)]
            a = np.zeros(3)
            for i in range(len(P)):
                a += np.cross(P[i], P[(i + 1) % len(P)])
            out.append((P, 0.5 * np.linalg.norm(a)))
    return out


def test_split_of_a_mesh_through_its_elements_remeshes_both_sides():
    """SPLIT of a MESH by a plane through the middle of an element layer (Solfec-1.0's
    MESH_Split with remesh 'ON'): each side is re-meshed with tetrahedra (TetGen) inside its
    polyhedral boundary, so the volumes are those of the sides exactly (to round-off), the
    cut faces lie on the plane, carry surfid[0] below and surfid[1] above and cover the bar's
    cross-section; the other faces keep their ids. The 8-sector pipe cut across its axis gives
    two halves of half the volume; cut along x = 0.25 its section is two separate strips,
    which topoadj 'ON' refuses (a slit through elements is not provided)."""
    bar = HEX(bar_corners(L, A), 10, 2, 2, 1, [1] * 6)
    x = 0.35
    below, above = SPLIT(bar, (x, A / 2, A / 2), (1, 0, 0), (7, 8))
    for part, width, sid, other in ((below, x, 7, 8), (above, L - x, 8, 7)):
        s = part._get("test")
        assert s.volume() == pytest.approx(width * A * A, rel=1e-12)
        assert {len(n) for n, _ in s.mesh_elements()} == {4}
        cut = _cut_faces(part, sid)
        assert cut and not _cut_faces(part, other)
        assert all(np.abs(P[:, 0] - x).max() < 1e-12 for P, _ in cut)
        assert sum(a for _, a in cut) == pytest.approx(A * A, rel=1e-12)
        assert sum(a for _, a in _cut_faces(part, 1)) == pytest.approx(
            4 * width * A + A * A, rel=1e-12)
    def pipe():
        return PIPE((0, 0, 0), (0, 0, 2), 0.5, 1, 1, 8, 1, 1, [1] * 6)
    v = pipe()._get("test").volume()
    lo, hi = SPLIT(pipe(), (0, 0, 0.7), (0, 0, 1), (2, 3))
    assert lo._get("test").volume() == pytest.approx(0.35 * v, rel=1e-12)
    assert hi._get("test").volume() == pytest.approx(0.65 * v, rel=1e-12)
    # topoadj 'ON', x = 0.25 cuts the ring in two strips: only the one next to the point
    # opens, the ring stays one (slit) mesh of the same volume
    slit, none = SPLIT(pipe(), (0.25, 0.9, 1), (1, 0, 0), (2, 3), "ON")
    assert none is None
    assert slit._get("test").volume() == pytest.approx(v, rel=1e-12)
    lo, hi = SPLIT(pipe(), (0.25, 0.9, 1), (1, 0, 0), (2, 3))  # both strips (the ring's
    strips = sum(a for _, a in _cut_faces(lo, 2))                 # section is symmetric in y)
    for sid in (2, 3):
        cut = _cut_faces(slit, sid)
        assert all(np.abs(P[:, 0] - 0.25).max() < 1e-12 and P[:, 1].min() > 0 for P, _ in cut)
        assert sum(a for _, a in cut) == pytest.approx(strips / 2, rel=1e-12)


def test_a_cracked_body_object_says_where_its_parts_are(outdir):
    sol, bulk, b = fe_bar(outdir)
    SIMPLIFIED_CRACK(b, (XC, A / 2, A / 2), (1, 0, 0), 1, "TENSILE", ft=-1.0)  # at once
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), STEP)
    assert len(sol.bodies) == 2
    with pytest.raises(ValueError, match="cracked and was replaced by its parts"):
        b.mass


RESTART_DECK = """
import numpy as np
L, A, RATE, STEP = 1.0, 0.1, 0.5, 1e-4
steps = int(NON_SOLFEC_ARGV()[0])
sol = SOLFEC('DYNAMIC', STEP, 'out')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol, young=1e6, poisson=0.0, density=1000.0)
b = BODY(sol, 'FINITE_ELEMENT', HEX([0,0,0, L,0,0, L,A,0, 0,A,0, 0,0,A, L,0,A, L,A,A, 0,A,A],
         10, 1, 1, 1, [1]*6), bulk, label='bar')
X = np.array(b.conf).reshape(-1, 3)
c = np.array(b.center)
b.velo = [float(v) for x in X for v in (RATE * (x[0] - c[0]), 0.0, 0.0)]
SIMPLIFIED_CRACK(b, (0.3, A/2, A/2), (1, 0, 0), 7, 'TENSILE', ft=1e3)
SIMPLIFIED_CRACK(b, (0.7, A/2, A/2), (1, 0, 0), 8, 'TENSILE', ft=1.3e3)
OUTPUT(sol, STEP)
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), steps * STEP)
print('STATE', repr(sorted((x.label, [float(v) for v in x.conf]) for x in sol.bodies)))
"""


def test_restart_after_a_split_continues_as_the_uninterrupted_run(run_solfec, tmp_path):
    """solfec -c after a split: the parts come back from the last frame, the parent stays
    gone, and the crack still pending passes to the part it cuts: the continued run ends
    where the uninterrupted one does."""
    whole = run_solfec(RESTART_DECK, args=["60"])
    assert whole.returncode == 0, whole.stderr
    final = eval(lines(whole.stdout, "STATE")[0])
    assert [x[0] for x in final] == ["bar/1", "bar/2/1", "bar/2/2"]  # both cracks fired
    import shutil
    shutil.rmtree(tmp_path / "out")
    first = run_solfec(RESTART_DECK, args=["24"])  # the first crack only (the second: 27)
    assert first.returncode == 0, first.stderr
    assert [x[0] for x in eval(lines(first.stdout, "STATE")[0])] == ["bar/1", "bar/2"]
    cont = run_solfec(RESTART_DECK, options=["-c"], args=["60"])
    assert cont.returncode == 0, cont.stderr
    again = eval(lines(cont.stdout, "STATE")[0])
    assert [x[0] for x in again] == [x[0] for x in final]
    for (_, q1), (_, q2) in zip(final, again):
        assert np.allclose(q1, q2, rtol=0, atol=1e-12)


def ring_of_cubes(sol, bulk):
    """Eight unit cubes around the empty centre of a 3 x 3 square (z in [0, 1]), sharing
    faces: a PSEUDO_RIGID ring."""
    faces = [4, 0, 3, 2, 1, 1, 4, 4, 5, 6, 7, 1, 4, 0, 1, 5, 4, 1, 4, 1, 2, 6, 5, 1,
             4, 2, 3, 7, 6, 1, 4, 3, 0, 4, 7, 1]
    cubes = []
    for i in range(3):
        for j in range(3):
            if (i, j) == (1, 1):
                continue
            v = [i, j, 0, i + 1, j, 0, i + 1, j + 1, 0, i, j + 1, 0,
                 i, j, 1, i + 1, j, 1, i + 1, j + 1, 1, i, j + 1, 1]
            cubes.append(CONVEX(v, faces, 1))
    return BODY(sol, "PSEUDO_RIGID", cubes, bulk, label="ring")


@pytest.mark.parametrize("topoadj, parts", [("OFF", 2), ("ON", 1)])
def test_prb_ring_cut_across_both_sides_or_only_next_to_the_point(outdir, topoadj, parts):
    """The plane x = 1.5 crosses the ring's middle cubes of both sides: topoadj 'OFF' cuts
    both (two halves of 4 cubes' mass), 'ON' only the one next to the point, leaving one
    body with a slit (the whole mass; the cut faces carry the ids)."""
    sol = SOLFEC("DYNAMIC", STEP, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=NU, density=RHO)
    b = ring_of_cubes(sol, bulk)
    SIMPLIFIED_CRACK(b, (1.5, 0.5, 0.5), (1, 0, 0), (4, 5), "TENSILE", topoadj=topoadj,
                     ft=-1.0)  # negative strength: splits after the first step
    OUTPUT(sol, STEP)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 2 * STEP)  # (the second frame holds the parts)
    got = sorted(sol.bodies, key=lambda x: x.center[0])
    assert len(got) == parts and b.id not in [x.id for x in got]
    assert [x.mass for x in got] == [pytest.approx(8 * RHO / parts, rel=1e-12)] * parts
    with results.Results(outdir) as res:
        sids = sorted(s for x in got for _, _, ss, _ in res.shape(x.id)["convexes"] for s in ss
                      if s in (4, 5))
    assert sids == ([4, 4, 5, 5] if parts == 2 else [4, 5])
