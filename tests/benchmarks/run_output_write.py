#!/usr/bin/env python3
"""Results writing: the three ways the writer stores the deflated per-frame blocks (constraint
states always; body states, q and u with OUTPUT compression 'ON'), in one invocation, on
contact-rich models written every step:

  PIPELINE    through libhdf5's filter pipeline (H5Dwrite; the writer before this benchmark);
  DIRECT      shuffle + deflate by the writer, chunks stored with H5Dwrite_chunk (same bytes);
  BACKGROUND  DIRECT with a frame of more than 64 kB of such blocks encoded on a worker thread
              while the next step computes (the default).

For each (scene, mode): wall and process CPU time per step (the least of --runs runs, modes
alternating), the writer's own wall time per step (Output.seconds: what the step waits for),
the file size, the ratio of the step's wall time to PIPELINE's, and `same`: every dataset of
the file equal to PIPELINE's (frames/table apart from its timings; bodies/labels apart: the
default labels of bodies number them within the process, so each run's differ).

    OPENBLAS_NUM_THREADS=1 SOLFEC_BUILD_DIR=build /usr/bin/python3 \\
        tests/benchmarks/run_output_write.py [--scenes fe_pile balls box] [--runs 2]

Scenes:
  fe_pile  run_contact_search.py's `paper` pile of 60 Blatz-Ko cubes (DEF_SEMI_EXPLICIT,
           NODE_TO_FACE, h = 1e-4), 40 steps, compression 'OFF' (~2000 contacts);
  balls    900 rigid balls resting on a floor, h = 2 ms, 50 steps, compression 'ON'
           (900 contacts);
  box      output_cost.py's box of 216 cubes, h = 5 ms, 60 steps, a frame every 10 steps.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.environ.get("SOLFEC_BUILD_DIR", os.path.join(ROOT, "build")),
                                "python"))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "box_of_cubes"))

import h5py  # noqa: E402
import numpy as np  # noqa: E402
import solfec as S  # noqa: E402

MODES = ("PIPELINE", "DIRECT", "BACKGROUND")


def fe_pile(out):
    import run_contact_search as B
    sol = B.pile(out, 60, "paper")
    return sol, B.solver("paper"), B.SETTINGS["paper"]["step"], 40


def balls(out):
    h = 2e-3
    sol = S.SOLFEC("DYNAMIC", h, out)
    sol.verbose = "OFF"
    bulk = S.BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    S.SURFACE_MATERIAL(sol, friction=0.3, restitution=0.0)
    S.BODY(sol, "OBSTACLE", S.HULL([-9, -9, -1, 9, -9, -1, 9, 9, -1, -9, 9, -1,
                                    -9, -9, 0, 9, -9, 0, 9, 9, 0, -9, 9, 0], 1, 1), bulk)
    for i in range(30):
        for j in range(30):
            S.BODY(sol, "RIGID", S.SPHERE((0.25 * i - 3.6, 0.25 * j - 3.6, 0.0999), 0.1, 1, 1),
                   bulk)
    S.GRAVITY(sol, (0, 0, -9.81))
    S.OUTPUT(sol, h, "ON")
    return sol, S.GAUSS_SEIDEL_SOLVER(1e-8, 500, stopping="EITHER"), h, 50


def box(out):
    from solfec_scene import build_scene
    h = 5e-3
    sol, _ = build_scene(S, 6, h, out)
    S.OUTPUT(sol, 10 * h, "OFF")
    return sol, S.GAUSS_SEIDEL_SOLVER(1e-6, 1000, stopping="EITHER"), h, 60


SCENES = {"fe_pile": fe_pile, "balls": balls, "box": box}


def run(scene, mode, out):
    sol, solver, h, steps = SCENES[scene](out)
    S.RUN(sol, solver, h)  # first step (and frame at t = 0) outside the timing
    sol._output.set_write_mode(mode)
    w0 = sol._output.seconds
    t0, c0 = time.perf_counter(), time.process_time()
    S.RUN(sol, solver, steps * h)  # RUN returns with every frame in the file
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    write = sol._output.seconds - w0
    sol._output.finish(sol._domain)
    return {"wall": wall / steps, "cpu": cpu / steps, "write": write / steps, "steps": steps}


def datasets(path):
    """Every dataset of the file as arrays (frames/table without its timing field; not the
    process-numbered default labels)."""
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and name != "bodies/labels":
                a = obj[()]
                if name == "frames/table":
                    a = a[[n for n in a.dtype.names if n != "timing"]]
                out[name] = a
        f.visititems(visit)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", nargs="+", default=list(SCENES), choices=list(SCENES))
    ap.add_argument("--runs", type=int, default=2)
    a = ap.parse_args()
    from solfec import results
    tmp = tempfile.mkdtemp(prefix="solfec-output-write-")
    rows = []
    try:
        for scene in a.scenes:
            best, files = {}, {}
            for r in range(a.runs):
                for mode in MODES:
                    out = os.path.join(tmp, f"{scene}-{mode}-{r}")
                    res = run(scene, mode, out)
                    res["path"] = results.results_path(out)
                    if mode not in best or res["wall"] < best[mode]["wall"]:
                        best[mode] = res
                    files[mode] = res["path"]
            ref = datasets(files["PIPELINE"])
            for mode in MODES:
                b = best[mode]
                d = datasets(files[mode])
                same = d.keys() == ref.keys() and all(np.array_equal(d[k], ref[k]) for k in ref)
                rows.append((scene, mode, b["steps"], 1e3 * b["wall"], 1e3 * b["cpu"],
                             1e3 * b["write"], os.path.getsize(files[mode]) / 1e6,
                             best["PIPELINE"]["wall"] / b["wall"], same))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{'scene':>8} {'mode':>10} {'steps':>5} {'wall ms':>8} {'cpu ms':>8} {'write ms':>8} "
          f"{'file MB':>8} {'speed-up':>8} {'same':>5}")
    for sc, m, st, w, c, wr, mb, ratio, same in rows:
        print(f"{sc:>8} {m:>10} {st:>5} {w:>8.2f} {c:>8.2f} {wr:>8.2f} {mb:>8.2f} {ratio:>8.2f} "
              f"{'yes' if same else 'NO':>5}")
    print("ms: per step (wall: elapsed; cpu: process, all threads; write: the writer's wall "
          "time); speed-up: PIPELINE's wall time / the mode's")


if __name__ == "__main__":
    main()
