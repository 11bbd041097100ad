"""PUT_SPRING spring-dashpot elements against closed-form answers, with every solver."""

import math

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403

SOLVERS = {
    "GS": lambda: GAUSS_SEIDEL_SOLVER(1e-10, 100, meritval=1e-14),
    "NEWTON": lambda: NEWTON_SOLVER(),
    "PENALTY": lambda: PENALTY_SOLVER(),
}


def model(outdir, h):
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    OUTPUT(sol, 100.0)  # frames are not needed here
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol)
    return sol, bulk


def record(sol, b, T, solver, every=None):
    """Runs for T and returns (t, position, velocity) of the body centre after every step."""
    ts, xs, vs = [0.0], [list(b.conf[9:12])], [list(b.velo[3:6])]

    def cb():
        ts.append(sol.time)
        xs.append(list(b.conf[9:12]))
        vs.append(list(b.velo[3:6]))
    CALLBACK(sol, every or sol.step, (), cb)
    RUN(sol, solver, T)
    return np.array(ts), np.array(xs), np.array(vs)


def upward_crossings(t, z):
    i = np.where((z[:-1] < 0) & (z[1:] >= 0))[0]
    return t[i] + (t[i + 1] - t[i]) * (-z[i]) / (z[i + 1] - z[i])


def oscillator(outdir, h, k_over_m, c_over_m=0.0, T=2.0, solver="GS", v0=0.1, flipped=False):
    """A ball hanging from a fixed point 1 m above it on a follower spring (no gravity),
    started with velocity v0 along the spring. Returns t, z, vz, m, k, c, constraint."""
    sol, bulk = model(outdir, h)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    m = b.mass
    k, c = k_over_m * m, c_over_m * m
    f = lambda s, v: -k * s - c * v  # noqa: E731
    if flipped:
        con = PUT_SPRING(b, (0, 0, 0), None, (0, 0, 1), f)
    else:
        con = PUT_SPRING(None, (0, 0, 1), b, (0, 0, 0), f)
    INITIAL_VELOCITY(b, (0, 0, v0), (0, 0, 0))
    t, x, v = record(sol, b, T, SOLVERS[solver]())
    return t, x[:, 2], v[:, 2], m, k, c, con


@pytest.mark.parametrize("solver", ["GS", "NEWTON", "PENALTY"])
def test_linear_spring_oscillates_with_period_2pi_sqrt_m_over_k(outdir, solver):
    # T0 = 0.5 s, 200 steps a period: the implicit midpoint rule lengthens the period by
    # (w h)^2 / 12 = 8e-5, far inside 0.5%; 4 periods are measured.
    T0 = 0.5
    w = 2 * math.pi / T0
    t, z, vz, m, k, c, con = oscillator(outdir, T0 / 200, w * w, T=4.2 * T0, solver=solver)
    cross = upward_crossings(t, z)
    assert len(cross) >= 4
    period = np.diff(cross).mean()
    assert period == pytest.approx(T0, rel=5e-3)
    # amplitude v0 / w: no numerical damping
    assert np.abs(z).max() == pytest.approx(0.1 / w, rel=1e-3)
    assert con.kind == "SPRING"


@pytest.mark.parametrize("solver", ["GS", "NEWTON", "PENALTY"])
def test_undamped_spring_conserves_energy(outdir, solver):
    # E = m v^2/2 + k s^2/2 with the stroke s = -z (the anchor is above); the implicit
    # midpoint spring conserves it up to the solver tolerance (1% asked).
    T0 = 0.5
    w = 2 * math.pi / T0
    t, z, vz, m, k, c, con = oscillator(outdir, T0 / 50, w * w, T=3 * T0, solver=solver)
    E = 0.5 * m * vz ** 2 + 0.5 * k * z ** 2
    assert np.abs(E / E[0] - 1).max() < 1e-2
    assert np.abs(E / E[0] - 1).max() < 1e-6  # measured: round-off level for GS


def test_dashpot_amplitude_decays_as_exp_minus_c_t_over_2m(outdir):
    # zeta = c / (2 m w) = 0.05: peaks of z(t) = A exp(-c t / 2m) sin(w_d t) shrink by
    # exp(-c T_d / 2m) a period; the decay rate fitted over 4 periods is within 2%.
    T0 = 0.5
    w = 2 * math.pi / T0
    c_over_m = 2 * 0.05 * w
    t, z, vz, m, k, c, con = oscillator(outdir, T0 / 200, w * w, c_over_m, T=4.3 * T0)
    i = np.where((z[1:-1] > z[:-2]) & (z[1:-1] >= z[2:]))[0] + 1
    assert len(i) >= 4
    rate = -np.polyfit(t[i], np.log(z[i]), 1)[0]
    assert rate == pytest.approx(c / (2 * m), rel=2e-2)


