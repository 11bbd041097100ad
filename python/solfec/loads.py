"""Loads (manual 4.2): GRAVITY, FORCE, TORQUE, PRESSURE."""

import numbers

from . import _args as A
from .model import BODY, SOLFEC, TIME_SERIES

__all__ = ["GRAVITY", "FORCE", "TORQUE", "PRESSURE"]


def _value(v, routine, arg):
    if isinstance(v, TIME_SERIES):
        return v._ts
    return A.number(v, routine, arg)


def GRAVITY(solfec, vector):
    """GRAVITY(solfec, vector): gravitational acceleration [m/s^2]; each of the three
    components is a number or a TIME_SERIES."""
    r = "GRAVITY"
    A.instance(solfec, SOLFEC, r, "solfec")
    s = A.sequence(vector, r, "vector")
    if len(s) != 3:
        raise ValueError(f"GRAVITY: argument 'vector' must have 3 components, got {len(s)}")
    for i, x in enumerate(s):
        if isinstance(x, TIME_SERIES):
            for v in x._ts.values:
                A.in_range(v, r, f"vector[{i}] (a TIME_SERIES value)", -A.GRAVITY_MAX,
                           A.GRAVITY_MAX, "m/s^2")
    solfec._domain.set_gravity(*[x._ts if isinstance(x, TIME_SERIES) else
                                 A.in_range(x, r, f"vector[{i}]", -A.GRAVITY_MAX, A.GRAVITY_MAX,
                                            "m/s^2") for i, x in enumerate(s)])


def _kind(kind, routine):
    return A.choice(kind, routine, "kind", ("SPATIAL", "CONVECTED")) == "CONVECTED"


def FORCE(body, kind, point, direction, value, data=None):
    """FORCE(body, kind, point, direction, value | data): point force [N] at a referential point;
    value is a number, a TIME_SERIES or a callback value([data...,] q, u, time, step) returning
    the generalized force (rigid: spatial force, spatial torque, referential torque)."""
    r = "FORCE"
    A.instance(body, BODY, r, "body")
    if body.kind == "OBSTACLE":
        raise ValueError("FORCE: an OBSTACLE takes no loads (argument 'body')")
    conv = _kind(kind, r)
    callback = None
    val = 0.0
    is_callback = callable(value) and not isinstance(value, TIME_SERIES)
    if is_callback:  # Solfec-1.0: point and direction are neither checked nor used
        p, d = (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)
    else:
        p = A.vec3(point, r, "point")
        d = A.direction(direction, r, "direction")
    if is_callback:
        fn = value
        args = () if data is None else (data if isinstance(data, tuple) else (data,))
        size = 9 if body.kind == "RIGID" else len(body.velo)

        def callback(q, u, t, h):
            out = fn(*args, tuple(q), tuple(u), t, h)
            try:
                vals = [float(x) for x in out]
            except TypeError:
                raise TypeError(f"FORCE: the callback must return a tuple of {size} numbers, got "
                                f"{type(out).__name__}") from None
            if len(vals) != size:
                raise ValueError(f"FORCE: the callback returned {len(vals)} values; a "
                                 f"{body.kind} body needs {size}")
            return vals
    else:
        val = _value(value, r, "value")
    body._d.add_load(body._id, False, conv, p, d, val, callback)


def TORQUE(body, kind, direction, value):
    """TORQUE(body, kind, direction, value): torque [N m] (number or TIME_SERIES) on a RIGID
    body about a spatial ('SPATIAL') or body-fixed ('CONVECTED') direction."""
    r = "TORQUE"
    A.instance(body, BODY, r, "body")
    if body.kind != "RIGID":
        raise ValueError(f"TORQUE: applies to RIGID bodies only, got a {body.kind} body")
    conv = _kind(kind, r)
    d = A.direction(direction, r, "direction")
    body._d.add_load(body._id, True, conv, (0.0, 0.0, 0.0), d, _value(value, r, "value"), None)


def PRESSURE(body, surfid, value, follower=None):
    """PRESSURE(body, surfid, value | follower): pressure [Pa] (number or TIME_SERIES) on the
    boundary faces with surface id `surfid` of a FINITE_ELEMENT body's mesh: traction p n, n
    the outward normal, as Solfec-1.0 (negative values push into the body). By default, as
    Solfec-1.0, on the referential (undeformed) faces: a dead load; follower=True: on the
    current faces. Form 'FFR' bodies always take the current faces."""
    r = "PRESSURE"
    A.instance(body, BODY, r, "body")
    if body.kind != "FINITE_ELEMENT":
        raise ValueError(f"PRESSURE: applies to FINITE_ELEMENT bodies only, got a {body.kind} "
                         f"body (argument 'body')")
    sid = A.integer(surfid, r, "surfid")
    if follower is not None and not isinstance(follower, bool):
        raise ValueError(f"PRESSURE: 'follower' must be True or False, got {follower!r} "
                         f"(argument 'follower')")
    body._d.add_pressure(body._id, sid, _value(value, r, "value"), follower)
