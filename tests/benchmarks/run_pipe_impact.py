#!/usr/bin/env python3
"""Pipe impact of the corotated reduced-order report (section 8.2): TL against BC (and BC-RO
with 18 POD modes of co-rotated TL snapshots, when the POD routines exist). Prints runtime, output size, ratios against TL and the maximum
relative difference of the kinetic and internal energy histories (BC, BC-RO vs TL).

  /usr/bin/python3 tests/benchmarks/run_pipe_impact.py            # 36 x 36 x 4 HEX8, 0.1 s
  /usr/bin/python3 tests/benchmarks/run_pipe_impact.py --quick    # 18 x 12 x 2, 0.1 s
  options: --build DIR (default $SOLFEC_BUILD_DIR or build/), --forms TL,BC, --json out.json,
           --mesh L,C,T (element counts)
Runtime is wall time of the 100 RUN calls (with the ENERGY queries); cpu is the process CPU
time, the fairer measure on a shared machine.

Pipe: inner radius 0.01 m, thickness 0.005 m, length 0.1 m along y, E 1e7, nu 0.25, rho 1e3,
damping 1e-4, lowest point 0.025 m above the top of a 0.01 x 0.1 x 0.01 m OBSTACLE block
(x, y, z extents; top at z = 0), gravity -10 z, h = 1 ms, 0.1 s (impact at t ~ 0.0707 s),
frictionless contact with restitution 0, output every step.
"""

import argparse
import glob
import json
import math
import os
import sys
import tempfile
import time

# One BLAS thread: on a shared machine OpenBLAS worker threads spin in sched_yield (measured
# 40% of the process CPU in a perf profile); CHOLMOD's supernodal solves stay in BLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

R_IN, THICK, LENGTH = 0.01, 0.005, 0.1
GAP, STEP, DURATION = 0.025, 1e-3, 0.1


def pipe_mesh(S, n_len, n_circ, n_thick):
    """HEX8 pipe along y, y in [-L/2, L/2], axis at x = 0, z = GAP + R_IN + THICK."""
    zc = GAP + R_IN + THICK
    nodes = []

    def nid(i, j, k):
        return (i * n_circ + j % n_circ) * (n_thick + 1) + k

    for i in range(n_len + 1):
        y = -0.5 * LENGTH + LENGTH * i / n_len
        for j in range(n_circ):
            t = 2 * math.pi * j / n_circ
            for k in range(n_thick + 1):
                r = R_IN + THICK * k / n_thick
                nodes += [r * math.cos(t), y, zc + r * math.sin(t)]
    elements = []
    for i in range(n_len):
        for j in range(n_circ):
            for k in range(n_thick):
                # (radial, circumferential, axial) = (xi, eta, zeta) is left-handed for an
                # axis along +y: take the axial direction reversed (i + 1 first).
                e = [nid(i + 1, j, k), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1),
                     nid(i + 1, j + 1, k), nid(i, j, k), nid(i, j, k + 1),
                     nid(i, j + 1, k + 1), nid(i, j + 1, k)]
                elements += [8] + e + [1]
    return S.MESH(nodes, elements, 1)


OUTPUT_OPTIONS = {"bases": "DECK", "compression": "OFF"}  # set by --bases / --compression


def dataset_bytes(outdir, names):
    """Stored bytes of the named datasets of the results file (h5py)."""
    import h5py
    from solfec import results
    with h5py.File(results.results_path(outdir), "r") as f:
        return sum(f[n].id.get_storage_size() for n in names if n in f)


