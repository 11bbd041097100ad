"""Reading solfec results files (HDF5, layout in docs/output.md) into numpy with h5py.

Usable without running a deck (evaluations of FINITE_ELEMENT points and stresses call the
compiled module, solfec._solfec: the element and material code of the solver):

    from solfec.results import Results
    with Results("out/ball") as r:            # output directory or the .h5 file
        print(r.times[-1], r.nframes)
        f = r.frame(r.nearest_frame(0.5))     # one frame: rows, q, u, constraints
        t, x = r.body_point_history(1, (0, 0, 1), "DX")

A run killed midway (SIGKILL) leaves a file that opens here up to its last complete frame.
"""

import os

import warnings

import numpy as np

__all__ = ["Results", "results_path", "is_valid", "FORMAT", "VERSION", "BODY_KINDS",
           "CONSTRAINT_KINDS", "ENERGY_NAMES", "TIMING_NAMES", "CONSTRAINT_DTYPE",
           "VersionError", "UnknownBodyError", "join_constraints", "MATERIAL_MODELS"]

FORMAT = "solfec-results"
VERSION = 2  # 2: per-frame constraint states + /constraints/table (docs/output.md)
BODY_KINDS = ("RIGID", "PSEUDO_RIGID", "FINITE_ELEMENT", "OBSTACLE")
CONSTRAINT_KINDS = ("CONTACT", "FIXPNT", "FIXDIR", "VELODIR", "RIGLNK", "SPRING", "GLUEPNT")
ENERGY_NAMES = ("KINETIC", "INTERNAL", "EXTERNAL", "CONTACT", "FRICTION")
TIMING_NAMES = ("TIMINT", "CONUPD", "CONDET", "LOCDYN", "CONSOL", "PARBAL")
MATERIAL_MODELS = ("KIRCHHOFF", "NEO_HOOKEAN", "BLATZ_KO")  # /bodies/table 'model' codes

_BLOCK = 1 << 21  # values read per block when streaming frames (bounded memory)

# A frame's constraints as Frame.constraints holds them: the join of a /frames/constraints
# row and its /constraints/table row, laid out as the C++ ConstraintRow (296 bytes) that
# _solfec.restore_frame takes (src/io/results_layout.h).
CONSTRAINT_DTYPE = np.dtype({
    "names": ["id", "kind", "age", "body1", "body2", "point", "point2", "base", "R", "U", "gap",
              "area", "merit", "surf1", "surf2", "piece1", "piece2", "X1", "X2", "cohesive"],
    "formats": ["<i8", "<i4", "<i4", "<i8", "<i8", ("<f8", 3), ("<f8", 3), ("<f8", 9),
                ("<f8", 3), ("<f8", 3), "<f8", "<f8", "<f8", "<i4", "<i4", "<i4", "<i4",
                ("<f8", 3), ("<f8", 3), "<i4"],
    "offsets": [0, 8, 12, 16, 24, 32, 56, 80, 152, 176, 200, 208, 216, 224, 228, 232, 236, 240,
                264, 288],
    "itemsize": 296})
_DEF_FIELDS = ("id", "kind", "body1", "body2", "surf1", "surf2", "piece1", "piece2", "cohesive")
_STATE_FIELDS = ("age", "point", "point2", "base", "R", "U", "gap", "area", "merit", "X1", "X2")


class VersionError(ValueError):
    """A results file of another format version than this solfec reads."""


class UnknownBodyError(ValueError, KeyError):
    """A body id that the results file does not hold (a ValueError; also a KeyError, as
    `Results.definition` raised before)."""
    __str__ = ValueError.__str__


def join_constraints(states, defs, def0=0):
    """Constraint records (CONSTRAINT_DTYPE) of /frames/constraints rows `states` whose `def`
    fields index /constraints/table rows; `defs` holds the rows from `def0` on."""
    out = np.zeros(len(states), dtype=CONSTRAINT_DTYPE)
    if len(states) == 0:
        return out
    d = defs[np.asarray(states["def"], dtype=np.int64) - def0]
    for name in _DEF_FIELDS:
        out[name] = d[name]
    for name in _STATE_FIELDS:
        out[name] = states[name]
    return out


