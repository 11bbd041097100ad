"""FCLIB (Frictional Contact Library) local problems: LOCDYN_DUMP writes the last step's local
dynamics U = W R + B as /fclib_local (HDF5, via h5py), FCLIB_SOLVE reads such a file and solves
it with one of our solvers.

FCLIB layout written (as fclib.c of the Frictional Contact Library): /fclib_local/spacedim = 3;
/fclib_local/W/{m, n, nz = -1 (compressed column), nzmax, p (n + 1 column pointers), i (row
indices), x}; /fclib_local/vectors/{q, mu}; /fclib_local/info/{title, description, math_info};
/solution/{r, u} the reactions and velocities of the run. Integers are 32-bit datasets of
shape (1,), the info texts fixed-length NUL-terminated strings (what HDF5's H5LTread_dataset_int
and H5LTread_dataset_string, used by fclib_read_local and so by Siconos'
frictionContact_fclib_read, expect; h5py's default variable-length strings would be read as
pointers). Units are the run's: R is the reaction of the step (force; W = h H M^-1 H^T), not
the impulse h R of Siconos' convention (same solution set, but residuals such as Siconos'
fc3d_compute_error are not scale-invariant). FCLIB orders the components of
every contact as (N, T1, T2), we as (T1, T2, N): the dump permutes them. q is B with the
restitution term eta min(0, U_N^t) added to the normal component (so u = W r + q is Ubar).
FCLIB problems are pure frictional contact: rows of bilateral constraints (FIX_POINT, ...) are
not written; their reactions of the run are folded into q (q_c = B_c + sum_b W_cb R_b), so the
dumped problem has the run's contact reactions as its solution. Cohesion is not represented
(cohesive contacts are written as plain ones)."""

import warnings

import numpy as np

from . import _args as A
from . import _solfec
from .model import SOLFEC
from .solvers import (AUTO_SOLVER, GAUSS_SEIDEL_SOLVER, NEWTON_SOLVER, PENALTY_SOLVER,
                      SICONOS_SOLVER)

__all__ = ["LOCDYN_DUMP", "FCLIB_SOLVE"]

_TO_FCLIB = np.array([2, 0, 1])    # FCLIB component k is our component _TO_FCLIB[k]
_FROM_FCLIB = np.array([1, 2, 0])  # our component k is FCLIB component _FROM_FCLIB[k]


def _h5py(routine):
    try:
        import h5py
    except ImportError as e:  # pragma: no cover - h5py ships with the project's install
        raise RuntimeError(f"{routine}: needs the h5py module (Debian package python3-h5py)") from e
    return h5py


def _h5_string(group, name, text):
    """A scalar fixed-length NUL-terminated string dataset, as HDF5's H5LTmake_dataset_string
    writes it (FCLIB's info texts)."""
    h5py = _h5py("LOCDYN_DUMP")
    data = str(text).encode("utf-8")
    tid = h5py.h5t.C_S1.copy()
    tid.set_size(len(data) + 1)
    tid.set_strpad(h5py.h5t.STR_NULLTERM)
    did = h5py.h5d.create(group.id, name.encode(), tid, h5py.h5s.create(h5py.h5s.SCALAR))
    did.write(h5py.h5s.ALL, h5py.h5s.ALL, np.array(data + b"\0", dtype=f"S{len(data) + 1}"),
              mtype=tid)


