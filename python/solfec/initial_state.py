"""Starting a run from the results of another (Solfec-1.0 extensions): INITIALIZE_STATE
copies body states from a frame of another run's output; RIGID_TO_FEM does the same and maps
the motion of RIGID bodies onto FINITE_ELEMENT bodies of this run.

The other run's results are read with solfec.results (this solfec's HDF5 layout,
docs/output.md); Solfec-1.0's own output files (.dat/.idx/.lab) are not supported.

As in Solfec-1.0:

- The frame is the one stored nearest to `time` (ties: the earlier); times before the first
  or after the last frame take that frame.
- Without `subset`, bodies are matched by id: every body of the frame that this run also has
  gets its stored state; bodies of either run without a partner are left alone. With
  `subset` (a label pattern or a list of them, regular expressions found anywhere in the
  label), the bodies of this run whose label matches a pattern take the state of the body
  with the same label in the frame.
- The body states (configuration q and velocity u) and their work counters (ENERGY's external,
  contact and friction work) are copied: the simulation time, the constraints and their
  reactions stay those of this run. A FINITE_ELEMENT body mapped from a rigid motion by
  RIGID_TO_FEM starts its counters from 0.
- In READ mode (the deck re-run to read its own results) both routines do nothing.
"""

import os
import re

import numpy as np

from . import _args as A
from . import _solfec
from .model import SOLFEC

__all__ = ["INITIALIZE_STATE", "RIGID_TO_FEM"]

_RIGID_LIKE = ("RIGID", "OBSTACLE")  # interchangeable states (Solfec-1.0 does the same)


# --- arguments -------------------------------------------------------------------------------
def _path(path, r):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{r}: argument 'path' must be a string (the output directory of "
                        f"another run), got {type(path).__name__} {path!r}")
    return os.fspath(path)


def _patterns(subset, r):
    """None, or the compiled label patterns of `subset` (a string or a list of strings)."""
    if subset is None:
        return None
    items = [subset] if isinstance(subset, str) else subset
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"{r}: argument 'subset' must be a string or a list of strings (label "
                        f"patterns), got {type(subset).__name__} {subset!r}")
    if not items:
        raise ValueError(f"{r}: argument 'subset' is an empty list; give at least one label "
                         f"pattern or leave 'subset' out to match bodies by id")
    out = []
    for i, p in enumerate(items):
        if not isinstance(p, str):
            raise TypeError(f"{r}: argument 'subset[{i}]' must be a string (a label pattern), "
                            f"got {type(p).__name__} {p!r}")
        try:
            out.append((p, re.compile(p)))
        except re.error as e:
            raise ValueError(f"{r}: argument 'subset[{i}]' = {p!r} is not a valid regular "
                             f"expression: {e}") from None
    return out


def _open_results(path, r):
    """Results of the run in `path` (its output directory or its .h5 file)."""
    from . import results as R
    p = R.results_path(path)
    if not os.path.isfile(p):
        d = path if os.path.isdir(path) else os.path.dirname(p)
        name = os.path.basename(os.path.normpath(d))
        native = any(os.path.isfile(os.path.join(d, name + ext))
                     for ext in (".dat", ".idx", ".lab", ".dat.0", ".idx.0"))
        if not os.path.exists(path):
            raise ValueError(f"{r}: argument 'path': '{path}' does not exist; pass the output "
                             f"directory of another solfec run (its SOLFEC 'output')")
        hint = (" It holds Solfec-1.0 output files (.dat/.idx/.lab), which this solfec does "
                "not read: rerun that deck with this solfec first." if native else "")
        raise ValueError(f"{r}: argument 'path': no solfec results file '{p}' (expected "
                         f"DIR/basename(DIR).h5 written by this solfec).{hint}")
    try:
        res = R.Results(p)
    except (ValueError, OSError) as e:
        raise ValueError(f"{r}: argument 'path': cannot read '{p}': {e}") from None
    if res.nframes == 0:
        res.close()
        raise ValueError(f"{r}: argument 'path': '{p}' holds no complete frame yet")
    return res


