"""XDMF export of a results file for ParaView: three (four) XDMF 3 files (temporal collections of
uniform grids) sharing one HDF5 data file:

  BASE-bodies.xmf    convex surfaces and tessellated ellipsoids as triangles (cell data: body
                     id, surface id)
  BASE-spheres.xmf   sphere centres as points (point data: radius, body id)
  BASE-contacts.xmf  constraint points (point data: normal, reaction R [N], gap [m], kind)

  BASE-fe.xmf        FINITE_ELEMENT meshes (only when such bodies are exported): volume cells
                     (Mixed topology) at current node positions; point data displacement [m],
                     velocity [m/s]; cell data body id, volid, Cauchy stress (Tensor6: xx, xy,
                     xz, yy, yz, zz) [Pa] and von Mises stress [Pa] at the element centres

BASE defaults to DIR/NAME-xdmf next to the results file DIR/NAME.h5."""

import os

import numpy as np

from . import results as R

__all__ = ["export"]


def _triangulate(shape):
    """Referential vertices, triangles (fans of the convex faces; a tessellation of each
    ellipsoid) and their surface ids."""
    verts, tris, surf = [], [], []
    base = 0
    for v, faces, surfids, _ in shape["convexes"]:
        verts.append(np.asarray(v, float))
        for f, s in zip(faces, surfids):
            for k in range(1, len(f) - 1):
                tris.append((base + f[0], base + f[k], base + f[k + 1]))
                surf.append(s)
        base += len(v)
    for c, r, rot, _, sid in shape.get("ellipsoids", []):
        x, t = R.ellipsoid_surface(c, r, rot)
        verts.append(x)
        tris += [(base + a, base + b, base + d) for a, b, d in t]
        surf += [sid] * len(t)
        base += len(x)
    if not verts:
        return np.zeros((0, 3)), np.zeros((0, 3), np.int64), np.zeros(0, np.int32)
    return np.vstack(verts), np.asarray(tris, np.int64).reshape(-1, 3), np.asarray(surf, np.int32)


def body_bounds(res, fr, bid):
    """(xmin, ymin, zmin, xmax, ymax, zmax) of body `bid` in the frame `fr`: its shape's
    vertices and spheres moved by the body's configuration (FINITE_ELEMENT: its nodes)."""
    if res.kind(bid) == "FINITE_ELEMENT":
        P = np.asarray(res.fe_nodes(fr, bid)[0], float).reshape(-1, 3)
        return (*P.min(axis=0), *P.max(axis=0))
    shape = res.shape(bid)
    center = np.asarray(res.definition(bid)["center"], float)
    q = fr.body_q(bid)
    L = np.asarray(q[:9]).reshape(3, 3, order="F")
    x = np.asarray(q[9:12])
    V = _triangulate(shape)[0]
    lo, hi = [], []
    if len(V):
        P = x + (V - center) @ L.T
        lo.append(P.min(axis=0))
        hi.append(P.max(axis=0))
    for c, r, _, _ in shape["spheres"]:
        p = x + L @ (np.asarray(c, float) - center)
        lo.append(p - r)
        hi.append(p + r)
    if not lo:
        return None
    return (*np.min(lo, axis=0), *np.max(hi, axis=0))


# XDMF Mixed-topology cell codes and node orders (VTK orientation: its wedge has (0, 1, 2)
# facing away from (3, 4, 5), the opposite of Solfec's numbering).
_XDMF_CELL = {4: (6, (0, 1, 2, 3)), 5: (7, (0, 1, 2, 3, 4)), 6: (8, (0, 2, 1, 3, 5, 4)),
              8: (9, (0, 1, 2, 3, 4, 5, 6, 7))}


def _fe_topology(mesh):
    """Flat Mixed-topology array of an FeMesh (Results.fe_mesh) and the mask of its
    node-index entries."""
    out, is_node = [], []
    for idx in mesh.elements:
        code, order = _XDMF_CELL[len(idx)]
        out.append(code)
        out.extend(int(idx[i]) for i in order)
        is_node += [False] + [True] * len(order)
    return np.asarray(out, dtype=np.int64), np.asarray(is_node, dtype=bool)


