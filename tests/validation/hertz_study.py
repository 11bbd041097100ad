"""Mesh study of hertz_contact.py (an elastic spherical end pressed on a rigid plane against
Hertz's theory): runs the deck for each mesh N (elements along a block edge; the element
at the contact shrinks as 1/N), each CONTACT_POINTS and load-step count, and prints per run
the reference, ours and the error of the compression of the axis segment [0, a_max] and of
the contact radius, at the last step and at half the top displacement, and the largest errors over the second
half of the steps (the load steps' scatter: contact penetration is locked in, see README).

    /usr/bin/python3 hertz_study.py [--points 1 4] [--steps 20] [N ...]   (default N: 8 12 16)

Runs `build/solfec -w hertz_contact.py N POINTS STEPS` in a scratch directory (SOLFEC_BUILD_DIR
picks the build; n = 16 takes 5-10 min a run on a loaded 2-core machine).
"""
import argparse
import os
import subprocess
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("n", type=int, nargs="*", default=[8, 12, 16])
    p.add_argument("--points", type=int, nargs="+", default=[1, 4])
    p.add_argument("--steps", type=int, default=20)
    a = p.parse_args()
    build = os.environ.get("SOLFEC_BUILD_DIR", os.path.join(here, "..", "..", "build"))
    exe = os.path.join(build, "solfec")
    print("   N  points steps   step  F [N]        compression: Hertz  ours  error"
          "     contact radius: Hertz  ours  error    run time")
    for points in a.points:
        for n in a.n:
            with tempfile.TemporaryDirectory() as tmp:
                t0 = time.time()
                r = subprocess.run([exe, "-w", os.path.join(here, "hertz_contact.py"), str(n),
                                    str(points), str(a.steps)], cwd=tmp, capture_output=True,
                                   text=True)
                dt = time.time() - t0
            steps = [x.split() for x in r.stdout.splitlines()
                     if x.split() and x.split()[0].isdigit()]
            if not steps:
                print("%4d %6d %5d   failed: %s" % (n, points, a.steps, r.stderr[-300:]))
                continue
            for s in (steps[len(steps) // 2 - 1], steps[-1]):
                print("%4d %6d %5d  %5s  %s  %s %s %s   %s %s %s   %6.0f s"
                      % (n, points, a.steps, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], dt))
            half = steps[len(steps) // 2:]
            ec, er = [float(s[4]) for s in half], [float(s[7]) for s in half]
            print("%4d %6d %5d  steps %s-%s: compression error mean %+.4f, largest %.4f; "
                  "radius error mean %+.4f, largest %.4f"
                  % (n, points, a.steps, half[0][0], half[-1][0], sum(ec) / len(ec),
                     max(abs(x) for x in ec), sum(er) / len(er), max(abs(x) for x in er)))


if __name__ == "__main__":
    main()
