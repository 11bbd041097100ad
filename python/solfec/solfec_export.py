"""SOLFEC_EXPORT: the model state in Solfec-1.0's native PBF format (scxp.c solfec_export,
dio.c dom_write_state, pbf.c), with a copy of the input deck beside it."""

import os
import shutil
import sys

import numpy as np

from . import _args as A
from . import _mpi
from . import _solfec
from . import _state
from . import pbf
from . import results as R
from .history import _Session, _xdmf_frames, _xdmf_subset
from .model import BODY, SOLFEC

__all__ = ["SOLFEC_EXPORT"]

IOVER = 4  # Solfec-1.0's output version (sol.h)
_BODY_CODE = {"OBSTACLE": 0, "RIGID": 1, "PSEUDO_RIGID": 2, "FINITE_ELEMENT": 3}
# our constraint kinds (results.CONSTRAINT_KINDS) -> Solfec-1.0's (dom.h); PARTITION's glue
# point pairs are written as rigid links of length 0
_CON_CODE = {"CONTACT": 0, "FIXPNT": 1, "FIXDIR": 2, "VELODIR": 3, "RIGLNK": 5, "SPRING": 6,
             "GLUEPNT": 5}
_TIMERS = ("TIMINT", "CONUPD", "CONDET", "LOCDYN", "CONSOL", "PARBAL")


def _energy(kind, e):
    """Ours (kinetic, internal, external, contact, friction) -> Solfec-1.0's (kinetic,
    external, contact work, friction work, internal), 0 / 4 / 5 values by kind."""
    v = [e[0], e[2], e[3], e[4], e[1]]
    return v[:0 if kind == "OBSTACLE" else 4 if kind == "RIGID" else 5]


def _material(solfec, s1, s2):
    """Index (creation order) and cohesion of the SURFACE_MATERIAL of a surface pair."""
    default = None
    for i, m in enumerate(solfec._surface):
        if m._m.is_default:
            default = (i, m) if default is None else default
        elif {m.surf1, m.surf2} == {s1, s2} and (s1 != s2 or m.surf1 == m.surf2):
            return i, m
    return default if default is not None else (-1, None)


def _contact_tail(solfec, c):
    """(material index, cohesion state) of a contact record."""
    i, m = _material(solfec, int(c["surf1"]), int(c["surf2"]))
    coh = 0.0 if m is None else float(getattr(m, "cohesion", 0.0) or 0.0)
    return i, ([coh if c["cohesive"] else 0.0] if coh > 0.0 else [])


def _z(kind, c):
    """Solfec-1.0's auxiliary storage Z of RIGLNK (link vector, length), VELODIR (the
    prescribed normal velocity, i.e. U normal once satisfied) and SPRING (not kept: zeros)."""
    z = [0.0] * pbf.Z_SIZE
    if kind in ("RIGLNK", "GLUEPNT"):
        d = np.asarray(c["point2"], float) - np.asarray(c["point"], float)
        z[0:3] = d.tolist()
        z[3] = float(np.linalg.norm(d))
    elif kind == "VELODIR":
        z[0] = float(c["U"][2])
    return z


def _write_constraint(w, solfec, c, kind, V):
    code = _CON_CODE[kind]
    for name, n in (("R", 3), ("U", 3), ("point", 3), ("base", 9)):
        if len(c[name]) != n:  # a wrong size would shift every later value of the frame
            raise AssertionError(f"SOLFEC_EXPORT: constraint {c['id']} {name} has "
                                 f"{len(c[name])} values, not {n}")
    w.uints([int(c["id"])])
    w.ints([code])
    w.doubles(c["R"])
    w.doubles(c["U"])
    if code == 0:
        w.doubles(V)
    w.doubles(c["point"])
    w.doubles(c["base"])
    w.doubles([c["merit"]])
    w.uints([int(c["body1"]), int(c["body2"]) if c["body2"] >= 0 else 0])
    if code == 0:
        index, state = _contact_tail(solfec, c)
        w.shorts([index])
        w.ints([len(state)])
        w.doubles(state)
        w.doubles([c["area"], c["gap"]])
        w.ints([int(c["surf1"]), int(c["surf2"])])
    if code in (3, 5, 6):
        w.doubles(_z(kind, c))