def run_form(S, form, mesh_dims, outdir, base=None, snapshots=False, keep_state=False):
    """One run of the pipe with `form`; keep_state: the result also holds the body's final
    conf and velo ('q', 'u') and the last step's constraint count ('ncon')."""
    sol = S.SOLFEC("DYNAMIC", STEP, outdir)
    sol.verbose = "OFF"
    S.OUTPUT(sol, 0.0, **OUTPUT_OPTIONS)  # every step
    bulk = S.BULK_MATERIAL(sol, young=1e7, poisson=0.25, density=1e3)
    S.SURFACE_MATERIAL(sol, friction=0.0, restitution=0.0)
    S.CONTACT_POINTS(sol, 4)  # up to 4 points per touching piece pair (the tables' model)
    S.GRAVITY(sol, (0, 0, -10))
    block = [-0.005, -0.05, -0.01, 0.005, -0.05, -0.01, 0.005, 0.05, -0.01, -0.005, 0.05, -0.01,
             -0.005, -0.05, 0.0, 0.005, -0.05, 0.0, 0.005, 0.05, 0.0, -0.005, 0.05, 0.0]
    S.BODY(sol, "OBSTACLE", S.HULL(block, 1, 1), bulk)
    kw = {"form": form}
    if base is not None:
        kw["base"] = base
    b = S.BODY(sol, "FINITE_ELEMENT", pipe_mesh(S, *mesh_dims), bulk, **kw)
    b.scheme = "DEF_LIM"
    b.damping = 1e-4
    gs = S.GAUSS_SEIDEL_SOLVER(1e-6, 1000, stopping="EITHER")
    if snapshots:  # co-rotated displacement snapshots every step for the BC-RO POD base
        S.COROTATED_DISPLACEMENTS(sol, b, STEP)
    kin, internal, times = [], [], []
    steps = int(round(DURATION / STEP))
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(steps):
        S.RUN(sol, gs, STEP)
        e = S.ENERGY(sol, b)
        kin.append(e[0])
        internal.append(e[1])
        times.append(sol.time)
    runtime, cpu = time.perf_counter() - t0, time.process_time() - c0
    if getattr(sol, "_handle", None) is not None:
        sol._handle.close()  # flush the results file before measuring it
    size = sum(os.path.getsize(f) for f in glob.glob(os.path.join(outdir, "**", "*.h5"),
                                                       recursive=True))
    state = dataset_bytes(outdir, ["frames/q", "frames/u"])
    contacts = dataset_bytes(outdir, ["frames/constraints", "constraints/table"])
    pod = None
    if snapshots:
        D = S.COROTATED_DISPLACEMENTS(sol, b)
        pod = S.POD(D, 18, S.RIGID_DISPLACEMENTS(b))
    res = {"pod": pod, "form": form, "runtime": runtime, "cpu": cpu, "output_bytes": size,
           "state_bytes": state, "constraint_bytes": contacts, "kinetic": kin,
           "internal": internal, "time": times, "dofs": len(b.velo)}
    if keep_state:
        res.update(q=list(b.conf), u=list(b.velo), ncon=sol.ncon)
    return res


