"""BODY.fracturecheck (Solfec-1.0's fra.c): after every step of RUN each FINITE_ELEMENT body
with fracturecheck 'ON' is checked, and while its criterion holds a fracture instance is
recorded in `DIR/NAME-fracture.h5` (solfec-mpi: NAME-fractureRANK.h5; DIR the output
directory, NAME its last component), which
FRACTURE_EXPORT_YAFFEMS and FRACTURE_EXPORT_MOFEM read.

The criterion, with each element's BULK_MATERIAL (APPLY_BULKMAT included):
- energy (Solfec-1.0's active check): the body's elastic energy is at least the sum over its
  elements of fracene * (element volume); fracene [J/m^3], infinite by default;
- stress (Solfec-1.0's stress check, present but compiled out there): the largest principal
  Cauchy stress at an element's centre exceeds that element's tensile [Pa], infinite by
  default.

An instance holds the time, the body id, the node displacements (current minus referential
node coordinates, N x 3) and, for each constraint of the body (contacts and the rest), the
radius sqrt(area / pi), the constraint's referential point on the body and the force
base R (its reaction in the spatial frame, as fra.c records it for either body)."""

import math
import os
import weakref

import numpy as np

from . import _mpi
from . import _solfec

__all__ = []

_INSTANCES = "instances"


def path_of(outpath, rank=None):
    """The fracture record file of an output directory DIR (of MPI rank `rank`):
    DIR/NAME-fracture.h5 (NAME-fractureRANK.h5), NAME = basename(DIR), beside the results
    DIR/NAME.h5."""
    if rank is None and _mpi.size() > 1:
        rank = _mpi.rank()
    name = os.path.basename(os.path.normpath(outpath)) + "-fracture"
    return os.path.join(outpath, name + ("" if rank is None else str(rank)) + ".h5")


def enable(solfec):
    """Checks the bodies of `solfec` with fracturecheck 'ON' after every step from now on."""
    if getattr(solfec, "_fracture_enabled", False):
        return
    solfec._fracture_enabled = True
    if solfec._mode == "WRITE" and solfec._domain.time == 0.0 and \
            not getattr(solfec, "_continue", False):  # (solfec -c continues the records)
        try:  # records of an earlier run of this output directory
            os.remove(path_of(solfec._outpath))
        except FileNotFoundError:
            pass
    ref = weakref.ref(solfec)

    def after_step():
        s = ref()
        if s is not None:
            check(s)
        return True
    solfec._domain.add_callback(0.0, after_step)


class _Mesh:
    """What the check needs of a body's mesh, gathered once: referential nodes, element
    volume ids, the FeMesh for the element-centre deformation gradients, element volumes."""

    def __init__(self, d, bid):
        shape = d.body_mesh(bid)
        self.X = np.array(_solfec.export_body(d, bid)["meshes"][0][0], dtype=float)
        elements = shape.mesh_elements()
        self.volids = np.array([v for _, v in elements], dtype=np.int64)
        self.fe = _solfec.FeMesh(self.X, [e for e, _ in elements], self.volids.tolist())
        for n, x in enumerate(self.X):  # the referential configuration
            shape.set_mesh_node(n, tuple(x))
        self.volume = {int(v): float(np.sum(_solfec.mesh_integration_points(
            shape, "volume", int(v))[1])) for v in np.unique(self.volids)}


def _materials(body):
    """BULK_MATERIAL of each volume id: APPLY_BULKMAT's, else the body's."""
    applied = getattr(body, "_bulk_by_volid", {})
    return lambda volid: applied.get(int(volid), body._material)


def criterion(solfec, body):
    """(energy, energy bound, max over elements of principal stress - tensile) of a body now;
    the criterion holds when energy >= bound or the last value is > 0."""
    d = solfec._domain
    bid = body.id
    if not hasattr(body, "_fracture_mesh"):
        body._fracture_mesh = _Mesh(d, bid)
    m = body._fracture_mesh
    mat = _materials(body)
    bound = 0.0
    for v, vol in m.volume.items():
        fe = mat(v).fracene
        bound = math.inf if math.isinf(fe) else bound + fe * vol
    energy = d.energy_of([bid])[1] if math.isfinite(bound) else 0.0
    excess = -math.inf
    tensile = {int(v): mat(v).tensile for v in m.volume}
    if any(math.isfinite(t) for t in tensile.values()):
        x = np.array(d.body_mesh(bid).mesh_nodes(), dtype=float)
        F = m.fe.centre_gradients(x)
        for v, t in tensile.items():
            if not math.isfinite(t):
                continue
            idx = np.nonzero(m.volids == v)[0]
            mv = mat(v)
            sigma, _ = _solfec.cauchy_stresses(F[idx], mv.young, mv.poisson, mv._m.model)
            smax = np.linalg.eigvalsh(sigma)[:, 2]
            excess = max(excess, float(np.nanmax(smax)) - t)
    return energy, bound, excess


def check(solfec):
    """The fracture check after a step: records an instance for each body whose criterion
    holds."""
    d = solfec._domain
    hits = []
    for body in list(solfec._bodies.values()):
        if not getattr(body, "_fracturecheck", False) or not d.has_body(body.id):
            continue
        if _mpi.size() > 1 and not d.owns(body.id):
            continue
        energy, bound, excess = criterion(solfec, body)
        if energy >= bound or excess > 0.0:
            hits.append(body)
    if hits:
        _record(solfec, hits)


def _record(solfec, bodies):
    import h5py
    d = solfec._domain
    with h5py.File(path_of(solfec._outpath), "a") as f:
        g = f.require_group(_INSTANCES)
        for body in bodies:
            bid = body.id
            x = np.array(d.body_mesh(bid).mesh_nodes(), dtype=float)
            radius, point, force = [], [], []
            for cid in d.body_constraint_ids(bid):
                radius.append(math.sqrt(max(d.constraint_area(cid), 0.0) / math.pi))
                point.append(_solfec.constraint_referential_point(d, cid, bid))
                B = np.array(d.constraint_base(cid), dtype=float).reshape(3, 3)
                force.append(B @ np.array(d.constraint_R(cid), dtype=float))
            h = g.create_group(f"{len(g):08d}")
            h.attrs["time"] = d.time
            h.attrs["body"] = bid
            h.create_dataset("disp", data=x - body._fracture_mesh.X)
            h.create_dataset("radius", data=np.array(radius, dtype=float))
            h.create_dataset("point", data=np.array(point, dtype=float).reshape(-1, 3))
            h.create_dataset("force", data=np.array(force, dtype=float).reshape(-1, 3))


def read(outpath, bid):
    """The recorded instances of body `bid` in time order: [(time, disp (N, 3), radius (n,),
    point (n, 3), force (n, 3))]; [] when there are none (or no record file)."""
    import h5py
    out = []
    files = [path_of(outpath, None if _mpi.size() == 1 else r) for r in range(_mpi.size())]
    for p in files:
        if not os.path.isfile(p):
            continue
        with h5py.File(p, "r") as f:
            for name in sorted(f.get(_INSTANCES, {})):
                h = f[_INSTANCES][name]
                if int(h.attrs["body"]) == bid:
                    out.append((float(h.attrs["time"]), h["disp"][()], h["radius"][()],
                                h["point"][()], h["force"][()]))
    out.sort(key=lambda r: r[0])
    return out
