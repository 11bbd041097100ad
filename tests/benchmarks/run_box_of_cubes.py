#!/usr/bin/env python3
"""Box-of-cubes benchmark: solfec's Gauss-Seidel against Siconos 4.4 NSGS, side by side.

Usage (as root, or with sudo available for the one-time apt-get):
  /usr/bin/python3 tests/benchmarks/run_box_of_cubes.py [--n 4 5] [--duration 1.0]
      [--step 5e-3] [--build DIR] [--json OUT]

Installs python3-siconos and python3-scipy with apt-get when missing (idempotent), builds
solfec with cmake/setup.sh when no build is found, then runs box_of_cubes/solfec_scene.py
and box_of_cubes/siconos_scene.py one after the other in fresh single-threaded processes
(OMP_NUM_THREADS = OPENBLAS_NUM_THREADS = 1) and prints a table (ms/step, iterations,
converged share, contacts, ratio) and solfec's Gauss-Seidel throughput against this
machine's memory bandwidth (box_of_cubes/bandwidth.cc compiled into a temporary folder).
See tests/benchmarks/README.md for what every number means.
"""

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCENES = os.path.join(HERE, "box_of_cubes")
PY = "/usr/bin/python3"  # Debian's interpreter owns numpy/scipy/siconos
APT_PACKAGES = ("python3-siconos", "python3-scipy")
BYTES_PER_BLOCK = 72 + 4 + 24  # W block (9 doubles) + column index + the R_c it multiplies


def log(msg):
    print("[bench] " + msg, flush=True)


def installed(pkg):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True, text=True)
    return "install ok installed" in r.stdout


def ensure_packages():
    missing = [p for p in APT_PACKAGES if not installed(p)]
    if not missing:
        return
    log("installing " + " ".join(missing))
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing,
                   check=True, env=env)


def find_build(build):
    for c in (build, os.environ.get("SOLFEC_BUILD_DIR"), os.path.join(ROOT, "build-bench"),
              os.path.join(ROOT, "build")):
        if c and os.path.isdir(os.path.join(c, "python", "solfec")) and \
                any(f.startswith("_solfec") for f in os.listdir(os.path.join(c, "python", "solfec"))):
            return c
    target = build or os.path.join(ROOT, "build-bench")
    log("no solfec build found; building into " + target)
    env = dict(os.environ, SOLFEC_BUILD_DIR=target, SOLFEC_JOBS=os.environ.get("SOLFEC_JOBS", "2"))
    subprocess.run(["bash", os.path.join(ROOT, "cmake", "setup.sh")], check=True, env=env)
    return target


def serial_env(extra=None):
    env = dict(os.environ)
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[k] = "1"
    env.update(extra or {})
    return env


def run_scene(script, n, duration, step, out, extra_args=(), extra_env=None):
    cmd = [PY, os.path.join(SCENES, script), str(n), str(duration), str(step), "--json", out,
           *extra_args]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=serial_env(extra_env))
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        return None, dt, (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-15:]
    # Siconos prints solver warnings on stdout; keep the count, not the text.
    warn = r.stdout.count("Non smooth solver warning")
    with open(out) as f:
        rec = json.load(f)
    rec["solver_warnings"] = warn
    rec["process_s"] = dt
    return rec, dt, None


def bandwidth(tmp):
    """{label: (read GB/s, copy GB/s)} for an L2-sized, an L3-sized and a DRAM-sized set."""
    exe = os.path.join(tmp, "bandwidth")
    cxx = shutil.which("g++") or shutil.which("c++")
    if cxx is None:
        return {}
    subprocess.run([cxx, "-O3", "-march=native", "-o", exe,
                    os.path.join(SCENES, "bandwidth.cc")], check=True)
    out = {}
    for label, size in (("L2 (512 KiB)", 512 << 10), ("L3 (8 MiB)", 8 << 20),
                        ("DRAM (512 MiB)", 512 << 20)):
        r = subprocess.run([exe, str(size), "1.0"], capture_output=True, text=True, check=True)
        rd, cp = (float(x) for x in r.stdout.split())
        out[label] = (rd, cp)
    return out