def test_stiff_spring_stays_stable(outdir):
    # k h^2 / m = 100 (w h = 10, an explicit scheme would need w h < 2): bounded motion and
    # energy conserved to 1% over 300 steps.
    h = 1e-3
    t, z, vz, m, k, c, con = oscillator(outdir, h, 100 / h ** 2, T=300 * h)
    E = 0.5 * m * vz ** 2 + 0.5 * k * z ** 2
    assert np.all(np.isfinite(E))
    assert np.abs(E / E[0] - 1).max() < 1e-2


def test_spring_on_body1_with_fixed_point2_matches_the_mirrored_setup(outdir, tmp_path):
    # The same spring given as (body, None) or (None, body) moves the body identically and
    # reports the same R_N (force > 0 increases the stroke) and stroke.
    T0 = 0.5
    w = 2 * math.pi / T0
    a = oscillator(str(tmp_path / "a"), T0 / 100, w * w, T=0.3 * T0)
    b = oscillator(str(tmp_path / "b"), T0 / 100, w * w, T=0.3 * T0, flipped=True)
    assert np.abs(a[1] - b[1]).max() < 1e-12
    Ra, Rb = a[6].R, b[6].R
    assert Ra[2] == pytest.approx(Rb[2], rel=1e-10)
    assert a[6].stroke == pytest.approx(b[6].stroke, rel=1e-10)
    assert len(a[6].point) == 6


def test_cubic_spring_static_deflection_solves_f_plus_mg_zero(outdir):
    # f(s, v) = -k s - k3 s^3 - c v with a heavy dashpot (zeta ~ 0.7) hanging under gravity:
    # the rest stroke is the root of k s + k3 s^3 = m g; R_N = -m g (the spring pulls).
    g = 9.81
    sol, bulk = model(outdir, 1e-3)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    m = b.mass
    w = 10.0
    k, k3, c = m * w * w, m * w * w / 0.0025, 2 * 0.7 * m * w
    con = PUT_SPRING(None, (0, 0, 1), b, (0, 0, 0), lambda s, v: -k * s - k3 * s ** 3 - c * v)
    GRAVITY(sol, (0, 0, -g))
    RUN(sol, SOLVERS["GS"](), 3.0)
    roots = np.roots([k3, 0.0, k, -m * g])
    s_exact = float(roots[np.abs(roots.imag) < 1e-12].real[0])
    assert s_exact < 0.8 * m * g / k  # the cubic term matters (linear answer is 25% larger)
    s = -b.conf[11]
    # settled: exp(-0.7 * 10 * 3) ~ 1e-9 of the initial 0.07 m
    assert s == pytest.approx(s_exact, rel=1e-6)
    assert con.stroke == pytest.approx(s_exact, rel=1e-6)
    assert con.R[2] == pytest.approx(-m * g, rel=1e-6)


def test_spring_between_two_rigid_bodies_conserves_linear_momentum(outdir):
    # Off-centre attachment points (so the bodies also spin) and a nonlinear spring-dashpot:
    # internal forces only, so m1 v1 + m2 v2 stays constant to round-off.
    sol, bulk = model(outdir, 2e-3)
    b1 = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    b2 = BODY(sol, "RIGID", SPHERE((1, 0.2, 0.1), 0.15, 1, 1), bulk)
    rng = np.random.default_rng(6)
    INITIAL_VELOCITY(b1, tuple(rng.normal(size=3)), tuple(rng.normal(size=3)))
    INITIAL_VELOCITY(b2, tuple(rng.normal(size=3)), tuple(rng.normal(size=3)))
    k = 50.0 * b1.mass
    con = PUT_SPRING(b1, (0.05, 0.05, 0), b2, (0.9, 0.2, 0.1),
                     lambda s, v: -k * s - 10 * k * s ** 3 - 0.5 * v)
    p0 = b1.mass * np.array(b1.velo[3:6]) + b2.mass * np.array(b2.velo[3:6])
    for name in ("GS", "NEWTON", "PENALTY"):
        RUN(sol, SOLVERS[name](), 0.5)
        p = b1.mass * np.array(b1.velo[3:6]) + b2.mass * np.array(b2.velo[3:6])
        assert np.abs(p - p0).max() < 1e-10 * np.abs(p0).max()
    # the spring did act (measured: stroke ~0.13 m, R_N ~ -30 N at the end)
    assert abs(con.stroke) > 1e-2 and abs(con.R[2]) > 1.0