def max_rel_diff(a, b):
    """max |a - b| / max |b| over the history (b = TL)."""
    scale = max(abs(x) for x in b) or 1.0
    return max(abs(x - y) for x, y in zip(a, b)) / scale


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="18 x 12 x 2 mesh")
    ap.add_argument("--build", default=os.environ.get("SOLFEC_BUILD_DIR",
                                                      os.path.join(ROOT, "build")))
    ap.add_argument("--forms", default="TL,BC")
    ap.add_argument("--mesh", help="length,circumference,thickness element counts")
    ap.add_argument("--json")
    ap.add_argument("--bases", default="DECK", choices=["DECK", "FILE"],
                    help="OUTPUT bases: 'DECK' (default; E stays in the deck as in Solfec-1.0) "
                         "or 'FILE' (E stored once in the results file)")
    ap.add_argument("--compression", default="OFF", choices=["OFF", "ON"],
                    help="OUTPUT compression for every form")
    args = ap.parse_args()
    OUTPUT_OPTIONS.update(bases=args.bases, compression=args.compression)
    sys.path.insert(0, os.path.join(args.build, "python"))
    import solfec as S

    dims = (12, 18, 2) if args.quick else (36, 36, 4)  # (length, circumference, thickness)
    if args.mesh:
        dims = tuple(int(v) for v in args.mesh.split(","))
    print(f"pipe impact: {dims[0]} x {dims[1]} x {dims[2]} HEX8 (length x circumference x "
          f"thickness), h = {STEP}, T = {DURATION}, build {args.build}")
    results = {}
    have_pod = all(hasattr(S, n) for n in ("POD", "COROTATED_DISPLACEMENTS",
                                           "RIGID_DISPLACEMENTS"))
    why = ""
    with tempfile.TemporaryDirectory() as tmp:
        for form in args.forms.split(","):
            pod = form == "TL" and have_pod
            r = run_form(S, form, dims, os.path.join(tmp, form), snapshots=pod)
            results[form] = r
            print(f"  {form:6s} dofs {r['dofs']:6d}  runtime {r['runtime']:8.2f} s  cpu "
                  f"{r['cpu']:8.2f} s  "
                  f"output {r['output_bytes'] / 1e6:8.2f} MB", flush=True)
        base = results["TL"].pop("pod") if "TL" in results else None
        if base is not None:
            try:
                r = run_form(S, "BC-RO", dims, os.path.join(tmp, "BC-RO"), base)
                results["BC-RO"] = r
                print(f"  BC-RO  dofs {r['dofs']:6d}  runtime {r['runtime']:8.2f} s  cpu "
                      f"{r['cpu']:8.2f} s  "
                      f"output {r['output_bytes'] / 1e6:8.2f} MB  (18 POD modes from the TL "
                      f"run)", flush=True)
            except Exception as e:  # noqa: BLE001 - report and go on
                why = f"BC-RO failed: {e}"
        elif not have_pod:
            why = "POD / COROTATED_DISPLACEMENTS not available"
        else:
            why = "no TL run to take snapshots from"
    tl = results.get("TL")
    print(f"{'form':6s} {'runtime [s]':>12s} {'speedup':>8s} {'cpu [s]':>8s} {'cpu x':>6s} "
          f"{'output [MB]':>12s} "
          f"{'smaller':>8s} {'q,u [MB]':>9s} {'q,u x':>6s} {'cons [MB]':>9s} "
          f"{'max dKE/KE':>11s} {'max dIE/IE':>11s}")
    for form in ("TL", "BC", "BC-RO"):
        r = results.get(form)
        if r is None:
            note = why if form == "BC-RO" else "not run"
            print(f"{form:6s} {'n/a':>12s}   ({note})")
            continue
        sp = tl["runtime"] / r["runtime"] if tl else float("nan")
        cx = tl["cpu"] / r["cpu"] if tl and r["cpu"] > 0 else float("nan")
        sm = tl["output_bytes"] / r["output_bytes"] if tl and r["output_bytes"] else float("nan")
        dk = max_rel_diff(r["kinetic"], tl["kinetic"]) if tl else float("nan")
        di = max_rel_diff(r["internal"], tl["internal"]) if tl else float("nan")
        sx = tl["state_bytes"] / r["state_bytes"] if tl and r["state_bytes"] else float("nan")
        r.update(speedup=sp, cpu_speedup=cx, smaller=sm, state_smaller=sx, kinetic_diff=dk,
                 internal_diff=di)
        print(f"{form:6s} {r['runtime']:12.2f} {sp:8.2f} {r['cpu']:8.2f} {cx:6.2f} "
              f"{r['output_bytes'] / 1e6:12.2f} "
              f"{sm:8.2f} {r['state_bytes'] / 1e6:9.3f} {sx:6.1f} "
              f"{r['constraint_bytes'] / 1e6:9.3f} {dk:11.3e} {di:11.3e}")
    print(f"output: every step, OUTPUT bases='{OUTPUT_OPTIONS['bases']}', compression="
          f"'{OUTPUT_OPTIONS['compression']}'; q,u = stored bytes of frames/q and frames/u, "
          f"cons = of frames/constraints and constraints/table")
    if tl:
        n = len(tl["time"])
        print("energy samples (t, KE_TL, KE_BC, IE_TL, IE_BC):")
        for i in range(0, n, max(1, n // 10)):
            bc = results.get("BC")
            print(f"  {tl['time'][i]:.3f} {tl['kinetic'][i]:.4e} "
                  f"{bc['kinetic'][i] if bc else float('nan'):.4e} {tl['internal'][i]:.4e} "
                  f"{bc['internal'][i] if bc else float('nan'):.4e}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({k: {a: b for a, b in v.items() if a != "pod"}
                   for k, v in results.items()}, f)


if __name__ == "__main__":
    main()
