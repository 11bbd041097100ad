"""LOCDYN_DUMP files read by Siconos 4.4 numerics and by HDF5's H5LT calls (FCLIB's reader),
Siconos' error of our solutions, and the FCLIB round trip (our writer, our reader, Siconos'
triplet layout)."""

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, pushed_stack, slab

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "tests", "benchmarks")
sys.path.insert(0, BENCH)

h5py = pytest.importorskip("h5py", reason="LOCDYN_DUMP needs h5py (python3-h5py)")
import fclib_siconos as FS  # noqa: E402

try:
    import siconos.numerics as sn  # noqa: F401
    import scipy.sparse  # noqa: F401
    HAVE_SICONOS = True
except ImportError:
    HAVE_SICONOS = False
needs_siconos = pytest.mark.skipif(
    not HAVE_SICONOS, reason="siconos.numerics (Debian python3-siconos) and scipy are not "
    "importable: the Siconos reading and error checks cannot run")

TITLE = "sliding stack of three boxes"


def sliding_stack(outdir, steps=5):
    """Three boxes on a floor, the top one pushed at 0.5 m/s (shapes_for_tests.pushed_stack),
    `steps` steps solved tightly by Gauss-Seidel."""
    sol, bodies = pushed_stack(outdir)
    gs = GAUSS_SEIDEL_SOLVER(1e-12, 5000, meritval=1e-16)
    for _ in range(steps):
        RUN(sol, gs, 1e-3)
    return sol, bodies


@pytest.fixture(scope="module")
def dumped(tmp_path_factory):
    d = tmp_path_factory.mktemp("fclib")
    sol, _ = sliding_stack(str(d / "out"))
    path = str(d / "stack.h5")
    nc = LOCDYN_DUMP(sol, path, title=TITLE)
    assert nc == sol.ncon > 0
    return path, nc, sol


def test_dump_follows_the_fclib_layout_read_by_fclib_read_local(dumped):
    path, nc, _ = dumped
    d = FS.read_fclib_local(path)  # raises FclibFormatError on any layout difference
    assert (d["spacedim"], d["m"], d["n"], d["nz"]) == (3, 3 * nc, 3 * nc, -1)
    assert d["nzmax"] == len(d["x"]) == d["p"][-1]
    assert np.all(np.diff(d["p"]) >= 0)
    assert d["info"]["title"] == TITLE
    assert d["info"]["math_info"].startswith("u = W r + q")


def test_hdf5_high_level_reader_reads_the_dump(dumped, tmp_path):
    # fclib_read_local reads every dataset with H5LTread_dataset_int / _double / _string;
    # the C reader makes the same calls. A variable-length title (h5py's default for str)
    # would come back as pointer bytes, so the printed title checks the string layout.
    gcc = shutil.which("gcc")
    if gcc is None or not os.path.exists("/usr/include/hdf5/serial/hdf5_hl.h"):
        pytest.skip("gcc or the HDF5 headers (libhdf5-dev) are missing")
    exe = str(tmp_path / "h5lt_read")
    build = subprocess.run([gcc, "-O1", "-o", exe, os.path.join(BENCH, "fclib_h5lt_read.c"),
                            "-I/usr/include/hdf5/serial", "-L/usr/lib/x86_64-linux-gnu",
                            "-lhdf5_serial_hl", "-lhdf5_serial"], capture_output=True, text=True)
    if build.returncode != 0:
        pytest.skip("could not link against HDF5's high-level library: " + build.stderr[-300:])
    path, nc, _ = dumped
    out = subprocess.run([exe, path], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    f = out.stdout.split(maxsplit=8)
    d = FS.read_fclib_local(path)
    assert [int(v) for v in f[:5]] == [3, 3 * nc, 3 * nc, -1, d["nzmax"]]
    # Sums printed with 17 digits: the same doubles as h5py reads (summation order equal).
    # (left to right as the C loop; numpy's pairwise sum rounds differently)
    assert float(f[5]) == pytest.approx(sum(d["x"].tolist()), rel=1e-15, abs=1e-300)
    assert float(f[6]) == pytest.approx(sum(d["q"].tolist()), rel=1e-15, abs=1e-300)
    assert float(f[7]) == pytest.approx(0.5 * nc, rel=1e-15)
    assert f[8].strip() == TITLE


@needs_siconos
def test_siconos_reads_the_dump_and_our_solutions_meet_its_error_function(dumped):
    path, nc, sol = dumped
    P = FS.SiconosProblem(path)
    assert P.problem.numberOfContacts == nc and P.problem.dimension == 3
    # The sparse-block W equals the file's CSC W (the SBM conversion kept every entry).
    assert np.array_equal(np.asarray(sn.SBM_to_dense(P.sbm)), P.W.toarray())
    # The run's reactions (solution/r, solved to g <= 1e-16) solve the file's problem in
    # Siconos' measure: relative natural-map residual well below 1e-6 (measured ~1e-9).
    r_run = FS.read_fclib_local(path)["solution"]["r"]
    assert P.error(r_run) < 1e-7
    # Our solvers re-solving the file: g <= 1e-16 is a relative velocity residual ~1e-8.
    tol = 1e-6
    for solver in (GAUSS_SEIDEL_SOLVER(1e-12, 5000, meritval=1e-16),
                   NEWTON_SOLVER(meritval=1e-16, maxiter=300)):
        R, U, merit = FCLIB_SOLVE(path, solver)
        assert merit <= 1e-16
        assert P.error(R) < tol
        assert np.abs(P.velocity(R) - U.reshape(-1)).max() < 1e-9 * np.abs(P.q).max()
    # And Siconos' NSGS on the same file ends at the same velocities (the contact velocities
    # are unique where W is singular; the reactions of the 4-point patches are not).
    info, r, u, iters, resid = P.solve(sn.SICONOS_FRICTION_3D_NSGS, 1e-10, 20000)
    assert info == 0 and resid <= 1e-10
    R, U, _ = FCLIB_SOLVE(path, GAUSS_SEIDEL_SOLVER(1e-12, 5000, meritval=1e-16))
    assert np.abs(u - U.reshape(-1)).max() < 1e-6 * np.abs(P.q).max()
    # Total normal reaction: fixed by the momentum balance, so equal for both.
    assert r[0::3].sum() == pytest.approx(R[:, 0].sum(), rel=1e-5)


@needs_siconos
def test_folded_bilateral_rows_leave_a_problem_siconos_solves_with_the_run_reactions(tmp_path):
    # A box on the floor held along x at its top corner (FIX_DIRECTION): the bilateral row is
    # folded into q with the run's reaction, so the run's contact reactions are a solution
    # of the pure frictional-contact problem Siconos reads.
    sol = SOLFEC("DYNAMIC", 1e-3, str(tmp_path / "out"))
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=0.5)
    BODY(sol, "OBSTACLE", slab(), bulk)
    b = BODY(sol, "RIGID", box(-0.5, -0.5, 0.0, 1, 1, 1), bulk)
    FIX_DIRECTION(b, (0.5, 0.5, 1.0), (1, 0, 0))
    INITIAL_VELOCITY(b, (0.3, 0, 0), (0, 0, 0))
    GRAVITY(sol, (0, 0, -10))
    gs = GAUSS_SEIDEL_SOLVER(1e-12, 5000, meritval=1e-16)
    for _ in range(3):
        RUN(sol, gs, 1e-3)
    path = str(tmp_path / "fd.h5")
    with pytest.warns(UserWarning, match="1 bilateral"):
        nc = LOCDYN_DUMP(sol, path)
    P = FS.SiconosProblem(path)
    assert P.contacts == nc == sol.ncon - 1
    r_run = FS.read_fclib_local(path)["solution"]["r"]
    assert P.error(r_run) < 1e-7
    info, r, u, _, resid = P.solve(sn.SICONOS_FRICTION_3D_NSN_AC, 1e-10, 200)
    assert info == 0 and resid <= 1e-10
    assert r[0::3].sum() == pytest.approx(r_run[0::3].sum(), rel=1e-5)