def test_fixed_direction_spring_acts_only_along_its_direction(outdir):
    # direction (0,0,1): the stroke is the change of (x1 - x2) . e_z (Solfec-1.0), so sliding
    # along x (uniform, v_x = 0.3) does not load the spring, which still oscillates along z.
    T0 = 0.5
    w = 2 * math.pi / T0
    sol, bulk = model(outdir, T0 / 200)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    k = b.mass * w * w
    con = PUT_SPRING(None, (0, 0, 1), b, (0, 0, 0), lambda s, v: -k * s, direction=(0, 0, 2))
    INITIAL_VELOCITY(b, (0.3, 0, 0.1), (0, 0, 0))
    t, x, v = record(sol, b, 2.1 * T0, SOLVERS["GS"]())
    assert np.abs(x[:, 0] - 0.3 * t).max() < 1e-10
    period = np.diff(upward_crossings(t, x[:, 2])).mean()
    assert period == pytest.approx(T0, rel=5e-3)
    # base is row-major: column N = (base[2], base[5], base[8]), the axis along which the
    # stroke grows, U_N = ds/dt: -direction for a spring with both bodies or body2 only
    assert con.base[2::3] == pytest.approx((0, 0, -1))
    # stroke = (x1 - x2) . e_z - L0 = (1 - z) - 1 = -z at the middle of the last step
    zm = x[-1, 2] - 0.5 * sol.step * v[-1, 2]
    assert con.stroke == pytest.approx(-zm, abs=1e-9)


def test_convected_direction_turns_with_the_body(outdir):
    # A zero-force spring on a body spinning about z at 1 rad/s with direction (1,0,0) and
    # update 'CONV1': after t the axis is (cos t, sin t, 0); with 'FIXED' it stays put.
    sol, bulk = model(outdir, 1e-3)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    INITIAL_VELOCITY(b, (0, 0, 0), (0, 0, 1.0))
    conv = PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), lambda s, v: 0.0, direction=(1, 0, 0),
                      update="CONV1")
    fixed = PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), lambda s, v: 0.0, direction=(1, 0, 0))
    RUN(sol, SOLVERS["GS"](), 0.5)
    tm = sol.time - 0.5e-3  # the axis is updated at the middle of the last step

    # base is row-major, column N = base[2::3]; the stroke axis is -direction and a spring
    # whose only body is body1 stores it flipped once more (U = base^T v1), so N = direction.
    n_conv, n_fixed = np.array(conv.base[2::3]), np.array(fixed.base[2::3])
    assert n_conv == pytest.approx((math.cos(tm), math.sin(tm), 0), abs=1e-9)
    assert n_fixed == pytest.approx((1, 0, 0), abs=1e-12)


def test_put_spring_argument_errors(outdir):
    sol, bulk = model(outdir, 1e-3)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    f = lambda s, v: -s  # noqa: E731
    with pytest.raises(ValueError, match="both 'body1' and 'body2' are None"):
        PUT_SPRING(None, (0, 0, 0), None, (1, 0, 0), f)
    with pytest.raises(TypeError, match="'function' must be callable"):
        PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), 3.0)
    with pytest.raises(TypeError, match="two arguments"):
        PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), lambda s: -s)
    with pytest.raises(TypeError, match="must return a number"):
        PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), lambda s, v: "x")
    with pytest.raises(ValueError, match="smin < smax"):
        PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), f, (0.1, -0.1))
    with pytest.raises(ValueError, match="needs 'direction'"):
        PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), f, update="CONV1")
    with pytest.raises(ValueError, match="unknown value 'CONV3'"):
        PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), f, direction=(1, 0, 0), update="CONV3")
    with pytest.raises(ValueError, match="None"):
        PUT_SPRING(None, (0, 0, 0), b, (1, 0, 0), f, direction=(1, 0, 0), update="CONV1")
    with pytest.raises(ValueError, match="same body"):
        PUT_SPRING(b, (0, 0, 0), b, (1, 0, 0), f)
    # unlimited limits are accepted
    con = PUT_SPRING(b, (0, 0, 0), None, (1, 0, 0), f, (-math.inf, math.inf))
    assert con.kind == "SPRING"


