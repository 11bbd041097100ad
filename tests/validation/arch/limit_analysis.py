"""Minimum thickness of a semicircular arch of n rigid voussoirs (limit analysis).

Heyman's safe theorem: the arch stands if a thrust line in equilibrium with its self-weight
passes through every joint within the joint (no tension) and, with friction mu, inclined to
the joint normal by at most atan(mu). The voussoirs span equal angles pi/n of a semicircle of
centre-line radius R with radial joints (joint 0 and n on the springers); thickness t.
The joint resultants (N_k, V_k, M_k) are linear in the three springing redundants
(H, V_0, M_0) (statics of the blocks from the left springer), so admissibility at a given
t is a linear programme; the minimum t/R follows by bisection.

`reach` < 1 restricts the resultant to reach * t / 2 from the centre line: Solfec-1.0's
contact model (one point per pair of convex pieces, at the centroid of their contact face)
with the voussoirs cut through the thickness in strips of 2.5%, 95%, 2.5% (its
tests/arch.py) puts the outermost joint points 1.25% of t inside the faces: reach 0.975.

Reference values (continuous joints, n -> infinity): t/R = 0.1075 (Ochsendorf, "The
masonry arch on spreading supports", Struct. Eng. 84 (2006); Heyman 1969 gives 0.106 with
a slightly different weight distribution).

    /usr/bin/python3 limit_analysis.py   prints the table for n = 9 .. 45.
"""
import math

import numpy as np
from scipy.optimize import linprog


def joint_forms(n, ratio):
    """For joints k = 0..n: (N, V, M) each as (coefficients on (H, V0, M0), constant), unit
    radius, density, gravity and depth; N normal (compression > 0), V radial shear, M moment
    about the joint's centre-line point."""
    ri, ro = 1.0 - ratio / 2, 1.0 + ratio / 2
    da = math.pi / n
    weight = 0.5 * da * (ro ** 2 - ri ** 2)
    rc = (2.0 / 3.0) * (ro ** 3 - ri ** 3) / (ro ** 2 - ri ** 2) * math.sin(da / 2) / (da / 2)
    c0 = np.array([math.sin(-math.pi / 2), math.cos(-math.pi / 2)])
    forms, fz, lo = [], 0.0, 0.0  # fz: weight carried so far (-), lo: its moment about 0
    for k in range(n + 1):
        a = -math.pi / 2 + k * da
        c = np.array([math.sin(a), math.cos(a)])
        fx_c, fz_c = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
        # moment about the origin of the force passed on at joint k: M0 + c0 x F0 + lo
        l_c = np.array([-c0[1], c0[0], 1.0])
        m_c = l_c - (c[0] * fz_c - c[1] * fx_c)
        m_0 = lo - c[0] * fz
        tan, rad = np.array([math.cos(a), -math.sin(a)]), c
        forms.append(((tan[0] * fx_c + tan[1] * fz_c, tan[1] * fz),
                      (rad[0] * fx_c + rad[1] * fz_c, rad[1] * fz),
                      (m_c, m_0)))
        if k < n:
            gx = rc * math.sin(a + da / 2)
            fz -= weight
            lo -= weight * gx
    return forms


def admissible(n, ratio, friction=None, reach=1.0):
    """True if a statically admissible thrust exists (LP feasibility)."""
    A, b = [], []
    e = reach * ratio / 2
    for (N, V, M) in joint_forms(n, ratio):
        rows = [(-N[0], -N[1]), (M[0] - e * N[0], M[1] - e * N[1]),
                (-M[0] - e * N[0], -M[1] - e * N[1])]
        if friction is not None:
            rows += [(V[0] - friction * N[0], V[1] - friction * N[1]),
                     (-V[0] - friction * N[0], -V[1] - friction * N[1])]
        for coef, const in rows:  # coef . x + const <= 0
            A.append(coef)
            b.append(-const)
    res = linprog(np.zeros(3), A_ub=np.array(A), b_ub=np.array(b),
                  bounds=[(None, None)] * 3, method="highs")
    return res.status == 0


def min_ratio(n, friction=None, reach=1.0, tol=1e-6):
    """The minimum thickness / centre-line radius for n voussoirs."""
    lo, hi = 0.01, 0.3
    assert not admissible(n, lo, friction, reach) and admissible(n, hi, friction, reach)
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if admissible(n, mid, friction, reach):
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


if __name__ == "__main__":
    print("  n   t/R (edge hinges)  with mu=0.5   reach 0.975 (Solfec-1.0 points)")
    for n in (9, 15, 21, 27, 35, 45, 1000):
        print("%4d   %.5f            %.5f       %.5f" % (
            n, min_ratio(n), min_ratio(n, 0.5), min_ratio(n, 0.5, 0.975)))