def results_path(path):
    """The results file of an output directory: DIR/basename(DIR).h5 (a path ending in .h5
    is returned as is)."""
    if path.endswith(".h5"):
        return path
    d = os.path.normpath(path)
    return os.path.join(d, os.path.basename(d) + ".h5")


# In-process writers by real path of their file (WRITE-mode SOLFEC objects register here).
_writers = {}


def register_writer(path, output):
    """Registers an object with close() writing `path` (closed before this module reads it)."""
    import weakref
    _writers.setdefault(os.path.realpath(path), []).append(weakref.ref(output))


def _release_writer(path):
    """Closes in-process writers of `path` so that h5py can open the file; they reopen it
    when they write the next frame."""
    refs = _writers.get(os.path.realpath(path), [])
    alive = [r for r in refs if r() is not None]
    for r in alive:
        r().close()
    if refs:
        _writers[os.path.realpath(path)] = alive


def _open(path):
    import h5py
    _release_writer(path)
    try:
        return h5py.File(path, "r")
    except OSError:
        # a writer killed while in SWMR mode leaves the 'open for writing' mark: read as SWMR
        return h5py.File(path, "r", libver="latest", swmr=True)


def is_valid(path):
    """True if `path` (directory or .h5) holds a results file with at least one frame."""
    p = results_path(path)
    if not os.path.isfile(p):
        return False
    try:
        with Results(p) as r:
            return r.nframes > 0
    except VersionError:
        from . import _state
        if _state.options.get("write"):
            return False  # -w: overwritten
        raise
    except (OSError, KeyError, ValueError):
        return False


class Frame:
    """One frame: `row` (the /frames/table record), `bodies` (records: id, energy),
    `nq`, `nu` (sizes per body), `q`, `u` (concatenated), `constraints` (records)."""

    def __init__(self, index, row, bodies, nq, nu, q, u, constraints):
        self.index, self.row, self.bodies = index, row, bodies
        self.nq, self.nu, self.q, self.u, self.constraints = nq, nu, q, u, constraints
        self.time = float(row["time"])
        self._qoff = np.concatenate(([0], np.cumsum(nq)))
        self._uoff = np.concatenate(([0], np.cumsum(nu)))
        self._pos = None

    def position(self, body_id):
        """Index of the body in this frame's records, or None if absent."""
        if self._pos is None:
            self._pos = {int(i): k for k, i in enumerate(self.bodies["id"])}
        return self._pos.get(int(body_id))

    def body_q(self, body_id):
        k = self.position(body_id)
        return None if k is None else self.q[self._qoff[k]:self._qoff[k + 1]]

    def body_u(self, body_id):
        k = self.position(body_id)
        return None if k is None else self.u[self._uoff[k]:self._uoff[k + 1]]


def _core():
    """The compiled module: FeMesh (body/fem/element_mesh.h) and the BULK_MATERIAL stresses
    (material/hyperelastic.h), the code the solver runs."""
    from . import _solfec
    return _solfec


def cauchy_stresses(F, young, poisson, model="KIRCHHOFF"):
    """Cauchy stresses (m, 3, 3) and von Mises values (m,) of the deformation gradients
    F (m, 3, 3) for a BULK_MATERIAL model; NEO_HOOKEAN and BLATZ_KO give NaN where
    det F <= 0 (an inverted element, where they are undefined)."""
    F = np.asarray(F, dtype=float).reshape(-1, 3, 3)
    return _core().cauchy_stresses(F, float(young), float(poisson), model)


def stress_values(F, young, poisson, model="KIRCHHOFF"):
    """(sx, sy, sz, sxy, sxz, syz, mises) of the Cauchy stress at deformation gradient F
    (3, 3) for a BULK_MATERIAL model (manual 7.2.1 for KIRCHHOFF); solfec.SolverError where
    NEO_HOOKEAN or BLATZ_KO is undefined (det F <= 0)."""
    F = np.asarray(F, dtype=float).reshape(3, 3)
    return tuple(_core().stress_values(F, float(young), float(poisson), model))