def test_spring_function_error_during_run_is_reported(outdir):
    sol, bulk = model(outdir, 1e-3)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    INITIAL_VELOCITY(b, (0, 0, 1), (0, 0, 0))
    PUT_SPRING(b, (0, 0, 0), None, (0, 0, 1), lambda s, v: None if abs(s) > 0.005 else -s)
    with pytest.raises(TypeError, match="PUT_SPRING: the spring function returned NoneType"):
        RUN(sol, SOLVERS["GS"](), 0.1)


def pulled_pair(outdir, solver, F_over_m, lo, hi, release=None):
    """Two free balls 1 m apart on a follower spring f = -k s - c v (k/m = 100, c/m = 2) with
    stroke limits (lo, hi), pulled apart (F > 0) or pushed together (F < 0) by equal and
    opposite forces F on the spring's line; the forces stop at t = release (if given).
    Runs 1 s with h = 1 ms; returns (strokes after every step, final relative velocity,
    spring reaction R_N, m, k)."""
    h = 1e-3
    sol, bulk = model(outdir, h)
    a = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    b = BODY(sol, "RIGID", SPHERE((1, 0, 0), 0.1, 1, 1), bulk)
    m = a.mass
    k, c, F = 100.0 * m, 2.0 * m, F_over_m * m
    con = PUT_SPRING(a, (0, 0, 0), b, (1, 0, 0), lambda s, v: -k * s - c * v, (lo, hi))
    if release is None:
        FORCE(b, "SPATIAL", (1, 0, 0), (1, 0, 0), F)
        FORCE(a, "SPATIAL", (0, 0, 0), (-1, 0, 0), F)
    else:
        FORCE(b, "SPATIAL", (1, 0, 0), (1, 0, 0), lambda q, u, t, step: _push(F, t, release))
        FORCE(a, "SPATIAL", (0, 0, 0), (-1, 0, 0), lambda q, u, t, step: _push(-F, t, release))
    strokes = []
    CALLBACK(sol, h, (), lambda: strokes.append(b.conf[9] - a.conf[9] - 1.0) or 1)
    RUN(sol, SOLVERS[solver](), 1.0)
    return np.array(strokes), b.velo[3] - a.velo[3], con.R[2], m, k


def _push(F, t, release):
    # rigid-body FORCE callback: the generalized force (spatial force along x, spatial
    # torque, referential torque)
    return (F if t < release else 0.0, 0, 0, 0, 0, 0, 0, 0, 0)


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@pytest.mark.parametrize("F_over_m", [10.0, -10.0])
def test_spring_limits_stop_the_stroke_and_carry_the_excess_force(outdir, solver, F_over_m):
    # Solfec-1.0 PUT_SPRING limits: rigid stops on the stroke. k/m * hi = 3 and k/m * |lo| = 2
    # are below F/m = 10, so the spring alone cannot hold the pair: the stroke must stop at
    # hi (pulled) or lo (pushed) with no relative velocity, and the constraint reaction
    # (spring force plus stop force) must balance the applied force exactly: R_N = -F.
    lo, hi = -0.02, 0.03
    s, v, R, m, k = pulled_pair(outdir, solver, F_over_m, lo, hi)
    F = F_over_m * m
    limit = hi if F > 0 else lo
    # the stop is reached after ~0.1 s (free relative motion at 2F/m) and is perfectly
    # plastic (held error and velocity vanish within two steps): at rest well before 1 s;
    # the Newton solver stops at its own tolerance, hence the looser bounds
    tol = 1e-8 if solver == "NEWTON" else 1e-12
    assert s[-1] == pytest.approx(limit, abs=tol)
    assert abs(v) < 1e-8
    assert R == pytest.approx(-F, rel=1e-8)
    # the stop force (R minus the spring force -k s) is the part the spring cannot carry
    assert R - (-k * s[-1]) == pytest.approx(-(F - k * limit), rel=1e-7)
    # the stroke never goes beyond the stop by more than the impact allowance h |V| / 4
    # (|V| <= 2 |F|/m * 0.2 s = 4 m/s here, so 1 mm) and stays on its side after rest
    assert np.all(s <= hi + 1e-3) and np.all(s >= lo - 1e-3)
    assert np.all(np.abs(s[-500:] - limit) < 10 * tol)


