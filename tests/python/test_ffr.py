"""Floating frame of reference (BODY form 'FFR'): the examples of Lozovskiy & Dubois 2016,
section 4.1 (spinning cuboid, rigid trajectory t + sin(w t)) and 4.2 (three stacked
cuboids on a shaking base, FFR against TL), plus deck-level checks of the form."""

import math

import pytest

from solfec import *  # noqa: F401,F403
from ffr_decks import (base_displacement, box_corners, rigid_dx, spinning_cuboid,
                       stacked_cuboids, stone)


def max_relative_error(times, dx, w):
    """max |dx - (t + sin w t)| / max |t + sin w t| over the samples."""
    ref = [rigid_dx(t, w) for t in times]
    return max(abs(a - b) for a, b in zip(dx, ref)) / max(abs(r) for r in ref)


@pytest.mark.parametrize("w", [1.0, 4 * math.pi])
def test_spinning_cuboid_follows_the_rigid_trajectory_short(tmp_path, w):
    # Paper 4.1 with the paper's mesh (4 x 4 x 8) and step (1e-4) over T = 0.25 s (a full
    # turn for w = 4 pi). The frame moves exactly rigidly (no contact); the point (0,0,1)
    # deviates only by the centrifugal stretch ~ rho w^2 L^2 / E ~ 1e-5 m: the paper's 1%
    # criterion is met with a large margin (measured: 3e-7 relative for w = 4 pi).
    times, dx, _ = spinning_cuboid(str(tmp_path / "out"), "FFR", w, 1e-4, 0.25, samples=10)
    assert max_relative_error(times, dx, w) < 0.01
    assert max_relative_error(times, dx, w) < 1e-4  # well inside: a stiff, exact frame


@pytest.mark.slow
@pytest.mark.parametrize("w", [1.0, 4 * math.pi])
def test_spinning_cuboid_follows_the_rigid_trajectory_full(tmp_path, w):
    # Paper 4.1 as published: h = 1e-4, T = 1 (1e4 steps), 1% criterion.
    times, dx, _ = spinning_cuboid(str(tmp_path / "out"), "FFR", w, 1e-4, 1.0, samples=40)
    assert max_relative_error(times, dx, w) < 0.01


def test_ffr_body_state_layout_and_energy(tmp_path):
    # conf = [x_C, O (9), psi (3N)], velo = [v_C, Omega (referential), lambda (3N)]; a
    # rigid spin has kinetic energy 1/2 m v^2 + 1/2 w J_yy w with the lumped J of the mesh
    # (4 x 4 x 8 HEX8 on 1 x 1 x 2: J_yy = sum m_a (x_a^2 + z_a^2), computed here).
    sol = SOLFEC("DYNAMIC", 1e-3, str(tmp_path / "out"))
    sol.verbose = "OFF"
    b = BODY(sol, "FINITE_ELEMENT",
             HEX(box_corners((-0.5, -0.5, -1), (0.5, 0.5, 1)), 2, 2, 4, 1, [1] * 6),
             stone(sol), form="FFR")
    INITIAL_VELOCITY(b, (1, 0, 0), (0, 2, 0))
    n = 3 * 3 * 5
    assert len(b.conf) == 12 + 3 * n and len(b.velo) == 6 + 3 * n
    assert b.conf[3:12] == (1, 0, 0, 0, 1, 0, 0, 0, 1)
    assert b.velo[:6] == (1, 0, 0, 0, 2, 0)
    # lumped masses of a 2 x 2 x 4 HEX8 grid on 1 x 1 x 2: rho dV / 8 per element corner
    m = 2500.0 * 2.0
    dv = 0.5 * 0.5 * 0.5
    J = 0.0
    for i in range(3):
        for j in range(3):
            for k in range(5):
                w = 1.0
                for c, last in ((i, 2), (j, 2), (k, 4)):
                    w *= 0.5 if c in (0, last) else 1.0
                x, z = -0.5 + 0.5 * i, -1 + 0.5 * k
                J += 2500.0 * dv * w * (x * x + z * z)
    kinetic = ENERGY(sol, b)[0]
    assert kinetic == pytest.approx(0.5 * m + 0.5 * J * 4.0, rel=1e-12)


