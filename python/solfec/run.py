"""Running simulations and utilities (manual 4.3-4.5): RUN, CALLBACK, OUTPUT, EXTENTS,
UNPHYSICAL_PENETRATION, GEOMETRIC_EPSILON, CONTACT_*, VIEWER, NCPU, HERE, ENERGY, TIMING,
DURATION, DISPLACEMENT, VELOCITY and the serial answers of the parallel routines."""

from . import _args as A
from . import _mpi
from . import _state
from ._output import check_free_space
from .history import _current_row, _load_frame, _reader, _restore_last
from .model import BODY, SOLFEC
from .results import TIMING_NAMES
from .solvers import (AUTO_SOLVER, GAUSS_SEIDEL_SOLVER, NEWTON_SOLVER, PENALTY_SOLVER,
                      SICONOS_SOLVER)

__all__ = ["RUN", "CALLBACK", "OUTPUT", "EXTENTS", "UNPHYSICAL_PENETRATION", "GEOMETRIC_EPSILON",
           "CONTACT_EXCLUDE_BODIES", "CONTACT_EXCLUDE_OBJECTS", "CONTACT_EXCLUDE_SURFACES",
           "CONTACT_SPARSIFY", "CONTACT_POINTS", "VIEWER", "NCPU", "HERE", "RANK", "BARRIER", "SUBDIR",
           "NON_SOLFEC_ARGV", "ENERGY", "TIMING", "DURATION", "DISPLACEMENT", "VELOCITY",
           "IMBALANCE_TOLERANCE", "WARNINGS"]

_SOLVERS = (GAUSS_SEIDEL_SOLVER, PENALTY_SOLVER, NEWTON_SOLVER, AUTO_SOLVER, SICONOS_SOLVER)


def RUN(solfec, solver, duration):
    """RUN(solfec, solver, duration): advances the simulation by `duration` [s]. In READ mode
    the first RUN loads frame 0 and each further RUN the next frame. After `solfec -c` the
    first RUN restores the last stored frame and every RUN ends where it would have ended in
    the uninterrupted run (the sum of the deck's RUN durations)."""
    r = "RUN"
    A.instance(solfec, SOLFEC, r, "solfec")
    A.instance(solver, _SOLVERS, r, "solver",
               "GAUSS_SEIDEL_SOLVER, PENALTY_SOLVER, NEWTON_SOLVER, AUTO_SOLVER or SICONOS_SOLVER")
    if not isinstance(solver, PENALTY_SOLVER):
        for m in solfec._surface:
            if m.model == "SPRING_DASHPOT":
                raise ValueError(f"RUN: SURFACE_MATERIAL '{m.label}' has model 'SPRING_DASHPOT', "
                                 f"which only PENALTY_SOLVER handles (argument 'solver'); "
                                 f"use PENALTY_SOLVER or model 'SIGNORINI_COULOMB'")
    dur = A.positive(duration, r, "duration", allow_zero=True)
    solfec._ran = True   # solfec.cli tells about decks that compute nothing
    if _state.options.get("viewer") and solfec._mode != "READ":
        solfec._viewer_runs.append((solver, dur))  # docs/viewer.md
        return
    if solfec._mode == "READ":
        _load_frame(solfec, 0 if solfec._frame < 0 else
                    min(solfec._frame + 1, _reader(solfec).nframes - 1))
        return
    d = solfec._domain
    solfec._deck_time += dur
    if solfec._continue:  # solfec -c: restore the last frame once, then run to deck times
        _restore_last(solfec)
        solfec._continue = False
        solfec._continued = True
    if getattr(solfec, "_continued", False):
        dur = max(0.0, solfec._deck_time - d.time)
    out = solfec._output
    if out is not None:
        _check_run_space(solfec, dur)
        out.begin_run(d)
    d.set_solver_failure(solver._on_failure)
    try:
        d.run(solver._s, dur)
    finally:
        if out is not None:
            out.end_run(d)


def _check_run_space(solfec, duration):
    """Estimated bytes of the frames of this RUN against the free disk space."""
    d, out = solfec._domain, solfec._output
    h = d.step
    steps = max(0.0, duration / h)
    frames = steps if out.interval <= 0 else min(steps, duration / out.interval) + 1
    per_frame = 256 + d.num_bodies * 20 * 8 + d.num_constraints * 344
    check_free_space(solfec._outpath, int(frames * per_frame) + (1 << 20), "RUN")


