"""Results access of the deck language (manual 4.5): SEEK, FORWARD, BACKWARD, STRESS,
HISTORY, and XDMF_EXPORT (ParaView); READ-mode frame loading and restart restore."""

import sys

import numbers

import numpy as np

from . import _args as A
from . import _mpi
from . import _solfec
from . import results as R
from . import stored_bodies
from . import xdmf
from .model import BODY, SOLFEC

__all__ = ["SEEK", "FORWARD", "BACKWARD", "STRESS", "HISTORY", "XDMF_EXPORT"]


# --- frames ----------------------------------------------------------------------------------
def _open(solfec):
    """Results of a SOLFEC's file; reduced bases written with OUTPUT(..., bases='DECK') come
    from the deck's bodies."""
    res = R.Results(solfec._h5path)

    def deck_base(bid):
        d = solfec._domain
        b = _solfec.reduced_base(d, bid) if d.has_body(bid) else None
        return None if b is None else b[1]

    res.provide_bases(deck_base)
    return res


def _reader(solfec):
    """The Results of a READ-mode SOLFEC (kept open)."""
    if solfec._results is None:
        solfec._results = _open(solfec)
    return solfec._results


class _Session:
    """Results for one query: READ mode shares the open reader; WRITE mode releases the
    writer (it reopens at the next frame) and reads what is written so far."""

    def __init__(self, solfec):
        self.solfec = solfec

    def __enter__(self):
        s = self.solfec
        if s._mode == "READ":
            self.res, self.own = _reader(s), False
        else:
            if s._output is None or s._output.frames == 0:
                raise ValueError("HISTORY: nothing has been written yet; call RUN first")
            self.res, self.own = _open(s), True
        return self.res

    def __exit__(self, *exc):
        if self.own:
            self.res.close()


def _restore(solfec, res, i, make_missing=False, drop_absent=False):
    fr = res.frame(i)
    made = []
    gone = []
    if drop_absent:  # restart: deck bodies deleted (split, EXTENTS, DELETE) before the frame
        present = set(int(b) for b in fr.bodies["id"])
        gone = [b for b in solfec._domain.body_ids() if b not in present]
        for b in gone:
            solfec._domain.delete_body(b)
            solfec._bodies.pop(b, None)
    if make_missing:  # the frame's bodies that the deck did not make
        mats = {}
        for m in solfec._bulk:
            mats.setdefault(m.label or "", m)
        if mats:
            for bid, mat in stored_bodies.add_stored(solfec._domain, res, fr.bodies["id"], mats):
                b = BODY.__new__(BODY)
                object.__setattr__(b, "_solfec", solfec)
                object.__setattr__(b, "_id", bid)
                object.__setattr__(b, "_material", mat)
                if res.kind(bid) != "FINITE_ELEMENT":
                    object.__setattr__(b, "_ref_meshes", [])
                solfec._bodies[bid] = b
                made.append(bid)
    cracks = getattr(solfec, "_cracks", None)  # SIMPLIFIED_CRACK (split.py)
    if cracks is not None and gone:
        cracks.remap(solfec._domain, gone, made)
    _solfec.restore_frame(solfec._domain, res.frames[i:i + 1], fr.bodies, fr.nq.tolist(),
                          fr.nu.tolist(), fr.q, fr.u, fr.constraints)
    return fr


def _load_frame(solfec, i):
    """READ mode: puts frame i into the deck's bodies and constraints."""
    res = _reader(solfec)
    i = max(0, min(int(i), res.nframes - 1))
    fr = _restore(solfec, res, i, make_missing=True)
    solfec._frame = i
    solfec._present = set(int(b) for b in fr.bodies["id"])


def _restore_last(solfec):
    """Restart: restores the last complete frame of the file being continued."""
    with R.Results(solfec._h5path) as res:
        if res.nframes:
            _restore(solfec, res, res.nframes - 1, make_missing=not _mpi.active(),
                     drop_absent=not _mpi.active())


