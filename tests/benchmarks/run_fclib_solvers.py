"""Local-dynamics problems dumped from our own runs (LOCDYN_DUMP, FCLIB format), each solved
by solfec's GAUSS_SEIDEL_SOLVER and NEWTON_SOLVER and by Siconos 4.4's fc3d NSGS and
Alart-Curnier Newton (SICONOS_FRICTION_3D_NSN_AC), all measured with ONE error function:
Siconos' fc3d_compute_error on every solution, ours included (natural-map residual with
rho = 1 divided by max(|r|, |u|, |q|), as Siconos 4.4 computes it); our merit
g(R) (manual eq. 8.1, recomputed here in numpy for every solution) is reported next to it.

Usage:
  /usr/bin/python3 tests/benchmarks/run_fclib_solvers.py                 # all scenes
  /usr/bin/python3 tests/benchmarks/run_fclib_solvers.py --tol 1e-8 --repeats 7 --json out.json
  /usr/bin/python3 tests/benchmarks/run_fclib_solvers.py --scenes arch fe --keep DIR

Problems (dumped after the listed steps of each run, solved in the run by
GAUSS_SEIDEL_SOLVER(1e-8, 2000, meritval=1e-14)):
  box   box of 4^3 cubes (tests/benchmarks/box_of_cubes, step 5 ms): steps 15, 30, 60, 200
  arch  19-voussoir semicircular arch on a floor (tests/benchmarks/arch, step 2 ms): 1, 50, 200
  fe    two FINITE_ELEMENT HEX8 blocks stacked on a floor (3^3 and 2^3 elements, E = 1e7 Pa,
        step 1 ms; the top one dropped from 1 mm): steps 10, 60, 200

Solvers: our GAUSS_SEIDEL_SOLVER (epsilon = meritval^(1/2) = the setting; 'GS-res': stopping
on the benchmark's error function itself, GaussSeidelOptions::residual = the setting, as
NSGS-full does) and NEWTON_SOLVER (deck defaults, i.e. with its Gauss-Seidel smoothing when
Newton stalls, and 'Newton-prox': proximal = 0.1, the proximal Newton matrix for
rank-deficient W, off by default), both stopping on the benchmark's error function
(NewtonOptions::residual = the setting, meritval 1e-30 out of reach; 'Newton-mer': the
former rule, meritval = setting^2; gsflag 'OFF' so that a failure is Newton's own), called
through the
bound solver API on the block form of the file (solfec.fclib._blocks_from_file); Siconos
fc3d_driver with SICONOS_FRICTION_3D_NSGS (default options: error evaluation
LIGHT_WITH_FULL_FINAL), the same with ERROR_EVALUATION_FULL ('NSGS-full': the full residual
after every sweep, so it stops at the tolerance) and SICONOS_FRICTION_3D_NSN_AC (default
options), each on the sparse-block problem that frictionContact_fclib_read would build.

Time to tolerance: every problem is solved from r = 0. Each solver tries its tolerance
setting from tol 10^3 down to tol 10^-3 (factor 10); the first (loosest) setting whose
solution has Siconos' error <= tol is timed: the trial solve is the warm-up, then the
median of --repeats timings (each the mean of as many solves as take ~20 ms). The choice
is made with hindsight for every solver alike (it favours solvers whose own stopping test
differs from Siconos' error, i.e. ours; NSGS-full stops on that error itself), so each
solver is also timed with its setting = tol ('at tol', no hindsight). A solver fails when it
reaches tol at no setting or reports non-convergence (maxiter, line search) before reaching
it; its row shows that last solve. Times are process CPU time (robust on the shared
machine; wall times go to the JSON). Ours are net of the pybind11 conversion of the problem
lists (measured alone, 'conv').
Single thread (OMP/OPENBLAS_NUM_THREADS = 1).
"""

import argparse
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "box_of_cubes"))
sys.path.insert(0, os.path.join(HERE, "arch"))

