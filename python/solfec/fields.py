"""FIELD: Solfec-1.0's scalar field defined by a Python callback of (x, y, z, t)."""

import math

from . import _args as A
from .model import SOLFEC

__all__ = ["FIELD"]


class FIELD:
    """FIELD(solfec, filed_callback | label, data): a scalar field, the value of
    filed_callback(x, y, z, t) (with `data` a tuple: filed_callback(*data, x, y, z, t); other
    data: filed_callback(data, x, y, z, t)). Calling the FIELD object, field(x, y, z, t) or
    field((x, y, z), t), evaluates it. The label (default 'FIELD_<n>', n the number of fields
    of the SOLFEC object before it) is read-only; BYLABEL(solfec, 'FIELD', label) finds it; a
    FIELD made again with a label already used redefines that field (callback and data) and
    returns it, as Solfec-1.0. BULK_MATERIAL(..., fields=[...]) takes FIELD objects or labels."""

    def __new__(cls, solfec, filed_callback=None, label=None, data=None):
        r = "FIELD"
        A.instance(solfec, SOLFEC, r, "solfec")
        if filed_callback is None:
            raise TypeError("FIELD: missing argument 'filed_callback' (a callable of x, y, z, t)")
        A.callable_(filed_callback, r, "filed_callback")
        if label is not None:
            A.string(label, r, "label")
            for f in solfec._fields:
                if f._label == label:
                    f._call, f._data = filed_callback, data
                    return f
        self = super().__new__(cls)
        self._label = label if label is not None else f"FIELD_{len(solfec._fields)}"
        self._call, self._data = filed_callback, data
        self._solfec = solfec
        solfec._fields.append(self)
        return self

    def __init__(self, solfec, filed_callback=None, label=None, data=None):
        pass  # all done in __new__ (a redefined label returns the existing field)

    @property
    def label(self):
        return self._label

    @label.setter
    def label(self, value):
        raise AttributeError("FIELD.label is read-only")

    @property
    def data(self):
        return self._data

    def __call__(self, x, y=None, z=None, t=None):
        """field(x, y, z | t) or field((x, y, z) | t): the callback's value (a float); t
        defaults to 0."""
        r = "FIELD"
        if isinstance(x, (list, tuple)) and z is None and t is None:  # field(point | t)
            p, t = A.vec3(x, r, "point"), y
        else:
            if y is None or z is None:
                raise TypeError("FIELD: call the field as field(x, y, z, t) or "
                                "field((x, y, z), t)")
            p = (A.number(x, r, "x"), A.number(y, r, "y"), A.number(z, r, "z"))
        t = 0.0 if t is None else A.number(t, r, "t")
        if isinstance(self._data, tuple):
            args = (*self._data, *p, t)
        elif self._data is not None:
            args = (self._data, *p, t)
        else:
            args = (*p, t)
        v = self._call(*args)
        try:
            v = float(v)
        except (TypeError, ValueError):
            raise TypeError(f"FIELD: the callback of field '{self._label}' must return a "
                            f"number, got {v!r}") from None
        if not math.isfinite(v):
            raise ValueError(f"FIELD: the callback of field '{self._label}' returned {v} at "
                             f"{p}, t = {t}")
        return v

    def __repr__(self):
        return f"<FIELD '{self._label}'>"
