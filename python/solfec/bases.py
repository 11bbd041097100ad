"""Reduced bases of FINITE_ELEMENT bodies (forms 'BC-RO' and 'BC-MODAL'): REGISTER_BASE, the
conversion of a user base (evals, evecs) into the arrays the core takes, and the base builders
MODAL_ANALYSIS, RIGID_DISPLACEMENTS, COROTATED_DISPLACEMENTS and POD (docs/deck-language.md,
"Reduced bases")."""

import os

import numpy as np

from . import _args as A
from . import _solfec
from ._reduced_base import as_base as _as_base
from .history import _reader
from .model import BODY, SOLFEC

__all__ = ["REGISTER_BASE", "MODAL_ANALYSIS", "RIGID_DISPLACEMENTS", "COROTATED_DISPLACEMENTS",
           "POD"]

_CACHE_FORMAT = "solfec-modal-analysis-1"
_stats = {"modal_solves": 0}  # eigen solves run by MODAL_ANALYSIS (cache hits do not count)


def REGISTER_BASE(solfec, base, label):
    """REGISTER_BASE(solfec, (evals, evecs), label): keep a reduced base under `label` so that
    BODY(..., form='BC-RO' | 'BC-MODAL', base=label) can use it (several bodies may share
    one base)."""
    r = "REGISTER_BASE"
    A.instance(solfec, SOLFEC, r, "solfec")
    A.string(label, r, "label")
    solfec._bases[label] = _as_base(base, r)


# --- base builders
def _fe_body(body, routine):
    """(domain, id) of a FINITE_ELEMENT BODY."""
    A.instance(body, BODY, routine, "body")
    d = body._d
    if d.body_kind(body._id) != "FINITE_ELEMENT":
        raise ValueError(f"{routine}: body {body._id} is {d.body_kind(body._id)}, not "
                         f"FINITE_ELEMENT (argument 'body')")
    return d, body._id


def _flat(E):
    """3N x n (one mode per column) -> flat, mode after mode (Solfec-1.0 layout)."""
    return np.ascontiguousarray(np.asarray(E, dtype=float).T).reshape(-1)


def _read_cache(path, nnod, num):
    r = "MODAL_ANALYSIS"
    try:
        with np.load(path, allow_pickle=False) as z:
            fmt = str(z["format"])
            evals = np.array(z["evals"], dtype=float)
            evecs = np.array(z["evecs"], dtype=float)
            cnnod, cnum = int(z["nnod"]), int(z["num"])
    except Exception as e:  # noqa: BLE001 - any unreadable file is reported the same way
        raise ValueError(f"{r}: cannot read the cached modes '{path}' (argument 'path'): "
                         f"{type(e).__name__}: {e}; delete the file to recompute") from None
    if fmt != _CACHE_FORMAT or evecs.shape != (3 * cnnod, cnum) or evals.shape != (cnum,):
        raise ValueError(f"{r}: '{path}' is not a MODAL_ANALYSIS cache (argument 'path'); "
                         f"delete it or pass another path")
    if cnnod != nnod or cnum != num:
        raise ValueError(f"{r}: the cache '{path}' holds {cnum} modes of a body with {cnnod} "
                         f"nodes, but this call asks for {num} modes of a body with {nnod} nodes "
                         f"(argument 'path'); delete the file or pass another path")
    if not (np.all(np.isfinite(evals)) and np.all(np.isfinite(evecs))):
        raise ValueError(f"{r}: the cache '{path}' contains NaN values (argument 'path'); "
                         f"delete it to recompute")
    return evals, evecs


def _write_cache(path, evals, evecs, nnod, num):
    tmp = path + ".tmp"
    try:
        with open(tmp, "wb") as f:
            np.savez(f, format=np.array(_CACHE_FORMAT), evals=evals, evecs=evecs,
                     nnod=np.array(nnod), num=np.array(num))
        os.replace(tmp, path)
    except OSError as e:
        raise ValueError(f"MODAL_ANALYSIS: cannot write the cache '{path}' (argument 'path'): "
                         f"{e.strerror}") from None


