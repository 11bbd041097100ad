"""MBFCP_EXPORT: Solfec-1.0's text definition of the multibody frictional contact problem
(the MBFCP format of Solfec-1.0's sol.c, sps.c, mat.c, dom.c, bod.c, shp.c, cvx.c, msh.c,
sph.c and tms.c): surface materials, bulk materials, gravity, bodies (shapes, velocity,
point loads) and the constraints other than contacts, as they are when it is called.
docs/deck-language.md, 'MBFCP_EXPORT', describes the file."""

import os

from . import _args as A
from . import _mpi
from . import _solfec
from .model import SOLFEC

__all__ = ["MBFCP_EXPORT"]

_R = "MBFCP_EXPORT"


def _g(x):
    return "%g" % x


def _tms(value, out):
    """A constant or a time series (tms.c)."""
    if isinstance(value, tuple):
        times, values = value
        out.append(f"TIME_SERIES:\t{len(times)}\n")
        out.extend(f"{_g(t)}\t{_g(v)}\n" for t, v in zip(times, values))
    else:
        out.append(f"CONSTANT:\t{_g(value)}\n")


def _surface_materials(solfec, out):
    """The default material first (its surface pair 'ANY'), then one entry per surface pair
    in the order the pairs were first given, each with the values given last (sps.c)."""
    default = ("SIGNORINI_COULOMB", 0.0, 0.0, 0.0, 0.0, 0.0)  # Solfec-1.0's built-in default
    pairs = {}
    for m in solfec._surface:
        vals = (m.model, m.friction, m.cohesion, m.restitution, m.spring, m.dashpot)
        if m._m.is_default:
            default = vals
        else:
            pairs[(min(m.surf1, m.surf2), max(m.surf1, m.surf2))] = vals
    entries = [(("ANY", "ANY"), default)] + list(pairs.items())
    out.append(f"SURFACE_MATERIALS:\t{len(entries)}\n")
    for (s1, s2), (model, friction, cohesion, restitution, spring, dashpot) in entries:
        out.append(f"SURF1:\t{s1}\nSURF2:\t{s2}\nMODEL:\t{model}\n")
        out.append(f"FRICTION:\t{_g(friction)}\nCOHESION:\t{_g(cohesion)}\n")
        if model == "SPRING_DASHPOT":
            out.append(f"SPRING:\t{_g(spring)}\nDASHPOT:\t{_g(dashpot)}\n")
        else:
            out.append(f"RESTITUTION:\t{_g(restitution)}\n")
    out.append("\n")


def _bulk_materials(solfec, out):
    """One entry per label (a later material of the same label replaces an earlier one), in
    the byte order of the labels (mat.c keeps them in a map ordered by strcmp)."""
    by_label = {}
    for m in solfec._bulk:
        by_label[m.label] = m
    out.append(f"BULK_MATERIALS:\t{len(by_label)}\n")
    for label in sorted(by_label, key=lambda s: s.encode()):
        m = by_label[label]
        model = "KIRCHHOFF" if m.model == "TSANG_MARSDEN" else m.model  # as mat.c writes it
        out.append(f"LABEL:\t{label}\nMODEL:\t{model}\nYOUNG:\t{_g(m.young)}\n"
                   f"POISSON:\t{_g(m.poisson)}\nDENSITY:\t{_g(m.density)}\n")
    out.append("\n")


def _mesh(nodes, elements, faces, out):
    out.append(f"NODES:\t{len(nodes)}\n")
    out.extend(f"{_g(x)}  {_g(y)}  {_g(z)}\n" for x, y, z in nodes)
    out.append(f"ELEMENTS:\t{len(elements)}\n")
    out.extend(f"{len(e)}" + "".join(f"  {n}" for n in e) + "\n" for e in elements)
    out.append(f"FACES:\t{len(faces)}\n")
    out.extend(f"{len(f)}" + "".join(f"  {n}" for n in f) + f"  {s}\n" for f, s in faces)


