"""FCLIB local problems into Siconos 4.4 numerics: an FCLIB reader written from the FCLIB
specification (independent of python/solfec/fclib.py) and the Siconos problem built the way
Siconos' own frictionContact_fclib_read does it.

Debian's Siconos 4.4 is built without FCLIB (SiconosConfig.h: WITH_FCLIB undefined), so
siconos.numerics has no frictionContact_fclib_read. Its C path is fclib_read_local (FCLIB's
fclib.c: H5LTread_dataset_int / _double / _string on /fclib_local/spacedim,
/fclib_local/W/{nzmax, m, n, nz, p, i, x}, /fclib_local/vectors/{q, mu}, optional
/fclib_local/info/{title, description, math_info}) followed by from_fclib_local, which makes
a 3x3 sparse-block matrix (SBM_from_csparse_2) of W in compressed-column (nz = -1),
compressed-row (nz = -2) or triplet (nz >= 0) form. read_fclib_local checks the same
datasets with the sizes those calls read (an H5LT reader reads exactly the dataset's extent
into a buffer of the spec's size, so a mismatch would over- or under-run); siconos_problem
builds the NM_SPARSE_BLOCK matrix with SBM_from_csparse and the FrictionContactProblem.
fclib_h5lt_read.c reads a file with the HDF5 high-level calls themselves (used by
tests/python/test_fclib_siconos.py).
"""

import numpy as np

SCALARS = ("nzmax", "m", "n", "nz")


class FclibFormatError(ValueError):
    """The file does not follow the FCLIB local-problem layout."""


def _int1(g, name, where):
    if name not in g:
        raise FclibFormatError(f"{where}/{name} is missing")
    d = g[name]
    if d.dtype.kind not in "iu" or d.shape != (1,):
        raise FclibFormatError(f"{where}/{name} must be an integer dataset of shape (1,), "
                               f"is {d.dtype} {d.shape}")
    return int(d[0])


def _array(g, name, where, kind, size):
    if name not in g:
        raise FclibFormatError(f"{where}/{name} is missing")
    d = g[name]
    if d.dtype.kind not in kind or d.ndim != 1 or d.shape[0] != size:
        raise FclibFormatError(f"{where}/{name} must be a 1-D {kind} dataset of {size} "
                               f"values, is {d.dtype} {d.shape}")
    return np.asarray(d)


def _string(g, name, where):
    if name not in g:
        return None
    d = g[name]
    t = d.id.get_type()
    import h5py
    if not isinstance(t, h5py.h5t.TypeStringID) or t.is_variable_str() or d.shape != ():
        raise FclibFormatError(f"{where}/{name} must be a scalar fixed-length string "
                               f"(H5LTread_dataset_string), is {d.dtype} {d.shape}")
    return d[()].decode("utf-8", "replace")