def test_spring_limit_releases_when_the_load_is_removed(outdir):
    # The stop only pulls inwards at hi: once the force is removed at t = 0.5 s the spring's
    # tension -k hi takes the pair back inside (a free damped oscillation about s = 0).
    lo, hi = -0.02, 0.03
    s, v, R, m, k = pulled_pair(outdir, "GS", 10.0, lo, hi, release=0.5)
    assert s[490] == pytest.approx(hi, abs=1e-12)  # held before the release
    after = s[520:]
    assert after.max() < hi - 1e-3  # left the stop
    # inside the limits the motion is the spring's own: s'' = -2 (k s + c s')/m (reduced
    # mass m/2), w0 = sqrt(200) /s, damping ratio z = 2 / w0; released from rest at hi it
    # swings to -hi exp(-pi z / sqrt(1 - z^2)) = -0.01916 (inside lo = -0.02); 1e-3 relative
    # covers the 1 ms step (w0 h = 0.014) and the release happening at a step boundary
    w0 = math.sqrt(200.0)
    z = 2.0 / w0
    assert after.min() == pytest.approx(-hi * math.exp(-math.pi * z / math.sqrt(1 - z * z)),
                                        rel=1e-3)


def test_quasi_static_cubic_spring_settles_at_the_root_of_f_plus_mg(outdir):
    # QUASI_STATIC: q(t+h) = q(t) + h u with no inertia memory; the spring row acts at the
    # end-of-step stroke, so the rest stroke solves k s + k3 s^3 = m g (no dashpot needed).
    g = 9.81
    sol = SOLFEC("QUASI_STATIC", 0.1, outdir)
    sol.verbose = "OFF"
    OUTPUT(sol, 100.0)
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    m = b.mass
    k, k3 = m * 100.0, m * 100.0 / 0.0025
    con = PUT_SPRING(None, (0, 0, 1), b, (0, 0, 0), lambda s, v: -k * s - k3 * s ** 3)
    GRAVITY(sol, (0, 0, -g))
    RUN(sol, SOLVERS["GS"](), 6.0)
    roots = np.roots([k3, 0.0, k, -m * g])
    s_exact = float(roots[np.abs(roots.imag) < 1e-12].real[0])
    # regularised Newton on the tangent stiffness k_t: the error contracts by about
    # m / (m + k_t h^2) a step (0.2 measured), so 60 steps leave round-off
    assert -b.conf[11] == pytest.approx(s_exact, rel=1e-8)
    assert con.R[2] == pytest.approx(-m * g, rel=1e-8)


@pytest.mark.parametrize("solver", sorted(SOLVERS))
def test_parallel_springs_share_a_held_stop(outdir, solver):
    # A ball pulled down by gravity (m g = 3 times what the springs carry at the stop) hangs
    # from two fixed points 1 m above by two parallel springs with 'FIXED' direction
    # (0, 0, 1): stroke (x1 - x2) . e_z - L0 = z (body1 is the ball), limits (-lim, 1): two
    # redundant stop rows on one motion. It must rest at stroke -lim (z = -lim), the two
    # reactions (spring plus stop, pushing the ball up: R_N > 0) summing to m g.
    h = 1e-3
    sol, bulk = model(outdir, h)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)
    m, g, lim = b.mass, 10.0, 0.03
    k = m * g / (2 * 3.0 * lim)  # 2 k lim = m g / 3
    f = lambda s, v: -k * s - 0.5 * m * v  # noqa: E731
    cons = [PUT_SPRING(b, (x, 0, 0), None, (x, 0, 1), f, (-lim, 1.0), (0, 0, 1))
            for x in (-0.05, 0.05)]
    GRAVITY(sol, (0, 0, -g))
    RUN(sol, SOLVERS[solver](), 1.0)
    tol = 1e-8 if solver == "NEWTON" else 1e-12
    assert b.conf[11] == pytest.approx(-lim, abs=tol)
    assert abs(b.velo[5]) < 1e-7
    assert sum(c.R[2] for c in cons) == pytest.approx(m * g, rel=1e-7)
    assert all(c.stroke == pytest.approx(-lim, abs=1e-7) for c in cons)