def _fe_frame(res, fr, fe_cache, keep=None):
    """Arrays of the FINITE_ELEMENT bodies of a frame (of the ids in `keep` when given), or
    None when there are none."""
    pts, disp, vel, topo, body, volid, stress, mises = [], [], [], [], [], [], [], []
    nn = 0
    for bid in fr.bodies["id"]:
        bid = int(bid)
        if res.kind(bid) != "FINITE_ELEMENT" or (keep is not None and bid not in keep):
            continue
        if bid not in fe_cache:
            mesh = res.fe_mesh(bid)
            d = res.definition(bid)
            fe_cache[bid] = (mesh, *_fe_topology(mesh), float(d["young"]), float(d["poisson"]),
                             res.material_model(bid))
        mesh, tp, is_node, young, poisson, model = fe_cache[bid]
        x, v = res.fe_nodes(fr, bid)  # BC-RO/BC-MODAL: full nodes rebuilt (eq. 58)
        pts.append(x)
        disp.append(x - mesh.nodes)
        vel.append(v)
        t = tp.copy()
        t[is_node] += nn  # node indices follow the points of earlier bodies
        topo.append(t)
        body.append(np.full(len(mesh.elements), bid, np.int64))
        volid.append(mesh.volids)
        sig, vm = R.cauchy_stresses(mesh.centre_gradients(x), young, poisson, model)
        stress.append(sig[:, [0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]])  # Tensor6 order
        mises.append(vm)
        nn += len(x)
    if not pts:
        return None
    return {"fe_points": np.vstack(pts), "fe_displacement": np.vstack(disp),
            "fe_velocity": np.vstack(vel), "fe_topology": np.concatenate(topo),
            "fe_body": np.concatenate(body), "fe_volid": np.concatenate(volid).astype(np.int32),
            "fe_stress": np.vstack(stress), "fe_mises": np.concatenate(mises)}


def _fe_grid(n, t, h5name, a):
    p = f"/f{n}"
    ne, npt = len(a["fe_body"]), len(a["fe_points"])
    return _grid(
        f"fe{n}", t,
        f'<Topology TopologyType="Mixed" NumberOfElements="{ne}">'
        f'{_item(h5name, p + "/fe_topology", a["fe_topology"].shape, "Int")}</Topology>',
        f'<Geometry GeometryType="XYZ">{_item(h5name, p + "/fe_points", (npt, 3))}</Geometry>',
        [_attr("displacement", "Node", "Vector", h5name, p + "/fe_displacement", (npt, 3)),
         _attr("velocity", "Node", "Vector", h5name, p + "/fe_velocity", (npt, 3)),
         _attr("body", "Cell", "Scalar", h5name, p + "/fe_body", (ne,), "Int"),
         _attr("volid", "Cell", "Scalar", h5name, p + "/fe_volid", (ne,), "Int", 4),
         _attr("stress", "Cell", "Tensor6", h5name, p + "/fe_stress", (ne, 6)),
         _attr("mises", "Cell", "Scalar", h5name, p + "/fe_mises", (ne,))])


def _item(h5name, path, shape, dtype="Float", precision=8):
    dims = " ".join(str(d) for d in shape)
    return (f'<DataItem Dimensions="{dims}" NumberType="{dtype}" Precision="{precision}" '
            f'Format="HDF">{h5name}:{path}</DataItem>')


def _attr(name, center, kind, h5name, path, shape, dtype="Float", precision=8):
    return (f'<Attribute Name="{name}" AttributeType="{kind}" Center="{center}">'
            f'{_item(h5name, path, shape, dtype, precision)}</Attribute>')


def _grid(name, t, topology, geometry, attrs):
    return (f'<Grid Name="{name}" GridType="Uniform"><Time Value="{t!r}"/>{topology}{geometry}'
            + "".join(attrs) + "</Grid>")


def _write_xmf(path, name, grids):
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<Xdmf Version="3.0"><Domain>'
                f'<Grid Name="{name}" GridType="Collection" CollectionType="Temporal">\n')
        for g in grids:
            f.write(g + "\n")
        f.write("</Grid></Domain></Xdmf>\n")


