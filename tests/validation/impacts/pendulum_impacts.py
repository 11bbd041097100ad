"""Impacts with links against the impact law of the manual (Newton restitution on the normal
relative velocity at the contact point, frictionless here) and Solfec-1.0's double pendulum.

Balls of radius 0.05 m, mass 1 kg and unit inertia (BODY_CHARS) on massless rigid links
(PUT_RIGID_LINK) of length 1 m from the pivot (0, 0, 2); a wall (OBSTACLE) with its face at
x = -0.05, so the hanging balls touch it; gravity 9.81, SIGNORINI_COULOMB friction 0,
restitution e. Solfec-1.0's tests/double-pendulum.py: ball 1 at 60 degrees, ball 2 at 36
degrees from the vertical, released at rest, e = 0.1, h = 1 ms, GEOMETRIC_EPSILON 1e-5.

Closed forms:
- One link: the ball's velocity stays normal to the link, so the normal component at the wall
  is a fixed fraction of the speed: the speed after an impact is e times the speed before
  and the kinetic energy e^2 times (for any wall angle); before the first impact from
  angle theta0 it is m g L (1 - cos theta0).
- Two links: the impulses (link 1 along u1, link 2 along u2, wall along n on the striking
  balls) solve  u1 . v1+ = 0,  u2 . (v2+ - v1+) = 0,  n . vk+ = -e n . vk-  with
  v+ = v- + M^-1 G^T P (impulse-momentum, point masses: the impulses pass through the ball
  centres, so the balls do not spin); `predicted_velocities` evaluates it from the state
  just before the impact.

    /usr/bin/python3 pendulum_impacts.py   prints every case: reference, ours, error.
"""
import math
import os
import sys
import tempfile

import numpy as np

PIVOT = np.array((0.0, 0.0, 2.0))
WALL = [-0.10, -0.2, 0.0, -0.05, -0.2, 0.0, -0.05, 0.2, 0.0, -0.10, 0.2, 0.0,
        -0.10, -0.2, 2.0, -0.05, -0.2, 2.0, -0.05, 0.2, 2.0, -0.10, 0.2, 2.0]


def pendulum(S, angles, e, h, epsilon=1e-6):
    """SOLFEC object and the balls of a chain of len(angles) links (angles from the
    vertical, toward +x, at rest)."""
    S.GEOMETRIC_EPSILON(epsilon)
    sol = S.SOLFEC("DYNAMIC", h, tempfile.mkdtemp(prefix="pendulum-"))
    sol.verbose = "OFF"
    S.OUTPUT(sol, 1e3)
    bulk = S.BULK_MATERIAL(sol)
    S.SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", restitution=e, friction=0.0)
    S.GRAVITY(sol, (0, 0, -9.81))
    balls, prev, p = [], None, PIVOT.copy()
    for th in angles:
        q = p + np.array((math.sin(th), 0.0, -math.cos(th)))
        ball = S.BODY(sol, "RIGID", S.SPHERE(tuple(q), 0.05, 1, 1), bulk)
        S.BODY_CHARS(ball, 1.0, 1.0, tuple(q), (1, 0, 0, 0, 1, 0, 0, 0, 1))
        S.PUT_RIGID_LINK(ball, prev, tuple(q), tuple(p))
        balls.append(ball)
        prev, p = ball, q
    S.BODY(sol, "OBSTACLE", S.HEX(WALL, 1, 1, 1, 0, [0] * 6), bulk)
    return sol, balls


def state(balls):
    return ([np.array(b.conf[9:12]) for b in balls], [np.array(b.velo[3:6]) for b in balls])


def predicted_velocities(X, V, striking, e):
    """Ball velocities right after an impact of the balls `striking` (indices) on the wall
    (normal +x), from positions X and velocities V right before (closed form above)."""
    n, m = np.array((1.0, 0.0, 0.0)), len(X)
    rows = []  # generalised directions (one 3-vector per ball)
    for k in range(m):
        u = X[k] - (X[k - 1] if k > 0 else PIVOT)
        u = u / np.linalg.norm(u)
        r = [np.zeros(3) for _ in range(m)]
        r[k] = u
        if k > 0:
            r[k - 1] = -u
        rows.append((r, 0.0))
    for k in striking:
        r = [np.zeros(3) for _ in range(m)]
        r[k] = n
        rows.append((r, -e * n @ V[k]))
    A = np.array([[sum(ri @ rj for ri, rj in zip(a, b)) for b, _ in rows] for a, _ in rows])
    rhs = np.array([t - sum(ri @ v for ri, v in zip(r, V)) for r, t in rows])
    P = np.linalg.solve(A, rhs)  # unit masses: M^-1 = I
    return [V[k] + sum(P[j] * rows[j][0][k] for j in range(len(rows))) for k in range(m)]


