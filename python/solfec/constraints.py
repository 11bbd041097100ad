"""User constraints (manual 4.1.13) and the CONSTRAINT object: FIX_POINT, FIX_DIRECTION,
SET_DISPLACEMENT, SET_VELOCITY, SET_ACCELERATION, PUT_RIGID_LINK, PUT_SPRING."""

import inspect
import math
import numbers
import warnings

from . import _args as A
from .model import BODY, CONSTRAINT, TIME_SERIES  # (CONSTRAINT: a model object, named here)

__all__ = ["CONSTRAINT", "FIX_POINT", "FIX_DIRECTION", "SET_DISPLACEMENT", "SET_VELOCITY",
           "SET_ACCELERATION", "SET_DISPLACEMENT3", "SET_VELOCITY3", "SET_ACCELERATION3",
           "PUT_RIGID_LINK", "PUT_SPRING"]


def _body(b, routine, arg="body"):
    A.instance(b, BODY, routine, arg)
    b._d  # raises if deleted
    return b


def _strength(v, routine):
    if v is None:
        return -1.0
    s = A.number(v, routine, "strength") if not (isinstance(v, float) and math.isinf(v)) else v
    if s <= 0:
        raise ValueError(f"{routine}: argument 'strength' must be > 0, got {v!r}")
    return -1.0 if math.isinf(s) else s


def _add(routine, kind, body1, body2, make):
    """Checks the bodies of a constraint of `kind` and adds it: make(domain) -> its id."""
    solfec = (body1 or body2)._solfec
    if body1 is not None and body2 is not None and body1._solfec is not body2._solfec:
        raise ValueError(f"{routine}: the bodies belong to different SOLFEC objects")
    bodies = [b for b in (body1, body2) if b is not None]
    obstacles = [b for b in bodies if b.kind == "OBSTACLE"]
    guiding = kind in ("FIXPNT", "FIXDIR", "VELODIR", "SETDISP", "SETACC") and obstacles and \
        len(obstacles) == len(bodies)
    if guiding and solfec._analysis == "QUASI_STATIC":
        if kind in ("VELODIR", "SETDISP", "SETACC"):
            raise ValueError(f"{routine}: body {obstacles[0].id} is an OBSTACLE, which a "
                             f"constraint moves in DYNAMIC analysis only (this SOLFEC is "
                             f"QUASI_STATIC); use a RIGID body for a prescribed motion")
        # Solfec-1.0 decks fix obstacles this way; a QUASI_STATIC obstacle stays: no row
        warnings.warn(f"{routine}: body {obstacles[0].id} is an OBSTACLE; the constraint has "
                      f"no effect in QUASI_STATIC analysis (obstacles stay where they are)",
                      stacklevel=3)
    elif obstacles and not guiding and kind != "RIGLNK":
        raise ValueError(f"{routine}: an OBSTACLE cannot be constrained by {routine} "
                         f"together with other bodies; an obstacle is moved only by its own "
                         f"SET_VELOCITY, SET_DISPLACEMENT, SET_ACCELERATION, FIX_POINT or "
                         f"FIX_DIRECTION (DYNAMIC analysis)")
    # (DYNAMIC: constraints of obstacles alone guide them as rigid bodies that contacts and
    # loads do not push, as in Solfec-1.0)
    return CONSTRAINT._wrap(solfec, make(solfec._domain))


def FIX_POINT(body, point, strength=None):
    """FIX_POINT(body, point | strength): fixes a referential point in space."""
    r = "FIX_POINT"
    b, X, s = _body(body, r), A.vec3(point, r, "point"), _strength(strength, r)
    return _add(r, "FIXPNT", b, None, lambda d: d.add_fix_point(b._id, X, s))


def FIX_DIRECTION(body, point, direction, body2=None, point2=None):
    """FIX_DIRECTION(body, point, direction | body2, point2): fixes the motion of a referential
    point along a spatial direction; with body2 and point2 (Solfec-1.0), the relative motion
    of the two points along the direction (their distance along it stays as it starts)."""
    r = "FIX_DIRECTION"
    if (body2 is None) != (point2 is None):
        raise ValueError("FIX_DIRECTION: the two-body form needs both 'body2' and 'point2'")
    b2 = None if body2 is None else _body(body2, r, "body2")
    p2 = (0, 0, 0) if point2 is None else A.vec3(point2, r, "point2")
    b1 = _body(body, r)
    if b2 is b1:
        raise ValueError("FIX_DIRECTION: 'body2' is 'body'; pass another body")
    X, n = A.vec3(point, r, "point"), A.direction(direction, r, "direction")
    return _add(r, "FIXDIR", b1, b2,
                lambda d: d.add_fix_direction(b1._id, X, n, b2._id if b2 else -1, p2))


