#!/usr/bin/env python3
"""SICONOS_SOLVER against GAUSS_SEIDEL_SOLVER inside solfec runs of the box-of-cubes scene.

Usage: /usr/bin/python3 tests/benchmarks/run_siconos_solver.py [--n 3 4] [--steps 200]
           [--epsilon 1e-6 1e-8] [--repeat 2] [--build DIR]

The scene is box_of_cubes/solfec_scene.py (n^3 tilted cubes, 4-point contact patches, step
5 ms). For every n and epsilon the same run is made with GAUSS_SEIDEL_SOLVER(epsilon,
100000, meritval=1), GAUSS_SEIDEL_SOLVER(epsilon, 100000, stopping='RESIDUAL') (which stops
on the residual Siconos' NSGS checks last) and SICONOS_SOLVER(epsilon=epsilon,
maxiter=100000), alternated
`repeat` times in this one process (so both see the same machine load), and one line per
run gives ms per step (wall time of RUN), the CONSOL stage per step, the mean iterations
(Gauss-Seidel sweeps / Siconos NSGS sweeps), the share of converged steps and the mean
number of constraints. The default Gauss-Seidel epsilon bounds the relative change of R per
sweep only; docs/deck-language.md (SICONOS_SOLVER) quotes
the numbers and tests/python/test_siconos_solver.py compares the trajectories. Needs a
build with Siconos numerics (Debian libsiconos-numerics-dev, cmake/setup.sh).
"""

import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "box_of_cubes"))
import solfec_scene as SC  # noqa: E402


def run(S, kind, n, steps, eps, h=5e-3):
    sol, _ = SC.build_scene(S, n, h, tempfile.mkdtemp(prefix="solfec-siconos-"))
    s = (S.GAUSS_SEIDEL_SOLVER(eps, 100000, meritval=1.0) if kind == "GS" else
         S.GAUSS_SEIDEL_SOLVER(eps, 100000, stopping="RESIDUAL") if kind == "GS-RES" else
         S.SICONOS_SOLVER(epsilon=eps, maxiter=100000))
    wall = consol = iters = conv = ncon = 0.0
    for _ in range(steps):
        t0 = time.perf_counter()
        S.RUN(sol, s, h)
        wall += time.perf_counter() - t0
        consol += S.TIMING(sol, "CONSOL")
        iters += s.iters
        conv += s.error == "OK"
        ncon += sol.ncon
    return 1e3 * wall / steps, 1e3 * consol / steps, iters / steps, conv / steps, ncon / steps


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[3, 4])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--epsilon", type=float, nargs="+", default=[1e-6, 1e-8])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--build", default=None)
    a = ap.parse_args()
    S = SC.import_solfec(a.build)
    from solfec import _solfec
    if not _solfec.siconos_available():
        sys.exit("run_siconos_solver: this build has no Siconos numerics "
                 "(install libsiconos-numerics-dev and rebuild)")
    for n in a.n:
        for eps in a.epsilon:
            for _ in range(a.repeat):
                for kind, name in (("GS", "GAUSS_SEIDEL_SOLVER"),
                                   ("GS-RES", "GS stopping=RESIDUAL"),
                                   ("SI", "SICONOS_SOLVER")):
                    w, c, it, cv, nc = run(S, kind, n, a.steps, eps)
                    print(f"n={n} epsilon={eps:g} {name:20s} {w:7.2f} ms/step  CONSOL "
                          f"{c:7.2f} ms/step  iters {it:6.1f}  converged {cv:.3f}  "
                          f"constraints {nc:.0f}", flush=True)


if __name__ == "__main__":
    main()
