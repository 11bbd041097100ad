"""Solfec-1.0 routines (SOLFEC1-INTERFACE) that do no computation here: DISPLAY_POINT (kept
on the body for the deck), RENDER and REGISTER_CALLBACK, which Solfec-1.0 itself ignores
outside its viewer and in serial runs, and
the routines this solfec does not provide, which raise NotImplementedError naming the routine
and what to use instead (rather than a NameError in the middle of a deck)."""

from . import _args as A
from .model import BODY, SOLFEC

__all__ = ["DISPLAY_POINT", "RENDER", "REGISTER_CALLBACK", "TETRAHEDRALIZE", "ELLIP", "ELLIP_MESH", "MESH_SPLIT",
           "RT_SPLIT", "SIMPLIFIED_CRACK", "FIELD", "SICONOS_SOLVER", "HYBRID_SOLVER",
           "SOLFEC_EXPORT", "MBFCP_EXPORT", "FRACTURE_EXPORT_YAFFEMS", "BODY_MM_EXPORT",
           "SET_DISPLACEMENT3", "SET_VELOCITY3", "SET_ACCELERATION3", "MESH2CONVEX"]


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


def _missing(name, instead):
    def routine(*args, **kwargs):
        raise NotImplementedError(f"{name}: this Solfec-1.0 routine is not available in this "
                                  f"solfec; {instead}")
    routine.__name__ = name
    routine.__doc__ = (f"{name}: a Solfec-1.0 routine not available here (raises "
                       f"NotImplementedError): {instead}")
    return routine


TETRAHEDRALIZE = _missing(
    "TETRAHEDRALIZE", "mesh the geometry with gmsh (or another mesher) and read the tetrahedra "
    "with MESH_READ (docs/deck-language.md)")
ELLIP = _missing("ELLIP", "ellipsoids are not supported; use SPHERE, CONVEX or HULL shapes "
                 "(SCALE a CONVEX approximation of a sphere for an ellipsoid)")
ELLIP_MESH = _missing("ELLIP_MESH", "mesh the ellipsoid with gmsh and read it with MESH_READ")
MESH_SPLIT = _missing("MESH_SPLIT", "split the geometry before meshing, or use PARTITION to "
                      "split a FINITE_ELEMENT body into glued parts")
RT_SPLIT = _missing("RT_SPLIT", "run-time splitting of FINITE_ELEMENT bodies is not supported")
SIMPLIFIED_CRACK = _missing("SIMPLIFIED_CRACK", "cracking of bodies is not supported")
FIELD = _missing("FIELD", "spatial fields (for the TSANG_MARSDEN material) are not supported")
SICONOS_SOLVER = _missing(
    "SICONOS_SOLVER", "use GAUSS_SEIDEL_SOLVER (the same problem), or write a step's local "
    "problem with LOCDYN_DUMP (FCLIB format) and solve it with Siconos (docs/deck-language.md, "
    "'FCLIB local problems')")
HYBRID_SOLVER = _missing("HYBRID_SOLVER", "co-simulation with Parmec is not supported")
SOLFEC_EXPORT = _missing(
    "SOLFEC_EXPORT", "results are written to HDF5 every OUTPUT interval; XDMF_EXPORT writes "
    "ParaView files (docs/output.md)")
MBFCP_EXPORT = _missing("MBFCP_EXPORT", "the MBFCP format is not supported")
FRACTURE_EXPORT_YAFFEMS = _missing("FRACTURE_EXPORT_YAFFEMS", "fracture export is not supported")
BODY_MM_EXPORT = _missing(
    "BODY_MM_EXPORT", "MODAL_ANALYSIS gives the modes of a FINITE_ELEMENT body; its matrices "
    "are not exported")
SET_DISPLACEMENT3 = _missing(
    "SET_DISPLACEMENT3", "call SET_DISPLACEMENT once per direction of the base (three "
    "constraints)")
SET_VELOCITY3 = _missing(
    "SET_VELOCITY3", "call SET_VELOCITY once per direction of the base (three constraints)")
SET_ACCELERATION3 = _missing(
    "SET_ACCELERATION3", "call SET_ACCELERATION once per direction of the base (three "
    "constraints)")
MESH2CONVEX = _missing(
    "MESH2CONVEX", "give the MESH to a FINITE_ELEMENT BODY, or build the convexes with "
    "CONVEX/HULL from the element nodes (MESH.node(n))")