def _body(solfec, bid, out):
    b = solfec._bodies.get(bid)
    data = _solfec.export_body(solfec._domain, bid)
    if data["ellipsoids"]:
        raise ValueError(f"{_R}: body {bid} has ELLIP shapes, which the MBFCP format does not "
                         f"hold (argument 'solfec')")
    convexes, spheres = data["convexes"], data["spheres"]
    meshes = [tuple(m) for m in data["meshes"]]
    if b is not None and data["kind"] != "FINITE_ELEMENT":
        # RIGID, PSEUDO_RIGID, OBSTACLE: a MESH in the shape became element convexes (appended
        # after the shape's own convexes); the file holds the MESH as given
        given = getattr(b, "_ref_meshes", ())
        n = sum(s.mesh_element_count() for s in given)
        if n:
            convexes = convexes[:len(convexes) - n]
        meshes = [([tuple(x) for x in s.mesh_nodes()], [e for e, _ in s.mesh_elements()],
                   s.mesh_boundary_faces()) for s in given]
    label = data["label"] if data["label"] else "(null)"  # bod.c prints a NULL label so
    out.append(f"ID:\t{bid}\nLABEL:\t{label}\nKINEMATICS:\t{data['kind']}\n"
               f"BULK_MATERIAL:\t{data['material']}\n")
    out.append(f"SHAPES:\t{(1 if convexes else 0) + len(meshes) + len(spheres)}\n")
    if convexes:
        out.append(f"CONVEXES:\t{len(convexes)}\n")
        for vertices, faces in convexes:
            out.append(f"VERTEXES:\t{len(vertices)}\n")
            out.extend(f"{_g(x)}  {_g(y)}  {_g(z)}\n" for x, y, z in vertices)
            out.append(f"FACES:\t{len(faces)}\n")
            # cvx.c stores and writes a face's vertices as offsets 3 i into the coordinates
            out.extend(f"{len(f)}  " + "".join(f"{3 * i}  " for i in f) + f"{s}\n"
                       for f, s in faces)
    if meshes:
        out.append(f"MESHES:\t{len(meshes)}\n")
        for m in meshes:
            _mesh(*m, out)
    if spheres:
        out.append(f"SPHERES:\t{len(spheres)}\n")
        for (x, y, z), radius, surfid in spheres:
            out.append(f"CENTER:\t{_g(x)}  {_g(y)}  {_g(z)}\nRADIUS:\t{_g(radius)}\n"
                       f"SURFID:\t{surfid}\n")
    out.append("VELOCITY:" + "".join(f"  {_g(v)}" for v in data["velo"]) + "\n")
    loads = data["loads"][::-1]  # bod.c prepends each load: the last one given comes first
    out.append(f"FORCES:\t{len(loads)}\n")
    for ld in loads:
        if ld["value"] is None:
            raise ValueError(f"{_R}: body {bid} has a FORCE with a callback value, which the "
                             f"MBFCP format cannot hold (argument 'solfec')")
        kind = ("CONVECTED" if ld["convected"] else "SPATIAL") + \
            ("_TORQUE" if ld["torque"] else "")
        p, d = ld["point"], ld["direction"]
        out.append(f"KIND:\t{kind}\nPOINT:\t{_g(p[0])}  {_g(p[1])}  {_g(p[2])}\n"
                   f"DIRECTION:\t{_g(d[0])}  {_g(d[1])}  {_g(d[2])}\n")
        _tms(ld["value"], out)
    out.append("\n")


def _point(tag, p):
    return f"{tag}:\t{_g(p[0])}  {_g(p[1])}  {_g(p[2])}\n"


def _constraints(solfec, owned, out):
    cons = [c for c in _solfec.export_constraints(solfec._domain)
            if c["body1"] in owned or c["body2"] in owned][::-1]  # dom.c: newest first
    out.append(f"CONSTRAINTS:\t{len(cons)}\n\n")
    for c in cons:
        out.append(f"ID:\t{c['id']}\n")
        kind = c["kind"]
        if kind in ("FIXPNT", "FIXDIR", "VELODIR"):
            out.append(f"KIND:\t{kind}\nBODY:\t{c['body1']}\n" + _point("POINT", c["X1"]))
            if kind != "FIXPNT":
                out.append(_point("DIRECTION", c["direction"]))
            if kind == "VELODIR":
                _tms(c["velocity"], out)
        elif kind == "RIGLNK":
            b2 = "NONE" if c["body2"] is None else c["body2"]
            out.append(f"KIND:\tRIGLNK\nBODY1:\t{c['body1']}\nBODY2:\t{b2}\n" +
                       _point("POINT1", c["X1"]) + _point("POINT2", c["X2"]))
        # other kinds (SPRING, GLUEPNT): their id only, as dom.c writes them
        out.append("\n")


def MBFCP_EXPORT(solfec, path):
    """MBFCP_EXPORT(solfec, path): writes the multibody frictional contact problem as it is
    now (materials, gravity, bodies with their referential shapes, velocities and point
    loads, constraints other than contacts) to the text file `path` in Solfec-1.0's MBFCP
    format (solfec-mpi: `path`.rank on each rank, with the bodies it owns and the OBSTACLEs).
    Returns None."""
    A.instance(solfec, SOLFEC, _R, "solfec")
    p = A.string(path, _R, "path")
    if _mpi.active():
        p = f"{p}.{_mpi.rank()}"
    d = solfec._domain
    # solfec-mpi: the bodies this rank owns (before the first RUN: all, replicated) and the
    # OBSTACLEs, which every rank holds
    ids = [i for i in d.body_ids()
           if not _mpi.active() or d.owns(i) or d.body_kind(i) == "OBSTACLE"]
    out = []
    _surface_materials(solfec, out)
    _bulk_materials(solfec, out)
    gravity = _solfec.export_gravity(d)
    if any(isinstance(g, tuple) or g != 0.0 for g in gravity):
        out.append("GRAVITY:\n")
        for g in gravity:
            _tms(g, out)
        out.append("\n")
    out.append(f"BODIES:\t{len(ids)}\n\n")
    for bid in reversed(ids):  # dom.c prepends each body: the newest comes first
        _body(solfec, bid, out)
    _constraints(solfec, set(ids), out)
    try:
        os.makedirs(os.path.dirname(os.path.abspath(p)), exist_ok=True)
        with open(p, "w") as f:
            f.write("".join(out))
    except OSError as e:
        raise ValueError(f"{_R}: cannot write argument 'path' = '{p}': {e.strerror}") from None