# --- matching --------------------------------------------------------------------------------
def _deck_bodies(solfec):
    """{id: BODY} of the bodies present in this run."""
    return {b.id: b for b in solfec.bodies}


def _pairs(solfec, res, fr, patterns, r):
    """[(BODY of this run, id in the frame)] as Solfec-1.0 matches them."""
    mine = _deck_bodies(solfec)
    if patterns is None:  # by id
        return [(mine[int(i)], int(i)) for i in fr.bodies["id"] if int(i) in mine]
    out, seen = [], set()
    for text, rx in patterns:
        hits = [b for b in mine.values() if b.label is not None and rx.search(b.label)]
        if not hits:
            raise ValueError(f"{r}: argument 'subset': pattern {text!r} matches no body label "
                             f"of this run")
        for b in hits:
            if b.id in seen:
                continue
            seen.add(b.id)
            other = res.body_by_label(b.label)
            if other is not None and fr.position(other) is not None:
                out.append((b, other))  # a label absent from the frame is skipped
    return out


def _where(res, fr):
    return f"'{res.path}' at time {fr.time:g}"


def _describe(body):
    return f"body {body.id}" + (f" ('{body.label}')" if body.label else "")


def _check_copy(r, body, res, fr, other):
    """The stored (q, u) of body `other`, checked against this run's `body`."""
    kind, stored = body.kind, res.kind(other)
    if kind != stored and not (kind in _RIGID_LIKE and stored in _RIGID_LIKE):
        raise ValueError(f"{r}: {_describe(body)} is {kind} in this run but body {other} is "
                         f"{stored} in {_where(res, fr)} (argument 'path'); the runs' bodies "
                         f"must be of the same kind" +
                         ("; to start FINITE_ELEMENT bodies from a rigid motion use "
                          "RIGID_TO_FEM" if kind == "FINITE_ELEMENT" and stored == "RIGID"
                          else ""))
    q, u = fr.body_q(other), fr.body_u(other)
    d = body._solfec._domain
    nq, nu = len(d.body_conf(body.id)), len(d.body_velo(body.id))
    if (q.size, u.size) != (nq, nu):
        raise ValueError(f"{r}: {_describe(body)} has {nq} configuration and {nu} velocity "
                         f"values in this run but body {other} stores {q.size} and {u.size} "
                         f"in {_where(res, fr)} (argument 'path'); the bodies differ (mesh, "
                         f"form or kind)")
    return np.array(q, dtype=float), np.array(u, dtype=float)


# --- rigid motion onto FINITE_ELEMENT bodies -------------------------------------------------
def _fe_layout(d, bid):
    """'NODES' (forms TL, BC: q = node coordinates, u = node velocities), 'FFR' or
    'REDUCED'."""
    nq, nu = len(d.body_conf(bid)), len(d.body_velo(bid))
    if _solfec.reduced_base(d, bid) is not None:
        return "REDUCED"
    if nq == nu:
        return "NODES"
    if nq - nu == 6:
        return "FFR"
    return "REDUCED"


def _relative_nodes(d, bid):
    """Referential node positions relative to the referential (lumped-)mass centre, (N, 3)."""
    X = np.asarray(_solfec.fe_referential_nodes(d, bid), dtype=float)
    m = np.asarray(_solfec.fe_lumped_mass(d, bid, "RIGID_TO_FEM"), dtype=float)[0::3]
    return X - m @ X / m.sum()


def _rigid_state(res, fr, other):
    """(R, x0, Omega, v0) of a stored RIGID body: rotation, mass-centre position, referential
    angular velocity and mass-centre velocity."""
    q, u = fr.body_q(other), fr.body_u(other)
    return (np.asarray(q[:9], dtype=float).reshape(3, 3, order="F"),
            np.asarray(q[9:12], dtype=float), np.asarray(u[:3], dtype=float),
            np.asarray(u[3:6], dtype=float))