def _current_row(solfec):
    if solfec._frame < 0:
        return None
    return _reader(solfec).frames[solfec._frame]


def _read_mode(solfec, routine):
    A.instance(solfec, SOLFEC, routine, "solfec")
    return solfec._mode == "READ"


def SEEK(solfec, time):
    """SEEK(solfec, time): READ mode: loads the frame nearest to `time` (ignored in WRITE)."""
    t = A.number(time, "SEEK", "time")
    if _read_mode(solfec, "SEEK"):
        _load_frame(solfec, _reader(solfec).nearest_frame(t))


def FORWARD(solfec, steps=1):
    """FORWARD(solfec, steps): READ mode: moves `steps` frames forward (ignored in WRITE)."""
    n = A.integer(steps, "FORWARD", "steps")
    if _read_mode(solfec, "FORWARD"):
        _load_frame(solfec, max(solfec._frame, 0) + n)


def BACKWARD(solfec, steps=1):
    """BACKWARD(solfec, steps): READ mode: moves `steps` frames backward (ignored in WRITE)."""
    n = A.integer(steps, "BACKWARD", "steps")
    if _read_mode(solfec, "BACKWARD"):
        _load_frame(solfec, max(solfec._frame, 0) - n)


def STRESS(body, point):
    """STRESS(body, point): Cauchy stress (sx, sy, sz, sxy, sxz, syz, mises) at a referential
    point; defined for deformable bodies only (FINITE_ELEMENT: in the element holding the
    point, or the nearest one; at a mesh node the average over the node's elements)."""
    A.instance(body, BODY, "STRESS", "body")
    A.vec3(point, "STRESS", "point")
    if body.kind == "PSEUDO_RIGID":  # homogeneous deformation: the same at every point
        F = [body.conf[:9][3 * j + i] for i in range(3) for j in range(3)]  # row-major F
        m = body.material
        return R.stress_values(np.reshape(F, (3, 3)), m.young, m.poisson)
    if body.kind == "FINITE_ELEMENT":  # at the point's element, from the body's current q
        # At a mesh node (within GEOMETRIC_EPSILON) the stress is discontinuous: the average
        # of the node's elements' stresses there (Solfec-1.0, Code_Aster's nodal stresses);
        # elsewhere the stress of the element holding the point. Each element with its own
        # material (APPLY_BULKMAT). body/fem/point_stress.h
        X = A.vec3(point, "STRESS", "point")
        return tuple(body._d.fe_point_stress(body._id, X))
    raise ValueError(f"STRESS: not defined for {body.kind} bodies")


# --- HISTORY ---------------------------------------------------------------------------------
_COUNTS = {"STEP": lambda fr: fr.row["step"], "CONS": lambda fr: fr.row["con_count"],
           "BODS": lambda fr: fr.row["body_count"], "DELBODS": lambda fr: fr.row["delbods"],
           "NEWBODS": lambda fr: fr.row["newbods"], "GSITERS": lambda fr: fr.row["gsiters"],
           "MERIT": lambda fr: fr.row["merit"],
           # Solfec-1.0's iteration counts of NEWTON_SOLVER and BODY_SPACE_SOLVER: the stored
           # count is that of the step's solver, whichever it was
           "NTITERS": lambda fr: fr.row["gsiters"], "BSITERS": lambda fr: fr.row["gsiters"]}
_PARALLEL_ONLY = ("GSCOLORS", "GSBOT", "GSMID", "GSTOP", "GSINN", "GSINIT", "GSRUN", "GSCOM",
                  "GSMCOM")
# Items that count something: HISTORY returns them as int64 arrays (the rest as float64).
_INTEGER_ITEMS = ("CONS", "BODS", "DELBODS", "NEWBODS", "GSITERS", "NTITERS", "BSITERS",
                  "NEWCONS", "GSCOLORS", "GSBOT", "GSMID", "GSTOP", "GSINN")
_NEWTON = ("LININIT", "LINUPD", "LINMV", "LINPRE", "LINRUN", "LINCOM")
_AGGREGATES = ("GAP", "R", "U", "CR", "CU")


