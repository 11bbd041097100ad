"""Dynamic validations: the rotating bar of the corotated reduced-order paper (section 8.1:
bounded energy, second-order convergence of DEF_LIM), an elastic bar impacting a wall
against 1D wave theory, a stack of pseudo-rigid blocks coming to rest and the manual
tutorial 5.1 with its pseudo-rigid body."""

import os

import numpy as np
import pytest

import solfec
from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, slab
from fe_decks_for_tests import (assert_bounded_energy, energy_history, rotating_bar,
                                rotating_bar_convergence_errors)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def check_bounded_energy(e0, energies):
    # Kinetic + strain energy oscillates but does not drift (paper fig. 4): measured within
    # [+6.9e-6, +1.6e-4] of E0 = 3.315 J over 10 s (the 100 s run passes the same bounds),
    # and the second half does not exceed the first half's range by more than 1e-4 E0
    # (no secular growth).
    assert_bounded_energy(e0, energies, 1e-3, 1e-4)


def run_bar_energy(outdir, duration):
    return energy_history(*rotating_bar(outdir, 1.0 / 64), duration)


def test_rotating_bar_energy_stays_bounded_over_10_s(tmp_path):
    check_bounded_energy(*run_bar_energy(str(tmp_path / "bar"), 10.0))


@pytest.mark.slow
def test_rotating_bar_energy_stays_bounded_over_100_s(tmp_path):
    check_bounded_energy(*run_bar_energy(str(tmp_path / "bar"), 100.0))


def test_rotating_bar_displacements_converge_at_second_order(tmp_path):
    # As in the paper (fig. 5) the comparison is made at a short time, t = 1/16 s, where the
    # steps h = 1/256 .. 1/2048 resolve the element-level lateral modes (w ~ 600 rad/s);
    # at t = 1 s with h = 1/64 those modes are under-resolved and the observed order is
    # erratic (measured 0.07 .. 3.1). Errors against the h/8 reference: 1.62e-6, 4.50e-7,
    # 1.08e-7 m, observed orders 1.85 and 2.06. (Successive differences |q_h - q_h/2| give
    # 1.78 and 1.70: the error is still slightly pre-asymptotic at these steps.)
    errors = rotating_bar_convergence_errors(tmp_path)
    assert errors[0] > errors[1] > errors[2]
    orders = [np.log2(errors[i] / errors[i + 1]) for i in range(2)]
    for p in orders:
        assert 1.7 <= p <= 2.3


def test_elastic_bar_impact_lasts_2L_over_c_and_rebounds_with_v0(outdir):
    # 1D wave theory for a free bar hitting a rigid wall at v0: constant contact force
    # rho c v0 A during 2L/c, then the bar leaves with -v0 and no vibration. nu = 0 makes
    # the 3D bar one-dimensional up to the discretisation (1 x 1 x 40 HEX8, lumped mass).
    E, RHO, L, a, v0 = 1e6, 1e3, 1.0, 0.1, 1.0
    c = np.sqrt(E / RHO)
    T = 2 * L / c  # 0.0632 s
    h = T / 200
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=0.0, density=RHO)
    SURFACE_MATERIAL(sol, friction=0.0, restitution=0.0)  # rebound from elasticity only
    BODY(sol, "OBSTACLE", slab(), bulk)
    z0 = 0.5 * v0 * h  # touches the wall within the first step
    cc = [0, 0, z0, a, 0, z0, a, a, z0, 0, a, z0,
          0, 0, z0 + L, a, 0, z0 + L, a, a, z0 + L, 0, a, z0 + L]
    b = BODY(sol, "FINITE_ELEMENT", HEX(cc, 1, 1, 40, 1, [1] * 6), bulk)
    b.scheme = "DEF_LIM"
    INITIAL_VELOCITY(b, (0, 0, -v0), (0, 0, 0))
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 1000)
    times, forces = [], []
    while sol.time < 1.6 * T:
        RUN(sol, gs, h)
        times.append(sol.time)
        forces.append(sum(cn.R[2] for cn in b.constraints if cn.kind == "CONTACT"))
    times, forces = np.array(times), np.array(forces)
    on = times[forces > 0]
    duration = on[-1] - on[0] + h
    # Measured +4.0%: the discrete (dispersive) wave front makes the force decay over the
    # last ~5% instead of dropping at once. Tolerance 5%.
    assert duration == pytest.approx(T, rel=0.05)
    # Rebound: mass-weighted (lumped) mean velocity, i.e. momentum / mass; measured
    # 0.98 v0 (the rest stays in bar vibration). Tolerance 5%.
    m = np.array(b.mass)  # total
    vz = np.array(b.velo).reshape(-1, 3)[:, 2]
    X = np.array(b.conf).reshape(-1, 3)
    ends = (np.abs(X[:, 2] - X[:, 2].min()) < 1e-9) | (np.abs(X[:, 2] - X[:, 2].max()) < 1e-9)
    w = np.where(ends, 0.5, 1.0)  # lumped HEX8 masses along a 1 x 1 x n column
    v_mean = (w * vz).sum() / w.sum()
    assert v_mean == pytest.approx(v0, rel=0.05)
    # Impulse = 2 m v0 (momentum reversal), within the same tolerance.
    assert forces.sum() * h == pytest.approx(2 * m * v0, rel=0.05)


