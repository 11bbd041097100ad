"""Argument checking for deck routines: clear TypeError/ValueError naming routine and argument."""

import math
import numbers

__all__ = []


def _typename(v):
    return type(v).__name__


def number(v, routine, arg):
    """A finite real number."""
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise TypeError(f"{routine}: argument '{arg}' must be a number, got {_typename(v)} {v!r}")
    f = float(v)
    if not math.isfinite(f):
        raise ValueError(f"{routine}: argument '{arg}' is not finite ({v!r})")
    return f


def positive(v, routine, arg, allow_zero=False):
    f = number(v, routine, arg)
    if f < 0 or (f == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{routine}: argument '{arg}' must be {bound}, got {v!r}")
    return f


# Valid ranges of lengths (docs/deck-language.md, "Valid ranges"): coordinates |x| <= 1e12 m
# and sphere radii in [1e-12, 1e12] m keep volumes (r^3) and inertias (density r^5) far from
# overflow and underflow; beyond them a shape's volume and mass are no longer computable.
COORD_MAX = 1e12
RADIUS_MIN, RADIUS_MAX = 1e-12, 1e12
# The time step [s]: h^2 K and impulses h f stay far from overflow; 1 ps to 11.6 days.
STEP_RANGE = (1e-12, 1e6)
# Gravity components [m/s^2]: up to 1e7 g (beyond any centrifuge).
GRAVITY_MAX = 1e8
# INITIAL_VELOCITY components: 1e8 m/s (a third of the speed of light) and 1e8 rad/s.
VELOCITY_MAX = 1e8


def in_range(v, routine, arg, lo, hi, unit="", lo_open=False):
    """A finite number in [lo, hi] ((lo, hi] when lo_open): else ValueError naming the routine,
    argument, value and the valid range."""
    f = number(v, routine, arg)
    if (f > lo if lo_open else f >= lo) and f <= hi:
        return f
    rng = f"{'(' if lo_open else '['}{lo:g}, {hi:g}]{' ' + unit if unit else ''}"
    raise ValueError(f"{routine}: argument '{arg}' = {v!r} is out of its valid range {rng}")


def coordinates(values, routine, arg):
    """Checks that every coordinate of a flat list (or sequence of points) is within
    +-COORD_MAX; returns the values unchanged."""
    for i, x in enumerate(values):
        if not -COORD_MAX <= x <= COORD_MAX:
            raise ValueError(f"{routine}: argument '{arg}[{i}]' = {x!r} is out of the valid "
                             f"coordinate range [-{COORD_MAX:g}, {COORD_MAX:g}] m")
    return values


def integer(v, routine, arg):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"{routine}: argument '{arg}' must be an integer, got {_typename(v)} {v!r}")
    return int(v)


def string(v, routine, arg):
    if not isinstance(v, str):
        raise TypeError(f"{routine}: argument '{arg}' must be a string, got {_typename(v)} {v!r}")
    return v


def choice(v, routine, arg, options):
    string(v, routine, arg)
    if v not in options:
        opts = ", ".join(f"'{o}'" for o in options)
        raise ValueError(f"{routine}: unknown value '{v}' of argument '{arg}'; use one of {opts}")
    return v


def onoff(v, routine, arg):
    return choice(v, routine, arg, ("ON", "OFF")) == "ON"


def sequence(v, routine, arg):
    if not isinstance(v, (tuple, list)):
        try:
            import numpy
            if isinstance(v, numpy.ndarray):
                return list(v.ravel())
        except ImportError:  # pragma: no cover
            pass
        raise TypeError(f"{routine}: argument '{arg}' must be a tuple or list, got {_typename(v)} {v!r}")
    return v


def vec(v, n, routine, arg):
    """A tuple (or list) of n finite numbers."""
    s = sequence(v, routine, arg)
    if len(s) != n:
        raise ValueError(f"{routine}: argument '{arg}' must have {n} components, got {len(s)}")
    return tuple(number(x, routine, f"{arg}[{i}]") for i, x in enumerate(s))


def vec3(v, routine, arg):
    return vec(v, 3, routine, arg)


def direction(v, routine, arg):
    d = vec3(v, routine, arg)
    if math.sqrt(sum(x * x for x in d)) == 0.0:
        raise ValueError(f"{routine}: argument '{arg}' is a zero vector; pass a nonzero direction")
    return d


def numbers_list(v, routine, arg, multiple=1, minimum=1):
    s = sequence(v, routine, arg)
    out = [number(x, routine, f"{arg}[{i}]") for i, x in enumerate(s)]
    if len(out) < minimum or len(out) % multiple != 0:
        raise ValueError(
            f"{routine}: argument '{arg}' has {len(out)} numbers; expected a multiple of {multiple}"
            f" (at least {minimum})")
    return out


def integers_list(v, routine, arg):
    s = sequence(v, routine, arg)
    return [integer(x, routine, f"{arg}[{i}]") for i, x in enumerate(s)]


def instance(v, cls, routine, arg, what=None):
    if not isinstance(v, cls):
        what = what or (cls.__name__ if isinstance(cls, type) else " or ".join(c.__name__ for c in cls))
        raise TypeError(f"{routine}: argument '{arg}' must be a {what}, got {_typename(v)}")
    return v


def callable_(v, routine, arg):
    if not callable(v):
        raise TypeError(f"{routine}: argument '{arg}' must be callable, got {_typename(v)}")
    return v


def keyword_aliases(routine, **aliases):
    """Decorator: the keyword `alias` is accepted for the argument `name` (aliases given as
    alias="name"): Solfec-1.0's keyword spellings where this solfec follows the manual's.
    Passing both raises TypeError naming the routine."""
    import functools

    def wrap(f):
        @functools.wraps(f)
        def call(*args, **kw):
            for alias, name in aliases.items():
                if alias in kw:
                    if name in kw:
                        raise TypeError(f"{routine}: arguments '{name}' and '{alias}' (its "
                                        f"Solfec-1.0 spelling) are both given; pass one")
                    kw[name] = kw.pop(alias)
            return f(*args, **kw)
        return call
    return wrap