RUN_SOLVER = (1e-8, 2000, 1e-14)  # GAUSS_SEIDEL_SOLVER(epsilon, maxiter, meritval) of the runs
SCENES = {"box": (0.005, (15, 30, 60, 200)), "arch": (0.002, (1, 50, 200)),
          "fe": (0.001, (10, 60, 200))}


# ---------------------------------------------------------------- scenes and dumps

def build_fe_stack(S, outdir, step):
    """Two FINITE_ELEMENT HEX8 blocks on a floor: a 0.6 m cube of 3^3 elements resting on
    it and a 0.4 m cube of 2^3 elements, shifted by (0.07, 0.05) m, 1 mm above it."""
    sol = S.SOLFEC("DYNAMIC", step, outdir)
    sol.verbose = "OFF"
    S.OUTPUT(sol, 1000.0)
    bulk = S.BULK_MATERIAL(sol, model="KIRCHHOFF", young=1e7, poisson=0.25, density=1000.0)
    S.SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=0.5, restitution=0.0)
    S.CONTACT_POINTS(sol, 4)  # the dumped problems' contact patches (README: fe-k)
    S.GRAVITY(sol, (0, 0, -9.81))

    def cube(x, y, z, a, n):
        c = [x, y, z, x + a, y, z, x + a, y + a, z, x, y + a, z,
             x, y, z + a, x + a, y, z + a, x + a, y + a, z + a, x, y + a, z + a]
        return S.HEX(c, n, n, n, 1, [1, 2, 3, 4, 5, 6])

    h, t = 2.0, 0.5
    S.BODY(sol, "OBSTACLE", S.HULL([-h, -h, -t, h, -h, -t, h, h, -t, -h, h, -t,
                                    -h, -h, 0, h, -h, 0, h, h, 0, -h, h, 0], 1, 1), bulk)
    bodies = []
    for mesh in (cube(-0.3, -0.3, -1e-5, 0.6, 3), cube(-0.13, -0.15, 0.6 + 1e-3, 0.4, 2)):
        b = S.BODY(sol, "FINITE_ELEMENT", mesh, bulk)
        b.scheme = "DEF_LIM"
        b.damping = 1e-3
        bodies.append(b)
    return sol, bodies


def make_problems(S, scenes, dump_dir, log):
    """Runs each scene and dumps its local dynamics after the listed steps; returns a list
    of problem records {scene, step, t, path, contacts}."""
    import solfec_scene
    import arch_scene
    out = []
    for name in scenes:
        step, dump_steps = SCENES[name]
        rundir = tempfile.mkdtemp(prefix="fclib-run-")
        if name == "box":
            sol, _ = solfec_scene.build_scene(S, 4, step, rundir)
        elif name == "arch":
            sol, _ = arch_scene.build_arch(S, rundir, step)
        else:
            sol, _ = build_fe_stack(S, rundir, step)
        eps, maxiter, meritval = RUN_SOLVER
        gs = S.GAUSS_SEIDEL_SOLVER(eps, maxiter, meritval=meritval, stopping="EITHER")
        done = 0
        for k in dump_steps:
            for _ in range(k - done):
                S.RUN(sol, gs, step)
            done = k
            path = os.path.join(dump_dir, "%s-step%03d.h5" % (name, k))
            nc = S.LOCDYN_DUMP(sol, path, title="%s after step %d" % (name, k))
            log("dumped %-26s %4d contacts (run solve: %s, %d iters)" %
                (os.path.basename(path), nc, gs.error, gs.iters))
            out.append({"scene": name, "step": k, "path": path, "contacts": nc})
        del sol, gs
        shutil.rmtree(rundir, ignore_errors=True)
    return out


# ---------------------------------------------------------------- our merit in numpy