def base_fingerprint(E):
    """(sum |e|, sum e, sum e w) over E (3N x n) column after column, w = frac(0.618... i):
    the fingerprint OUTPUT(..., bases='DECK') stores (src/io/results_writer.cc)."""
    e = np.asarray(E, dtype=float).ravel(order="F")
    w = np.arange(e.size, dtype=float) * 0.6180339887498949
    w -= np.floor(w)
    return np.array([np.abs(e).sum(), e.sum(), (e * w).sum()])


class Results:
    """An open results file. `frames` is the frame table (numpy records), `times` its time
    column, `definitions` the body definition records; see docs/output.md."""

    def __init__(self, path):
        self.path = results_path(path)
        if not os.path.isfile(self.path):
            raise FileNotFoundError(f"results: no results file '{self.path}'")
        self._f = _open(self.path)
        f = self._f
        fmt = f.attrs.get("format", b"")
        fmt = fmt.decode() if isinstance(fmt, bytes) else str(fmt)
        if fmt != FORMAT:
            self.close()
            raise ValueError(f"results: '{self.path}' is not a solfec results file")
        self.version = int(f.attrs.get("version", 0))
        if self.version != VERSION:
            self.close()
            raise VersionError(
                f"results: '{self.path}' has format version {self.version}; this solfec reads "
                f"version {VERSION} only (docs/output.md): run the deck with -w to rewrite it, "
                f"or read it with the solfec that wrote it")
        if "frames" not in f:
            self.frames = np.zeros(0)
            self.nframes = 0
            self.times = np.zeros(0)
            self.definitions = np.zeros(0)
            self._def, self._labels, self._model_warned = {}, None, False
            return
        n = min(int(f["frames/count"][0]), f["frames/table"].shape[0])
        self.nframes = n
        self.frames = f["frames/table"][:n]
        self.times = self.frames["time"].copy()
        ndef = int(self.frames["def_count"].max()) if n else 0
        self.definitions = f["bodies/table"][:ndef]
        self._def = {int(i): k for k, i in enumerate(self.definitions["id"])}
        self._labels = None
        self._model_warned = False

    # --- file
    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def attrs(self):
        return {k: (v.decode() if isinstance(v, bytes) else v) for k, v in self._f.attrs.items()}

    # --- body definitions
    def _text(self, start, length):
        if length <= 0:
            return ""
        return bytes(self._f["bodies/labels"][start:start + length]).decode("utf-8", "replace")

    def definition(self, body_id, routine="results"):
        """The definition record of a body id (UnknownBodyError, a ValueError, if the file
        holds no body of that id)."""
        k = self._def.get(int(body_id))
        if k is None:
            ids = sorted(self._def)
            held = (f"it holds body ids {ids[0]}..{ids[-1]}" if len(ids) > 1 else
                    f"it holds body id {ids[0]}" if ids else "it holds no bodies")
            raise UnknownBodyError(f"{routine}: no body with id {int(body_id)} in "
                                   f"'{self.path}' ({len(ids)} bodies stored; {held})")
        return self.definitions[k]

    def has_body(self, body_id):
        return int(body_id) in self._def

    def kind(self, body_id):
        return BODY_KINDS[int(self.definition(body_id)["kind"])]

    def material_model(self, body_id):
        """The body's BULK_MATERIAL model ('KIRCHHOFF', 'NEO_HOOKEAN', 'BLATZ_KO'). Files
        written before the `model` field was stored give 'KIRCHHOFF' with a warning."""
        d = self.definition(body_id)
        if "model" in (d.dtype.names or ()):
            code = int(d["model"])
            if not 0 <= code < len(MATERIAL_MODELS):
                raise ValueError(f"results: body {int(body_id)} of '{self.path}' has an "
                                 f"unknown material model code {code}")
            return MATERIAL_MODELS[code]
        if not self._model_warned:
            self._model_warned = True
            warnings.warn(f"results: '{self.path}' stores no material models (written by an "
                          f"older solfec): its stresses are computed as Saint Venant-Kirchhoff "
                          f"('KIRCHHOFF'); rewrite it with `solfec -w`", stacklevel=2)
        return "KIRCHHOFF"

    def label(self, body_id):
        d = self.definition(body_id)
        return self._text(int(d["label_start"]), int(d["label_len"]))

    def material_label(self, body_id):
        d = self.definition(body_id)
        return self._text(int(d["material_start"]), int(d["material_len"]))

    def body_by_label(self, label):
        """Id of the body with the label, or None."""
        if self._labels is None:
            self._labels = {self.label(int(i)): int(i) for i in self.definitions["id"]}
        return self._labels.get(label)

    def shape(self, body_id):
        """Referential shape: {'convexes': [(vertices (n,3), faces [index lists], surfids,
        volid)], 'spheres': [(center, radius, volid, surfid)], 'ellipsoids': [(center,
        radii, rot (3x3, column i along radii[i]), volid, surfid)], 'meshes': [...]}."""
        d = self.definition(body_id)
        f = self._f
        out = {"convexes": [], "spheres": [], "ellipsoids": [], "meshes": []}
        c0, nc = int(d["convex_start"]), int(d["convex_count"])
        if nc:
            cons = f["shapes/convexes"][c0:c0 + nc]
            for c in cons:
                v0, nv = int(c["vertex_start"]), int(c["vertex_count"])
                f0, nf = int(c["face_start"]), int(c["face_count"])
                verts = f["shapes/vertices"][v0:v0 + nv]
                faces = f["shapes/faces"][f0:f0 + nf]
                if nf:
                    i0 = int(faces["index_start"][0])
                    i1 = int(faces["index_start"][-1] + faces["index_count"][-1])
                    idx = f["shapes/face_vertices"][i0:i1]
                    lists = [idx[int(a) - i0:int(a) - i0 + int(b)].tolist()
                             for a, b in zip(faces["index_start"], faces["index_count"])]
                else:
                    lists = []
                out["convexes"].append((verts, lists, faces["surfid"].tolist(), int(c["volid"])))
        s0, ns = int(d["sphere_start"]), int(d["sphere_count"])
        if ns:
            for s in f["shapes/spheres"][s0:s0 + ns]:
                out["spheres"].append((np.array(s["center"]), float(s["radius"]),
                                       int(s["volid"]), int(s["surfid"])))
        names = d.dtype.names or ()
        e0, ne = ((int(d["ellipsoid_start"]), int(d["ellipsoid_count"]))
                  if "ellipsoid_count" in names else (0, 0))  # (files before ELLIP: none)
        for e in (f["shapes/ellipsoids"][e0:e0 + ne] if ne else []):
            out["ellipsoids"].append((np.array(e["center"]), np.array(e["radii"]),
                                      np.array(e["rot"]).reshape(3, 3), int(e["volid"]),
                                      int(e["surfid"])))
        m0, nm = int(d["mesh_start"]), int(d["mesh_count"])
        for m in (f["shapes/meshes"][m0:m0 + nm] if nm else []):
            n0, nn = int(m["node_start"]), int(m["node_count"])
            e0, ne = int(m["element_start"]), int(m["element_count"])
            out["meshes"].append((f["shapes/vertices"][n0:n0 + nn],
                                  f["shapes/mesh_elements"][e0:e0 + ne]))
        return out

    def fe_mesh(self, body_id):
        """The referential mesh of a FINITE_ELEMENT body as a solfec._solfec.FeMesh (nodes,
        elements, volids; locate, interpolate, deformation_gradient, centre_gradients): its
        nodes are in the order of the body's q and u."""
        if self.kind(body_id) != "FINITE_ELEMENT":
            raise ValueError(f"results: body {body_id} is {self.kind(body_id)}, not "
                             f"FINITE_ELEMENT")
        cache = self.__dict__.setdefault("_fe_meshes", {})
        if int(body_id) not in cache:
            meshes = self.shape(body_id)["meshes"]
            if not meshes:
                raise ValueError(f"results: '{self.path}' stores no mesh for FINITE_ELEMENT body "
                                 f"{body_id} (written by an older solfec); rerun to evaluate it")
            nodes, records = meshes[-1]
            k = records["num_nodes"].astype(np.int64)
            cache[int(body_id)] = _core().FeMesh(
                np.asarray(nodes, dtype=float).reshape(-1, 3),
                [r[:n].tolist() for r, n in zip(records["nodes"], k)],
                records["volid"].astype(np.int64).tolist())
        return cache[int(body_id)]

    def reduced_base(self, body_id):
        """(form, E (3N x n), evals) of a BC-RO / BC-MODAL body, or None for any other body
        (docs/output.md). E comes from /shapes/bases or, for files written with
        OUTPUT(..., bases='DECK'), from `provide_bases` (checked against the stored
        fingerprint); ValueError when such a base was not provided."""
        bases = self.__dict__.get("_reduced_bases")
        if bases is None:
            bases = {}
            if "shapes/bases" in self._f:
                data = np.asarray(self._f["shapes/bases"][:], dtype=float)
                k = 0
                while k + 4 <= data.size:
                    bid, form, rows, n = (int(v) for v in data[k:k + 4])
                    form = {2: "BC-RO", 3: "BC-MODAL"}.get(form, str(form))
                    if rows >= 0:  # E stored column after column
                        E = data[k + 4:k + 4 + rows * n].reshape(n, rows).T
                        k += 4 + rows * n
                    else:  # bases='DECK': -3N and the fingerprint of E
                        E = ("deck", -rows, data[k + 4:k + 7])
                        k += 4 + 3
                    bases[bid] = (form, E, data[k:k + n])
                    k += n
            self._reduced_bases = bases
        base = bases.get(int(body_id))
        if base is None or not isinstance(base[1], tuple):
            return base
        form, (_, rows, fp), ev = base
        source = self.__dict__.get("_base_source")
        E = source(int(body_id)) if source is not None else None
        if E is None:
            raise ValueError(
                f"results: body {body_id} of '{self.path}' was written with OUTPUT(..., "
                f"bases='DECK'): its reduced base is not in the file; read it by running the "
                f"deck (READ mode) or with Results(...).provide_bases({{{body_id}: E}})")
        E = np.asarray(E, dtype=float)
        have = base_fingerprint(E)
        if E.shape != (rows, ev.size) or not np.allclose(have, fp, rtol=0.0,
                                                         atol=1e-9 * max(fp[0], 1e-300)):
            raise ValueError(
                f"results: the base given for body {body_id} ({E.shape[0]} x {E.shape[1]}) is "
                f"not the one '{self.path}' was written with ({rows} x {ev.size}, fingerprint "
                f"{fp.tolist()}, given {have.tolist()}); pass the deck's base unchanged")
        bases[int(body_id)] = (form, E, ev)
        return bases[int(body_id)]

    def provide_bases(self, source):
        """Reduced bases for files written with OUTPUT(..., bases='DECK'): `source` is a dict
        {body id: E (3N x n)} or a callable body id -> E (or None)."""
        self._base_source = source.get if isinstance(source, dict) else source

    def fe_nodes(self, fr, body_id):
        """(x, v), arrays (N, 3): node coordinates and velocities of a FINITE_ELEMENT body in
        frame fr ((None, None) when absent). BC-RO / BC-MODAL bodies store q = [Lambda
        column-wise, q_bar], u = u_bar; they are rebuilt as x = Lambda (Z + E q_bar) and
        v = Lambda E u_bar (report eq. 58), Z the stored referential mesh nodes."""
        q, u = fr.body_q(body_id), fr.body_u(body_id)
        if q is None:
            return None, None
        base = self.reduced_base(body_id)
        if base is None:
            q, u = np.asarray(q, dtype=float), np.asarray(u, dtype=float)
            Z = self.fe_mesh(body_id).nodes
            if q.size == 12 + Z.size:  # form 'FFR': q = [x_C, O, psi], u = [v_C, Omega, lambda]
                return self._ffr_nodes(body_id, Z, q, u)
            return q.reshape(-1, 3), u.reshape(-1, 3)
        _, E, _ = base
        L = np.asarray(q[:9], dtype=float).reshape(3, 3, order="F")
        Z = self.fe_mesh(body_id).nodes
        x = (Z + (E @ np.asarray(q[9:], dtype=float)).reshape(-1, 3)) @ L.T
        v = (E @ np.asarray(u, dtype=float)).reshape(-1, 3) @ L.T
        return x, v

    def _ffr_nodes(self, body_id, Z, q, u):
        """Form 'FFR' (docs/deck-language.md): x_a = x_C + O (Xbar_a + psi_a) and
        v_a = v_C + O (Omega x (Xbar_a + psi_a) + lambda_a), Xbar_a = Z_a - c with c the
        referential mass centre (= the lumped-mass centre for isoparametric elements)."""
        c = np.asarray(self.definition(body_id)["center"], dtype=float)
        O = q[3:12].reshape(3, 3, order="F")
        local = Z - c + q[12:].reshape(-1, 3)
        x = q[:3] + local @ O.T
        v = u[:3] + (np.cross(u[3:6], local) + u[6:].reshape(-1, 3)) @ O.T
        return x, v

    # --- frames
    def nearest_frame(self, t):
        """Index of the frame whose time is nearest to t (ties: the earlier)."""
        if self.nframes == 0:
            raise ValueError(f"results: '{self.path}' holds no frames")
        i = int(np.searchsorted(self.times, t))
        if i >= self.nframes:
            return self.nframes - 1
        if i > 0 and t - self.times[i - 1] <= self.times[i] - t:
            return i - 1
        return i

    def frame_indices(self, t0=None, t1=None, skip=1):
        """Indices of frames with t0 <= time <= t1, every `skip`-th."""
        t = self.times
        lo = -np.inf if t0 is None else t0 - 1e-12 * max(1.0, abs(t0))
        hi = np.inf if t1 is None else t1 + 1e-12 * max(1.0, abs(t1))
        idx = np.nonzero((t >= lo) & (t <= hi))[0]
        return idx[::max(1, int(skip))]

    def _sizes(self, ids):
        k = np.fromiter((self._def.get(int(i), -1) for i in ids), dtype=np.int64, count=len(ids))
        if (k < 0).any():
            raise ValueError(f"results: '{self.path}' has a frame with an undefined body")
        return self.definitions["nq"][k].astype(np.int64), self.definitions["nu"][k].astype(np.int64)

    def frame(self, i):
        """Frame i as a Frame object."""
        if not 0 <= i < self.nframes:
            raise IndexError(f"results: frame {i} out of range [0, {self.nframes})")
        for fr in self.iter_frames([i]):
            return fr

    def iter_frames(self, indices, constraints=True, state=True):
        """Frames of the (increasing) indices, read in blocks of bounded size."""
        indices = np.asarray(indices, dtype=np.int64)
        f, rows = self._f, self.frames
        k = 0
        while k < len(indices):
            # a block of consecutive stored rows holding at most ~_BLOCK values
            a = int(indices[k])
            j = k
            while j + 1 < len(indices):
                b = int(indices[j + 1])
                span = rows["q_start"][b] + rows["q_count"][b] - rows["q_start"][a]
                if constraints:  # a constraint state row holds 32 values' bytes
                    span += 32 * (rows["con_start"][b] + rows["con_count"][b] -
                                  rows["con_start"][a])
                if span > _BLOCK:
                    break
                j += 1
            b = int(indices[j])
            blk = {}
            if state:
                for name, s, c in (("bodies", "body_start", "body_count"), ("q", "q_start", "q_count"),
                                   ("u", "u_start", "u_count")):
                    lo, hi = int(rows[s][a]), int(rows[s][b] + rows[c][b])
                    blk[name] = (lo, f["frames/" + name][lo:hi])
            if constraints:
                lo, hi = int(rows["con_start"][a]), int(rows["con_start"][b] + rows["con_count"][b])
                blk["constraints"] = (lo, self._constraints(lo, hi, rows[indices[k:j + 1]]))
            last_ids, sizes = None, None
            for i in indices[k:j + 1]:
                r = rows[i]

                def cut(name, s, c):
                    lo, arr = blk[name]
                    return arr[int(r[s]) - lo:int(r[s] + r[c]) - lo]
                if state:
                    bodies = cut("bodies", "body_start", "body_count")
                    ids = bodies["id"]
                    if last_ids is None or not np.array_equal(ids, last_ids):
                        sizes, last_ids = self._sizes(ids), ids
                    q, u = cut("q", "q_start", "q_count"), cut("u", "u_start", "u_count")
                else:
                    bodies, q, u, sizes = None, None, None, (None, None)
                cons = cut("constraints", "con_start", "con_count") if constraints else None
                yield Frame(int(i), r, bodies, sizes[0], sizes[1], q, u, cons)
            k = j + 1

    def _constraints(self, lo, hi, block_rows):
        """Joined constraint records of /frames/constraints rows [lo, hi) (rows between the
        frames' ranges, unused, come out zero)."""
        f = self._f
        states = f["frames/constraints"][lo:hi]
        used = np.zeros(hi - lo, dtype=bool)
        for s, c in zip(block_rows["con_start"], block_rows["con_count"]):
            used[int(s) - lo:int(s + c) - lo] = True
        out = np.zeros(hi - lo, dtype=CONSTRAINT_DTYPE)
        if not used.any():
            return out
        idx = np.asarray(states["def"][used], dtype=np.int64)
        d0, d1 = int(idx.min()), int(idx.max()) + 1
        table = f["constraints/table"]
        uniq = np.unique(idx)
        if d1 - d0 <= 4 * uniq.size + 4096:  # one slice
            defs = table[d0:d1]
            out[used] = join_constraints(states[used], defs, d0)
        else:  # long-lived constraints next to new ones: only the rows needed
            defs = table[uniq]
            pos = np.searchsorted(uniq, idx)
            sub = states[used].copy()
            sub["def"] = pos
            out[used] = join_constraints(sub, defs)
        return out

    # --- convenience histories
    def body_point_history(self, body_id, point, entity, t0=None, t1=None, skip=1):
        """(times, values) of 'DX'..'DZ', 'VX'..'VZ' or 'CX'..'CZ' of a referential point (and
        stress entities 'SX'..'MISES' of PSEUDO_RIGID and FINITE_ELEMENT bodies)."""
        self.definition(body_id, "Results.body_point_history")  # an unknown id: a clear error
        idx = self.frame_indices(t0, t1, skip)
        fn = point_function(self, body_id, point, entity)
        vals = [fn(fr) for fr in self.iter_frames(idx, constraints=False)]
        return self.times[idx].copy(), np.array(vals, dtype=float)


