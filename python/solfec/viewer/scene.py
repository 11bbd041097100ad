"""Scene data of the viewer: body geometry and per-frame state of a results file as JSON-ready
dicts (large arrays as base64 float32/uint32, decoded by the page into typed arrays)."""

import base64

import numpy as np

from .. import results as R

# Faces of the volume elements by node count (solfec numbering); orientation is fixed later.
_ELEMENT_FACES = {
    4: ((0, 1, 2), (0, 1, 3), (1, 2, 3), (0, 2, 3)),
    5: ((0, 1, 2, 3), (0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)),
    6: ((0, 1, 2), (3, 4, 5), (0, 1, 4, 3), (1, 2, 5, 4), (2, 0, 3, 5)),
    8: ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)),
}


def f32(a):
    """A numeric array as {'f32': base64 of little-endian float32}."""
    b = np.ascontiguousarray(np.asarray(a, dtype="<f4").ravel()).tobytes()
    return {"f32": base64.b64encode(b).decode("ascii")}


def u32(a):
    """An index array as {'u32': base64 of little-endian uint32}."""
    b = np.ascontiguousarray(np.asarray(a, dtype="<u4").ravel()).tobytes()
    return {"u32": base64.b64encode(b).decode("ascii")}


def boundary_triangles(nodes, elements):
    """Outward triangles (m, 3) of the faces that belong to one element only."""
    count, first = {}, {}
    for e in elements:
        e = [int(i) for i in e]
        faces = _ELEMENT_FACES.get(len(e))
        if faces is None:
            continue
        centre = nodes[e].mean(axis=0)
        for f in faces:
            ids = tuple(e[i] for i in f)
            key = tuple(sorted(ids))
            count[key] = count.get(key, 0) + 1
            first.setdefault(key, (ids, centre))
    tris = []
    for key, n in count.items():
        if n != 1:
            continue
        ids, centre = first[key]
        a, b, c = (nodes[i] for i in ids[:3])
        if np.dot(np.cross(b - a, c - a), a - centre) < 0:
            ids = ids[::-1]
        for k in range(1, len(ids) - 1):
            tris.append((ids[0], ids[k], ids[k + 1]))
    return np.asarray(tris, np.int64).reshape(-1, 3)


def mises(F, young, poisson, model="KIRCHHOFF"):
    """Von Mises values (m,) of the Cauchy stresses of F (m, 3, 3) for a BULK_MATERIAL model."""
    return R.cauchy_stresses(F, young, poisson, model)[1]


class _Store:
    """The shape and label tables of a results file read once (whole datasets: one h5py read
    each instead of several per body, docs/output.md layout)."""

    def __init__(self, res):
        f = res._f
        self._f, self._cache = f, {}

    def _get(self, name):
        if name not in self._cache:
            self._cache[name] = self._f[name][:] if name in self._f else None
        return self._cache[name]

    def text(self, start, length):
        lab = self._get("bodies/labels")
        s, n = int(start), int(length)
        return bytes(lab[s:s + n]).decode("utf-8", "replace") if n > 0 else ""

    def convexes(self, d):
        """Referential vertices and fan triangles of the body's convexes."""
        c0, nc = int(d["convex_start"]), int(d["convex_count"])
        if not nc:
            return np.zeros((0, 3)), np.zeros((0, 3), np.int64)
        verts = self._get("shapes/vertices")
        if "lists" not in self._cache:  # plain lists: numpy scalars are slow one by one
            faces, cons = self._get("shapes/faces"), self._get("shapes/convexes")
            self._cache["lists"] = (
                faces["index_start"].tolist(), faces["index_count"].tolist(),
                self._get("shapes/face_vertices").tolist(),
                list(zip(*(cons[k].tolist() for k in ("vertex_start", "vertex_count",
                                                         "face_start", "face_count")))))
        start, count, fv, cons = self._cache["lists"]
        V, T, base = [], [], 0
        for v0, nv, f0, nf in cons[c0:c0 + nc]:
            V.append(verts[v0:v0 + nv])
            for a, b in zip(start[f0:f0 + nf], count[f0:f0 + nf]):
                idx = fv[a:a + b]
                T.extend((base + idx[0], base + idx[k], base + idx[k + 1])
                         for k in range(1, b - 1))
            base += nv
        return np.vstack(V).astype(float), np.asarray(T, np.int64).reshape(-1, 3)

    def spheres(self, d):
        s0, ns = int(d["sphere_start"]), int(d["sphere_count"])
        if not ns:
            return []
        return [(np.asarray(s["center"], float), float(s["radius"]))
                for s in self._get("shapes/spheres")[s0:s0 + ns]]

    def ellipsoids(self, d):
        """Referential vertices and triangles of the body's ellipsoids, tessellated."""
        names = d.dtype.names or ()
        n = int(d["ellipsoid_count"]) if "ellipsoid_count" in names else 0
        if not n:
            return np.zeros((0, 3)), np.zeros((0, 3), np.int64)
        e0 = int(d["ellipsoid_start"])
        V, T, base = [], [], 0
        for e in self._get("shapes/ellipsoids")[e0:e0 + n]:
            x, t = R.ellipsoid_surface(e["center"], e["radii"],
                                       np.asarray(e["rot"], float).reshape(3, 3))
            V.append(x)
            T.append(np.asarray(t, np.int64) + base)
            base += len(x)
        return np.vstack(V), np.vstack(T)