def _write_state(w, solfec, time, step, merit, bodies, cons, timers):
    """One frame as dom_write_state (IOVER 4) and sol.c's timers; bodies [(id, label, kind,
    conf, velo, energy)], cons [(record, kind, V)]."""
    w.time(time)
    w.label("DOM")
    w.label("IOVER")
    w.ints([IOVER])
    w.label("STEP")
    w.doubles([step])
    w.label("MERIT")
    w.doubles([merit])
    w.label("BODS")
    w.ints([len(bodies)])
    for bid, label, kind, q, u, e in bodies:
        w.uints([bid])
        if label:
            w.label(label)
        w.ints([_BODY_CODE[kind], len(q), len(u)])
        w.doubles(q)
        w.doubles(u)
        w.doubles(_energy(kind, e))
    w.label("CONS")
    w.ints([len(cons)])
    for c, kind, V in cons:
        _write_constraint(w, solfec, c, kind, V)
    w.label("TIMERS")
    w.ints([len(timers)])
    for name in sorted(timers):
        w.label(name)
        w.doubles([timers[name]])
        w.string(name)


def _keep_constraint(c, keep):
    return keep is None or (int(c["body1"]) in keep and
                            (int(c["body2"]) < 0 or int(c["body2"]) in keep))


def _read_mode_frames(solfec, res, frames, keep):
    for fr in res.iter_frames(frames):
        bodies = []
        for k, bid in enumerate(fr.bodies["id"]):
            bid = int(bid)
            if keep is not None and bid not in keep:
                continue
            kind = res.kind(bid)
            q, u = fr.body_q(bid), fr.body_u(bid)
            if kind == "FINITE_ELEMENT":  # mesh space: node displacements and velocities
                x, v = res.fe_nodes(fr, bid)
                q = (np.asarray(x) - np.asarray(res.fe_mesh(bid).nodes)).ravel()
                u = np.asarray(v).ravel()
            bodies.append((bid, res.label(bid), kind, q, u, fr.bodies["energy"][k]))
        cons = []
        for c in fr.constraints:
            kind = R.CONSTRAINT_KINDS[int(c["kind"])]
            if _keep_constraint(c, keep):
                cons.append((c, kind, (0.0, 0.0, 0.0)))  # V is not stored in the results
        timers = {n: float(fr.row["timing"][i]) for i, n in enumerate(_TIMERS)}
        yield (fr.time, float(fr.row["step"]), float(fr.row["merit"]), bodies, cons, timers)


def _write_mode_frame(solfec, keep):
    d = solfec._domain
    bodies = []
    for b in solfec.bodies:  # newest first, as Solfec-1.0's body list
        if keep is not None and b.id not in keep:
            continue
        q, u = list(d.body_conf(b._id)), list(d.body_velo(b._id))
        if b.kind == "FINITE_ELEMENT":
            X = np.asarray(_core_referential_nodes(d, b._id))
            if len(q) == X.size:  # node coordinates -> displacements (Solfec-1.0's conf)
                q = (np.asarray(q) - X.ravel()).tolist()
        bodies.append((b.id, b.label, b.kind, q, u, d.energy_of([b._id])))
    cons = []
    for con in solfec.constraints:
        cid = con._id
        kind = d.constraint_kind(cid)
        b1, b2 = d.constraint_bodies(cid)
        s1, s2 = d.constraint_surfaces(cid) if kind == "CONTACT" else (0, 0)
        p = list(d.constraint_point(cid))  # RIGLNK, SPRING, GLUEPNT: point and point2
        point, point2 = p[:3], (p[3:6] if len(p) == 6 else p[:3])
        rec = {"id": cid, "R": d.constraint_R(cid), "U": d.constraint_U(cid),
               "point": point, "point2": point2,
               "base": np.asarray(d.constraint_base(cid)).reshape(3, 3).ravel(order="F"),
               "merit": d.constraint_merit(cid), "body1": b1, "body2": b2,
               "area": d.constraint_area(cid), "gap": d.constraint_gap(cid),
               "surf1": s1, "surf2": s2, "cohesive": 0}
        if _keep_constraint(rec, keep):
            V = d.constraint_V(cid) if kind == "CONTACT" else (0.0, 0.0, 0.0)
            cons.append((rec, kind, V))
    timers = {n: float(d.timing(n)) for n in _TIMERS}
    merit = float(d.solver_stats().merit) if d.step_count > 0 else 0.0  # the last step's
    return (float(d.time), float(d.step), merit, bodies, cons, timers)