def test_ffr_spin_conserves_energy_and_keeps_output_readable(tmp_path):
    # A tumbling spin (off principal axes) of a soft cuboid for 0.2 s at h = 1e-3: kinetic
    # plus internal energy stays within 1e-3 of its initial value (RIG_IMP frame rotation is
    # energy conserving; the centrifugal loading exchanges a tiny amount with the elastic
    # part), and a READ of the output restores conf (the shape is rebuilt from it).
    out = str(tmp_path / "out")
    sol, b = soft_ffr_cuboid(out)
    INITIAL_VELOCITY(b, (0, 0, 0), (1, 2, 0.5))
    e0 = sum(ENERGY(sol, b)[:2])
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.2)
    e1 = sum(ENERGY(sol, b)[:2])
    assert abs(e1 / e0 - 1) < 1e-3
    conf = b.conf
    assert max(abs(c) for c in conf[12:]) > 0.0  # it deformed
    point = DISPLACEMENT(b, (0.5, 0.5, 1))
    sol2, b2 = soft_ffr_cuboid(out)
    assert sol2.mode == "READ"
    SEEK(sol2, 0.2)
    assert b2.conf == pytest.approx(conf, abs=1e-12)
    assert DISPLACEMENT(b2, (0.5, 0.5, 1)) == pytest.approx(point, abs=1e-12)


def test_ffr_rejects_explicit_scheme(tmp_path):
    sol = SOLFEC("DYNAMIC", 1e-3, str(tmp_path / "out"))
    sol.verbose = "OFF"
    b = BODY(sol, "FINITE_ELEMENT",
             HEX(box_corners((0, 0, 0), (1, 1, 1)), 1, 1, 1, 1, [1] * 6), stone(sol),
             form="FFR")
    b.scheme = "DEF_EXP"
    with pytest.raises(ValueError, match="FFR"):
        RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 1e-3)


def relative_difference(a, b):
    """max |a - b| / max |b| over the samples."""
    return max(abs(x - y) for x, y in zip(a, b)) / max(abs(y) for y in b)


def paper_error(times, ffr, tl):
    """The paper's measure (section 4.2, fig. 7): relative L2 difference of the absolute mean
    x displacement of the top face (base displacement added back) over the history."""
    a = [d + base_displacement(t) for t, d in zip(times, ffr)]
    b = [d + base_displacement(t) for t, d in zip(times, tl)]
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)) / sum(y * y for y in b))


def test_stacked_cuboids_ffr_agrees_with_tl_short(tmp_path):
    # Paper 4.2, short CI variant: coarse meshes (2 x 2 x 4), h = 1e-3 over T = 0.6 s (the
    # base starts at 0.1 s). Relative to the base the top face first lags behind (~ -6 cm at
    # 0.4 s), then catches up when the base decelerates. FFR follows TL within a few percent
    # (measured: 1.5% in the paper's absolute L2 measure, the paper has 2.1%; 5.1% of the peak
    # lag in the max norm of the relative curves, where the difference is largest when the
    # curves cross zero at the end).
    T, h = 0.6, 1e-3
    tf, df, _ = stacked_cuboids(str(tmp_path / "ffr"), "FFR", h, T, samples=12)
    tt, dt, _ = stacked_cuboids(str(tmp_path / "tl"), "TL", h, T, samples=12)
    print("FFR", df, "TL", dt, paper_error(tf, df, dt), relative_difference(df, dt))
    assert min(dt) < -0.03 and min(df) < -0.03  # the stack lags behind the base
    assert paper_error(tf, df, dt) < 0.03
    assert relative_difference(df, dt) < 0.10



def ffr_cuboid(sol, mat, n=(2, 2, 4)):
    """The 1 x 1 x 2 cuboid centred at 0 (surface ids: 1 z-min ... 6 z-max, HEX order)."""
    return BODY(sol, "FINITE_ELEMENT",
                HEX(box_corners((-0.5, -0.5, -1), (0.5, 0.5, 1)), *n, 1, [1, 2, 3, 4, 5, 6]),
                mat, form="FFR")