def _body_ids(obj, solfec, routine):
    """None for the whole model, else the list of body ids of a BODY or list of bodies."""
    if obj is solfec:
        return None
    if isinstance(obj, BODY):
        return [obj.id]
    if isinstance(obj, (list, tuple)) and all(isinstance(b, BODY) for b in obj):
        return [b.id for b in obj]
    raise TypeError(f"{routine}: an item's object must be the SOLFEC object, a BODY or a list "
                    f"of bodies, got {type(obj).__name__}")


def _energy_fn(ids, kind):
    k = R.ENERGY_NAMES.index(kind)
    if ids is None:
        return lambda fr: fr.row["energy"][k], False
    ids = np.asarray(ids)

    def fn(fr):
        mask = np.isin(fr.bodies["id"], ids)
        return float(fr.bodies["energy"][mask, k].sum())
    return fn, False


def _aggregate_fn(ids, direction, pair, entity):
    """GAP: minimum contact gap; R: sum of reactions; U: mean relative velocity; along the
    normal (direction None) or the spatial direction; CR/CU: contacts only."""
    d = None if direction is None else np.asarray(direction, float) / np.linalg.norm(direction)
    contacts_only = entity in ("GAP", "CR", "CU")
    which = entity[-1] if entity != "GAP" else "GAP"

    def fn(fr):
        c = fr.constraints
        m = np.ones(len(c), dtype=bool)
        if ids is not None:
            m &= np.isin(c["body1"], ids) | np.isin(c["body2"], ids)
        if contacts_only:
            m &= c["kind"] == 0
        if pair is not None:
            s1, s2 = pair
            m &= ((c["surf1"] == s1) & (c["surf2"] == s2)) | ((c["surf1"] == s2) & (c["surf2"] == s1))
        c = c[m]
        if len(c) == 0:
            return 0.0
        if which == "GAP":
            return float(c["gap"].min())
        v = c[which]
        if d is None:
            vals = v[:, 2]
        else:  # spatial vector = T1 v0 + T2 v1 + N v2 (base column-wise)
            B = c["base"].reshape(-1, 3, 3)  # B[k, j] = column j
            vals = np.einsum("kji,kj,i->k", B, v, d)
        return float(vals.sum() if which == "R" else vals.mean())
    return fn, True