def _fe_from_rigid(r, body, res, fr, other):
    """(q, u) of FINITE_ELEMENT `body` moving rigidly with stored RIGID body `other`: every
    node x = x0 + R (X - X0), v = v0 + w x (x - x0), with X0 the referential mass centre of
    `body`, (x0, v0) the rigid mass centre's position and velocity and w = R Omega."""
    d = body._solfec._domain
    layout = _fe_layout(d, body.id)
    R, x0, W, v0 = _rigid_state(res, fr, other)
    if layout == "FFR":  # q = [x_C, O, psi], u = [v_C, Omega, lambda] about the mass centre
        nq, nu = len(d.body_conf(body.id)), len(d.body_velo(body.id))
        q = np.zeros(nq)
        u = np.zeros(nu)
        q[:3], q[3:12] = x0, R.ravel(order="F")
        u[:3], u[3:6] = v0, W
        return q, u
    if layout != "NODES":
        raise ValueError(f"{r}: {_describe(body)} is a reduced-order FINITE_ELEMENT body "
                         f"(form 'BC-RO' or 'BC-MODAL'); a rigid motion can be mapped onto "
                         f"forms 'TL', 'BC' and 'FFR' only (argument 'solfec')")
    a = _relative_nodes(d, body.id) @ R.T  # R (X - X0), node after node
    x = x0 + a
    v = v0 + np.cross(R @ W, a)
    return x.ravel(), v.ravel()


# --- routines --------------------------------------------------------------------------------
def _initialize(solfec, path, time, subset, r, rigid_to_fem):
    if rigid_to_fem:  # arguments checked in the routine's order
        path = _path(path, r)
        t = A.positive(time, r, "time", allow_zero=True)
        A.instance(solfec, SOLFEC, r, "solfec")
    else:
        A.instance(solfec, SOLFEC, r, "solfec")
        path = _path(path, r)
        t = A.positive(time, r, "time", allow_zero=True)
    patterns = _patterns(subset, r)
    if solfec._mode == "READ":  # Solfec-1.0 ignores both routines in READ mode
        return 0
    with _open_results(path, r) as res:
        fr = res.frame(res.nearest_frame(t))
        updates = []
        for body, other in _pairs(solfec, res, fr, patterns, r):
            works = None
            if (rigid_to_fem and body.kind == "FINITE_ELEMENT" and
                    res.kind(other) == "RIGID"):
                q, u = _fe_from_rigid(r, body, res, fr, other)
            else:
                q, u = _check_copy(r, body, res, fr, other)
                # ENERGY's work counters (external, contact, friction), as Solfec-1.0's state
                works = [float(w) for w in fr.bodies["energy"][fr.position(other)][2:5]]
            if not (np.all(np.isfinite(q)) and np.all(np.isfinite(u))):
                raise ValueError(f"{r}: the state of body {other} in {_where(res, fr)} is not "
                                 f"finite (argument 'path')")
            updates.append((body, q, u, works))
    d = solfec._domain
    for body, q, u, works in updates:  # every body checked first: an error changes nothing
        d.set_body_conf(body.id, q.tolist())
        d.set_body_velo(body.id, u.tolist())
        if works is not None:
            d.set_body_works(body.id, *works)
    return len(updates)


def INITIALIZE_STATE(solfec, path, time, subset=None):
    """INITIALIZE_STATE(solfec, path, time | subset): copies body configurations and
    velocities from the frame nearest `time` of the run whose output directory is `path`
    (bodies matched by id; with `subset`, a label pattern or a list of them, by label);
    returns the number of bodies set. Ignored in READ mode."""
    return _initialize(solfec, path, time, subset, "INITIALIZE_STATE", False)


def RIGID_TO_FEM(path, time, solfec, subset=None):
    """RIGID_TO_FEM(path, time, solfec | subset): as INITIALIZE_STATE, but a FINITE_ELEMENT
    body of this run matched with a RIGID body of the other run takes that rigid motion: its
    nodes x = x0 + R (X - X0), velocities v0 + w x (x - x0) (X0 its referential mass centre;
    R, x0, v0, w = R Omega of the rigid body). Other matched bodies copy their state. Returns
    the number of bodies set. Ignored in READ mode."""
    return _initialize(solfec, path, time, subset, "RIGID_TO_FEM", True)