def point_motion(kind, q, u, X, center):
    """Spatial point x(X) and velocity v(X) from a body's q, u (RIGID and OBSTACLE:
    q = [Lambda column-wise, x], u = [Omega referential, v])."""
    if kind in ("RIGID", "OBSTACLE"):
        L = np.asarray(q[:9]).reshape(3, 3, order="F")
        A = np.asarray(X, dtype=float) - center
        x = np.asarray(q[9:12]) + L @ A
        v = np.asarray(u[3:6]) + L @ np.cross(u[:3], A)
        return x, v
    if kind == "PSEUDO_RIGID":  # q = [F column-wise, x], u = [dF/dt column-wise, v]
        F = np.asarray(q[:9]).reshape(3, 3, order="F")
        Fdot = np.asarray(u[:9]).reshape(3, 3, order="F")
        A = np.asarray(X, dtype=float) - center
        return np.asarray(q[9:12]) + F @ A, np.asarray(u[9:12]) + Fdot @ A
    raise ValueError(f"HISTORY: point values of {kind} bodies are not available in this version")


STRESS_ENTITIES = ("SX", "SY", "SZ", "SXY", "SXZ", "SYZ", "MISES")


_POINT = {"DX": ("d", 0), "DY": ("d", 1), "DZ": ("d", 2), "VX": ("v", 0), "VY": ("v", 1),
          "VZ": ("v", 2), "CX": ("x", 0), "CY": ("x", 1), "CZ": ("x", 2)}


