"""Solfec-1.0 routines (SOLFEC1-INTERFACE) outside the manual's chapters: BODY_MM_EXPORT
(MatrixMarket files of a FINITE_ELEMENT body's mass and stiffness), and those that do no
computation here: DISPLAY_POINT (kept on the body for the deck), RENDER and REGISTER_CALLBACK,
which Solfec-1.0 itself ignores outside its viewer and in serial runs, and HYBRID_SOLVER,
which needs Parmec (not in Debian): it raises NotImplementedError naming the routine and the
docs section on it, rather than a NameError in the middle of a deck."""

import os

from . import _args as A
from . import _solfec
from .model import BODY, SOLFEC

__all__ = ["DISPLAY_POINT", "RENDER", "REGISTER_CALLBACK",
           "HYBRID_SOLVER",
           "BODY_MM_EXPORT"]


def DISPLAY_POINT(body, point, label=None):
    """DISPLAY_POINT(body, point | label): a referential point of `body` [m] to follow, listed
    with its current position by `body.display_points` as (label, (x, y, z)). Solfec-1.0 drew
    them in its viewer; they are not written to the results (use HISTORY of the point's 'DX',
    ... or 'CX', ... entities). Returns None."""
    r = "DISPLAY_POINT"
    A.instance(body, BODY, r, "body")
    X = A.vec3(point, r, "point")
    if label is not None:
        A.string(label, r, "label")
    body._d  # a deleted body raises here
    if not hasattr(body, "_display_points"):
        body._display_points = []
    body._display_points.append((label, tuple(X)))


def _write_matrix_market(path, n, rows, cols, values, spd, routine, arg):
    """A sparse n x n matrix in MatrixMarket coordinate format (1-based); spd: only the lower
    triangle, flagged 'symmetric'."""
    entries = sorted(((c, r, v) for r, c, v in zip(rows, cols, values) if not spd or r >= c))
    d = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(d, exist_ok=True)
        with open(path, "w") as f:
            f.write("%%MatrixMarket matrix coordinate real "
                    f"{'symmetric' if spd else 'general'}\n")
            f.write(f"% {routine}: written by solfec\n")
            f.write(f"{n} {n} {len(entries)}\n")
            for c, r, v in entries:
                f.write(f"{r + 1} {c + 1} {v!r}\n")
    except OSError as e:
        raise ValueError(f"{routine}: cannot write argument '{arg}' = '{path}': "
                         f"{e.strerror}") from None


def BODY_MM_EXPORT(body, pathM, pathK, spdM="ON", spdK="ON"):
    """BODY_MM_EXPORT(body, pathM, pathK | spdM, spdK): writes the mass matrix M (the lumped,
    diagonal mass the time steppers use) and the tangent stiffness K = -d f_int / dq at the
    current configuration of a FINITE_ELEMENT body (3N x 3N, N mesh nodes; at t = 0 the
    referential stiffness) to MatrixMarket files (1-based coordinate format, readable by
    scipy.io.mmread); with spdM / spdK 'ON' (default) only the lower triangle is written and
    the matrix is flagged 'symmetric'. Returns None."""
    r = "BODY_MM_EXPORT"
    A.instance(body, BODY, r, "body")
    pM, pK = A.string(pathM, r, "pathM"), A.string(pathK, r, "pathK")
    sM, sK = A.onoff(spdM, r, "spdM"), A.onoff(spdK, r, "spdK")
    if body.kind != "FINITE_ELEMENT":
        raise ValueError(f"BODY_MM_EXPORT: body {body.id} is {body.kind} (argument 'body'); "
                         f"pass a FINITE_ELEMENT body")
    d = body._d
    m = list(_solfec.fe_lumped_mass(d, body.id, r))
    n = len(m)
    _write_matrix_market(pM, n, range(n), range(n), m, sM, r, "pathM")
    size, rows, cols, values = _solfec.fe_stiffness_triplets(d, body.id, r)
    _write_matrix_market(pK, size, rows, cols, values, sK, r, "pathK")


def RENDER(solfec, object=None):  # noqa: A002 (Solfec-1.0's keyword)
    """RENDER(solfec | object): Solfec-1.0 selects bodies to draw in its viewer and does
    nothing outside it; here too (the viewer, `solfec -v`, shows every body). Returns None."""
    A.instance(solfec, SOLFEC, "RENDER", "solfec")
    items = [] if object is None else (object if isinstance(object, (list, tuple))
                                       else [object])
    for i, o in enumerate(items):
        if not isinstance(o, (BODY, SOLFEC)):
            raise TypeError(f"RENDER: argument 'object' must be a BODY, a list of BODY objects "
                            f"or a SOLFEC object, got {type(o).__name__} at position {i}")


def REGISTER_CALLBACK(callback, data=None):
    """REGISTER_CALLBACK(callback | data): Solfec-1.0 needs it before CALLBACK under MPI, to
    give the (data, callback) pair the same id on every rank, and ignores it in serial runs;
    CALLBACK needs no registration here (serial or solfec-mpi). Returns None."""
    A.callable_(callback, "REGISTER_CALLBACK", "callback")


def HYBRID_SOLVER(*args, **kwargs):
    """HYBRID_SOLVER(parmec_file, parmec_step, parmec2solfec, solfec_solver | parmec_argv,
    boundary_contact_detection): Solfec-1.0's co-simulation with Parmec, which Debian does not
    package: raises NotImplementedError naming the routine and the docs section
    (docs/deck-language.md, 'HYBRID_SOLVER (not provided)') that says what it does and what
    providing it would take."""
    raise NotImplementedError(
        "HYBRID_SOLVER: this Solfec-1.0 routine is not available in this solfec; it couples the "
        "run with Parmec, which Debian does not package; docs/deck-language.md, section "
        "'HYBRID_SOLVER (not provided)', says what it does and what providing it would take")