def summary(rec):
    steps = len(rec["wall"])
    solved = [i for i, c in enumerate(rec["contacts"]) if c > 0]
    s = {
        "steps": steps,
        "ms_step": 1e3 * sum(rec["wall"]) / steps,
        "cpu_ms_step": 1e3 * sum(rec["cpu"]) / steps if "cpu" in rec else float("nan"),
        "iters": sum(rec["iters"][i] for i in solved) / max(1, len(solved)),
        "max_iters": max(rec["iters"]) if rec["iters"] else 0,
        "conv": 100.0 * sum(rec["converged"]) / steps,
        "contacts": sum(rec["contacts"]) / steps,
        "max_contacts": max(rec["contacts"]),
    }
    # The common yardstick: Siconos' relative error fc3d_compute_error <= 1e-6 of each
    # step's problem (Siconos: NSGS's final residual; solfec: gs.resid, the same function of
    # r = h R, M = W / h, q = B).
    if rec["code"] == "siconos":
        res = rec["residual"]
        ok = [c == 0 or r <= 1e-6 for c, r in zip(rec["contacts"], res)]
    else:
        res = rec["resid"]
        ok = [c == 0 or r <= 1e-6 for c, r in zip(rec["constraints"], res)]
    s["resid_ok"] = 100.0 * sum(ok) / steps
    solved_res = [r for c, r in zip(rec["contacts"], res) if c > 0]
    s["max_resid"] = max(solved_res) if solved_res else 0.0
    if rec["code"] == "solfec":
        for st in ("TIMINT", "CONUPD", "CONDET", "LOCDYN", "CONSOL"):
            s[st] = 1e3 * sum(rec[st]) / steps
        updates = sum(i * b for i, b in zip(rec["iters"], rec["blocks"]))
        consol = sum(rec["CONSOL"])
        s["blocks"] = sum(rec["blocks"]) / steps
        s["max_blocks"] = max(rec["blocks"])
        s["updates_per_s"] = updates / consol if consol > 0 else float("nan")
        # TIMING is wall clock: on a loaded machine, scale each step's CONSOL by the step's
        # CPU / wall ratio for an estimate of the solver's CPU time.
        consol_cpu = sum(c * (u / w if w > 0 else 1.0)
                         for c, u, w in zip(rec["CONSOL"], rec["cpu"], rec["wall"]))
        s["updates_per_s_cpu"] = updates / consol_cpu if consol_cpu > 0 else float("nan")
        s["updates"] = updates
        s["gs_bytes_per_s"] = s["updates_per_s"] * BYTES_PER_BLOCK
        s["W_bytes_max"] = s["max_blocks"] * (72 + 4)
    return s


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    p.add_argument("--n", type=int, nargs="+", default=[4, 5])
    p.add_argument("--duration", type=float, default=1.0)
    p.add_argument("--step", type=float, default=5e-3)
    p.add_argument("--build", help="solfec build directory")
    p.add_argument("--json", help="write all per-step records and summaries here")
    p.add_argument("--skip-siconos", action="store_true")
    p.add_argument("--maxiter", type=int, default=1000, help="sweeps of both solvers")
    a = p.parse_args(argv)

    if not a.skip_siconos:
        try:
            ensure_packages()
        except (subprocess.CalledProcessError, FileNotFoundError) as e:
            log("cannot install %s: %s; running solfec only" % (" ".join(APT_PACKAGES), e))
            a.skip_siconos = True
    build = find_build(a.build)
    log("solfec build: " + build)
    tmp = tempfile.mkdtemp(prefix="bench-box-")
    results = {"machine": {}, "runs": []}
    try:
        for n in a.n:
            mi = ["--maxiter", str(a.maxiter)]
            for code, script, extra in (("solfec", "solfec_scene.py", ["--build", build] + mi),
                                        ("siconos", "siconos_scene.py", mi)):
                if code == "siconos" and a.skip_siconos:
                    continue
                log("running %s n=%d for %g s of simulated time ..." % (code, n, a.duration))
                out = os.path.join(tmp, "%s-%d.json" % (code, n))
                rec, dt, err = run_scene(script, n, a.duration, a.step, out, extra)
                if rec is None:
                    log("%s n=%d FAILED after %.1f s:\n    %s" % (code, n, dt, "\n    ".join(err)))
                    results["runs"].append({"code": code, "n": n, "error": err})
                    continue
                rec["summary"] = summary(rec)
                log("  done in %.1f s" % dt)
                results["runs"].append(rec)
        log("measuring memory bandwidth ...")
        bw = bandwidth(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()
    git = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "src", "python"],
                           capture_output=True, text=True).stdout.strip().splitlines()
    results["machine"] = {"cpu": cpu, "ncpu": os.cpu_count(), "loadavg": load,
                          "bandwidth_GBps": bw, "date": time.strftime("%Y-%m-%d %H:%M"),
                          "git": git + (" + %d changed files in src/ python/" % len(dirty)
                                        if dirty else "")}
    print_report(results, a)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f)
    return 0