def _item(solfec, res, item):
    """(function of a Frame, needs constraints) for one HISTORY item."""
    r = "HISTORY"
    if isinstance(item, str):
        if item in R.TIMING_NAMES:
            k = R.TIMING_NAMES.index(item)
            return (lambda fr: fr.row["timing"][k]), False
        if item in _COUNTS:
            return _COUNTS[item], False
        if item == "NEWCONS":
            return (lambda fr: int((fr.constraints["age"] == 0).sum())), True
        if item in _PARALLEL_ONLY:
            return (lambda fr: 0.0), False
        if item in _NEWTON:
            raise ValueError(f"HISTORY: '{item}' (a timer of Solfec-1.0's Newton linear "
                             f"solver) is not recorded by this solfec; the step's solver time "
                             f"is 'CONSOL' and its iterations 'NTITERS'")
        raise ValueError(f"HISTORY: unknown item '{item}'; use a timer ({', '.join(R.TIMING_NAMES)})"
                         f", 'STEP', 'CONS', 'BODS', 'DELBODS', 'NEWBODS', 'NEWCONS', 'GSITERS' "
                         f"('NTITERS', 'BSITERS') or 'MERIT'")
    if not isinstance(item, (tuple, list)):
        raise TypeError(f"{r}: each item must be a string or a tuple, got {type(item).__name__}")
    if len(item) == 3 and isinstance(item[2], str) and (isinstance(item[0], (BODY, str))):
        body, point, entity = item
        if isinstance(body, str):
            bid = res.body_by_label(body)
            if bid is None:
                raise ValueError(f"{r}: no body labelled '{body}' in the results")
        else:
            bid = body.id
        if not res.has_body(bid):
            gone = isinstance(body, BODY) and not solfec._domain.has_body(bid)
            raise ValueError(f"{r}: body {bid} is not in the results" +
                             (" (it was deleted before the first frame that would hold it)"
                              if gone else ""))
        X = A.vec3(point, r, "point")
        material = None  # FINITE_ELEMENT: the live body's material at X (APPLY_BULKMAT)
        # a DELETEd body has no live state: its stored definition (material, model) serves
        live = body if isinstance(body, BODY) and solfec._domain.has_body(bid) else None
        if live is None and not isinstance(body, BODY):
            live = next((b for b in solfec.bodies if b.id == bid), None)
        if live is not None and live.kind == "FINITE_ELEMENT" and entity in R.STRESS_ENTITIES:
            material = (*live._d.fe_material_at(live._id, X),
                        live._d.fe_material_model_at(live._id, X))
        return R.point_function(res, bid, X, entity, material), False
    if len(item) == 2:
        obj, kind = item
        ids = _body_ids(obj, solfec, r)
        if kind in R.ENERGY_NAMES:
            return _energy_fn(ids, kind)
        if kind in _AGGREGATES:
            return _aggregate_fn(ids, None, None, kind)
        raise ValueError(f"{r}: unknown kind '{kind}' in item {item!r}; use an energy "
                         f"({', '.join(R.ENERGY_NAMES)}) or 'GAP', 'R', 'U', 'CR', 'CU'")
    if len(item) == 4:
        obj, direction, pair, entity = item
        ids = _body_ids(obj, solfec, r)
        if entity not in _AGGREGATES:
            raise ValueError(f"{r}: unknown entity '{entity}' in item {item!r}; use 'GAP', 'R', "
                             f"'U', 'CR' or 'CU'")
        d = None if direction is None else A.direction(direction, r, "direction")
        p = None if pair is None else tuple(A.integer(x, r, "pair") for x in pair)
        return _aggregate_fn(ids, d, p, entity)
    raise ValueError(f"{r}: cannot interpret item {item!r}")