def MODAL_ANALYSIS(body, num, path=None, abstol=1e-11, maxiter=100, verbose="OFF"):
    """MODAL_ANALYSIS(body, num | path, abstol, maxiter, verbose) -> (evals, evecs): the num
    smallest eigenpairs of K0 v = lambda M v of a FINITE_ELEMENT body (K0 the tangent stiffness
    at the referential configuration, M the lumped mass): the six rigid modes first (evals 0),
    then the elastic modes in increasing order; E^T M E = I. evecs is flat, mode after mode
    (length 3 * nnod * num), as BODY(..., base=) and REGISTER_BASE take it. With `path` the
    result is cached there (numpy .npz) and reused by later calls with the same node count
    and num."""
    r = "MODAL_ANALYSIS"
    d, bid = _fe_body(body, r)
    num = A.integer(num, r, "num")
    abstol = A.positive(abstol, r, "abstol")
    maxiter = A.integer(maxiter, r, "maxiter")
    if maxiter < 1:
        raise ValueError(f"{r}: argument 'maxiter' must be >= 1, got {maxiter}")
    verbose = A.onoff(verbose, r, "verbose")
    nnod = int(_solfec.fe_lumped_mass(d, bid).size) // 3
    if path is not None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"{r}: argument 'path' must be a file path string, got "
                            f"{type(path).__name__}")
        path = os.fspath(path)
        if os.path.exists(path):
            evals, evecs = _read_cache(path, nnod, num)
            if verbose:
                print(f"{r}: {num} modes read from '{path}'")
            return evals, _flat(evecs)
    evals, evecs, dense, ops = _solfec.modal_analysis(d, bid, num, abstol, maxiter, verbose)
    _stats["modal_solves"] += 1
    if verbose and dense:
        print(f"{r}: {num} modes by the dense eigensolver ({3 * nnod} dofs)")
    evals, evecs = np.asarray(evals), np.asarray(evecs)
    if path is not None:
        _write_cache(path, evals, evecs, nnod, num)
    return evals, _flat(evecs)


def RIGID_DISPLACEMENTS(body):
    """RIGID_DISPLACEMENTS(body) -> evecs: the 6 rigid displacement modes of a FINITE_ELEMENT
    body at its referential nodes (translations along x, y, z, then infinitesimal rotations
    about x, y, z through the mass centre), orthonormal (E^T E = I); flat, mode after mode
    (length 3 * nnod * 6)."""
    d, bid = _fe_body(body, "RIGID_DISPLACEMENTS")
    return _flat(_solfec.rigid_displacements(d, bid))


def _sampled(times, sampling):
    """Indices of the times spaced by at least `sampling` (greedy from the first)."""
    if sampling is None:
        return np.arange(len(times))
    out, last = [], None
    for i, t in enumerate(times):
        if last is None or t - last >= sampling * (1 - 1e-9):
            out.append(i)
            last = t
    return np.asarray(out, dtype=np.int64)


def COROTATED_DISPLACEMENTS(solfec, body, sampling=None):
    """COROTATED_DISPLACEMENTS(solfec, body | sampling) -> D (3N x nsnap): co-rotated
    displacement snapshots d = Lambda^T (x - x_c) - (Z - Z_c) of a FINITE_ELEMENT body (Lambda
    the appendix-A rotation, x_c, Z_c the current and referential mass centres), one column per
    snapshot. READ mode: from the frames of the results file (all frames, or frames at least
    `sampling` [s] apart). WRITE mode: the first call starts collecting a snapshot every
    `sampling` [s] (default: every step) during the following RUNs; every call returns the
    snapshots collected so far."""
    r = "COROTATED_DISPLACEMENTS"
    A.instance(solfec, SOLFEC, r, "solfec")
    d, bid = _fe_body(body, r)
    if body._solfec is not solfec:
        raise ValueError(f"{r}: body {bid} belongs to another SOLFEC object (argument 'body')")
    if sampling is not None:
        sampling = A.positive(sampling, r, "sampling")
    n = int(_solfec.fe_lumped_mass(d, bid, r).size)
    if solfec._mode == "READ":
        res = _reader(solfec)
        if not res.has_body(bid) or res.kind(bid) != "FINITE_ELEMENT":
            raise ValueError(f"{r}: the results file holds no FINITE_ELEMENT body {bid} "
                             f"(argument 'body')")
        cols = []
        for fr in res.iter_frames(_sampled(res.times, sampling), constraints=False):
            q = fr.body_q(bid)
            if q is not None:
                cols.append(np.asarray(q, dtype=float))
        if not cols:
            return np.zeros((n, 0))
        if any(c.size != n for c in cols):
            raise ValueError(f"{r}: the results hold {cols[0].size} coordinates per frame for "
                             f"body {bid}, not 3 x {n // 3} node coordinates (a reduced-order "
                             f"body stores reduced coordinates); use the snapshots of a TL or "
                             f"BC run")
        D, _ = _solfec.corotated_displacements(d, bid, np.column_stack(cols))
        return np.asarray(D)
    if len(d.body_conf(bid)) != n:
        raise ValueError(f"{r}: the configuration of body {bid} is not its node coordinates "
                         f"(a reduced-order form; argument 'body'); collect snapshots from a TL "
                         f"or BC body")
    store = solfec._corotated
    if bid not in store:
        snaps = []
        store[bid] = snaps

        def collect():
            if d.has_body(bid):
                q = np.asarray(d.body_conf(bid), dtype=float)
                D, _ = _solfec.corotated_displacements(d, bid, q.reshape(-1, 1))
                snaps.append(np.asarray(D)[:, 0])
            return True
        d.add_callback(sampling if sampling is not None else solfec.step, collect)
    snaps = store[bid]
    return np.column_stack(snaps) if snaps else np.zeros((n, 0))