def test_stack_of_three_pseudo_rigid_blocks_comes_to_rest(outdir):
    # E = 1e8: self-weight strains <= 3e-4. (With E = 1e6 the released weight sets the
    # stack into a 3-6 cm vertical oscillation that this light damping takes long to remove.)
    sol = SOLFEC("DYNAMIC", 2e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e8, poisson=0.25, density=1e3)
    SURFACE_MATERIAL(sol, friction=0.5, restitution=0.0)
    BODY(sol, "OBSTACLE", slab(), bulk)
    blocks = []
    for k in range(3):
        b = BODY(sol, "PSEUDO_RIGID", box(-0.5, -0.5, k * 1.0 + 1e-3 * (k + 1), 1, 1, 1), bulk)
        b.scheme = "DEF_LIM"
        # Stiffness damping: modal ratio eta w / 2 ~ 0.16 for the stack's vertical mode
        # w ~ sqrt(E A / (L m)) = 316 rad/s.
        b.damping = 1e-3
        blocks.append(b)
    GRAVITY(sol, (0, 0, -10))
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 1000)
    RUN(sol, gs, 1.5)
    z1 = [b.conf[11] for b in blocks]
    RUN(sol, gs, 0.5)
    for k, b in enumerate(blocks):
        assert np.linalg.norm(b.velo) < 1e-4  # at rest (measured ~5e-6 at 2 s)
        assert abs(b.conf[11] - z1[k]) < 1e-5  # no drift over the last 0.5 s
        # No sliding: sideways offsets stay at the contact-noise level (measured 7e-5 m).
        assert abs(b.conf[9]) < 1e-3 and abs(b.conf[10]) < 1e-3
        # Resting on the one below: centre at k + 1/2 less the self-weight compressions
        # (<= 3e-4 per block) and the contact penetrations (measured 0.4999, 1.4994, 2.4991).
        assert b.conf[11] == pytest.approx(k + 0.5, abs=2e-3)
    # The floor carries the three weights.
    floor = sum(c.R[2] for c in blocks[0].constraints
                if c.kind == "CONTACT" and blocks[1] not in c.adjbod)
    assert floor == pytest.approx(3 * 1e3 * 10, rel=1e-3)


def test_tutorial_three_basic_objects_pseudo_rigid_body_is_hit_and_comes_to_rest(tmp_path):
    path = os.path.join(ROOT, "inp", "tutorial", "three-basic-geometric-objects.py")
    src = open(path).read()
    src = src.replace("'out/tutorial/three-basic-geometric-objects'", repr(str(tmp_path / "t")))
    src = src.replace("RUN(solfec, gs, 1.0)", "")
    g = dict(vars(solfec))
    g["__name__"] = "deck"
    exec(compile(src, path, "exec"), g)
    sol, gs = g["solfec"], g["gs"]
    sol.verbose = "OFF"
    pr = [b for b in sol.bodies if b.kind == "PSEUDO_RIGID"][0]
    z0 = pr.conf[11]
    zmax = z0
    for _ in range(10):
        RUN(sol, gs, 0.5)
        zmax = max(zmax, pr.conf[11])
    # The sphere (10 m/s) knocks the pseudo-rigid block up (measured peak +0.7 m); after
    # 5 s it lies on the structure again (measured speed 0.06 m/s at 4 s, decreasing) and
    # stays within the structure's footprint.
    assert zmax > z0 + 0.3
    assert np.linalg.norm(pr.velo[9:12]) < 0.1
    assert 1.0 < pr.conf[11] < 3.0
    assert abs(pr.conf[9]) < 1.0 and abs(pr.conf[10]) < 1.0
    F = np.array(pr.conf[:9]).reshape(3, 3, order="F")
    assert np.linalg.norm(F.T @ F - np.eye(3)) < 0.05  # small strain