def impacts(S, angles, e, h, duration, count, epsilon=1e-6, gs_epsilon=1e-8):
    """The first `count` impacts: (time, striking balls, KE before, closed-form KE after,
    simulated KE after, relative velocity error)."""
    sol, balls = pendulum(S, angles, e, h, epsilon)
    gs = S.GAUSS_SEIDEL_SOLVER(gs_epsilon, 100000)
    out, touching = [], False
    for _ in range(int(round(duration / h))):
        X, V = state(balls)
        S.RUN(sol, gs, h)
        hit = [c for c in sol.constraints if c.kind == "CONTACT"]
        if hit and not touching:
            striking = sorted({min(range(len(balls)),
                                   key=lambda k: np.linalg.norm(X[k][[0, 2]] - np.array(
                                       c.point)[[0, 2]])) for c in hit})
            vp = predicted_velocities(X, V, striking, e)
            _, W = state(balls)
            ke = lambda vs: 0.5 * sum(v @ v for v in vs)
            err = np.linalg.norm(np.concatenate(W) - np.concatenate(vp)) / np.linalg.norm(
                np.concatenate(V))
            out.append((sol.time, striking, ke(V), ke(vp), ke(W), err))
            if len(out) == count:
                break
        touching = bool(hit)
    return out


# Solfec-1.0's tests/double-pendulum.py: (step, total energy minus that at 2.5 s) [J].
SOLFEC1_REF = [(0, 11.6766522245), (600, 9.02830180065), (1000, 0.892467558418),
               (1500, 0.642073700206), (2400, 0.0)]


def solfec1_double_pendulum(S, duration=2.5):
    """Total energy (kinetic + m g max(z, 0)) minus its value at the end, per step, as
    Solfec-1.0's test computes it."""
    sol, balls = pendulum(S, (math.pi / 3, math.pi / 5), 0.1, 1e-3, 1e-5)
    gs = S.GAUSS_SEIDEL_SOLVER(1e-3, 1000, failure="EXIT")
    tot = []
    for _ in range(int(round(duration / 1e-3)) + 1):
        tot.append(S.ENERGY(sol)[0] + 9.81 * sum(max(b.conf[11], 0.0) for b in balls))
        S.RUN(sol, gs, 1e-3)
    return [t - tot[-1] for t in tot]


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(os.environ.get(
        "SOLFEC_BUILD_DIR", os.path.join(here, "..", "..", "..", "build")), "python"))
    import solfec as S
    th0 = math.pi / 3
    for e in (0.1, 0.5, 1.0):
        t, _, ke0, _, ke1, _ = impacts(S, (th0,), e, 1e-3, 1.0, 1)[0]
        print("one link, e = %.1f, impact at %.3f s: KE before %.6f J (closed form %.6f, "
              "error %.1e); KE after / before %.6f (e^2 = %.4f, error %.1e)" % (
                  e, t, ke0, 9.81 * (1 - math.cos(th0)), abs(ke0 / (9.81 * (1 - math.cos(th0)))
                                                         - 1), ke1 / ke0, e * e,
                  abs(ke1 / ke0 - e * e)))
    for t, striking, ke0, kep, ke1, err in impacts(S, (math.pi / 3, math.pi / 5), 0.1, 2e-4,
                                                   1.5, 3):
        print("two links, e = 0.1, ball(s) %s at %.4f s: KE before %.5f J, after: closed form "
              "%.5f, ours %.5f (error %.1e of KE before), velocity error %.1e" % (
                  [k + 1 for k in striking], t, ke0, kep, ke1, abs(ke1 - kep) / ke0, err))
    tot = solfec1_double_pendulum(S)
    for step, ref in SOLFEC1_REF:
        print("Solfec-1.0 double pendulum, step %4d: reference %.4f J, ours %.4f J, error "
              "%.1e (Solfec-1.0's tolerance 1e-3 of max(1, reference))" % (
                  step, ref, tot[step], abs(tot[step] - ref) / max(1.0, ref)))