def export(res, base=None, t0=None, t1=None, skip=1, frames=None, keep=None):
    """Writes the XDMF files of the frames of `res` (a results.Results) in [t0, t1], every
    `skip`-th (or of the frame indices `frames`), of the bodies whose ids are in `keep` (all
    when None) and the constraints involving them; returns the list of .xmf paths."""
    import h5py
    if base is None:
        base = os.path.splitext(res.path)[0] + "-xdmf"
    h5path = base + ".h5"
    h5name = os.path.basename(h5path)
    geo = {}  # body id -> (kind, center, vertices, triangles, surfids, spheres)
    body_grids, sphere_grids, contact_grids, fe_grids = [], [], [], []
    fe_cache = {}
    idx = res.frame_indices(t0, t1, max(1, int(skip))) if frames is None else frames
    with h5py.File(h5path, "w") as out:
        for n, fr in enumerate(res.iter_frames(idx)):
            g = out.create_group(f"f{n}")
            pts, tris, cell_body, cell_surf = [], [], [], []
            sph, rad, sph_body = [], [], []
            nverts = 0
            for bid in fr.bodies["id"]:
                bid = int(bid)
                if keep is not None and bid not in keep:
                    continue
                if bid not in geo:
                    shape = res.shape(bid)
                    V, T, S = _triangulate(shape)
                    geo[bid] = (res.kind(bid), np.asarray(res.definition(bid)["center"], float),
                                V, T, S, shape["spheres"])
                kind, center, V, T, S, spheres = geo[bid]
                q = fr.body_q(bid)
                if kind not in ("RIGID", "OBSTACLE"):
                    continue  # deformable kinds: their meshes once available
                L = np.asarray(q[:9]).reshape(3, 3, order="F")
                x = np.asarray(q[9:12])
                if len(V):
                    pts.append(x + (V - center) @ L.T)
                    tris.append(T + nverts)
                    cell_body.append(np.full(len(T), bid, np.int64))
                    cell_surf.append(S)
                    nverts += len(V)
                for c, r, _, _ in spheres:
                    sph.append(x + L @ (c - center))
                    rad.append(r)
                    sph_body.append(bid)
            P = np.vstack(pts) if pts else np.zeros((0, 3))
            Tr = np.vstack(tris) if tris else np.zeros((0, 3), np.int64)
            g["points"], g["triangles"] = P, Tr
            g["body"] = np.concatenate(cell_body) if cell_body else np.zeros(0, np.int64)
            g["surfid"] = np.concatenate(cell_surf) if cell_surf else np.zeros(0, np.int32)
            p = f"/f{n}"
            body_grids.append(_grid(
                f"bodies{n}", fr.time,
                f'<Topology TopologyType="Triangle" NumberOfElements="{len(Tr)}">'
                f'{_item(h5name, p + "/triangles", Tr.shape, "Int")}</Topology>',
                f'<Geometry GeometryType="XYZ">{_item(h5name, p + "/points", P.shape)}</Geometry>',
                [_attr("body", "Cell", "Scalar", h5name, p + "/body", (len(Tr),), "Int"),
                 _attr("surfid", "Cell", "Scalar", h5name, p + "/surfid", (len(Tr),), "Int", 4)]))
            S = np.asarray(sph, float).reshape(-1, 3)
            g["sphere_centers"], g["sphere_radius"] = S, np.asarray(rad, float)
            g["sphere_body"] = np.asarray(sph_body, np.int64)
            g["sphere_cells"] = np.arange(len(S), dtype=np.int64)
            sphere_grids.append(_grid(
                f"spheres{n}", fr.time,
                f'<Topology TopologyType="Polyvertex" NumberOfElements="{len(S)}" '
                f'NodesPerElement="1">{_item(h5name, p + "/sphere_cells", (len(S),), "Int")}'
                f'</Topology>',
                f'<Geometry GeometryType="XYZ">{_item(h5name, p + "/sphere_centers", S.shape)}'
                f'</Geometry>',
                [_attr("radius", "Node", "Scalar", h5name, p + "/sphere_radius", (len(S),)),
                 _attr("body", "Node", "Scalar", h5name, p + "/sphere_body", (len(S),), "Int")]))
            fe = _fe_frame(res, fr, fe_cache, keep)
            if fe is not None:
                for name, arr in fe.items():
                    g[name] = arr
                fe_grids.append(_fe_grid(n, fr.time, h5name, fe))
            c = fr.constraints
            if keep is not None and len(c):
                ids = np.asarray(sorted(keep))
                c = c[np.isin(c["body1"], ids) | np.isin(c["body2"], ids)]
            B = c["base"].reshape(-1, 3, 3)  # B[k, j] = column j (T1, T2, N)
            g["contact_points"] = np.asarray(c["point"], float).reshape(-1, 3)
            g["contact_normal"] = B[:, 2, :] if len(c) else np.zeros((0, 3))
            g["contact_reaction"] = (np.einsum("kji,kj->ki", B, c["R"]) if len(c)
                                     else np.zeros((0, 3)))
            g["contact_gap"] = np.asarray(c["gap"], float)
            g["contact_kind"] = np.asarray(c["kind"], np.int32)
            g["contact_cells"] = np.arange(len(c), dtype=np.int64)
            nc = len(c)
            contact_grids.append(_grid(
                f"contacts{n}", fr.time,
                f'<Topology TopologyType="Polyvertex" NumberOfElements="{nc}" '
                f'NodesPerElement="1">{_item(h5name, p + "/contact_cells", (nc,), "Int")}'
                f'</Topology>',
                f'<Geometry GeometryType="XYZ">{_item(h5name, p + "/contact_points", (nc, 3))}'
                f'</Geometry>',
                [_attr("normal", "Node", "Vector", h5name, p + "/contact_normal", (nc, 3)),
                 _attr("reaction", "Node", "Vector", h5name, p + "/contact_reaction", (nc, 3)),
                 _attr("gap", "Node", "Scalar", h5name, p + "/contact_gap", (nc,)),
                 _attr("kind", "Node", "Scalar", h5name, p + "/contact_kind", (nc,), "Int", 4)]))
    paths = []
    for suffix, grids in (("bodies", body_grids), ("spheres", sphere_grids),
                          ("contacts", contact_grids)):
        pth = f"{base}-{suffix}.xmf"
        _write_xmf(pth, suffix, grids)
        paths.append(pth)
    if fe_grids:
        pth = f"{base}-fe.xmf"
        _write_xmf(pth, "fe", fe_grids)
        paths.append(pth)
    return paths