def our_merit(P, r):
    """g(R) of manual eq. 8.1 (src/solvers/merit.h) for FCLIB reactions r (N, T1, T2): per
    contact C = F + m(R - F) + W_aa (R - proj(R)), F = [U_T; U_N + mu |U_T|], m(S) = S -
    proj_FC(S); g = sum <W_aa^-1 C, C> / sum <W_aa^-1 q, q> (q is B plus the restitution
    term, which is zero in these scenes)."""
    nc = P.contacts
    perm = [1, 2, 0]  # ours (T1, T2, N) from FCLIB (N, T1, T2)
    R = np.asarray(r, dtype=float).reshape(nc, 3)[:, perm]
    U = P.velocity(r).reshape(nc, 3)[:, perm]
    B = P.q.reshape(nc, 3)[:, perm]
    mu = P.mu
    Wd = P.W.tocsr()
    D = np.zeros((nc, 3, 3))
    for a in range(nc):
        D[a] = Wd[3 * a:3 * a + 3, 3 * a:3 * a + 3].toarray()[np.ix_(perm, perm)]
    Dinv = np.linalg.inv(D)

    def proj(S):
        st = np.hypot(S[:, 0], S[:, 1])
        sn_ = S[:, 2]
        out = np.zeros_like(S)
        inside = st <= mu * sn_
        out[inside] = S[inside]
        mid = ~inside & (mu * st + sn_ > 0.0)
        pn = (mu[mid] * st[mid] + sn_[mid]) / (1.0 + mu[mid] ** 2)
        sc = mu[mid] * pn / st[mid]
        out[mid, 0], out[mid, 1], out[mid, 2] = sc * S[mid, 0], sc * S[mid, 1], pn
        return out

    F = U.copy()
    F[:, 2] += mu * np.hypot(U[:, 0], U[:, 1])
    S_ = R - F
    C = F + (S_ - proj(S_)) + np.einsum("aij,aj->ai", D, R - proj(R))
    num = np.einsum("ai,aij,aj->", C, Dinv, C)
    den = np.einsum("ai,aij,aj->", B, Dinv, B)
    return float(num / den) if den > 1e-300 else float(num)


# ---------------------------------------------------------------- solvers

def ladder(tol):
    """Tolerance settings tried from loose to tight: tol 10^3 ... tol 10^-3 (the first whose
    solution meets Siconos' error <= tol is timed)."""
    return [tol * 10.0 ** (3 - k) for k in range(7)]


_CONV = {}  # problem path -> pybind11 conversion time of its lists (OurSolver.prepare)


class OurSolver:
    def __init__(self, S, kind, tol, maxiter):
        from solfec import fclib
        self.S, self.kind, self.fclib, self.maxiter = S, kind, fclib, maxiter
        self.ladder = [v * v if kind == "NEWTON-mer" else v for v in ladder(tol)]

    def setting(self, v):
        return {"GS": "eps=%.0e", "GS-res": "res=%.0e", "NEWTON": "res=%.0e",
                "NEWTON-prox": "res=%.0e", "NEWTON-mer": "merit=%.0e"}[self.kind] % v

    def prepare(self, P):
        self.blocks = self.fclib._blocks_from_file(P.path)
        if P.scale != 1.0:
            self.blocks = (self.blocks[0], self.blocks[1],
                           [P.scale * w for w in self.blocks[2]]) + self.blocks[3:]
        # pybind11 converts all arguments before the call's size check throws: a call with
        # one mu too many times the conversion alone.
        # Measured once per problem and shared by all our solvers (51 samples): a separate
        # noisy estimate per solver shifted sub-millisecond times by up to ~0.1 ms.
        if P.path in _CONV:
            self.conv = _CONV[P.path]
            return
        bad = self.blocks[:4] + (self.blocks[4] + [0.0],)
        probe = self.S.GAUSS_SEIDEL_SOLVER(1e-6, 1)
        ts = []
        for _ in range(51):
            t0 = time.process_time()
            try:
                self.S._solfec.solve_contact_problem(probe._s, *bad)
            except Exception:
                pass
            ts.append(time.process_time() - t0)
        self.conv = _CONV[P.path] = statistics.median(ts)

    def solve(self, v):
        S = self.S
        if self.kind == "GS":
            s = S.GAUSS_SEIDEL_SOLVER(v, self.maxiter, meritval=v * v, stopping="EITHER")
        elif self.kind == "GS-res":
            # Stops on the relative natural-map residual (Siconos' fc3d_compute_error, the
            # benchmark's error function) of the iterate each sweep starts from; epsilon and
            # meritval set out of reach; diagepsilon as GS with epsilon = v would have it.
            s = S.GAUSS_SEIDEL_SOLVER(1e-15, self.maxiter, meritval=1e-30,
                                      diagepsilon=min(v, 1e-4) / 100.0, residual=v)
        else:
            # Deck defaults (Gauss-Seidel smoothing 10 when Newton stalls); Newton-prox adds
            # the proximal Newton matrix (proximal=0.1, off by default).
            # NEWTON / NEWTON-prox stop on the benchmark's error function (residual = v,
            # checked after every Newton step and smoothing round; meritval out of reach);
            # NEWTON-mer on the merit (meritval = v = setting^2), the former rule.
            prox = 0.1 if self.kind == "NEWTON-prox" else 0.0
            if self.kind == "NEWTON-mer":
                s = S.NEWTON_SOLVER(meritval=v, maxiter=self.maxiter, gsflag="OFF")
            else:
                s = S.NEWTON_SOLVER(meritval=1e-30, maxiter=self.maxiter, gsflag="OFF",
                                    proximal=prox)
                s._s.residual = v
        w0, t0 = time.perf_counter(), time.process_time()
        R, U, merit = self.fclib._solve_blocks(s, self.blocks)
        t, w = time.process_time() - t0 - self.conv, time.perf_counter() - w0 - self.conv
        return {"r": R.reshape(-1), "time": max(t, 0.0), "wall": max(w, 0.0),
                "iters": s.iters, "own": s.error, "merit_own": merit}