class Scene:
    """Geometry (cached per body) and frames of one results file."""

    def __init__(self, path):
        self.path = path
        self._geo = {}

    def open(self):
        return R.Results(self.path)

    def _body(self, res, bid, store=None):
        if bid in self._geo:
            return self._geo[bid]
        store = store or _Store(res)
        d = res.definition(bid)
        kind = res.kind(bid)
        center = np.asarray(d["center"], float)
        g = {"id": bid, "label": store.text(d["label_start"], d["label_len"]), "kind": kind,
             "mass": float(d["mass"]), "center": center.tolist()}
        if kind == "FINITE_ELEMENT" and int(d["mesh_count"]):
            mesh = res.fe_mesh(bid)
            g["fe"] = {"triangles": u32(boundary_triangles(mesh.nodes, mesh.elements)),
                       "nnodes": int(len(mesh.nodes))}
            self._geo[("fe", bid)] = (mesh, float(d["young"]), float(d["poisson"]),
                                      res.material_model(bid))
        else:
            V, T = store.convexes(d)
            EV, ET = store.ellipsoids(d)  # drawn as surfaces (placed as the body's convexes)
            if len(EV):
                V, T = np.vstack([V, EV]), np.vstack([T, ET + len(V)])
            g["positions"] = f32(V - center)  # local coordinates about the mass centre
            g["triangles"] = u32(T)
            g["spheres"] = [[*(np.asarray(c, float) - center).tolist(), float(r)]
                            for c, r in store.spheres(d)]
        self._geo[bid] = g
        return g

    def model(self):
        """{'times', 'nframes', 'bodies': [...]} with the bodies of every stored definition."""
        with self.open() as res:
            store = _Store(res)
            bodies = [self._body(res, int(i), store)
                      for i in res.definitions["id"]] if res.nframes else []
            return {"nframes": int(res.nframes), "times": res.times.tolist(), "bodies": bodies}

    def frame(self, i, field="displacement"):
        """Frame i: body ids, placements (12 per body: rotation column-wise, centre), velocities,
        FE node positions with a nodal scalar, and constraint points, normals, reactions."""
        with self.open() as res:
            fr = res.frame(max(0, min(int(i), res.nframes - 1)))
            ids = [int(b) for b in fr.bodies["id"]]
            store = _Store(res)
            place = np.zeros((len(ids), 12))
            place[:, [0, 4, 8]] = 1.0
            vel = np.zeros((len(ids), 3))
            fe = {}
            for bid in ids:
                self._body(res, bid, store)
            isfe = np.array([("fe", bid) in self._geo for bid in ids], bool)
            nq, nu = np.asarray(fr.nq, np.int64), np.asarray(fr.nu, np.int64)
            qend, uend = np.cumsum(nq), np.cumsum(nu)
            k = np.nonzero(~isfe & (nq >= 12))[0]  # rigid-like: rotation and centre first
            place[k] = np.asarray(fr.q, float)[(qend[k] - nq[k])[:, None] + np.arange(12)]
            k = k[nu[k] >= 3]  # their velocity: the last 3 of u
            vel[k] = np.asarray(fr.u, float)[uend[k][:, None] - 3 + np.arange(3)]
            for k in np.nonzero(isfe)[0]:
                fe[str(ids[k])], vel[k] = self._fe_state(res, fr, ids[k], field)
            c = fr.constraints
            B = np.asarray(c["base"], float).reshape(-1, 3, 3)  # B[k, j] = column j (T1, T2, N)
            R_ = np.asarray(c["R"], float).reshape(-1, 3)
            return {"index": int(fr.index), "time": fr.time, "nframes": int(res.nframes),
                    "ids": ids, "placement": f32(place), "velocity": f32(vel), "fe": fe,
                    "contacts": {"count": int(len(c)), "kind": np.asarray(c["kind"]).tolist(),
                                 "point": f32(np.asarray(c["point"], float).reshape(-1, 3)),
                                 "normal": f32(B[:, 2, :]),
                                 "reaction": f32(np.einsum("kji,kj->ki", B, R_))}}

    def history(self, bid, limit=2000):
        """{'time', 'kinetic', 'velocity'} of body bid over the frames (at most `limit`,
        evenly skipped): the stored kinetic energy [J] and the velocity of frame() [m/s]."""
        with self.open() as res:
            res.definition(bid, "/api/history")  # an unknown id: UnknownBodyError (HTTP 404)
            idx = res.frame_indices(skip=max(1, -(-res.nframes // limit)))
            fe = res.kind(bid) == "FINITE_ELEMENT"
            t, ke, vel = [], [], []
            for fr in res.iter_frames(idx, constraints=False):
                k = fr.position(bid)
                if k is None:
                    continue
                t.append(fr.time)
                ke.append(float(fr.bodies["energy"][k][0]))
                u = np.asarray(fr.body_u(bid), float)
                v = res.fe_nodes(fr, bid)[1].mean(axis=0) if fe else \
                    (u[-3:] if len(u) >= 3 else np.zeros(3))
                vel.append([float(a) for a in v])
            return {"id": int(bid), "label": res.label(bid), "time": t, "kinetic": ke,
                    "velocity": vel}

    def _fe_state(self, res, fr, bid, field):
        mesh, young, poisson, model = self._geo[("fe", bid)]
        x, v = res.fe_nodes(fr, bid)
        if field == "mises":
            cell = mises(mesh.centre_gradients(x), young, poisson, model)
            s, n = np.zeros(len(x)), np.zeros(len(x))
            for e, val in zip(mesh.elements, cell):
                s[e] += val
                n[e] += 1
            scalar = s / np.maximum(n, 1)
        else:
            scalar = np.linalg.norm(x - mesh.nodes, axis=1)
        return ({"x": f32(x), "scalar": f32(scalar), "min": float(scalar.min()),
                 "max": float(scalar.max())}, np.asarray(v, float).mean(axis=0))
