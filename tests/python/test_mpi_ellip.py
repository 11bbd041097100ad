"""ELLIP bodies under `solfec-mpi` (docs/parallel.md): rigid and pseudo-rigid ellipsoids
migrate between ranks and are ghosted like other bodies (the ellipsoid is mapped from the
reference shape by the body's state, x = L X + t or F X + t, so the state that travels
carries the shape: centre, radii, axes, and for PSEUDO_RIGID the deformed ellipsoid), and the
parallel run gives the serial trajectories. Skipped without solfec-mpi or mpirun."""

import os
import sys

import numpy as np
import pytest

from conftest import BUILD
from test_mpi_decomposition import (REPORT, check_ranks, max_conf_difference, run_parallel,
                                    run_serial)
from test_mpi_launcher import MPIRUN, SOLFEC_MPI, mpirun

pytestmark = pytest.mark.skipif(not (os.path.isfile(SOLFEC_MPI) and MPIRUN),
                                reason="solfec-mpi not built (needs MPI and Zoltan) or no mpirun")

# Two lanes of six ellipsoids (semi-axes 0.4, 0.3, 0.2, each turned differently about z and
# spinning about z), RIGID and PSEUDO_RIGID (KIRCHHOFF, E = 1e7) alternately, sliding on a
# floor with friction 0.1 (ellipsoid-convex contacts): lane y = 0 moves +x, lane y = 1 moves
# -x, each with its rear bodies faster (up to 1.75 x), so that they catch the ones ahead and
# push them (ellipsoid-ellipsoid contacts, restitution 0) while crossing the RCB cut: the
# bodies migrate and contacts couple bodies owned by different ranks.
LANES = """
def slab(half, thickness=1.0):
    h, t = half, thickness
    return HULL([-h, -h, -t, h, -h, -t, h, h, -t, -h, h, -t,
                 -h, -h, 0, h, -h, 0, h, h, 0, -h, h, 0], 1, 1)
sol = SOLFEC('DYNAMIC', 1e-3, 'out/ell')
sol.verbose = 'OFF'
IMBALANCE_TOLERANCE(sol, 1.05, updatefreq=5)
bulk = BULK_MATERIAL(sol, model='KIRCHHOFF', young=1e7, poisson=0.25, density=1000.0)
SURFACE_MATERIAL(sol, friction=0.1)
BODY(sol, 'OBSTACLE', slab(half=30.0), bulk)
bodies = []
for lane, (y, vx, x0) in enumerate(((0.0, 6.0, -8.0), (1.0, -6.0, 2.0))):
    for i in range(6):
        x = x0 + 1.0 * i
        e = ELLIP((x, y, 0.2005), (0.4, 0.3, 0.2), 2, 2)
        ROTATE(e, (x, y, 0.2005), (0, 0, 1), 20.0 * i + 10 * lane)
        kind = 'PSEUDO_RIGID' if i % 2 else 'RIGID'
        b = BODY(sol, kind, e, bulk)
        if kind == 'PSEUDO_RIGID':
            b.scheme = 'DEF_LIM'
        INITIAL_VELOCITY(b, (vx * (1.0 + 0.15 * (5 - i)), 0, -0.1), (0, 0, 0.5 * (i - 2.5)))
        bodies.append(b)
GRAVITY(sol, (0, 0, -10))
OUTPUT(sol, 0.1)
x0 = {b.id: b.conf[-3] for b in bodies}
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 2000, meritval=1e-12), 1.0)
""" + REPORT


