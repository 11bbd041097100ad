#!/usr/bin/env python3
"""Runs Solfec-1.0's decks (the corpus: inp/, examples/, tests/BM*) with solfec and prints a table.

    python3 tests/compat/run_corpus.py CORPUS_DIR [--limit SECONDS] [--jobs N] [--only PATTERN]
                                       [--solfec PATH] [--markdown FILE] [--keep DIR]

Each deck runs from the root of a fresh scratch copy of the corpus (the decks read `inp/mesh/...` and
write `out/...` relative to it), with a wall-clock limit (default 60 s), N decks at a time
(default 2). Status of a deck:
  finished       the deck ran to its end (exit code 0)
  running        still running at the limit, without an error (stopped there)
  error          stopped with an error: the first error line is shown
(a validation deck's PASSED / FAILED verdict is shown in the last column)
  outside Debian needs a program outside solfec and Debian (Parmec, modred, abaqusreader): not run
                 (or stopped at HYBRID_SOLVER, which needs Parmec)
  library        a file other decks import or execfile, not a deck: not run
Decks that need another deck's results run after it, in the same job.
The last line is a summary; the exit code is 0 unless a deck ended with `error`.
"""

import argparse
import fnmatch
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Decks that need a program outside solfec and Debian: not run (reason shown).
OUTSIDE = {
    "inp/fratest.py": "abaqusreader (Abaqus input reader, not in Debian)",
    "examples/81array/81array.py": "abaqusreader and modred (not in Debian)",
    "examples/81array/81fbi.py": "modred (not in Debian)",
    "examples/81array/81postp.py": "results of 81array.py (abaqusreader, modred)",
    "inp/devel/hybrid_modeling/hybrid_solver.py": "Parmec (HYBRID_SOLVER)",
    "examples/hybrid-solver0/hs0-solfec-1.py": "Parmec (HYBRID_SOLVER)",
    "examples/hybrid-solver0/hs0-solfec-2.py": "Parmec (HYBRID_SOLVER)",
    "examples/hybrid-solver1/hs1-solfec.py": "Parmec (HYBRID_SOLVER)",
    "examples/hybrid-solver2/hs2-solfec.py": "Parmec (HYBRID_SOLVER)",
    "examples/hybrid-solver3/hs3-solfec.py": "Parmec (HYBRID_SOLVER)",
    "examples/hybrid-solver4/hs4-hybrid.py": "Parmec (HYBRID_SOLVER)",
    "examples/hybrid-solver4/hs4-solfec.py": "Parmec's mesh_hex module (hs4-globals.py)",
    "examples/hybrid-solver4/hs4-run-all.py": "Parmec (runs the hs4 decks with parmec)",
    "examples/hybrid-solver4/hs4-postp.py": "results of the Parmec runs (hs4-run-all.py)",
    "examples/reduced-order0/ro0-convtest.py": "modred (ro0-lib.py)",
    "examples/reduced-order0/ro0-elong.py": "modred (ro0-lib.py)",
    "examples/reduced-order0/ro0-energy.py": "modred (ro0-lib.py)",
    "examples/reduced-order0/ro0-gen-bases.py": "modred (ro0-lib.py)",
    "examples/reduced-order0/ro0-run-all.py": "modred (ro0-lib.py)",
    "examples/reduced-order0/ro0-view.py": "modred (ro0-lib.py)",
    "examples/reduced-order1/ro1-modred.py": "modred (not in Debian)",
    "examples/reduced-order1/ro1-run-all.py": "modred (runs ro1-modred.py)",
    "examples/reduced-order1/ro1-reduced.py": "modred (ro1-modred.py computes its base)",
    "examples/reduced-order1/ro1-postp.py": "results of ro1-reduced.py (modred)",
    "examples/reduced-order1/ro1-view.py": "the base ro1-modred.py computes (modred)",
}
OUTSIDE.update({
    "examples/hybrid-solver2/hs2-solfec-only.py": "Parmec (its acc_sweep module; looks for parmec4)",
    "examples/parallel-scaling/array-of-cubes.py": "acc_sweep.py of Solfec-1.0's source tree "
                                                   "(scripts/, beside its solfec program)",
})
OUTSIDE_PATTERNS = [
    ("examples/hybrid-solver*/*parmec*.py", "a Parmec deck (Parmec is not in Debian)"),
    ("examples/parallel-scaling/tr2-jobs-*.py", "a cluster job script (submits with SLURM's sbatch)"),
]