def CALLBACK(solfec, interval, data, callback):
    """CALLBACK(solfec, interval, data, callback): calls callback(*data) every `interval` [s]
    of simulated time; a return value of 0 stops RUN."""
    r = "CALLBACK"
    A.instance(solfec, SOLFEC, r, "solfec")
    dt = A.positive(interval, r, "interval")
    A.callable_(callback, r, "callback")
    args = data if isinstance(data, tuple) else (data,)
    if solfec._mode == "READ":
        return

    def fn():
        ret = callback(*args)
        return not (ret is not None and ret == 0)  # 0 (or False) stops RUN
    solfec._domain.add_callback(dt, fn)


def OUTPUT(solfec, interval, compression="OFF", bases="FILE"):
    """OUTPUT(solfec, interval | compression, bases): output frame interval [s], compression,
    and where the reduced bases of BC-RO / BC-MODAL bodies live: 'FILE' (in the results file,
    default) or 'DECK' (only a fingerprint is written; readers take E from the deck)."""
    r = "OUTPUT"
    A.instance(solfec, SOLFEC, r, "solfec")
    solfec._output_interval = A.positive(interval, r, "interval", allow_zero=True)
    solfec._output_compression = A.onoff(compression, r, "compression")
    if bases not in ("FILE", "DECK"):
        raise ValueError(f"OUTPUT: argument 'bases' must be 'FILE' or 'DECK', got {bases!r}")
    if solfec._output is not None:
        solfec._output.interval = solfec._output_interval
        solfec._output.set_compression(solfec._output_compression)
        solfec._output.set_bases_in_file(bases == "FILE")


def EXTENTS(solfec, extents):
    """EXTENTS(solfec, (xmin, ymin, zmin, xmax, ymax, zmax)): bodies leaving are deleted."""
    r = "EXTENTS"
    A.instance(solfec, SOLFEC, r, "solfec")
    e = A.vec(extents, 6, r, "extents")
    if not all(e[i] < e[i + 3] for i in range(3)):
        raise ValueError(f"EXTENTS: argument 'extents' needs min < max on every axis, got {e}")
    if solfec._mode != "READ":
        solfec._domain.set_extents(e)


def UNPHYSICAL_PENETRATION(solfec, depth):
    """UNPHYSICAL_PENETRATION(solfec, depth): stop with an error once a gap < -depth [m]."""
    r = "UNPHYSICAL_PENETRATION"
    A.instance(solfec, SOLFEC, r, "solfec")
    depth = A.positive(depth, r, "depth")
    if solfec._mode != "READ":
        solfec._domain.penetration_depth = depth


def GEOMETRIC_EPSILON(epsilon):
    """GEOMETRIC_EPSILON(epsilon): geometric tolerance [m] (default 1e-6)."""
    eps = A.positive(epsilon, "GEOMETRIC_EPSILON", "epsilon")
    _state.geometric_epsilon = eps
    for ref in _state.solfec_objects:
        s = ref()
        if s is not None:
            s._domain.geometric_epsilon = eps


def CONTACT_EXCLUDE_BODIES(body1, body2):
    """CONTACT_EXCLUDE_BODIES(body1, body2): no contact detection between the two bodies."""
    r = "CONTACT_EXCLUDE_BODIES"
    A.instance(body1, BODY, r, "body1")
    A.instance(body2, BODY, r, "body2")
    if body1._solfec is not body2._solfec:
        raise ValueError(f"{r}: the bodies belong to different SOLFEC objects")
    body1._solfec._domain.exclude_bodies(body1._id, body2._id)


def CONTACT_EXCLUDE_OBJECTS(body1, point1, body2, point2):
    """CONTACT_EXCLUDE_OBJECTS(body1, point1, body2, point2): no contact between the geometric
    objects (convexes, spheres, elements) containing the referential points."""
    r = "CONTACT_EXCLUDE_OBJECTS"
    A.instance(body1, BODY, r, "body1")
    A.instance(body2, BODY, r, "body2")
    d = body1._solfec._domain
    p1 = d.body_piece_at(body1._id, A.vec3(point1, r, "point1"))
    p2 = d.body_piece_at(body2._id, A.vec3(point2, r, "point2"))
    for p, a in ((p1, "point1"), (p2, "point2")):
        if p < 0:
            raise ValueError(f"{r}: argument '{a}' lies in no geometric object of its body")
    d.exclude_objects(body1._id, p1, body2._id, p2)