def test_fclib_solve_reads_the_triplet_layout_siconos_writes(dumped, tmp_path):
    # Siconos' frictionContact_fclib_write stores W as a triplet (nz = nzmax = entries,
    # p = column indices, i = row indices). Rewriting our dump that way and solving both
    # files gives the same velocities: our reader accepts what Siconos writes.
    path, nc, _ = dumped
    d = FS.read_fclib_local(path)
    cols = np.repeat(np.arange(d["n"]), np.diff(d["p"])).astype(np.int32)
    perm = np.random.default_rng(7).permutation(len(cols))  # triplets need no order
    trip = str(tmp_path / "triplet.h5")
    with h5py.File(trip, "w") as f:
        g = f.create_group("fclib_local")
        g.create_dataset("spacedim", data=np.array([3], np.int32))
        w = g.create_group("W")
        for k, v in (("nzmax", len(cols)), ("m", d["m"]), ("n", d["n"]), ("nz", len(cols))):
            w.create_dataset(k, data=np.array([v], np.int32))
        w.create_dataset("p", data=cols[perm])
        w.create_dataset("i", data=d["i"][perm].astype(np.int32))
        w.create_dataset("x", data=d["x"][perm])
        v = g.create_group("vectors")
        v.create_dataset("q", data=d["q"])
        v.create_dataset("mu", data=d["mu"])
    solver = NEWTON_SOLVER(meritval=1e-16, maxiter=300)
    R1, U1, m1 = FCLIB_SOLVE(path, solver)
    R2, U2, m2 = FCLIB_SOLVE(trip, solver)
    assert m1 <= 1e-16 and m2 <= 1e-16
    assert np.abs(U1 - U2).max() < 1e-9 * np.abs(d["q"]).max()


def test_dump_then_read_reproduces_the_run_problem_exactly(dumped):
    # Writer/reader round trip: W and q read back (CSC, FCLIB order) equal the run's local
    # dynamics permuted to (N, T1, T2) bit for bit, and u = W r + q holds for the stored run
    # solution to rounding.
    path, nc, sol = dumped
    p = sol._domain.last_problem()
    row_ptr, col = np.asarray(p["row_ptr"]), np.asarray(p["col"])
    W = np.asarray(p["W"]).reshape(-1, 3, 3)
    perm = [2, 0, 1]
    dense = np.zeros((3 * nc, 3 * nc))
    for a in range(nc):
        for k in range(row_ptr[a], row_ptr[a + 1]):
            b = col[k]
            dense[3 * a:3 * a + 3, 3 * b:3 * b + 3] = W[k][np.ix_(perm, perm)]
    d = FS.read_fclib_local(path)
    Wf = np.zeros((3 * nc, 3 * nc))
    for j in range(d["n"]):
        Wf[d["i"][d["p"][j]:d["p"][j + 1]], j] = d["x"][d["p"][j]:d["p"][j + 1]]
    assert np.array_equal(Wf, dense)
    B = np.asarray(p["B"]).reshape(nc, 3)[:, perm].reshape(-1)
    assert np.array_equal(d["q"], B)  # no restitution, no bilateral rows here
    r, u = d["solution"]["r"], d["solution"]["u"]
    assert np.abs(Wf @ r + d["q"] - u).max() < 1e-12 * np.abs(u).max()