def point_function(res, body_id, point, entity, material=None):
    """A function of a Frame giving the entity of a body's referential point (NaN where the
    body is absent from the frame). material: (young, poisson[, model]) at the point for FE
    stress
    (per-element materials live in the deck; default: the body's material)."""
    kind = res.kind(body_id)
    if kind == "FINITE_ELEMENT":
        return _fe_point_function(res, body_id, point, entity, material)
    if entity in STRESS_ENTITIES and kind == "PSEUDO_RIGID":
        d = res.definition(body_id)
        young, poisson = float(d["young"]), float(d["poisson"])
        comp = STRESS_ENTITIES.index(entity)

        def stress(fr):
            q = fr.body_q(body_id)
            if q is None:
                return np.nan
            F = np.asarray(q[:9]).reshape(3, 3, order="F")
            return stress_values(F, young, poisson)[comp]
        return stress
    if entity not in _POINT:
        if entity in STRESS_ENTITIES:
            raise ValueError(f"STRESS: not defined for {kind} bodies")
        raise ValueError(f"HISTORY: unknown point entity '{entity}'; use 'DX', 'DY', 'DZ', "
                         f"'VX', 'VY', 'VZ', 'CX', 'CY', 'CZ' or a stress entity")
    what, comp = _POINT[entity]
    X = np.asarray(point, dtype=float)
    center = np.asarray(res.definition(body_id)["center"], dtype=float)

    def fn(fr):
        q = fr.body_q(body_id)
        if q is None:
            return np.nan
        x, v = point_motion(kind, q, fr.body_u(body_id), X, center)
        return (x - X)[comp] if what == "d" else (v[comp] if what == "v" else x[comp])
    point_motion(kind, np.eye(3).ravel().tolist() + [0, 0, 0], np.zeros(6), X, center)  # kind check
    return fn