@A.keyword_aliases("HISTORY", list="items")
def HISTORY(solfec, items, t0=None, t1=None, skip=1, progress="OFF"):
    """HISTORY(solfec, list, t0, t1 | skip, progress): (times, values1, ...) numpy arrays of
    the stored frames with t0 <= t <= t1, every `skip`-th frame (see docs/output.md)."""
    r = "HISTORY"
    A.instance(solfec, SOLFEC, r, "solfec")
    single = isinstance(items, str) or (isinstance(items, tuple) and len(items) in (2, 3, 4)
                                        and not isinstance(items[0], (tuple, list, str)))
    items = [items] if single else list(items)
    t0 = None if t0 is None else A.number(t0, r, "t0")
    t1 = None if t1 is None else A.number(t1, r, "t1")
    skip = A.integer(skip, r, "skip")
    if skip < 1:
        raise ValueError(f"{r}: argument 'skip' must be >= 1, got {skip}")
    show = A.onoff(progress, r, "progress")
    with _Session(solfec) as res:
        fns = [_item(solfec, res, it) for it in items]
        need_cons = any(c for _, c in fns)
        idx = res.frame_indices(t0, t1, skip)
        out = np.zeros((len(fns), len(idx)))
        for k, fr in enumerate(res.iter_frames(idx, constraints=need_cons)):
            for j, (fn, _) in enumerate(fns):
                out[j, k] = fn(fr)
            if show and (k % max(1, len(idx) // 100) == 0 or k == len(idx) - 1):
                sys.stdout.write(f"\rHISTORY: {100 * (k + 1) // max(1, len(idx)):3d}%")
                sys.stdout.flush()
        if show:
            sys.stdout.write("\n")
        return (res.times[idx].copy(),
                *(out[j].astype(np.int64) if isinstance(it, str) and it in _INTEGER_ITEMS
                  else out[j] for j, it in enumerate(items)))


def _is_time(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _xdmf_frames(res, t, r):
    """Frame indices of Solfec-1.0's `t`: a time (the nearest frame), a list of times, or a
    tuple (t0, t1) (the frames between)."""
    if _is_time(t):
        return [res.nearest_frame(A.number(t, r, "t"))]
    if isinstance(t, tuple):
        if len(t) != 2:
            raise ValueError(f"{r}: argument 't' as a tuple must be (t0, t1), got {t!r}")
        return list(res.frame_indices(A.number(t[0], r, "t[0]"), A.number(t[1], r, "t[1]")))
    if isinstance(t, list) and t:
        return sorted({res.nearest_frame(A.number(x, r, f"t[{i}]")) for i, x in enumerate(t)})
    raise TypeError(f"{r}: argument 't' must be a time, a list of times or a tuple (t0, t1), "
                    f"got {type(t).__name__} {t!r}")


def _xdmf_subset(res, subset, r, frames=None):
    """Body ids of Solfec-1.0's `subset`: label patterns (regular expressions), BODY objects,
    body ids and boxes (xmin, ymin, zmin, xmax, ymax, zmax), or a list of them."""
    import re
    items = subset if isinstance(subset, list) else [subset]
    labels = {int(i): res.label(int(i)) for i in res.definitions["id"]}
    keep = set()
    for i, it in enumerate(items):
        if isinstance(it, str):
            pat = re.compile(it)
            keep |= {b for b, lab in labels.items() if lab and pat.search(lab)}
        elif isinstance(it, BODY):
            keep.add(it.id)
        elif isinstance(it, int) and not isinstance(it, bool):
            keep.add(it)
        elif isinstance(it, tuple) and len(it) == 6 and all(_is_time(v) for v in it):
            # Solfec-1.0: a box (xmin, ymin, zmin, xmax, ymax, zmax): the bodies whose
            # bounding box overlaps it, in the first frame exported.
            fr = next(iter(res.iter_frames([frames[0] if frames else 0], constraints=False)))
            for b in labels:
                e = xdmf.body_bounds(res, fr, b) if b in set(int(j) for j in fr.bodies["id"]) else None
                if e is not None and all(e[k] <= it[k + 3] and it[k] <= e[k + 3]
                                         for k in range(3)):
                    keep.add(b)
        else:
            raise TypeError(f"{r}: argument 'subset' item {i} must be a label pattern, a BODY, "
                            f"a body id or a box (xmin, ymin, zmin, xmax, ymax, zmax), got "
                            f"{type(it).__name__} {it!r}")
    return keep


def XDMF_EXPORT(solfec, path=None, t0=None, t1=None, skip=1, *, t=None, subset=None,
                attributes=None):
    """XDMF_EXPORT(solfec | path, t0, t1, skip): writes ParaView files of the stored frames
    (bodies, spheres, contacts); returns the list of .xmf paths written. Solfec-1.0's form
    XDMF_EXPORT(solfec, t, path | subset, attributes) is accepted too: t a time, a list of
    times or a tuple (t0, t1); subset label patterns, BODY objects or ids (or a list);
    attributes is accepted and every attribute written."""
    r = "XDMF_EXPORT"
    A.instance(solfec, SOLFEC, r, "solfec")
    frames = None
    if t is None and (_is_time(path) or isinstance(path, (list, tuple))):
        t, path, t0 = path, t0, None  # Solfec-1.0's positional order (solfec, t, path)
    if path is not None:
        path = A.string(path, r, "path")
    with _Session(solfec) as res:
        if t is not None:
            if t0 is not None or t1 is not None:
                raise TypeError(f"{r}: pass either 't' (Solfec-1.0) or 't0'/'t1', not both")
            frames = _xdmf_frames(res, t, r)
        keep = None if subset is None else _xdmf_subset(res, subset, r, frames)
        return xdmf.export(res, path, t0, t1, A.integer(skip, r, "skip"), frames, keep)