class SiconosSolver:
    def __init__(self, sn, kind, tol, maxiter):
        self.sn, self.kind, self.maxiter = sn, kind, maxiter
        self.id = (sn.SICONOS_FRICTION_3D_NSN_AC if kind == "NSN_AC"
                   else sn.SICONOS_FRICTION_3D_NSGS)
        # NSGS-full: error evaluation FULL (fc3d_compute_error after every sweep) instead of
        # the default LIGHT_WITH_FULL_FINAL (relative change of r, full check at the end).
        self.iparam = ({sn.SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION:
                        sn.SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_FULL}
                       if kind == "NSGS-full" else {})
        self.ladder = ladder(tol)
        self.conv = 0.0

    def setting(self, v):
        return "tol=%.0e" % v

    def prepare(self, P):
        self.P = P

    def solve(self, v):
        w0, t0 = time.perf_counter(), time.process_time()
        info, r, u, iters, resid = self.P.solve(self.id, v, self.maxiter, iparam=self.iparam)
        t, w = time.process_time() - t0, time.perf_counter() - w0
        return {"r": r, "time": t, "wall": w, "iters": iters,
                "own": "OK" if info == 0 else "info=%d" % info, "merit_own": resid}


def timed(solver, v, first):
    """One timed repeat: the mean of as many solves as take ~20 ms (at least one), so that
    sub-millisecond solves are not timer and scheduler noise."""
    k = max(1, min(200, int(0.02 / max(first, 1e-6))))
    return statistics.fmean(solver.solve(v)["time"] for _ in range(k))