def print_report(results, a):
    runs = [r for r in results["runs"] if "summary" in r]
    by = {(r["code"], r["n"]): r["summary"] for r in runs}
    m = results["machine"]
    print()
    print("Box of cubes: %g s simulated, step %g s (%d steps), friction 0.3, restitution 0, "
          "both codes stopping on Siconos' relative error 1e-6, maxiter %d" %
          (a.duration, a.step, round(a.duration / a.step), a.maxiter))
    print("machine: %s, %d cpus, load average %.1f %.1f %.1f, %s; solfec at %s" %
          (m["cpu"], m["ncpu"], *m["loadavg"], m["date"], m["git"]))
    print()
    hdr = ("%3s  %-8s %10s %10s %10s %9s %10s %10s %10s %9s %8s %8s" %
           ("n", "code", "ms/step", "cpu ms/st", "avg iters", "max iter", "converged",
            "resid<=1e-6", "max resid", "contacts", "ratio", "cpu ratio"))
    print(hdr)
    print("-" * len(hdr))
    for n in a.n:
        for code in ("solfec", "siconos"):
            s = by.get((code, n))
            if s is None:
                err = next((r["error"] for r in results["runs"]
                            if r.get("code") == code and r.get("n") == n and "error" in r), None)
                if err is not None or not (code == "siconos" and a.skip_siconos):
                    print("%3d  %-8s %s" % (n, code, "FAILED: " + (err[-1] if err else "not run")))
                continue
            ratio = cratio = ""
            if code == "siconos" and ("solfec", n) in by:
                f = by[("solfec", n)]
                ratio = "%.1fx" % (s["ms_step"] / f["ms_step"])
                cratio = "%.1fx" % (s["cpu_ms_step"] / f["cpu_ms_step"])
            print("%3d  %-8s %10.3f %10.3f %10.1f %9d %9.1f%% %10.1f%% %10.2e %9.1f %8s %8s" %
                  (n, code, s["ms_step"], s["cpu_ms_step"], s["iters"], s["max_iters"], s["conv"],
                   s["resid_ok"], s["max_resid"], s["contacts"], ratio, cratio))
    print()
    print("ratio = Siconos ms/step / solfec ms/step (wall clock); cpu ratio: the same with "
          "process CPU time\n(robust to a loaded machine). avg iters: over the steps that solved "
          "a contact problem.\nconverged: the solver's own test (solfec: gs.error == 'OK'; "
          "Siconos: NSGS residual <= 1e-6).\nresid<=1e-6: Siconos' fc3d_compute_error of the "
          "step's problem <= 1e-6 (Siconos: NSGS's\nfinal residual; solfec: gs.resid, the same "
          "function of r = h R, M = W / h, q = B); max resid: its\nlargest value over the "
          "steps with contacts. Both shares are over all steps (a step without\ncontacts "
          "counts as converged).")
    print()
    # Siconos stops short of 1e-6 at maxiter on some steps, so the ratios above are lower
    # bounds at equal residual; the same ratio over the steps where Siconos did reach it
    # (same step numbers of both runs: the scenes match step by step in contact counts).
    recs = {(r["code"], r["n"]): r for r in runs}
    for n in a.n:
        f, g = recs.get(("solfec", n)), recs.get(("siconos", n))
        if not (f and g):
            continue
        idx = [i for i, (c, r) in enumerate(zip(g["contacts"], g["residual"]))
               if c > 0 and r <= 1e-6 and i < len(f["cpu"])]
        if idx:
            sc, fc = sum(g["cpu"][i] for i in idx), sum(f["cpu"][i] for i in idx)
            print("n=%d: over the %d steps with contacts where Siconos reached 1e-6: Siconos "
                  "%.3f, solfec %.3f cpu ms/step, cpu ratio %.1fx" %
                  (n, len(idx), 1e3 * sc / len(idx), 1e3 * fc / len(idx), sc / fc))
    print()
    print("solfec stage times, ms/step (TIMING):")
    print("%3s %8s %8s %8s %8s %8s %10s" % ("n", "TIMINT", "CONUPD", "CONDET", "LOCDYN", "CONSOL",
                                           "W blocks"))
    for n in a.n:
        s = by.get(("solfec", n))
        if s:
            print("%3d %8.3f %8.3f %8.3f %8.3f %8.3f %10.0f" %
                  (n, s["TIMINT"], s["CONUPD"], s["CONDET"], s["LOCDYN"], s["CONSOL"], s["blocks"]))
    print()
    bw = m["bandwidth_GBps"]
    print("Gauss-Seidel throughput = sum(iters x W blocks) / sum(CONSOL time); %d bytes per block "
          "update\n(72 W + 4 column index + 24 R):" % BYTES_PER_BLOCK)
    for n in a.n:
        s = by.get(("solfec", n))
        if not s:
            continue
        gbs = s["gs_bytes_per_s"] / 1e9
        gbc = s["updates_per_s_cpu"] * BYTES_PER_BLOCK / 1e9
        fr = ", ".join("%.0f-%.0f%% of %s read %.1f GB/s" % (100 * gbs / v[0], 100 * gbc / v[0], k,
                                                             v[0]) for k, v in bw.items())
        print("  n=%d: %.3g block updates/s by wall CONSOL, %.3g by CPU-scaled CONSOL\n"
              "       = %.2f-%.2f GB/s (W up to %.0f KiB): %s" %
              (n, s["updates_per_s"], s["updates_per_s_cpu"], gbs, gbc, s["W_bytes_max"] / 1024,
               fr))
    if bw:
        print("memory bandwidth (best of 1 s, read / copy GB/s): " +
              "; ".join("%s %.1f / %.1f" % (k, v[0], v[1]) for k, v in bw.items()))
    print()
    for n in a.n:
        f, s = by.get(("solfec", n)), by.get(("siconos", n))
        if f and s:
            ok = (s["cpu_ms_step"] / f["cpu_ms_step"] >= 20.0 and f["resid_ok"] == 100.0
                  and s["resid_ok"] == 100.0)
            print("target n=%d (>= 20x faster per step in CPU time, every step of both codes at "
                  "resid <= 1e-6): %s (%.1fx wall, %.1fx cpu; solfec %.1f%%, Siconos %.1f%% of "
                  "the steps at 1e-6)" %
                  (n, "MET" if ok else "NOT MET", s["ms_step"] / f["ms_step"],
                   s["cpu_ms_step"] / f["cpu_ms_step"], f["resid_ok"], s["resid_ok"]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