def CONTACT_EXCLUDE_SURFACES(solfec, surf1, surf2):
    """CONTACT_EXCLUDE_SURFACES(solfec, surf1, surf2): no contact between the surface pair."""
    r = "CONTACT_EXCLUDE_SURFACES"
    A.instance(solfec, SOLFEC, r, "solfec")
    solfec._domain.exclude_surfaces(A.integer(surf1, r, "surf1"), A.integer(surf2, r, "surf2"))


def CONTACT_SPARSIFY(solfec, threshold=0.01, minarea=0.0, mindist=None):
    """CONTACT_SPARSIFY(solfec | threshold, minarea, mindist): contact sparsification
    (manual 6.2): area-ratio threshold in [0, 1], minimal area [m^2], minimal distance [m]."""
    r = "CONTACT_SPARSIFY"
    A.instance(solfec, SOLFEC, r, "solfec")
    t = A.number(threshold, r, "threshold")
    if not 0.0 <= t <= 1.0:
        raise ValueError(f"{r}: argument 'threshold' must lie in [0, 1], got {threshold!r}")
    a = A.positive(minarea, r, "minarea", allow_zero=True)
    m = _state.geometric_epsilon if mindist is None else A.positive(mindist, r, "mindist", True)
    solfec._domain.set_sparsify(t, a, m)


def CONTACT_POINTS(solfec, points):
    """CONTACT_POINTS(solfec, points): contact points per pair of touching convex pieces:
    1 (default, Solfec-1.0's model: one point at the centroid of the overlap, so a face in
    contact resists rocking only through several pieces) or 4 (the corners of the contact
    polygon that span it, so that a single pair of faces in contact resists rocking)."""
    r = "CONTACT_POINTS"
    A.instance(solfec, SOLFEC, r, "solfec")
    if isinstance(points, bool) or points not in (1, 4):
        raise ValueError(f"{r}: argument 'points' must be 1 or 4, got {points!r}")
    solfec._domain.contact_points = int(points)


def VIEWER():
    """VIEWER(): True when the deck runs under the viewer (`solfec -v`, docs/viewer.md): RUN
    then computes nothing for SOLFEC objects without output (the page's Run button does)."""
    return bool(_state.options.get("viewer"))


def NCPU(solfec=None):
    """NCPU(| solfec): number of processors (MPI ranks under solfec-mpi; 1 in a serial run)."""
    return _mpi.size()


@A.keyword_aliases("HERE", object="obj")
def HERE(solfec, obj):
    """HERE(solfec, object): True if the object is on this processor: under solfec-mpi a BODY
    is here on the rank that owns (integrates) it, which can change as bodies migrate; before
    the first RUN every rank holds every body. Other objects and serial runs: True."""
    A.instance(solfec, SOLFEC, "HERE", "solfec")
    if not _mpi.active():
        return True
    if isinstance(obj, BODY):
        d = solfec._domain
        return d.has_body(obj._id) and d.owns(obj._id)
    return True


def RANK():
    """RANK(): this processor's rank (0 in serial)."""
    return _mpi.rank()


def BARRIER():
    """BARRIER(): synchronises processors (no-op in serial)."""
    _mpi.barrier()
    return True


def SUBDIR():
    """SUBDIR(): the -s sub-directory given on the command line, or None."""
    return _state.options["subdir"]


def NON_SOLFEC_ARGV():
    """NON_SOLFEC_ARGV(): command-line arguments after the deck path, or None."""
    return list(_state.options["argv"]) or None


_BALANCE_DEFAULTS = {"lockdir": "OFF", "degenratio": 10.0, "weightfactor": 1.0,
                     "updatefreq": 10}