def _fe_point_function(res, body_id, point, entity, material=None):
    """point_function of a FINITE_ELEMENT body: the point is located once in the stored
    referential mesh; each frame's node coordinates and velocities are evaluated there
    (FeMesh.interpolate, FeMesh.deformation_gradient, stress_values)."""
    if entity not in _POINT and entity not in STRESS_ENTITIES:
        raise ValueError(f"HISTORY: unknown point entity '{entity}'; use 'DX', 'DY', 'DZ', "
                         f"'VX', 'VY', 'VZ', 'CX', 'CY', 'CZ' or a stress entity")
    X = np.asarray(point, dtype=float)
    mesh = res.fe_mesh(body_id)
    e, xi = mesh.locate(X)
    d = res.definition(body_id)
    young, poisson, *model = material or (float(d["young"]), float(d["poisson"]))
    model = model[0] if model else res.material_model(body_id)

    def fn(fr):
        xn, vn = res.fe_nodes(fr, body_id)  # reduced forms: rebuilt by eq. 58
        if xn is None:
            return np.nan
        if entity in STRESS_ENTITIES:
            F = mesh.deformation_gradient(e, xi, xn)
            return stress_values(F, young, poisson, model)[STRESS_ENTITIES.index(entity)]
        what, comp = _POINT[entity]
        if what == "v":
            return float(mesh.interpolate(e, xi, vn)[comp])
        x = mesh.interpolate(e, xi, xn)
        return float((x - X)[comp] if what == "d" else x[comp])
    return fn