def LOCDYN_DUMP(solfec, path, title="solfec local dynamics"):
    """LOCDYN_DUMP(solfec, path | title): writes the local dynamics of the last time step as
    an FCLIB local problem to the HDF5 file `path` (overwritten); returns the number of
    contacts written. Bilateral constraint rows are folded into q (see the module help)."""
    r = "LOCDYN_DUMP"
    A.instance(solfec, SOLFEC, r, "solfec")
    if not isinstance(path, str) or not path:
        raise TypeError(f"{r}: argument 'path' must be a non-empty string, got {path!r}")
    h5py = _h5py(r)
    p = solfec._domain.last_problem()  # under solfec-mpi: every rank's rows (collective)
    kind = np.asarray(p["kind"], dtype=int)
    n = len(kind)
    row_ptr, col = np.asarray(p["row_ptr"], dtype=int), np.asarray(p["col"], dtype=int)
    W = np.asarray(p["W"], dtype=float).reshape(-1, 3, 3)
    B = np.asarray(p["B"], dtype=float).reshape(n, 3)
    R = np.asarray(p["R"], dtype=float).reshape(n, 3)
    U = np.asarray(p["U"], dtype=float).reshape(n, 3)
    contacts = np.flatnonzero(kind == 0)
    if len(contacts) < n:
        warnings.warn(f"{r}: {n - len(contacts)} bilateral constraint rows are not written "
                      f"(FCLIB is pure frictional contact); their reactions are folded into q")
    index = -np.ones(n, dtype=int)
    index[contacts] = np.arange(len(contacts))
    q = B[contacts].copy()
    q[:, 2] += np.asarray(p["shift"], dtype=float)[contacts]
    rows, cols, vals = [], [], []
    for a_new, a in enumerate(contacts):
        for k in range(row_ptr[a], row_ptr[a + 1]):
            b = col[k]
            if index[b] < 0:
                q[a_new] += W[k] @ R[b]
                continue
            blk = W[k][np.ix_(_TO_FCLIB, _TO_FCLIB)]
            for i in range(3):
                for j in range(3):
                    if blk[i, j] != 0.0:
                        rows.append(3 * a_new + i)
                        cols.append(3 * index[b] + j)
                        vals.append(blk[i, j])
    m = 3 * len(contacts)
    rows, cols, vals = np.asarray(rows, int), np.asarray(cols, int), np.asarray(vals, float)
    order = np.lexsort((rows, cols))
    rows, cols, vals = rows[order], cols[order], vals[order]
    colptr = np.zeros(m + 1, dtype=np.int32)
    np.add.at(colptr, cols + 1, 1)
    colptr = np.cumsum(colptr).astype(np.int32)
    from . import run
    if run.RANK() > 0:  # rank 0 writes the whole problem
        run.BARRIER()
        return len(contacts)
    try:
        _write_dump(h5py, path, title, solfec, p, contacts, m, rows, colptr, vals, q, R, U)
    finally:
        run.BARRIER()
    return len(contacts)


def _write_dump(h5py, path, title, solfec, p, contacts, m, rows, colptr, vals, q, R, U):
    with h5py.File(path, "w") as f:
        g = f.create_group("fclib_local")
        g.create_dataset("spacedim", data=np.array([3], dtype=np.int32))
        w = g.create_group("W")
        for name, v in (("m", m), ("n", m), ("nz", -1), ("nzmax", len(vals))):
            w.create_dataset(name, data=np.array([v], dtype=np.int32))
        w.create_dataset("p", data=colptr)
        w.create_dataset("i", data=rows.astype(np.int32))
        w.create_dataset("x", data=vals)
        v = g.create_group("vectors")
        v.create_dataset("q", data=q[:, _TO_FCLIB].reshape(-1))
        v.create_dataset("mu", data=np.asarray(p["mu"], dtype=float)[contacts])
        info = g.create_group("info")
        _h5_string(info, "title", title)
        _h5_string(info, "description", f"solfec local dynamics at t = "
                   f"{solfec._domain.time:g}, {len(contacts)} contacts")
        _h5_string(info, "math_info", "u = W r + q, r in K, u + mu |u_T| e_N in K*, "
                   "<u + mu |u_T| e_N, r> = 0; (N, T1, T2) per contact")
        s = f.create_group("solution")
        s.create_dataset("r", data=R[contacts][:, _TO_FCLIB].reshape(-1))
        s.create_dataset("u", data=(U[contacts] + np.c_[np.zeros((len(contacts), 2)),
                                                        np.asarray(p["shift"])[contacts]])
                         [:, _TO_FCLIB].reshape(-1))
        # not FCLIB: who the contacts are (constraint id, bodies, spatial point), so that dumps
        # of one step from runs on different numbers of ranks can be matched row by row
        w = f.create_group("solfec_rows")
        w.create_dataset("id", data=np.asarray(p["ids"], dtype=np.int64)[contacts])
        w.create_dataset("body1", data=np.asarray(p["body1"], dtype=np.int64)[contacts])
        w.create_dataset("body2", data=np.asarray(p["body2"], dtype=np.int64)[contacts])
        w.create_dataset("point", data=np.asarray(p["point"], dtype=float).reshape(-1, 3)[contacts])