def POD(snapshots, num, rigid):
    """POD(snapshots, num, rigid) -> (evals, evecs): an orthonormal base (E^T E = I) of num
    modes for form 'BC-RO': the rigid modes first (RIGID_DISPLACEMENTS output or any 3N x r
    set, orthonormalised), then the num - r leading left singular vectors of the snapshots
    (3N x nsnap, e.g. COROTATED_DISPLACEMENTS) with the rigid span projected out. evals: 0
    for the rigid modes, squared singular values / nsnap for the others; evecs flat, mode after
    mode."""
    r = "POD"
    try:
        S = np.asarray(snapshots, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{r}: argument 'snapshots' must be a 2-D array of numbers") from None
    if S.ndim != 2 or S.shape[1] == 0:
        raise ValueError(f"{r}: argument 'snapshots' must be a 2-D array (3N x nsnap) with at "
                         f"least one column, got shape {S.shape}")
    n, k = S.shape
    num = A.integer(num, r, "num")
    try:
        R = np.asarray(rigid, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{r}: argument 'rigid' must be an array of numbers") from None
    if R.ndim == 1:
        if R.size % n:
            raise ValueError(f"{r}: argument 'rigid' ({R.size} values) does not split into "
                             f"modes of length {n} (the snapshot length)")
        R = R.reshape(-1, n).T
    if R.ndim != 2 or R.shape[0] != n:
        raise ValueError(f"{r}: argument 'rigid' must be flat (mode after mode) or {n} x r, "
                         f"got shape {R.shape}")
    if not (np.all(np.isfinite(S)) and np.all(np.isfinite(R))):
        raise ValueError(f"{r}: arguments 'snapshots' and 'rigid' must be finite")
    nr = R.shape[1]
    Q, T = np.linalg.qr(R)
    if nr and np.min(np.abs(np.diag(T))) <= 1e-12 * np.max(np.abs(np.diag(T))):
        raise ValueError(f"{r}: the rigid modes are linearly dependent (argument 'rigid')")
    Q = Q * np.sign(np.diag(T))  # keep the direction of each given mode
    if not nr <= num <= nr + min(n - nr, k):
        raise ValueError(f"{r}: num = {num} must lie in [{nr}, {nr + min(n - nr, k)}] (argument "
                         f"'num'): the rigid modes plus at most one mode per snapshot")
    P = S - Q @ (Q.T @ S)
    P -= Q @ (Q.T @ P)
    U, s, _ = np.linalg.svd(P, full_matrices=False)
    m = num - nr
    if m and s[m - 1] <= 1e-12 * max(s[0], np.finfo(float).tiny):
        rank = int(np.sum(s > 1e-12 * s[0])) if s[0] > 0 else 0
        raise ValueError(f"{r}: the snapshots span only {rank} deformation modes beyond the "
                         f"rigid ones; num = {num} asks for {m} (argument 'num'); use num <= "
                         f"{nr + rank} or add snapshots")
    V = U[:, :m]
    V = V - Q @ (Q.T @ V)  # re-orthogonalise against the rigid span (round-off)
    V, T2 = np.linalg.qr(V)
    V = V * np.where(np.diag(T2) < 0, -1.0, 1.0)
    evals = np.concatenate((np.zeros(nr), s[:m] ** 2 / k))
    return evals, _flat(np.hstack((Q, V)))
