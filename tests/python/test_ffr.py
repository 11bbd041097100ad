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
    sol = SOLFEC("DYNAMIC", 1e-3, out)
    sol.verbose = "OFF"
    soft = BULK_MATERIAL(sol, young=1e8, poisson=0.2, density=2500.0)
    b = BODY(sol, "FINITE_ELEMENT",
             HEX(box_corners((-0.5, -0.5, -1), (0.5, 0.5, 1)), 2, 2, 4, 1, [1] * 6),
             soft, form="FFR")
    INITIAL_VELOCITY(b, (0, 0, 0), (1, 2, 0.5))
    e0 = sum(ENERGY(sol, b)[:2])
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.2)
    e1 = sum(ENERGY(sol, b)[:2])
    assert abs(e1 / e0 - 1) < 1e-3
    conf = b.conf
    assert max(abs(c) for c in conf[12:]) > 0.0  # it deformed
    point = DISPLACEMENT(b, (0.5, 0.5, 1))
    sol2 = SOLFEC("DYNAMIC", 1e-3, out)
    sol2.verbose = "OFF"
    soft2 = BULK_MATERIAL(sol2, young=1e8, poisson=0.2, density=2500.0)
    b2 = BODY(sol2, "FINITE_ELEMENT",
              HEX(box_corners((-0.5, -0.5, -1), (0.5, 0.5, 1)), 2, 2, 4, 1, [1] * 6),
              soft2, form="FFR")
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