@pytest.mark.parametrize("np_", [2, 3])
def test_ellipsoids_migrate_between_ranks_and_keep_the_serial_trajectories(tmp_path, np_):
    serial = run_serial(tmp_path, LANES)
    d, reports = run_parallel(tmp_path, LANES, np_)
    # Gauss-Seidel stops at |dR|/|R| <= 1e-8 or merit <= 1e-12 in both runs; positions
    # (~1-10 m) and deformation gradients agree to 1e-6 (measured: 1e-14 to 1.4e-11 on 2
    # and 3 ranks, from run to run: the order of the sweeps).
    check_ranks(serial, reports, 1e-6)
    print("%d ranks: largest configuration difference from serial %.1e" % (
        np_, max(max_conf_difference(rep, serial) for rep in reports)))
    for rep in reports:
        v = max(np.abs(np.array(rep["vel"][k]) - np.array(serial["vel"][k])).max()
                for k in serial["vel"])
        assert v < 1e-6
        assert np.allclose(rep["energy"], serial["energy"], rtol=1e-6, atol=1e-6)
    stats = reports[0]["stats"]
    assert stats["ranks"] == np_ and stats["steps"] == 1000
    # The lanes swapped sides: every body crossed the middle, most owners changed.
    assert stats["migrations"] >= 12, stats
    # rows between bodies of two ranks (the pushing ellipsoids at the cut) and ghosts
    assert stats["shared_bodies_per_step"] > 0 and stats["ghosts_per_step"] > 0, stats
    # Not a trivial answer: the lanes passed each other, and the rear bodies pushed the ones
    # ahead. Alone on the floor (measured in a serial run of the two bodies), the rear body 1
    # (10.5 m/s) would end at x = 1.99 and the front body 6 (6 m/s) at x = 2.49; in the lane
    # body 1 ends at 0.70 (it pushed) and body 6 at 3.85 (it was pushed).
    conf = {int(k): v for k, v in serial["conf"].items()}
    assert conf[1][-3] < 1.5 and conf[6][-3] > 3.0 and conf[7][-3] < -5.0
    # The serial energy balance: kinetic - initial kinetic = sum of works; contact work of
    # the plastic (restitution 0) ellipsoid impacts is negative.
    assert serial["energy"][3] < 0.0
    # PSEUDO_RIGID ellipsoids deformed (F != I) and their F travelled with them.
    F = np.array(conf[2][:9]).reshape(3, 3)
    assert np.abs(F.T @ F - np.eye(3)).max() > 1e-7
    # The parallel results file (rank 0, serial layout) holds the ellipsoids and the
    # serial last frame.
    sys.path.insert(0, os.path.join(BUILD, "python"))
    from solfec.results import Results
    with Results(str(d / "out" / "ell")) as a, \
            Results(str(tmp_path / "serial" / "out" / "ell")) as b:
        assert a.nframes == b.nframes == 11
        fa, fb = a.frame(a.nframes - 1), b.frame(b.nframes - 1)
        assert np.abs(fa.q - fb.q).max() < 1e-6
        assert len(a.shape(2)["ellipsoids"]) == 1


# Solfec-1.0's parallel decks (examples/parallel-scaling/rotating-drum.py) create the
# particles under `if RANK() == 0:` and let the domain balancing hand them out. Here the deck
# runs on every rank and the model is replicated: bodies that only rank 0 holds were given to
# owners that did not have them, stood still there and lost their contacts (the drum deck ran
# to its end with 0 to 8 contacts against ~250 serially). Now every rank stops with a message.
RANK0_ONLY = """
sol = SOLFEC('DYNAMIC', 1e-3, 'out/r0')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol, young=1e7, poisson=0.25, density=1000.0)
BODY(sol, 'OBSTACLE', HULL([-2, -2, -1, 2, -2, -1, 2, 2, -1, -2, 2, -1,
                            -2, -2, 0, 2, -2, 0, 2, 2, 0, -2, 2, 0], 1, 1), bulk)
BODY(sol, 'RIGID', ELLIP((0, 0, 0.2), (0.3, 0.2, 0.2), 1, 1), bulk)
if RANK() == 0:
    for i in range(4):
        BODY(sol, 'RIGID', ELLIP((-1.5 + i, 1, 0.2), (0.3, 0.2, 0.2), 1, 1), bulk)
GRAVITY(sol, (0, 0, -10))
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.01)
print('NEVER')
"""


def test_bodies_created_on_rank0_only_stop_every_rank_with_a_message(tmp_path):
    p = mpirun(tmp_path, RANK0_ONLY, np=2, timeout=60)
    out = p.stdout + p.stderr
    assert p.returncode != 0
    assert out.count("Traceback") == 1, out
    assert "rank 1 holds 2 bodies and rank 0 holds 6 at time 0" in out, out
    assert "every rank must create the same bodies" in out and "NEVER" not in out