# Files other decks import or execfile: not decks.
LIBRARIES = {
    "inp/cores/inc/simple_core_base.py", "inp/mesh/netgenread.py",
    "inp/devel/hybrid_modeling/acc_sweep.py", "examples/hybrid-solver4/hs4-globals.py",
    "examples/reduced-order0/ro0-lib.py", "examples/reduced-order1/ro1-lib.py",
}

# Decks that need another deck's results first: (first, second) run in this order in one job.
PAIRS = [
    ("inp/devel/initialise-state-1.py", "inp/devel/initialise-state-2.py"),
    ("inp/devel/rigid-to-fem-1.py", "inp/devel/rigid-to-fem-2.py"),
    ("inp/devel/long-input-motion/generate.py", "inp/devel/long-input-motion/long-series.py"),
]

# Command-line arguments some decks require.
DECK_ARGS = {"examples/time-series/ts-gen.py": ["10"]}
# Decks to run from their own directory (they say so).
DECK_CWD = {"inp/devel/long-input-motion/generate.py"}

def corpus_decks(corpus):
    decks = []
    for top in ("inp", "examples"):
        for d, _, files in os.walk(os.path.join(corpus, top)):
            decks += [os.path.relpath(os.path.join(d, f), corpus) for f in files if f.endswith(".py")]
    tests = os.path.join(corpus, "tests")
    if os.path.isdir(tests):
        for d in sorted(os.listdir(tests)):
            if d.startswith("BM") and os.path.isdir(os.path.join(tests, d)):
                decks += [f"tests/{d}/{f}" for f in os.listdir(os.path.join(tests, d))
                          if f.endswith(".py")]
    return sorted(decks)


def not_run_reason(deck):
    if deck in LIBRARIES:
        return "library", "imported or execfile'd by other decks"
    if deck in OUTSIDE:
        return "outside Debian", OUTSIDE[deck]
    for pat, why in OUTSIDE_PATTERNS:
        if fnmatch.fnmatch(deck, pat):
            return "outside Debian", why
    return None


_ERR_LINE = re.compile(r"^([A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|Warning)|"
                       r"[\w.]*NotImplementedError)\b(:.*)?$")


def first_error(stderr, deck, stdout=""):
    """(status, line): the exception line of the traceback, with the deck's line number."""
    lines = [ln.rstrip() for ln in stderr.splitlines()
             if ln.strip() and "converted to Python 3 in memory" not in ln]
    if not lines:  # no message on stderr: the deck's own (e.g. `print 'ERROR: ...'; sys.exit(1)`)
        lines = [ln.rstrip() for ln in stdout.splitlines() if "ERROR" in ln.upper()][:1]
    exc = None
    for ln in lines:
        if _ERR_LINE.match(ln) and "Warning" not in ln.split(":")[0]:
            exc = ln
            break
    if exc is None:
        exc = next((ln for ln in reversed(lines) if "rror" in ln or "solfec:" in ln),
                   lines[-1] if lines else "(no message)")
    where = ""
    name = os.path.basename(deck)
    for ln in lines:
        m = re.match(r'\s*File "([^"]+)", line (\d+)', ln)
        if m and os.path.basename(m.group(1)) == name:
            where = f" ({name}:{m.group(2)})"
    status = "error"
    if exc.startswith("NotImplementedError: HYBRID_SOLVER"):
        status = "outside Debian"  # Parmec
    elif re.match(r"(ModuleNotFoundError|ImportError): No module named '?(modred|abaqusreader|"
                  r"parmec|mesh_hex)", exc):
        status = "outside Debian"
    return status, (exc[:200] + where)


def fresh_copy(corpus, parent, deck, dirs=None):
    """A writable copy of the corpus (of its sub-directories `dirs` only, when given)."""
    scratch = os.path.join(parent, "copy-" + deck.replace("/", "__"))
    if os.path.exists(scratch):
        shutil.rmtree(scratch)
    if dirs is None:
        shutil.copytree(corpus, scratch, copy_function=shutil.copyfile)
    else:
        for d in dirs:
            shutil.copytree(os.path.join(corpus, d), os.path.join(scratch, d),
                            copy_function=shutil.copyfile)
    for d, _, _ in os.walk(scratch):  # the corpus is read-only: the copy is not
        os.chmod(d, 0o755)
    return scratch


def verdict(stdout):
    """The PASSED / FAILED lines a validation deck (tests/BM*) prints, else ''."""
    found = [ln.strip("\b ").strip() for ln in stdout.splitlines()
             if "PASSED" in ln or "FAILED" in ln]
    return "; ".join(found)[:200]