def soft_ffr_cuboid(outdir):
    """(sol, body): the cuboid with E = 1e8 (visible deformation), h = 1e-3."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    soft = BULK_MATERIAL(sol, young=1e8, poisson=0.2, density=2500.0)
    return sol, ffr_cuboid(sol, soft)


@pytest.mark.parametrize("density", [2500.0, 5000.0])
def test_ffr_pressure_on_one_face_accelerates_the_mass_centre_by_p_a_over_m(tmp_path, density):
    # p = 1e4 Pa on the top face (area 1 m^2) of a free stone cuboid (E = 35 GPa: strains of
    # 3e-7, so the follower face area stays 1 to ~1e-6): v_C(T) = -p A T / m along z, and no
    # spin by symmetry. APPLY_BULKMAT with twice the density halves the acceleration (it
    # rebuilds the lumped masses and the frame of the FFR body).
    sol = SOLFEC("DYNAMIC", 1e-3, str(tmp_path / "out"))
    sol.verbose = "OFF"
    b = ffr_cuboid(sol, stone(sol))
    if density != 2500.0:
        APPLY_BULKMAT(sol, b, 1, BULK_MATERIAL(sol, young=35e9, poisson=0.2, density=density))
    assert b.mass == pytest.approx(2 * density, rel=1e-12)
    PRESSURE(b, 6, -1e4)  # pushes the top face down
    T = 0.1
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), T)
    v = b.velo
    assert v[2] == pytest.approx(-1e4 * T / (2 * density), rel=1e-5)
    assert max(abs(v[0]), abs(v[1])) < 1e-9 and max(abs(w) for w in v[3:6]) < 1e-9


def test_ffr_stress_of_a_rotated_cuboid_compressed_by_end_pressures(tmp_path):
    # Equal pressures p on both end faces (no net force) of a cuboid turned by 90 degrees
    # about x (its long axis along -y): QUASI_STATIC reaches the uniform uniaxial state whose
    # spatial Cauchy stress is syy = -p, the other components 0. STRESS takes F = O (I +
    # grad psi) of the FFR body; the SVK stress of that F equals the FFR's linear stress
    # rotated by O up to O(strain) = 3e-6 relative. Tolerance 1e-3 p (QUASI_STATIC steps).
    p = 1e5
    sol = SOLFEC("QUASI_STATIC", 1e-2, str(tmp_path / "out"))
    sol.verbose = "OFF"
    b = ffr_cuboid(sol, stone(sol))
    conf = list(b.conf)
    conf[3:12] = [1, 0, 0, 0, 0, 1, 0, -1, 0]  # O = R_x(90 deg), column-wise
    b.conf = conf
    PRESSURE(b, 1, -p)  # both ends pushed in
    PRESSURE(b, 6, -p)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.5)
    sx, sy, sz, sxy, sxz, syz, mises = STRESS(b, (0.1, 0.2, 0.3))
    print(f"FFR stress: {sx:.4e} {sy:.4e} {sz:.4e} {sxy:.3e} {sxz:.3e} {syz:.3e}")
    assert sy == pytest.approx(-p, rel=1e-3)
    assert max(abs(sx), abs(sz), abs(sxy), abs(sxz), abs(syz)) < 1e-3 * p
    assert mises == pytest.approx(p, rel=1e-3)


def test_ffr_history_of_points_in_read_mode_matches_the_run(tmp_path):
    # A tumbling soft cuboid: HISTORY of a corner's displacement and velocity read from the
    # file (nodes rebuilt from q = [x_C, O, psi], u = [v_C, Omega, lambda]) equals the live
    # DISPLACEMENT / VELOCITY at the same times to round-off.
    out = str(tmp_path / "out")
    sol, b = soft_ffr_cuboid(out)
    INITIAL_VELOCITY(b, (0.3, 0, 0), (1, 2, 0.5))
    OUTPUT(sol, 0.05)
    live = []
    for _ in range(4):
        RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.05)
        live.append((sol.time, DISPLACEMENT(b, (0.5, 0.5, 1)), VELOCITY(b, (0.5, 0.5, 1))))
    sol2, b2 = soft_ffr_cuboid(out)
    assert sol2.mode == "READ"
    h = HISTORY(sol2, [(b2, (0.5, 0.5, 1), e) for e in ("DX", "DY", "DZ", "VX", "VY", "VZ")])
    for t, d, v in live:
        k = min(range(len(h[0])), key=lambda i: abs(h[0][i] - t))
        assert h[0][k] == pytest.approx(t, abs=1e-9)
        got = [h[j][k] for j in range(1, 7)]
        assert got == pytest.approx(list(d) + list(v), abs=1e-10)
    assert max(abs(x) for x in live[-1][1]) > 0.05  # it moved: the check is not vacuous