def _core_referential_nodes(d, bid):
    return _solfec.fe_referential_nodes(d, bid, "SOLFEC_EXPORT")


def _write_subset(solfec, subset, r):
    """Body ids of `subset` in WRITE mode (label patterns, BODY objects, ids, boxes)."""
    import re
    items = subset if isinstance(subset, list) else [subset]
    keep = set()
    for i, it in enumerate(items):
        if isinstance(it, str):
            pat = re.compile(it)
            keep |= {b.id for b in solfec.bodies if b.label and pat.search(b.label)}
        elif isinstance(it, BODY):
            keep.add(it.id)
        elif isinstance(it, int) and not isinstance(it, bool):
            keep.add(it)
        elif isinstance(it, tuple) and len(it) == 6:
            for b in solfec.bodies:
                e = b.extents
                if all(e[k] <= it[k + 3] and it[k] <= e[k + 3] for k in range(3)):
                    keep.add(b.id)
        else:
            raise TypeError(f"{r}: argument 'subset' item {i} must be a label pattern, a BODY, "
                            f"a body id or a box (xmin, ymin, zmin, xmax, ymax, zmax), got "
                            f"{type(it).__name__} {it!r}")
    return keep


def _deck_path():
    p = _state.options.get("deck") or (sys.argv[0] if sys.argv and sys.argv[0] else None)
    return p if p and os.path.isfile(p) and p.endswith(".py") else None


def SOLFEC_EXPORT(solfec, time, path, subset=None):
    """SOLFEC_EXPORT(solfec, time, path | subset): writes the model state in Solfec-1.0's
    PBF format to the directory `path`: path/NAME.dat, .idx, .lab (NAME the last component of
    `path`) and a copy of the input deck, path/NAME.py. READ mode: the stored frames nearest
    to `time` (a number or a list of numbers) or between (t0, t1) (a tuple); WRITE mode: the
    current state (`time` is not used, as Solfec-1.0). `subset`: label patterns, BODY objects,
    body ids or boxes (or a list of them): only those bodies and the constraints between them.
    solfec.pbf.read_states(path/NAME) reads the files back. Returns the file path written
    (path/NAME, without extension)."""
    r = "SOLFEC_EXPORT"
    A.instance(solfec, SOLFEC, r, "solfec")
    path = A.string(path, r, "path")
    if not path.strip("/"):
        raise ValueError(f"{r}: argument 'path' must name a directory, got {path!r}")
    path = path.rstrip("/")
    name = os.path.basename(path)
    out = os.path.join(path, name)
    if _mpi.size() > 1:
        if solfec._mode != "READ":
            raise ValueError(f"{r}: the current state of a solfec-mpi run is spread over the "
                             f"ranks; export it in READ mode (Solfec-1.0 writes nothing under "
                             f"MPI)")
        try:
            if _mpi.rank() == 0:  # every rank reads the same results: one writes
                _export(solfec, time, path, subset, out, r)
        finally:
            _mpi.barrier()  # the others wait for the files (an error on rank 0 still releases them)
        return out
    _export(solfec, time, path, subset, out, r)
    return out


def _export(solfec, time, path, subset, out, r):
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise ValueError(f"{r}: cannot create the directory of argument 'path' = '{path}': "
                         f"{e.strerror}") from None
    if solfec._mode == "READ":
        with _Session(solfec) as res:
            frames = _xdmf_frames(res, time, r)
            keep = None if subset is None else _xdmf_subset(res, subset, r, frames)
            if keep is not None and not keep:
                raise ValueError(f"{r}: argument 'subset' matches no body")
            w = pbf.Writer(out)
            try:
                for state in _read_mode_frames(solfec, res, frames, keep):
                    _write_state(w, solfec, *state)
            finally:
                w.close()
    else:
        if not (isinstance(time, (int, float, list, tuple)) and not isinstance(time, bool)):
            raise TypeError(f"{r}: argument 'time' must be a time, a list of times or a tuple "
                            f"(t0, t1), got {type(time).__name__}")
        keep = None if subset is None else _write_subset(solfec, subset, r)
        if keep is not None and not keep:
            raise ValueError(f"{r}: argument 'subset' matches no body")
        w = pbf.Writer(out)
        try:
            _write_state(w, solfec, *_write_mode_frame(solfec, keep))
        finally:
            w.close()
    deck = _deck_path()
    if deck is not None:
        shutil.copyfile(deck, out + ".py")