def run_solver(solver, P, tol, repeats):
    """Ladder search, then warm-up + median of `repeats` at the chosen setting."""
    solver.prepare(P)
    last = None
    for v in solver.ladder:
        res = solver.solve(v)  # the trial solve doubles as the warm-up
        res["error"] = P.error(res["r"])
        res["setting"] = solver.setting(v)
        last = res
        if math.isfinite(res["error"]) and res["error"] <= tol:
            runs = [solver.solve(v) for _ in range(repeats)]
            res["wall"] = statistics.median(x["wall"] for x in runs)
            res["times"] = [timed(solver, v, x["time"]) for x in runs]
            res["time"] = statistics.median(res["times"])
            res["success"] = True
            break
        if res["own"] != "OK":
            # The solver itself did not converge (maxiter, line search): a tighter setting
            # of its tolerance would not help, so the ladder stops here.
            res["success"] = False
            break
    else:
        last["success"] = False
        res = last
    res["merit"] = our_merit(P, res["r"])
    res["conv"] = solver.conv
    del res["r"]
    # Without hindsight: the setting = tol itself (GS epsilon = tol, meritval = tol^2; Newton
    # residual = tol, Newton-mer meritval = tol^2; Siconos tolerance = tol), as a user would
    # run the solver.
    at = solver.ladder[3]
    if res["success"] and res["setting"] == solver.setting(at):
        res["fixed"] = {"time": res["time"], "error": res["error"], "success": True}
    elif res["success"]:
        first = solver.solve(at)
        err = P.error(first["r"])
        times = [timed(solver, at, first["time"]) for _ in range(repeats)]
        res["fixed"] = {"time": statistics.median(times), "error": err,
                        "success": bool(err <= tol)}
    else:
        res["fixed"] = {"time": res["time"], "error": res["error"], "success": False}
    return res


# ---------------------------------------------------------------- report

SOLVERS = ("solfec GS", "solfec GS-res", "solfec Newton", "solfec Newton-prox",
           "solfec Newton-mer", "Siconos NSGS", "Siconos NSGS-full", "Siconos NSN_AC")
SICONOS = SOLVERS[5:]


def table(records, tol):
    lines = []
    hdr = ("%-9s %4s %-17s %9s %6s %3s %-8s %8s %8s %-11s %6s %8s | %9s %8s %8s" %
           ("problem", "cont", "solver", "cpu ms", "iters", "ok", "own",
            "sic.err", "our g", "setting", "conv", "vs best", "at tol ms", "sic.err",
            "vs best"))
    lines += [hdr, "-" * len(hdr)]
    for rec in records:
        name = "%s-%d" % (rec["scene"], rec["step"])
        sic = [rec["results"][s] for s in SICONOS if rec["results"][s]["success"]]
        best = min((x["time"] for x in sic), default=None)
        fsic = [rec["results"][s]["fixed"] for s in SICONOS]
        fbest = min((x["time"] for x in fsic if x["success"]), default=None)
        for s in SOLVERS:
            x = rec["results"][s]
            ratio = ("%7.2fx" % (x["time"] / best)) if (best and x["success"]) else "      -"
            fx = x["fixed"]
            fratio = ("%7.2fx" % (fx["time"] / fbest)) if (fbest and fx["success"]) else "      -"
            lines.append("%-9s %4d %-17s %9.3f %6d %3s %-8s %8.1e %8.1e %-11s %6.2f %8s | "
                         "%9.3f %8.1e %8s" % (
                             name, rec["contacts"], s, 1e3 * x["time"], x["iters"],
                             "yes" if x["success"] else "NO", x["own"][:8],
                             x["error"], x["merit"], x["setting"], 1e3 * x["conv"], ratio,
                             1e3 * fx["time"], fx["error"],
                             fratio if fx["success"] else "  FAIL"))
            name = ""
    lines.append("")
    lines.append("cpu ms: time to tolerance (Siconos fc3d_compute_error <= %.0e) at the "
                 "loosest setting that reaches it, process CPU time, median of the repeats (a "
                 "failed solver: its last solve; wall times are in the JSON); iters, own (the "
                 "solver's own verdict), sic.err (that error), our g (our merit of the same "
                 "solution): of the timed setting; conv: ms of pybind11 conversion taken off "
                 "our times; vs best: / the fastest successful Siconos solver. After '|': the "
                 "same solver with its setting = tol (no hindsight)." % tol)
    return "\n".join(lines)


