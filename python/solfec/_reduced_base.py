"""The BODY argument 'base' of the reduced forms 'BC-RO' and 'BC-MODAL': a REGISTER_BASE
label or a pair (evals, evecs), as the arrays the core takes (bases.py holds the deck
routines that make and register bases)."""

import numpy as np


def as_base(base, routine, arg="base"):
    """(evals, evecs) -> (evals (n,), evecs (3N, n)) float arrays. evecs is either flat, mode
    after mode (Solfec-1.0: length 3 * nnod * n), or a 2-D array with one mode per column."""
    if not isinstance(base, (tuple, list)) or len(base) != 2:
        raise TypeError(f"{routine}: argument '{arg}' must be a pair (evals, evecs), got "
                        f"{type(base).__name__}")
    try:
        evals = np.asarray(base[0], dtype=float).reshape(-1)
        evecs = np.asarray(base[1], dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{routine}: argument '{arg}' must hold numbers (evals, evecs)") from None
    n = evals.size
    if n == 0:
        raise ValueError(f"{routine}: argument '{arg}' has no modes (evals is empty)")
    if evecs.ndim == 1:
        if evecs.size % n:
            raise ValueError(f"{routine}: argument '{arg}': {evecs.size} eigenvector values "
                             f"do not split into {n} modes")
        evecs = evecs.reshape(n, -1).T
    elif evecs.ndim != 2 or evecs.shape[1] != n:
        raise ValueError(f"{routine}: argument '{arg}': evecs must be flat (mode after mode) or "
                         f"a 2-D array with {n} columns, got shape {evecs.shape}")
    if not (np.all(np.isfinite(evals)) and np.all(np.isfinite(evecs))):
        raise ValueError(f"{routine}: argument '{arg}' contains NaN or infinite values")
    return np.ascontiguousarray(evals), np.asfortranarray(evecs)


def resolve_base(solfec, base, routine="BODY"):
    """BODY argument 'base': None, a REGISTER_BASE label or (evals, evecs)."""
    if base is None:
        return None
    if isinstance(base, str):
        if base not in solfec._bases:
            raise ValueError(f"{routine}: no base registered under label {base!r} (argument "
                             f"'base'); call REGISTER_BASE(solfec, (evals, evecs), {base!r}) first")
        return solfec._bases[base]
    return as_base(base, routine)