def IMBALANCE_TOLERANCE(solfec, tolerance, *args, **kwargs):
    """IMBALANCE_TOLERANCE(solfec, tolerance | lockdir, degenratio, weightfactor, updatefreq):
    parallel balancing; ignored in serial runs. Solfec-1.0's last positional order
    (solfec, tolerance, weightfactor, updatefreq) is accepted too (a number third). Returns
    True."""
    r = "IMBALANCE_TOLERANCE"
    A.instance(solfec, SOLFEC, r, "solfec")
    solfec1 = bool(args) and isinstance(args[0], (int, float)) and not isinstance(args[0], bool)
    names = ("weightfactor", "updatefreq") if solfec1 else tuple(_BALANCE_DEFAULTS)
    if len(args) > len(names):
        raise TypeError(f"{r}: too many positional arguments ({2 + len(args)})")
    given = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in _BALANCE_DEFAULTS:
            raise TypeError(f"{r}: unknown argument '{k}'; use one of "
                            f"{', '.join(_BALANCE_DEFAULTS)}")
        if k in given:
            raise TypeError(f"{r}: argument '{k}' given twice")
        given[k] = v
    opts = dict(_BALANCE_DEFAULTS, **given)
    lockdir, degenratio = opts["lockdir"], opts["degenratio"]
    weightfactor, updatefreq = opts["weightfactor"], opts["updatefreq"]
    if A.number(tolerance, r, "tolerance") < 1.0:
        raise ValueError(f"{r}: argument 'tolerance' must be >= 1, got {tolerance!r}")
    A.onoff(lockdir, r, "lockdir")
    if A.number(degenratio, r, "degenratio") <= 1.0:
        raise ValueError(f"{r}: argument 'degenratio' must be > 1, got {degenratio!r}")
    if not 0.0 <= A.number(weightfactor, r, "weightfactor") <= 1.0:
        raise ValueError(f"{r}: argument 'weightfactor' must lie in [0, 1], got {weightfactor!r}")
    freq = A.integer(updatefreq, r, "updatefreq")
    if freq < 1:
        raise ValueError(f"{r}: argument 'updatefreq' must be a positive integer, got {updatefreq!r}")
    solfec._balance = {"tolerance": float(tolerance), "lockdir": lockdir == "ON",
                       "degenratio": float(degenratio), "weightfactor": float(weightfactor),
                       "updatefreq": freq}
    # solfec-mpi: the Zoltan settings of the decomposition (no effect in serial runs).
    solfec._domain._set_balance(float(tolerance), lockdir == "ON", float(degenratio),
                                float(weightfactor), freq)
    return True  # as Solfec-1.0


@A.keyword_aliases("WARNINGS", state="flag")
def WARNINGS(flag):
    """WARNINGS('ON' | 'OFF'): enables or disables warnings."""
    A.onoff(flag, "WARNINGS", "flag")


@A.keyword_aliases("ENERGY", object="obj")
def ENERGY(solfec, obj=None):
    """ENERGY(solfec | object): (kinetic, internal, external, contact, friction) [J] of the
    whole model, a BODY or a list of bodies; external = work of applied loads, contact and
    friction = work of normal and tangential contact reactions. PUT_SPRING elements: their
    stored elastic energy is in internal, their dashpot work in contact."""
    r = "ENERGY"
    A.instance(solfec, SOLFEC, r, "solfec")
    d = solfec._domain
    if obj is None or obj is solfec:
        return d.energy()
    if isinstance(obj, BODY):
        return d.energy_of([obj._id])
    if isinstance(obj, (list, tuple)):
        return d.energy_of([A.instance(b, BODY, r, "object")._id for b in obj])
    raise TypeError(f"ENERGY: argument 'object' must be a SOLFEC, BODY or list of bodies, got "
                    f"{type(obj).__name__}")


def TIMING(solfec, kind):
    """TIMING(solfec, kind): wall time [s] of a stage in the last step ('TIMINT', 'CONUPD',
    'CONDET', 'LOCDYN', 'CONSOL', 'PARBAL')."""
    A.instance(solfec, SOLFEC, "TIMING", "solfec")
    kind = A.string(kind, "TIMING", "kind")
    value = solfec._domain.timing(kind)  # validates the kind
    if solfec._mode == "READ":
        row = _current_row(solfec)
        return 0.0 if row is None else float(row["timing"][TIMING_NAMES.index(kind)])
    return value


def DURATION(solfec):
    """DURATION(solfec): (t0, t1) of the stored frames in READ mode, the current time in
    WRITE mode."""
    A.instance(solfec, SOLFEC, "DURATION", "solfec")
    if solfec._mode == "READ":
        t = _reader(solfec).times
        return (float(t[0]), float(t[-1]))
    return solfec._domain.time


def DISPLACEMENT(body, point):
    """DISPLACEMENT(body, point): displacement (dx, dy, dz) [m] of a referential point."""
    A.instance(body, BODY, "DISPLACEMENT", "body")
    p = A.vec3(point, "DISPLACEMENT", "point")
    x = body._d.body_point(body._id, p)
    return tuple(float(a - b) for a, b in zip(x, p))


def VELOCITY(body, point):
    """VELOCITY(body, point): spatial velocity (vx, vy, vz) [m/s] of a referential point."""
    A.instance(body, BODY, "VELOCITY", "body")
    p = A.vec3(point, "VELOCITY", "point")
    return tuple(float(v) for v in body._d.body_point_velocity(body._id, p))
