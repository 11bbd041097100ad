"""Output cost of the box of cubes (examples/box-of-cubes/cubes.py): bytes per body per frame
and the share of the run's wall time spent writing results, with a frame every 10 steps.

  SOLFEC_BUILD_DIR=build /usr/bin/python3 tests/benchmarks/output_cost.py [n] [steps]

n = 10 is the 1000-cube box (default 6: 216 cubes); the target is a write share < 5%."""

import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.environ.get("SOLFEC_BUILD_DIR", os.path.join(ROOT, "build")),
                                "python"))

import solfec as S  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "box_of_cubes"))
from solfec_scene import build_scene  # noqa: E402


def box_of_cubes(n, out, compression):
    """The model of examples/box-of-cubes/cubes.py (built by the Siconos-comparison bench's
    build_scene) with OUTPUT every 10 steps."""
    sol, _ = build_scene(S, n, 5e-3, out)
    S.OUTPUT(sol, 10 * 5e-3, compression)
    return sol


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    tmp = tempfile.mkdtemp(prefix="solfec-output-cost-")
    rows = []
    try:
        for compression in ("OFF", "ON"):
            out = os.path.join(tmp, f"n{n}-{compression}")
            sol = box_of_cubes(n, out, compression)
            solver = S.GAUSS_SEIDEL_SOLVER(1e-6, 1000, stopping="EITHER")
            t0 = time.perf_counter()
            S.RUN(sol, solver, steps * 5e-3)
            wall = time.perf_counter() - t0
            frames = sol._output.frames
            write = sol._output.seconds
            h5 = os.path.join(out, os.path.basename(out) + ".h5")
            size = os.path.getsize(h5)
            cons = S.HISTORY(sol, ["CONS"], 0, 1e9)[1]
            rows.append((compression, n ** 3 + 1, steps, frames, size, size / frames / (n ** 3 + 1),
                         cons.mean(), wall, write, 100 * write / wall))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"box of cubes n={n}: {n ** 3} cubes + 1 obstacle, {steps} steps of 5 ms, "
          f"a frame every 10 steps (+ t=0)")
    print(f"{'compr':>5} {'bodies':>6} {'frames':>6} {'file [B]':>10} {'B/body/frame':>12} "
          f"{'avg cons':>8} {'run [s]':>8} {'write [s]':>9} {'write %':>7}")
    for c, nb, st, fr, size, bpb, ac, wall, write, share in rows:
        print(f"{c:>5} {nb:>6} {fr:>6} {size:>10} {bpb:>12.1f} {ac:>8.0f} {wall:>8.2f} "
              f"{write:>9.3f} {share:>7.2f}")


if __name__ == "__main__":
    main()
