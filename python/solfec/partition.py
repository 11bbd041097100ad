"""PARTITION (manual 4.4): splits a FINITE_ELEMENT body into mesh parts glued by GLUEPNT
constraints (METIS on the element dual graph), so that one large mesh can be spread over the
ranks of solfec-mpi."""

from . import _args as A
from .model import BODY

__all__ = ["PARTITION"]


def PARTITION(body, parts):
    """PARTITION(body, parts): replaces the FINITE_ELEMENT body (its shape is its MESH; form
    'TL' or 'BC') by `parts` bodies labelled '<label> PART1', '<label> PART2', ... glued at
    their shared nodes; returns the list of part BODY objects (ascending ids). The input BODY
    is emptied: it leaves the domain and any later use raises an error."""
    r = "PARTITION"
    A.instance(body, BODY, r, "body")
    d = body._d  # raises if deleted or already partitioned
    kind = d.body_kind(body._id)
    if kind != "FINITE_ELEMENT":
        raise ValueError(f"PARTITION: the body is {kind}, not FINITE_ELEMENT (argument "
                         f"'body'); only finite element meshes can be partitioned")
    n = A.integer(parts, r, "parts")
    if n < 1:
        raise ValueError(f"PARTITION: the number of parts must be >= 1, got {n} (argument "
                         f"'parts')")
    solfec = body._solfec
    ids = d.partition_body(body._id, n)
    out = []
    for i in ids:
        part = BODY.__new__(BODY)
        part._solfec = solfec
        part._id = i
        part._material = body._material
        solfec._bodies[i] = part
        out.append(part)
    solfec._bodies.pop(body._id, None)
    body._emptied_by = r
    return out