def _series(v, routine, arg):
    A.instance(v, TIME_SERIES, routine, arg)
    return v._ts


def SET_DISPLACEMENT(body, point, direction, tms):
    """SET_DISPLACEMENT(body, point, direction, tms): prescribed displacement history [m] of a
    referential point along a spatial direction."""
    r = "SET_DISPLACEMENT"
    b, X = _body(body, r), A.vec3(point, r, "point")
    n, ts = A.direction(direction, r, "direction"), _series(tms, r, "tms")
    return _add(r, "SETDISP", b, None, lambda d: d.add_set_displacement(b._id, X, n, ts))


def SET_VELOCITY(body, point, direction, value):
    """SET_VELOCITY(body, point, direction, value): prescribed velocity [m/s] (number or
    TIME_SERIES) of a referential point along a spatial direction."""
    r = "SET_VELOCITY"
    v = value._ts if isinstance(value, TIME_SERIES) else A.number(value, r, "value")
    b, X, n = _body(body, r), A.vec3(point, r, "point"), A.direction(direction, r, "direction")
    return _add(r, "VELODIR", b, None, lambda d: d.add_set_velocity(b._id, X, n, v))


def SET_ACCELERATION(body, point, direction, tms):
    """SET_ACCELERATION(body, point, direction, tms): prescribed acceleration history [m/s^2];
    the velocity is its integral from the first time of the series."""
    r = "SET_ACCELERATION"
    b, X = _body(body, r), A.vec3(point, r, "point")
    n, ts = A.direction(direction, r, "direction"), _series(tms, r, "tms")
    return _add(r, "SETACC", b, None, lambda d: d.add_set_acceleration(b._id, X, n, ts))


def _three(routine, one, body, point, base, values):
    """Solfec-1.0's SET_*3: `one` (SET_DISPLACEMENT, SET_VELOCITY or SET_ACCELERATION) along
    each of the three columns of `base` (9 numbers, column after column) with the matching
    item of `values`; returns the three constraints."""
    b = A.vec(base, 9, routine, "base")
    if not isinstance(values, (list, tuple)) or len(values) != 3:
        raise TypeError(f"{routine}: argument 'values' must be a tuple of 3 (one per base "
                        f"direction), got {type(values).__name__} {values!r}")
    dirs = [tuple(b[3 * k:3 * k + 3]) for k in range(3)]
    import numpy as np
    if abs(np.linalg.det(np.array(dirs))) <= 1e-12 * max(1.0, np.abs(b).max()) ** 3:
        raise ValueError(f"{routine}: the three directions of argument 'base' are dependent; "
                         f"pass three independent (e.g. orthonormal) columns")
    return [one(body, point, d, v) for d, v in zip(dirs, values)]


def SET_DISPLACEMENT3(body, point, base, values):
    """SET_DISPLACEMENT3(body, point, base, (tms1, tms2, tms3)): SET_DISPLACEMENT along each
    column of `base` (Solfec-1.0; 3 constraints returned)."""
    return _three("SET_DISPLACEMENT3", SET_DISPLACEMENT, body, point, base, values)


def SET_VELOCITY3(body, point, base, values):
    """SET_VELOCITY3(body, point, base, (v1, v2, v3)): SET_VELOCITY along each column of
    `base` (Solfec-1.0; 3 constraints returned)."""
    return _three("SET_VELOCITY3", SET_VELOCITY, body, point, base, values)


def SET_ACCELERATION3(body, point, base, values):
    """SET_ACCELERATION3(body, point, base, (tms1, tms2, tms3)): SET_ACCELERATION along each
    column of `base` (Solfec-1.0; 3 constraints returned)."""
    return _three("SET_ACCELERATION3", SET_ACCELERATION, body, point, base, values)