def ellipsoid_surface(center, radii, rot, nu=24, nv=12):
    """Vertices and triangles of a latitude-longitude tessellation of an ellipsoid (the unit
    sphere's, mapped by x = center + rot diag(radii) s; vertices on the surface)."""
    u = np.linspace(0.0, 2 * np.pi, nu, endpoint=False)
    v = np.linspace(-np.pi / 2, np.pi / 2, nv + 1)[1:-1]
    U, V = np.meshgrid(u, v)
    ring = np.stack([np.cos(U) * np.cos(V), np.sin(U) * np.cos(V), np.sin(V)], -1).reshape(-1, 3)
    s = np.vstack([ring, [[0, 0, -1.0], [0, 0, 1.0]]])
    x = np.asarray(center, float) + (s * np.asarray(radii, float)) @ np.asarray(rot, float).T
    south, north, m = len(ring), len(ring) + 1, nv - 1
    tris = []
    for j in range(nu):
        k = (j + 1) % nu
        tris.append((south, k, j))
        tris.append((north, (m - 1) * nu + j, (m - 1) * nu + k))
        for i in range(m - 1):
            a, b, c, d = i * nu + j, i * nu + k, (i + 1) * nu + k, (i + 1) * nu + j
            tris += [(a, b, c), (a, c, d)]
    return x, tris