def _verdicts(records, key, newton):
    """Target checks on the timed results (key None) or the setting-at-tol ones ('fixed')."""
    def get(R, s):
        return R[s] if key is None else R[s][key]
    gs_ok, nt_ok, notes = [], [], []
    for rec in records:
        name = "%s-%d" % (rec["scene"], rec["step"])
        R = rec["results"]
        nt = get(R, newton)
        # The faster of our two stopping tests (relative change / merit, or the residual).
        gs = min((get(R, s) for s in ("solfec GS", "solfec GS-res")),
                 key=lambda x: (not x["success"], x["time"]))
        # The faster of the two NSGS error evaluations (the stricter comparison).
        nsgs = min((get(R, s) for s in ("Siconos NSGS", "Siconos NSGS-full")),
                   key=lambda x: (not x["success"], x["time"]))
        sic = [get(R, s)["time"] for s in SICONOS if get(R, s)["success"]]
        ok = gs["success"] and (not nsgs["success"] or gs["time"] <= nsgs["time"])
        gs_ok.append(ok)
        if not ok:
            notes.append("  GS misses on %s: %s ms vs NSGS %s ms" % (
                name, "%.3f" % (1e3 * gs["time"]) if gs["success"] else "failed",
                "%.3f" % (1e3 * nsgs["time"]) if nsgs["success"] else "failed"))
        if nt["success"] and sic:
            ok = nt["time"] <= 2.0 * min(sic)
            nt_ok.append(ok)
            if not ok:
                notes.append("  Newton misses on %s: %.3f ms = %.2fx the fastest Siconos "
                             "%.3f ms" % (name, 1e3 * nt["time"], nt["time"] / min(sic),
                                          1e3 * min(sic)))
        elif not nt["success"]:
            notes.append("  Newton fails on %s (error %.1e)" % (name, nt["error"]))
    return gs_ok, nt_ok, notes


def targets(records):
    out = []
    for key, what in ((None, "loosest setting reaching tol"), ("fixed", "setting = tol")):
        gs_ok, nt_ok, notes = _verdicts(records, key, "solfec Newton")
        _, ntp_ok, notes_p = _verdicts(records, key, "solfec Newton-prox")
        _, ntm_ok, notes_m = _verdicts(records, key, "solfec Newton-mer")
        notes += [x.replace("Newton", "Newton-prox") for x in notes_p if "GS misses" not in x]
        notes += [x.replace("Newton", "Newton-mer") for x in notes_m if "GS misses" not in x]
        out += ["%s:" % what,
                " target 1, our GS (faster of GS, GS-res) no slower than Siconos NSGS (faster "
                "of NSGS, NSGS-full) on every problem: %s (%d of %d)" % (
                    "MET" if all(gs_ok) else "MISSED", sum(gs_ok), len(gs_ok)),
                " target 2, our Newton within 2x of the fastest Siconos solver where it "
                "converges (residual stop): default %s (%d of %d converged problems), "
                "proximal 0.1 %s (%d of %d); merit stop (Newton-mer) %s (%d of %d)" % (
                    "MET" if all(nt_ok) else "MISSED", sum(nt_ok), len(nt_ok),
                    "MET" if all(ntp_ok) else "MISSED", sum(ntp_ok), len(ntp_ok),
                    "MET" if all(ntm_ok) else "MISSED", sum(ntm_ok), len(ntm_ok))] + notes
    fails = []
    for rec in records:
        name = "%s-%d" % (rec["scene"], rec["step"])
        for s in SOLVERS:
            x = rec["results"][s]
            if not x["success"]:
                fails.append("  %s failed on %s: error %.2e at %s (%s, %d iters)" % (
                    s, name, x["error"], x["setting"], x["own"], x["iters"]))
            elif x["own"] != "OK":
                fails.append("  %s on %s met tol but reported %s (%d iters)" % (
                    s, name, x["own"], x["iters"]))
    out.append("target 3, no failure without a report: %d failures or own-verdict "
               "failures, all listed:" % len(fails))
    return "\n".join(out + fails)