def _read_matrix(w):
    m, n, nz = int(w["m"][0]), int(w["n"][0]), int(w["nz"][0])
    pp, ii, x = np.asarray(w["p"]), np.asarray(w["i"]), np.asarray(w["x"], dtype=float)
    if nz >= 0:  # triplet: p holds the column indices, i the row indices (CSparse)
        return m, n, ii[:nz], pp[:nz], x[:nz]
    if nz == -1:  # compressed column
        cols = np.repeat(np.arange(n), np.diff(pp[:n + 1]))
        return m, n, ii[:len(cols)], cols, x[:len(cols)]
    if nz == -2:  # compressed row
        rows = np.repeat(np.arange(m), np.diff(pp[:m + 1]))
        return m, n, rows, ii[:len(rows)], x[:len(rows)]
    raise ValueError(f"FCLIB_SOLVE: unknown matrix format nz = {nz} (argument 'path')")


def _blocks_from_file(path, r="FCLIB_SOLVE"):
    """The FCLIB problem of `path` in the block CSR form of solve_contact_problem: lists
    (row_ptr, col, W 9 per block row-major, B 3 per row, mu), our order (T1, T2, N)."""
    h5py = _h5py(r)
    with h5py.File(path, "r") as f:
        if "fclib_local" not in f:
            raise ValueError(f"{r}: '{path}' holds no /fclib_local problem (argument 'path')")
        g = f["fclib_local"]
        if int(np.asarray(g["spacedim"]).reshape(-1)[0]) != 3:
            raise ValueError(f"{r}: only spacedim 3 is supported (argument 'path')")
        m, n, rows, cols, x = _read_matrix(g["W"])
        q = np.asarray(g["vectors"]["q"], dtype=float)
        mu = np.asarray(g["vectors"]["mu"], dtype=float)
    nc = len(mu)
    if m != n or m != 3 * nc or len(q) != m:
        raise ValueError(f"{r}: W is {m} x {n} with {nc} contacts (argument 'path')")
    blocks = {}
    for i, j, v in zip(rows, cols, x):
        a, b = int(i) // 3, int(j) // 3
        blk = blocks.setdefault((a, b), np.zeros((3, 3)))
        blk[_TO_FCLIB[int(i) % 3], _TO_FCLIB[int(j) % 3]] += v
    per_row = [[] for _ in range(nc)]
    for (a, b) in blocks:
        per_row[a].append(b)
    row_ptr, col, Wf = [0], [], []
    for a in range(nc):
        order = [a] + sorted(b for b in per_row[a] if b != a)  # diagonal first
        for b in order:
            col.append(b)
            Wf.extend(blocks.get((a, b), np.zeros((3, 3))).reshape(-1).tolist())
        row_ptr.append(len(col))
    B = q.reshape(nc, 3)[:, _FROM_FCLIB].reshape(-1)
    return row_ptr, col, Wf, B.tolist(), mu.tolist()


def _solve_blocks(solver, blocks):
    """Solves a _blocks_from_file problem with the bound solver of `solver`; returns
    (R, U, merit), R and U (ncontacts, 3) in FCLIB order."""
    nc = len(blocks[4])
    R, U, merit = _solfec.solve_contact_problem(solver._s, *blocks)
    R = np.asarray(R).reshape(nc, 3)[:, _TO_FCLIB]
    U = np.asarray(U).reshape(nc, 3)[:, _TO_FCLIB]
    return R, U, merit


def FCLIB_SOLVE(path, solver):
    """FCLIB_SOLVE(path, solver): reads the FCLIB local problem of the HDF5 file `path` and
    solves it with solver (GAUSS_SEIDEL_SOLVER, NEWTON_SOLVER, AUTO_SOLVER or SICONOS_SOLVER;
    PENALTY_SOLVER has no penalty data for FCLIB problems). Returns (R, U, merit): R, U as (ncontacts, 3) numpy
    arrays in FCLIB's component order (N, T1, T2), merit the manual's g(R)."""
    r = "FCLIB_SOLVE"
    A.instance(solver, (GAUSS_SEIDEL_SOLVER, NEWTON_SOLVER, AUTO_SOLVER, SICONOS_SOLVER), r,
               "solver", "GAUSS_SEIDEL_SOLVER, NEWTON_SOLVER, AUTO_SOLVER or SICONOS_SOLVER")
    return _solve_blocks(solver, _blocks_from_file(path, r))
