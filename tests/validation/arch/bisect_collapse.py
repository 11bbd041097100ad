"""Bisection study: the collapse thickness of the semicircular arch (arch_model.py) for a
number of voussoirs and a friction, against the limit-analysis minimum thickness
(limit_analysis.py) of the same arch with the same contact model.

A run stands if the kinetic energy after `duration` is below 3e-4 J (between Solfec-1.0's
1e-4 J "standing" and 1e-3 J "collapsing" bounds of tests/arch.py), else it collapses.
The bisection starts from [0.99, 1.01] x the limit-analysis value (widened if that does not
bracket) and halves it `steps` times.

    /usr/bin/python3 bisect_collapse.py [--points 1|4] [--friction 0.5] [--duration 0.75]
                                         [--steps 5] n1 n2 ...
prints one row per n: n, bracket (stands at hi, collapses at lo), limit analysis, error.
"""
import argparse
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import arch_model  # noqa: E402
import limit_analysis  # noqa: E402

STAND = 3e-4  # [J]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("n", type=int, nargs="+")
    p.add_argument("--points", type=int, default=1)
    p.add_argument("--friction", type=float, default=0.5)
    p.add_argument("--duration", type=float, default=0.75)
    p.add_argument("--steps", type=int, default=5)
    a = p.parse_args()
    build_dir = os.environ.get("SOLFEC_BUILD_DIR", os.path.join(here, "..", "..", "..", "build"))
    sys.path.insert(0, os.path.join(build_dir, "python"))
    import solfec as S
    reach = 0.975 if a.points == 1 else 1.0  # see limit_analysis.py
    print("points %d friction %g duration %g s" % (a.points, a.friction, a.duration))
    print("   n   collapses at   stands at    limit analysis   error (mid vs LA)   runs  time")
    for n in a.n:
        la = limit_analysis.min_ratio(n, a.friction, reach)
        t0 = time.time()
        runs = []

        def stands(r):
            ke = arch_model.run(S, r, n, a.friction, a.duration, a.points)
            runs.append((r, ke))
            print("      n %d h/r %.5f KE %.3e J" % (n, r, ke), flush=True)
            return ke < STAND
        lo, hi = 0.99 * la, 1.01 * la
        while stands(lo):
            lo -= 0.02 * la
        while not stands(hi):
            hi += 0.02 * la
        for _ in range(a.steps):
            mid = 0.5 * (lo + hi)
            if stands(mid):
                hi = mid
            else:
                lo = mid
        mid = 0.5 * (lo + hi)
        print("%4d   %.5f        %.5f      %.5f          %+.2f%%              %d   %.0f s" % (
            n, lo, hi, la, 100 * (mid - la) / la, len(runs), time.time() - t0), flush=True)


if __name__ == "__main__":
    main()