def run_one(solfec, scratch, deck, limit, env, log_dir):
    start = time.monotonic()
    name = deck.replace("/", "__")
    with open(os.path.join(log_dir, name + ".out"), "wb") as out, \
            open(os.path.join(log_dir, name + ".err"), "wb") as err:
        cwd, path = scratch, deck
        if deck in DECK_CWD:
            cwd, path = os.path.join(scratch, os.path.dirname(deck)), os.path.basename(deck)
        p = subprocess.Popen([solfec, path] + DECK_ARGS.get(deck, []), cwd=cwd, stdout=out,
                             stderr=err,
                             stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        try:
            rc = p.wait(timeout=limit)
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
            rc = None
    wall = time.monotonic() - start
    with open(os.path.join(log_dir, name + ".err"), "r", errors="replace") as f:
        stderr = f.read()
    with open(os.path.join(log_dir, name + ".out"), "r", errors="replace") as f:
        stdout = f.read()
    if timed_out:
        # An error printed before the limit still counts (a deck may hang after it).
        if "Traceback (most recent call last)" in stderr:
            status, line = first_error(stderr, deck)
            return status, wall, line
        return "running", wall, ""
    if rc == 0:
        return "finished", wall, verdict(stdout)
    status, line = first_error(stderr, deck, stdout)
    return status, wall, line


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--limit", type=float, default=60.0, help="wall-clock seconds per deck")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", action="append", default=[],
                    help="run only decks matching this glob or substring (repeatable)")
    ap.add_argument("--solfec", default=os.path.join(os.environ.get(
        "SOLFEC_BUILD_DIR", os.path.join(ROOT, "build")), "solfec"))
    ap.add_argument("--markdown", help="also write the table as markdown to this file")
    ap.add_argument("--keep", help="scratch directory to use and keep (default: a temporary one)")
    args = ap.parse_args(argv)

    corpus = os.path.abspath(args.corpus)
    solfec = os.path.abspath(args.solfec)
    decks = corpus_decks(corpus)
    if args.only:
        decks = [d for d in decks if any(fnmatch.fnmatch(d, p) or p in d for p in args.only)]
    scratch_parent = args.keep or tempfile.mkdtemp(prefix="solfec-corpus-")
    os.makedirs(scratch_parent, exist_ok=True)
    log_dir = os.path.join(scratch_parent, "logs")
    os.makedirs(log_dir, exist_ok=True)
    env = dict(os.environ, MPLBACKEND="Agg", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               PATH=os.path.dirname(solfec) + os.pathsep + os.environ.get("PATH", ""))

    results = {}
    jobs = []  # each job: a list of decks run in order
    paired = {d for pair in PAIRS for d in pair}
    for d in decks:
        why = not_run_reason(d)
        if why:
            results[d] = (why[0], 0.0, why[1])
        elif d not in paired:
            jobs.append([d])
    for pair in PAIRS:
        todo = [d for d in pair if d in decks and d not in results]
        if todo:
            jobs.append(todo)

    lock = threading.Lock()
    queue = list(jobs)

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                job = queue.pop(0)
            # Each job in a fresh copy: decks of the corpus share output paths (elements.py
            # writes out/domino as domino.py does) and scratch files (run.sh).
            scratch = fresh_copy(corpus, scratch_parent, job[0])
            for d in job:
                res = run_one(solfec, scratch, d, args.limit, env, log_dir)
                with lock:
                    results[d] = res
                    sys.stderr.write(f"[{len(results)}/{len(decks)}] {d}: {res[0]} "
                                     f"{res[1]:.1f} s {res[2]}\n")
            shutil.rmtree(scratch, ignore_errors=True)

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    rows = [(d,) + results[d] for d in decks]
    width = max([len(d) for d in decks] + [4])
    head = f"{'deck':<{width}}  {'status':<22} {'wall s':>7}  first error line / reason"
    print(head)
    print("-" * len(head))
    for d, status, wall, line in rows:
        print(f"{d:<{width}}  {status:<22} {wall:7.1f}  {line}")
    counts = {}
    for _, status, _, _ in rows:
        counts[status] = counts.get(status, 0) + 1
    order = ["finished", "running", "error", "outside Debian", "library"]
    summary = (f"{len(rows)} files, limit {args.limit:g} s: " +
               ", ".join(f"{counts.get(k, 0)} {k}" for k in order))
    print(summary)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("| deck | status | wall s | first error line / reason |\n|---|---|---:|---|\n")
            for d, status, wall, line in rows:
                f.write(f"| {d} | {status} | {wall:.1f} | {line.replace('|', '/')} |\n")
            f.write(f"\n{summary}\n")
    if not args.keep:
        shutil.rmtree(scratch_parent, ignore_errors=True)
    return 1 if counts.get("error") else 0


if __name__ == "__main__":
    sys.exit(main())