def read_fclib_local(path):
    """The FCLIB local problem of `path` as a dict (spacedim, W parts, q, mu, info)."""
    import h5py
    with h5py.File(path, "r") as f:
        if "fclib_local" not in f:
            raise FclibFormatError("/fclib_local is missing")
        g = f["fclib_local"]
        spacedim = _int1(g, "spacedim", "/fclib_local")
        if spacedim not in (2, 3):
            raise FclibFormatError(f"spacedim must be 2 or 3, is {spacedim}")
        w = g["W"]
        nzmax, m, n, nz = (_int1(w, k, "/fclib_local/W") for k in SCALARS)
        if nz >= 0:
            p = _array(w, "p", "/fclib_local/W", "iu", nz)
            i = _array(w, "i", "/fclib_local/W", "iu", nz)
        elif nz in (-1, -2):
            p = _array(w, "p", "/fclib_local/W", "iu", (n if nz == -1 else m) + 1)
            i = _array(w, "i", "/fclib_local/W", "iu", nzmax)
        else:
            raise FclibFormatError(f"W/nz = {nz} is no known sparse format")
        x = _array(w, "x", "/fclib_local/W", "f", nzmax)
        if m % spacedim:
            raise FclibFormatError(f"W has {m} rows, not a multiple of spacedim {spacedim}")
        v = g["vectors"]
        q = _array(v, "q", "/fclib_local/vectors", "f", m)
        mu = _array(v, "mu", "/fclib_local/vectors", "f", m // spacedim)
        info = {}
        if "info" in g:
            for k in ("title", "description", "math_info"):
                info[k] = _string(g["info"], k, "/fclib_local/info")
        sol = None
        if "solution" in f:
            s = f["solution"]
            sol = {k: _array(s, k, "/solution", "f", n) for k in ("r", "u") if k in s}
    return {"spacedim": spacedim, "nzmax": nzmax, "m": m, "n": n, "nz": nz, "p": p, "i": i,
            "x": x, "q": q, "mu": mu, "info": info, "solution": sol}


def to_csc(d):
    """W of a read_fclib_local dict as a scipy CSC matrix (64-bit indices, as Siconos)."""
    import scipy.sparse as sp
    m, n, nz = d["m"], d["n"], d["nz"]
    if nz >= 0:
        a = sp.coo_matrix((d["x"][:nz], (d["i"][:nz], d["p"][:nz])), shape=(m, n)).tocsc()
    elif nz == -1:
        a = sp.csc_matrix((d["x"], d["i"], d["p"]), shape=(m, n))
    else:
        a = sp.csr_matrix((d["x"], d["i"], d["p"]), shape=(m, n)).tocsc()
    a.sum_duplicates()
    a.sort_indices()
    a.indices = a.indices.astype(np.int64)
    a.indptr = a.indptr.astype(np.int64)
    return a


class SiconosProblem:
    """An FCLIB file as a Siconos FrictionContactProblem (3x3 sparse-block W)."""

    def __init__(self, path, scale=1.0):
        """scale multiplies W (the problem u = (scale W) r' + q has r' = r / scale): scale =
        1 / h turns a solfec dump (r the step's force) into Siconos' impulse units."""
        import siconos.numerics as sn
        self.sn = sn
        self.data = read_fclib_local(path)
        if self.data["spacedim"] != 3:
            raise FclibFormatError("only spacedim 3 (fc3d) is benchmarked")
        self.scale = float(scale)
        self.W = to_csc(self.data)
        self.W.data *= self.scale  # in place: keeps the 64-bit indices Siconos wants
        self.q = np.ascontiguousarray(self.data["q"], dtype=float)
        self.mu = np.ascontiguousarray(self.data["mu"], dtype=float)
        self.size = self.data["m"]
        info, self.sbm = sn.SBM_from_csparse(3, self.W)
        if info != 0:
            raise FclibFormatError(f"SBM_from_csparse failed ({info})")
        self.M = sn.NM_new_SBM(self.size, self.size, self.sbm)
        self.problem = sn.FrictionContactProblem(3, self.M, self.q, self.mu)
        self.qnorm = float(np.linalg.norm(self.q))

    @property
    def contacts(self):
        return self.size // 3

    def velocity(self, r):
        return self.W @ np.asarray(r, dtype=float).reshape(-1) + self.q

    def error(self, r):
        """Siconos' fc3d_compute_error of r (u = W r + q): the natural-map residual
        |r - proj_K(r - (u + mu |u_T| e_N))| divided by max(|r|, |u|, |q|) (Siconos 4.4
        scales by the largest of the norm passed, |q| here, and |r| and |u|; checked against a
        numpy evaluation)."""
        sn = self.sn
        r = np.ascontiguousarray(np.asarray(r, dtype=float).reshape(-1))
        u = np.ascontiguousarray(self.velocity(r))
        so = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
        info, err = sn.fc3d_compute_error(self.problem, r, u, 1e-300, so,
                                          self.qnorm if self.qnorm > 0 else 1.0)
        return float(err)

    def solve(self, solver_id, tol, maxiter, r0=None, iparam=None):
        """Runs fc3d_driver (default options but tolerance, maxiter and the given iparam
        entries); returns (info, r, u, iterations, Siconos' own residual)."""
        sn = self.sn
        so = sn.SolverOptions(solver_id)
        so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = int(maxiter)
        so.dparam[sn.SICONOS_DPARAM_TOL] = float(tol)
        for k, v in (iparam or {}).items():
            so.iparam[k] = v
        r = np.zeros(self.size) if r0 is None else np.array(r0, dtype=float)
        u = np.zeros(self.size)
        info = sn.fc3d_driver(self.problem, r, u, so)
        return (info, r, u, int(so.iparam[sn.SICONOS_IPARAM_ITER_DONE]),
                float(so.dparam[sn.SICONOS_DPARAM_RESIDU]))