def PUT_RIGID_LINK(body1, body2, point1, point2, strength=None):
    """PUT_RIGID_LINK(body1, body2, point1, point2 | strength): keeps the distance between two
    referential points; either body may be None (its point is then fixed in space)."""
    r = "PUT_RIGID_LINK"
    if body1 is None and body2 is None:
        raise ValueError("PUT_RIGID_LINK: both 'body1' and 'body2' are None; pass at least one BODY")
    b1 = _body(body1, r, "body1") if body1 is not None else None
    b2 = _body(body2, r, "body2") if body2 is not None else None
    if b1 is not None and b2 is not None and b1 is b2:
        raise ValueError("PUT_RIGID_LINK: 'body1' and 'body2' are the same body")
    X1, X2, s = A.vec3(point1, r, "point1"), A.vec3(point2, r, "point2"), _strength(strength, r)
    return _add(r, "RIGLNK", b1, b2, lambda d: d.add_rigid_link(b1._id if b1 else -1,
                                                                b2._id if b2 else -1, X1, X2, s))


def _spring_function(f, routine):
    """Checks f(stroke, velocity) -> number and wraps it so that a bad return value gives a
    clear error during RUN."""
    if not callable(f):
        raise TypeError(f"{routine}: argument 'function' must be callable f(stroke, velocity) "
                        f"returning the force, got {type(f).__name__}")
    try:
        inspect.signature(f).bind(0.0, 0.0)
    except TypeError:
        raise TypeError(f"{routine}: argument 'function' must accept two arguments "
                        f"(stroke, velocity)") from None
    except ValueError:  # no signature (some builtins): checked by the trial call below
        pass

    def call(stroke, velocity):
        r = f(stroke, velocity)
        if isinstance(r, bool) or not isinstance(r, numbers.Real):
            raise TypeError(f"{routine}: the spring function returned {type(r).__name__} {r!r} "
                            f"at stroke {stroke!r}, velocity {velocity!r}; it must return a "
                            f"number (the force)")
        return float(r)
    call(0.0, 0.0)
    return call


def _spring_limits(limits, routine):
    if limits is None:
        return
    lim = A.sequence(limits, routine, "limits")
    if len(lim) != 2:
        raise ValueError(f"{routine}: argument 'limits' must be (smin, smax), got {limits!r}")
    for x in lim:
        if isinstance(x, bool) or not isinstance(x, numbers.Real) or math.isnan(x):
            raise TypeError(f"{routine}: argument 'limits' must hold two numbers, got {limits!r}")
    lo, hi = float(lim[0]), float(lim[1])
    if not lo < hi:
        raise ValueError(f"{routine}: argument 'limits' must have smin < smax, got {limits!r}")
    return lo, hi


def PUT_SPRING(body1, point1, body2, point2, function, limits=None, direction=None,
               update="FIXED"):
    """PUT_SPRING(body1, point1, body2, point2, function | limits, direction, update): a
    spring-dashpot element between two referential points (a None body's point is fixed in
    space). function(stroke, velocity) returns the force [N]; a positive force increases the
    stroke (pushes the points apart), so lambda s, v: -k*s - c*v is a linear spring-dashpot.
    The stroke is the change of the distance between the points (follower, no direction) or
    of (x1 - x2) . direction (Solfec-1.0's sign; 'FIXED', or convected with body1/body2:
    'CONV1'/'CONV2'). limits=(smin, smax): rigid stops on the stroke: when the spring
    alone would carry the stroke past smin or smax during a step, a stop force (added to the
    spring force in the constraint's reaction) holds the stroke at that limit; it only
    pushes outwards at smin and pulls inwards at smax, so the stroke leaves a limit freely."""
    r = "PUT_SPRING"
    if body1 is None and body2 is None:
        raise ValueError(f"{r}: both 'body1' and 'body2' are None; pass at least one BODY")
    b1 = _body(body1, r, "body1") if body1 is not None else None
    b2 = _body(body2, r, "body2") if body2 is not None else None
    if b1 is not None and b2 is not None:
        if b1 is b2:
            raise ValueError(f"{r}: 'body1' and 'body2' are the same body")
        if b1._solfec is not b2._solfec:
            raise ValueError(f"{r}: the bodies belong to different SOLFEC objects")
    p1 = A.vec3(point1, r, "point1")
    p2 = A.vec3(point2, r, "point2")
    fn = _spring_function(function, r)
    limits = _spring_limits(limits, r)
    d = None if direction is None else A.direction(direction, r, "direction")
    A.choice(update, r, "update", ("FIXED", "CONV1", "CONV2"))
    if d is None and update != "FIXED":
        raise ValueError(f"{r}: update '{update}' needs 'direction' (a spring without a "
                         f"direction follows the line of its points)")
    solfec = (b1 or b2)._solfec
    cid = solfec._domain.add_spring(b1._id if b1 else -1, b2._id if b2 else -1, p1, p2, fn, d,
                                    update, limits)
    return CONSTRAINT._wrap(solfec, cid)