def machine():
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    rev = ""
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    return "%s, %d cpus, load %s, %s; solfec at %s" % (
        cpu, os.cpu_count(), " ".join("%.1f" % x for x in os.getloadavg()),
        time.strftime("%Y-%m-%d %H:%M"), rev)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenes", nargs="+", default=["box", "arch", "fe"],
                    choices=sorted(SCENES))
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--maxiter-gs", type=int, default=10000,
                    help="sweeps of our GS and of Siconos NSGS")
    ap.add_argument("--maxiter-newton", type=int, default=500,
                    help="iterations of our Newton and of Siconos NSN_AC")
    ap.add_argument("--build", help="solfec build dir (default SOLFEC_BUILD_DIR, build-bench, "
                    "build)")
    ap.add_argument("--keep", help="dump the problems into this folder and keep them")
    ap.add_argument("--problems", help="solve the dumps kept in this folder by an earlier "
                    "--keep run (<scene>-step<k>.h5) instead of running the scenes")
    ap.add_argument("--units", choices=("run", "impulse"), default="run",
                    help="run: the dumped problem as is (r = the step's force, solfec's "
                    "units); impulse: W / h, r = h R (Siconos' units); both error measures "
                    "are unit-dependent")
    ap.add_argument("--json")
    a = ap.parse_args()

    from solfec_scene import import_solfec
    S = import_solfec(a.build)
    import solfec._solfec  # noqa: F401  (S._solfec used by OurSolver)
    try:
        import siconos.numerics as sn
        import scipy.sparse  # noqa: F401
    except ImportError:
        sys.exit("run_fclib_solvers.py: needs Debian's python3-siconos and python3-scipy "
                 "(apt-get install python3-siconos python3-scipy); use /usr/bin/python3")
    import fclib_siconos as FS

    def log(msg):
        print(msg, flush=True)

    dump_dir = a.keep or a.problems or tempfile.mkdtemp(prefix="fclib-problems-")
    os.makedirs(dump_dir, exist_ok=True)
    if a.problems:
        problems = []
        for name in a.scenes:
            for k in SCENES[name][1]:
                path = os.path.join(a.problems, "%s-step%03d.h5" % (name, k))
                problems.append({"scene": name, "step": k, "path": path,
                                 "contacts": len(FS.read_fclib_local(path)["mu"])})
    else:
        problems = make_problems(S, a.scenes, dump_dir, log)
    solvers = {"solfec GS": OurSolver(S, "GS", a.tol, a.maxiter_gs),
               "solfec GS-res": OurSolver(S, "GS-res", a.tol, a.maxiter_gs),
               "solfec Newton": OurSolver(S, "NEWTON", a.tol, a.maxiter_newton),
               "solfec Newton-prox": OurSolver(S, "NEWTON-prox", a.tol, a.maxiter_newton),
               "solfec Newton-mer": OurSolver(S, "NEWTON-mer", a.tol, a.maxiter_newton),
               "Siconos NSGS": SiconosSolver(sn, "NSGS", a.tol, a.maxiter_gs),
               "Siconos NSGS-full": SiconosSolver(sn, "NSGS-full", a.tol, a.maxiter_gs),
               "Siconos NSN_AC": SiconosSolver(sn, "NSN_AC", a.tol, a.maxiter_newton)}
    for rec in problems:
        h = SCENES[rec["scene"]][0]
        P = FS.SiconosProblem(rec["path"], 1.0 / h if a.units == "impulse" else 1.0)
        P.path = rec["path"]
        rec["results"] = {}
        for name, s in solvers.items():
            res = run_solver(s, P, a.tol, a.repeats)
            rec["results"][name] = res
            log("  %-18s %-15s %s %9.3f ms, %5d iters, error %.2e, g %.2e (%s)" % (
                "%s-%d" % (rec["scene"], rec["step"]), name,
                "ok  " if res["success"] else "FAIL", 1e3 * res["time"], res["iters"],
                res["error"], res["merit"], res["setting"]))
    print()
    print("FCLIB problems from our runs: solfec against Siconos 4.4 numerics, tolerance %.0e, "
          "median of %d repeats, %s units" % (a.tol, a.repeats, a.units))
    print("machine: " + machine())
    print()
    print(table(problems, a.tol))
    print()
    print(targets(problems))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"tol": a.tol, "repeats": a.repeats, "units": a.units,
                       "machine": machine(),
                       "problems": problems}, f, indent=1, default=float)
    if not a.keep and not a.problems:
        shutil.rmtree(dump_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
