"""Model objects of the deck language (manual 4.1.4-4.1.8): SOLFEC, BULK_MATERIAL,
SURFACE_MATERIAL, BODY, TIME_SERIES, and BYLABEL, BODY_CHARS, INITIAL_VELOCITY, DELETE."""

import os
import warnings
import weakref

from . import _args as A
from . import _mpi
from . import _output
from . import _reduced_base
from . import _state
from . import fracture_check as _fracture_check
from . import _solfec
from .shapes import _BodyMesh, _objects, _ShapeObject

__all__ = ["SOLFEC", "BULK_MATERIAL", "SURFACE_MATERIAL", "BODY", "TIME_SERIES", "BYLABEL",
           "BODY_CHARS", "INITIAL_VELOCITY", "DELETE", "APPLY_BULKMAT", "MATERIAL"]


class _KnownMembers:
    """Setting a member the type does not have raises (a misspelt or unsupported Solfec-1.0
    member would otherwise be stored and silently ignored); private names are internal."""

    def __setattr__(self, name, value):
        if not name.startswith("_") and not hasattr(type(self), name):
            kind = type(self).__name__
            raise AttributeError(f"{kind}: no member '{name}' (docs/deck-language.md lists the "
                                 f"members of {kind} objects)")
        object.__setattr__(self, name, value)


def _off_only(member, unsupported):
    """A Solfec-1.0 'ON'/'OFF' flag without a model here: it reads 'OFF' (its default) and
    setting 'ON' raises ValueError saying what is not supported."""
    def set_flag(self, v):
        if A.onoff(v, member, member.split(".")[1]):
            raise ValueError(f"{member}: 'ON' {unsupported}")
    return property(lambda self: "OFF", set_flag)


class SOLFEC(_KnownMembers):
    """SOLFEC(analysis, step, output): one simulation ('DYNAMIC' or 'QUASI_STATIC') with time
    step `step` [s] (an upper bound) writing to the directory `output`."""

    def __init__(self, analysis, step, output):
        r = "SOLFEC"
        A.choice(analysis, r, "analysis", ("DYNAMIC", "QUASI_STATIC"))
        h = A.in_range(step, r, "step", *A.STEP_RANGE, "s")
        out = A.string(output, r, "output")
        if _state.options["subdir"]:
            out = os.path.join(out, _state.options["subdir"])
        try:
            os.makedirs(out, exist_ok=True)
        except OSError as e:
            raise ValueError(f"SOLFEC: cannot create the output directory '{out}' "
                             f"(argument 'output'): {e.strerror}") from None
        if not os.access(out, os.W_OK):
            raise ValueError(f"SOLFEC: the output directory '{out}' is not writable "
                             f"(argument 'output')")
        self._domain = _solfec.Domain(analysis, h)
        if _mpi.size() > 1:  # solfec-mpi (docs/parallel.md)
            self._domain._attach_decomposition(_mpi.hooks.decomposition_factory())
        self._domain.geometric_epsilon = _state.geometric_epsilon
        self._domain.set_sparsify(0.01, 0.0, _state.geometric_epsilon)
        self._analysis = analysis
        self._outpath = out
        self._verbose = "ON"
        self._domain.set_progress("ON")
        self._bodies = {}            # id -> BODY
        self._bases = {}             # REGISTER_BASE label -> (evals, evecs)
        self._bulk = []              # BULK_MATERIAL objects
        self._surface = []           # SURFACE_MATERIAL objects
        self._fields = []            # FIELD objects (fields.py)
        self._output_interval = None
        self._output_compression = False
        self._corotated = {}         # COROTATED_DISPLACEMENTS snapshots by body id (bases.py)
        self._viewer_runs = []       # solfec -v: the RUNs to replay (run.py, docs/viewer.md)
        # results (docs/output.md): READ / WRITE mode, output file, restart (_output.py)
        _output.select_mode(self, out, analysis, h)
        _state.solfec_objects.append(weakref.ref(self))

    # --- read-only members
    @property
    def analysis(self):
        return self._analysis

    @property
    def parallel_stats(self):
        """solfec-mpi: collective; statistics of the domain decomposition over all ranks
        (times in s: maximum over ranks; counts: totals; docs/parallel.md). None in serial."""
        return self._domain.parallel_stats

    @property
    def time(self):
        return self._domain.time

    @property
    def mode(self):
        return self._mode

    @property
    def outpath(self):
        return self._outpath

    @property
    def bodies(self):
        # Newest first, as Solfec-1.0's SOLFEC.bodies (dom.c DOM_Insert_Body prepends each
        # body): decks index it, e.g. tests/BM23 reads bodies[0] as the body made last.
        ids = self._domain.body_ids()
        if self._present is not None:
            ids = [i for i in ids if i in self._present]
        return [self._bodies[i] for i in reversed(ids) if i in self._bodies]

    @property
    def nbod(self):
        if self._present is not None:
            return len(self.bodies)
        return self._domain.num_bodies

    @property
    def constraints(self):
        return [CONSTRAINT._wrap(self, i) for i in self._domain.constraint_ids()]

    @property
    def ncon(self):
        return self._domain.num_constraints

    # --- read/write members
    @property
    def step(self):
        return self._domain.step

    @step.setter
    def step(self, v):
        self._domain.step = A.in_range(v, "SOLFEC.step", "step", *A.STEP_RANGE, "s")

    @property
    def verbose(self):
        return self._verbose

    @verbose.setter
    def verbose(self, v):
        A.choice(v, "SOLFEC.verbose", "verbose", ("ON", "OFF", "%", "%\n"))
        self._domain.set_progress(v)
        self._verbose = v

    cleanup = _off_only("SOLFEC.cleanup", "(deleting the output directory at exit) is not "
                        "supported; remove the directory after the run")

    def __repr__(self):
        return f"<SOLFEC {self._analysis} step={self.step} output='{self._outpath}'>"


class BULK_MATERIAL:
    """BULK_MATERIAL(solfec | model, label, young, poisson, density): volume material
    (young [Pa], poisson [-], density [kg/m^3]); model 'KIRCHHOFF' (Saint Venant-Kirchhoff),
    'NEO_HOOKEAN' (compressible neo-Hookean) or 'BLATZ_KO' (Blatz-Ko, shear modulus
    young/(2+2 poisson)); NEO_HOOKEAN and BLATZ_KO: FINITE_ELEMENT bodies only.
    fields: FIELD objects or labels (kept in `fields`); model 'TSANG_MARSDEN' (Solfec-1.0's
    nuclear graphite, which has no constitutive law there either) needs 4 of them and is
    refused for PSEUDO_RIGID and FINITE_ELEMENT bodies (docs/deck-language.md, FIELD)."""

    _counter = 0

    def __init__(self, solfec, model="KIRCHHOFF", label=None, young=1e6, poisson=0.25,
                 density=1e3, tensile=float("inf"), fields=None, fracene=float("inf")):
        r = "BULK_MATERIAL"
        A.instance(solfec, SOLFEC, r, "solfec")
        # BODY.fracturecheck (solfec/fracture_check.py): tensile strength [Pa] and fracture
        # energy [J/m^3]; infinity (the default) never fractures
        self._tensile = _strength(tensile, r, "tensile")
        self._fracene = _strength(fracene, r, "fracene")
        m = _solfec.BulkMaterial()
        name = A.choice(model, r, "model", ("KIRCHHOFF", "NEO_HOOKEAN", "BLATZ_KO",
                                            "TSANG_MARSDEN"))
        self._fields = _material_fields(solfec, fields, name, r)
        self._model = name
        # TSANG_MARSDEN has no law: the core holds its elastic constants as KIRCHHOFF for
        # RIGID and OBSTACLE bodies, which use the density only; deformable bodies refuse it
        m.model = "KIRCHHOFF" if name == "TSANG_MARSDEN" else name
        if label is None:
            BULK_MATERIAL._counter += 1
            label = f"BULK_MATERIAL_{BULK_MATERIAL._counter}"
        m.label = A.string(label, r, "label")
        m.young = A.number(young, r, "young")
        m.poisson = A.number(poisson, r, "poisson")
        m.density = A.number(density, r, "density")
        if m.poisson == 0.5:
            # Solfec-1.0 accepts poisson 0.5 (e.g. for rigid bodies); a deformable body using
            # it is refused (BODY, APPLY_BULKMAT); the other arguments are checked as usual
            m.poisson = 0.25
            m.validate()
            m.poisson = A.number(poisson, r, "poisson")
        else:
            m.validate()
        self._m = m
        solfec._bulk.append(self)

    model = property(lambda self: self._model)
    label = property(lambda self: self._m.label)
    tensile = property(lambda self: self._tensile)
    fracene = property(lambda self: self._fracene)
    fields = property(lambda self: list(self._fields))

    def _setter(name):
        def get(self):
            return getattr(self._m, name)

        def set_(self, v):
            old = getattr(self._m, name)
            setattr(self._m, name, A.number(v, f"BULK_MATERIAL.{name}", name))
            try:
                self._m.validate()
            except ValueError:
                setattr(self._m, name, old)  # a refused value leaves the material as it was
                raise
        return property(get, set_)

    young = _setter("young")
    poisson = _setter("poisson")
    density = _setter("density")
    del _setter


def _strength(v, routine, arg):
    """tensile, fracene: a number >= 0 or infinity."""
    if isinstance(v, (int, float)) and not isinstance(v, bool) and v == float("inf"):
        return float("inf")
    return A.positive(v, routine, arg, allow_zero=True)


class SURFACE_MATERIAL:
    """SURFACE_MATERIAL(solfec | surf1, surf2, model, label, friction, cohesion, restitution,
    spring, dashpot, hpow): interface law for the surface pair (surf1, surf2); omitting a
    surface defines the default material used when no pair matches."""

    _counter = 0
    _fields = ("friction", "cohesion", "restitution", "spring", "dashpot", "hpow")

    def __init__(self, solfec, surf1=None, surf2=None, model="SIGNORINI_COULOMB", label=None,
                 friction=0.0, cohesion=0.0, restitution=0.0, spring=0.0, dashpot=0.0, hpow=1.0):
        r = "SURFACE_MATERIAL"
        A.instance(solfec, SOLFEC, r, "solfec")
        m = _solfec.SurfaceMaterial()
        m.is_default = surf1 is None or surf2 is None
        m.surf1 = 0 if surf1 is None else A.integer(surf1, r, "surf1")
        m.surf2 = 0 if surf2 is None else A.integer(surf2, r, "surf2")
        m.model = A.choice(model, r, "model", ("SIGNORINI_COULOMB", "SPRING_DASHPOT"))
        if label is None:
            SURFACE_MATERIAL._counter += 1
            label = f"SURFACE_MATERIAL_{SURFACE_MATERIAL._counter}"
        m.label = A.string(label, r, "label")
        for name, v in zip(self._fields, (friction, cohesion, restitution, spring, dashpot, hpow)):
            setattr(m, name, A.number(v, r, name))
        m.validate()
        self._m = m
        self._solfec = solfec
        solfec._domain.add_surface_material(m)
        solfec._surface.append(self)

    surf1 = property(lambda self: self._m.surf1)
    surf2 = property(lambda self: self._m.surf2)
    label = property(lambda self: self._m.label)
    @property
    def model(self):
        return self._m.model

    @model.setter
    def model(self, v):  # read/write in Solfec-1.0
        self._m.model = A.choice(v, "SURFACE_MATERIAL.model", "model",
                                 ("SIGNORINI_COULOMB", "SPRING_DASHPOT"))
        self._m.validate()
        self._solfec._domain.update_surface_material(self._m)

    def _setter(name):
        def get(self):
            return getattr(self._m, name)

        def set_(self, v):
            old = getattr(self._m, name)
            setattr(self._m, name, A.number(v, f"SURFACE_MATERIAL.{name}", name))
            try:
                self._m.validate()
            except ValueError:
                setattr(self._m, name, old)  # a refused value leaves the material as it was
                raise
            self._solfec._domain.update_surface_material(self._m)
        return property(get, set_)

    friction = _setter("friction")
    cohesion = _setter("cohesion")
    restitution = _setter("restitution")
    spring = _setter("spring")
    dashpot = _setter("dashpot")
    hpow = _setter("hpow")
    del _setter


class TIME_SERIES:
    """TIME_SERIES(points | label, cache): piecewise-linear function of time from
    [t0, v0, t1, v1, ...], [[t0, v0], ...], or a path to a two-column text file."""

    def __init__(self, points, label=None, cache=0):
        r = "TIME_SERIES"
        if isinstance(points, str):
            if not os.path.isfile(points):
                raise ValueError(f"TIME_SERIES: file '{points}' not found (argument 'points')")
            self._ts = _solfec.TimeSeries.from_file(points)
        else:
            seq = A.sequence(points, r, "points")
            if seq and isinstance(seq[0], (list, tuple)):
                flat = []
                for i, pair in enumerate(seq):
                    flat.extend(A.vec(pair, 2, r, f"points[{i}]"))
            else:
                flat = A.numbers_list(seq, r, "points", 2, 2)
            self._ts = _solfec.TimeSeries(flat[0::2], flat[1::2])
        self.label = label

    @classmethod
    def _wrap(cls, ts):
        obj = cls.__new__(cls)
        obj._ts = ts
        obj.label = None
        return obj

    @property
    def times(self):
        return list(self._ts.times)

    @property
    def values(self):
        return list(self._ts.values)

    @property
    def derivative(self):
        return TIME_SERIES._wrap(self._ts.derivative())

    @property
    def integral(self):
        return TIME_SERIES._wrap(self._ts.integral())

    def __call__(self, t):
        return self._ts.value(A.number(t, "TIME_SERIES", "t"))


_FORMS = ("TL", "BC", "BC-RO", "BC_RO", "BC-MODAL", "BC_MODAL", "FFR")


def _check_conf(kind, q):
    """BODY.conf values that would make the body silently wrong: positions out of the
    coordinate range; RIGID/OBSTACLE: a rotation that is not one (|L^T L - I| > 1e-6 or
    det L < 0: the body would be sheared, its inertia wrong); PSEUDO_RIGID: det F <= 0."""
    import numpy as np
    r = "BODY.conf"
    if kind in ("RIGID", "OBSTACLE", "PSEUDO_RIGID") and len(q) == 12:
        A.coordinates(q[9:12], r, "conf[9:12]")
        M = np.asarray(q[:9], dtype=float).reshape(3, 3, order="F")
        if kind == "PSEUDO_RIGID":
            if np.linalg.det(M) <= 0:
                raise ValueError(f"{r}: the deformation gradient conf[0:9] has det F = "
                                 f"{np.linalg.det(M):g} <= 0 (an inverted body)")
        elif np.abs(M.T @ M - np.eye(3)).max() > 1e-6 or np.linalg.det(M) < 0:
            raise ValueError(f"{r}: conf[0:9] of a {kind} body must be a rotation (orthonormal, "
                             f"det +1; column-wise), got {[float(x) for x in q[:9]]}")
    elif kind == "FINITE_ELEMENT":
        A.coordinates(q, r, "conf")


class BODY(_KnownMembers):
    """BODY(solfec, kind, shape, material | label, form, mesh, base): a body of kind 'RIGID',
    'PSEUDO_RIGID', 'FINITE_ELEMENT' or 'OBSTACLE'; the shape (object or list) is emptied.
    FINITE_ELEMENT: shape is one MESH, or CONVEX/SPHERE objects embedded in the background
    MESH `mesh` (not emptied), which carries the motion, mass and inertia; form 'TL' (default),
    'BC', 'BC-RO', 'BC-MODAL' ('BC_RO', 'BC_MODAL' accepted) or 'FFR'; the reduced forms need
    base=(evals, evecs) or a REGISTER_BASE label. Solfec-1.0's 2013 spellings: modal= for base=,
    form 'RO' for 'BC-MODAL'. Other kinds ignore form and mesh, as Solfec-1.0 does."""

    def __init__(self, solfec, kind, shape, material, label=None, form="TL", mesh=None,
                 base=None, modal=None):
        r = "BODY"
        A.instance(solfec, SOLFEC, r, "solfec")
        A.choice(kind, r, "kind", ("RIGID", "PSEUDO_RIGID", "FINITE_ELEMENT", "OBSTACLE"))
        objs = _objects(shape, r)
        if modal is not None:  # Solfec-1.0 (2013): BODY(..., form='RO', modal=(evals, evecs))
            if base is not None:
                raise TypeError("BODY: argument 'base' given twice (also as 'modal')")
            base = modal
        if form == "RO":
            form = "BC-MODAL"
        if kind == "FINITE_ELEMENT":
            A.choice(form, r, "form", _FORMS)
            if any(o._kind == "ELLIP" for o in objs):
                raise ValueError("BODY: an ELLIP shape cannot make a FINITE_ELEMENT body "
                                 "(argument 'shape'), as in Solfec-1.0; use kind 'RIGID', "
                                 "'PSEUDO_RIGID' or 'OBSTACLE', or mesh the ellipsoid with "
                                 "ELLIP_MESH")
            if mesh is None and any(o._kind in ("CONVEX", "SPHERE") for o in objs):
                raise ValueError("BODY: a FINITE_ELEMENT body with a CONVEX or SPHERE shape "
                                 "needs a background MESH (argument 'mesh') that contains it")
            if mesh is not None:
                if not isinstance(mesh, _ShapeObject) or mesh._kind != "MESH":
                    raise TypeError(f"BODY: argument 'mesh' must be a MESH object, got "
                                    f"{type(mesh).__name__}")
                if any(o._kind == "MESH" for o in objs):
                    raise ValueError("BODY: with a background 'mesh' the shape must be CONVEX "
                                     "or SPHERE objects (argument 'shape'); pass the MESH as "
                                     "'mesh' only")
        else:
            # Solfec-1.0 ignores 'form' and 'mesh' for other kinds (a deck may pass them to
            # every BODY; a misspelt form is still reported); a reduced base has no meaning
            A.choice(form, r, "form", _FORMS)
            form, mesh = "TL", None
            if base is not None:
                raise ValueError(f"BODY: argument 'base' applies to FINITE_ELEMENT bodies only, "
                                 f"not to kind {kind!r}")
        mat = _bulk_material(solfec, material, r)
        if kind in ("PSEUDO_RIGID", "FINITE_ELEMENT"):
            _check_compressible(mat, r, f"'{label}' ({kind})" if label else
                                f"being created ({kind}, no label)")
        if kind == "PSEUDO_RIGID" and mat.model != "KIRCHHOFF":
            raise ValueError(f"BODY: material model '{mat.model}' is available for "
                             f"FINITE_ELEMENT bodies only (argument 'material'); a PSEUDO_RIGID "
                             f"body takes a 'KIRCHHOFF' BULK_MATERIAL")
        if label is not None:
            A.string(label, r, "label")
        whole = _solfec.Shape()
        for o in objs:
            whole.append(o._get(r).copy())
        self._solfec = solfec
        background = None if mesh is None else mesh._get(r, "mesh").copy()
        evals, evecs = _reduced_base.resolve_base(solfec, base, r) or (None, None)
        self._id = solfec._domain.add_body(kind, whole, mat._m, label or "", background,
                                           form, evals, evecs)
        self._material = mat
        if kind != "FINITE_ELEMENT":  # BODY.mesh: the MESH objects, as given
            self._ref_meshes = [o._get(r) for o in objs if o._kind == "MESH"]
        for o in objs:  # BODY empties its shape argument
            o._shape = None
        solfec._bodies[self._id] = self

    # --- helpers
    @property
    def _d(self):
        d = self._solfec._domain
        if not d.has_body(self._id):
            emptied = getattr(self, "_emptied_by", None)  # PARTITION, SIMPLIFIED_CRACK
            if emptied == "SIMPLIFIED_CRACK":  # split during a run (solfec/split.py)
                raise ValueError(f"SIMPLIFIED_CRACK: body {self._id} cracked and was replaced "
                                 f"by its parts; find them in solfec.bodies (labels "
                                 f"'<label>/1', '<label>/2', ...)")
            if emptied:
                raise ValueError(f"{emptied}: body {self._id} was emptied by {emptied}; use "
                                 f"the part BODY objects that {emptied} returned")
            raise ValueError(f"BODY: body {self._id} has been deleted")
        return d

    def _mass_center(self):
        d = self._d
        return tuple(d.body_mass_center(self._id))

    # --- read-only members
    id = property(lambda self: self._id)

    @property
    def display_points(self):
        """DISPLAY_POINT points: [(label, (x, y, z) current), ...] in the order given."""
        d = self._d
        return [(label, tuple(d.body_point(self._id, X)))
                for label, X in getattr(self, "_display_points", [])]
    kind = property(lambda self: self._d.body_kind(self._id))
    material = property(lambda self: self._material)

    @property
    def label(self):
        lab = self._d.body_label(self._id)
        return lab if lab else None

    @property
    def conf(self):
        return None if self.kind == "OBSTACLE" else self._d.body_conf(self._id)

    @conf.setter
    def conf(self, v):
        q = A.numbers_list(v, "BODY.conf", "conf")
        _check_conf(self.kind, q)
        self._d.set_body_conf(self._id, q)

    @property
    def velo(self):
        return None if self.kind == "OBSTACLE" else self._d.body_velo(self._id)

    @velo.setter
    def velo(self, v):
        self._d.set_body_velo(self._id, A.numbers_list(v, "BODY.velo", "velo"))

    mass = property(lambda self: self._d.body_mass(self._id))
    volume = property(lambda self: self._d.body_volume(self._id))
    center = property(lambda self: tuple(self._d.body_center(self._id)))
    tensor = property(lambda self: self._d.body_tensor(self._id))

    @property
    def mesh(self):
        """Solfec-1.0's BODY.mesh: a FINITE_ELEMENT body's mesh as a live MESH view (the
        background mesh when BODY had 'mesh'); other kinds: the MESH piece of the shape, a
        list of them when there are several, None when there is none."""
        d = self._d
        if self.kind == "FINITE_ELEMENT":
            return _BodyMesh(d, self._id)
        views = [_BodyMesh(d, self._id, m) for m in getattr(self, "_ref_meshes", ())]
        return None if not views else views[0] if len(views) == 1 else views

    @property
    def constraints(self):
        return [CONSTRAINT._wrap(self._solfec, i) for i in self._d.body_constraint_ids(self._id)]

    @property
    def ncon(self):
        return len(self._d.body_constraint_ids(self._id))

    # --- read/write members
    @property
    def scheme(self):
        return self._d.body_scheme(self._id)

    @scheme.setter
    def scheme(self, v):
        A.choice(v, "BODY.scheme", "scheme", ("DEFAULT", "RIG_POS", "RIG_NEG", "RIG_IMP",
                                              "DEF_EXP", "DEF_LIM", "DEF_LIM2", "DEF_IMP",
                                              "DEF_SEMI_EXPLICIT"))
        if v.startswith("DEF_") and self.kind in ("RIGID", "OBSTACLE"):
            raise ValueError(f"BODY.scheme: '{v}' is for deformable bodies; a {self.kind} body "
                             f"takes 'DEFAULT', 'RIG_POS', 'RIG_NEG' or 'RIG_IMP'")
        if self.kind == "PSEUDO_RIGID" and v not in ("DEFAULT", "DEF_EXP", "DEF_LIM"):
            raise ValueError(f"BODY.scheme: '{v}' is not available for a PSEUDO_RIGID body; "
                             f"use 'DEFAULT' (= 'DEF_EXP'), 'DEF_EXP' or 'DEF_LIM'")
        if self.kind == "FINITE_ELEMENT" and v not in ("DEFAULT", "DEF_EXP", "DEF_LIM",
                                                       "DEF_SEMI_EXPLICIT"):
            raise ValueError(f"BODY.scheme: '{v}' is not available for a FINITE_ELEMENT body; "
                             f"use 'DEFAULT' (= 'DEF_EXP'), 'DEF_EXP', 'DEF_LIM' or "
                             f"'DEF_SEMI_EXPLICIT'")
        self._d.set_body_scheme(self._id, v)

    @property
    def damping(self):
        return self._d.body_damping(self._id)

    @damping.setter
    def damping(self, v):
        self._d.set_body_damping(self._id, A.positive(v, "BODY.damping", "damping", True))

    @property
    def selfcontact(self):
        return "ON" if self._d.body_selfcontact(self._id) else "OFF"

    @selfcontact.setter
    def selfcontact(self, v):
        self._d.set_body_selfcontact(self._id, A.onoff(v, "BODY.selfcontact", "selfcontact"))

    @property
    def disable_rotation(self):
        """'ON': a RIGID body keeps its rotation and only translates (infinite rotational
        inertia; its angular velocity is 0)."""
        return "ON" if self._d.body_rotation_disabled(self._id) else "OFF"

    @disable_rotation.setter
    def disable_rotation(self, v):
        self._d.set_body_rotation_disabled(
            self._id, A.onoff(v, "BODY.disable_rotation", "disable_rotation"))

    @property
    def fracturecheck(self):
        """'ON': after every step the fracture criterion of the body's BULK_MATERIALs
        (tensile, fracene) is checked and a fracture instance recorded when it holds
        (solfec/fracture_check.py; FRACTURE_EXPORT_YAFFEMS reads the records)."""
        self._d  # a deleted body raises here
        return "ON" if getattr(self, "_fracturecheck", False) else "OFF"

    @fracturecheck.setter
    def fracturecheck(self, v):
        on = A.onoff(v, "BODY.fracturecheck", "fracturecheck")
        if on and self.kind != "FINITE_ELEMENT":  # Solfec-1.0 warns and leaves it 'OFF'
            warnings.warn(f"BODY.fracturecheck: body {self._id} is {self.kind}; the fracture "
                          f"check applies to FINITE_ELEMENT bodies only (left 'OFF')")
            return
        self._fracturecheck = on
        if on:
            _fracture_check.enable(self._solfec)

    def __repr__(self):
        return f"<BODY {self._id} {self.kind} label={self.label!r}>"


def BYLABEL(solfec, kind, label):
    """BYLABEL(solfec, kind, label): the labelled BODY, SURFACE_MATERIAL, BULK_MATERIAL or
    FIELD, or None."""
    r = "BYLABEL"
    A.instance(solfec, SOLFEC, r, "solfec")
    kind = A.choice(kind, r, "kind", ("BODY", "SURFACE_MATERIAL", "BULK_MATERIAL",
                                      "SURFACE MATERIAL", "BULK MATERIAL", "FIELD"))
    A.string(label, r, "label")
    if kind == "BODY":
        pool = solfec.bodies[::-1]  # the first body made with the label
    elif kind == "FIELD":
        pool = solfec._fields
    elif kind.startswith("SURFACE"):
        pool = solfec._surface
    else:
        pool = solfec._bulk
    for obj in pool:
        if obj.label == label:
            return obj
    return None


def BODY_CHARS(body, mass, volume, center, tensor):
    """BODY_CHARS(body, mass, volume, center, tensor): overwrites the inertia characteristics
    (mass [kg], volume [m^3], referential centre, referential inertia tensor (9, column-wise))."""
    r = "BODY_CHARS"
    A.instance(body, BODY, r, "body")
    m = A.positive(mass, r, "mass")
    v = A.positive(volume, r, "volume")
    c = A.vec3(center, r, "center")
    t = A.vec(tensor, 9, r, "tensor")
    import numpy as np
    T = np.array(t).reshape(3, 3).T
    body._d.set_characteristics(body._id, m, v, c, T)


def APPLY_BULKMAT(solfec, body, volid, material):
    """APPLY_BULKMAT(solfec, body, volid, material): the FINITE_ELEMENT body's elements with
    volume id `volid` use `material` (stiffness and mass; masses and inertia are recomputed,
    replacing an earlier BODY_CHARS)."""
    _apply_bulk_material(solfec, body, volid, material, "APPLY_BULKMAT")


def MATERIAL(solfec, body, volid, material):
    """MATERIAL(solfec, body, volid, material): the manual's name (4.4) of APPLY_BULKMAT."""
    _apply_bulk_material(solfec, body, volid, material, "MATERIAL")


def _bulk_material(solfec, material, r):
    """A BULK_MATERIAL given as an object or by label (argument 'material' of routine r)."""
    if isinstance(material, str):
        mat = BYLABEL(solfec, "BULK_MATERIAL", material)
        if mat is None:
            raise ValueError(f"{r}: no BULK_MATERIAL labelled '{material}' (argument "
                             f"'material')")
        return mat
    return A.instance(material, BULK_MATERIAL, r, "material")


def _material_fields(solfec, fields, model, r):
    """BULK_MATERIAL's `fields`: FIELD objects of this SOLFEC object or their labels."""
    if fields is None:
        out = []
    elif isinstance(fields, (str, bytes)) or not isinstance(fields, (list, tuple)):
        raise TypeError(f"{r}: argument 'fields' must be a list of FIELD objects or field "
                        f"labels, got {type(fields).__name__}")
    else:
        out = []
        for i, f in enumerate(fields):
            hit = [g for g in solfec._fields if g is f or (isinstance(f, str) and g.label == f)]
            if not hit:
                raise TypeError(f"{r}: argument 'fields' item {i} = {f!r} must be a FIELD "
                                f"object of this SOLFEC object or a valid field label")
            out.append(hit[0])
    if model == "TSANG_MARSDEN" and len(out) != 4:
        raise ValueError(f"{r}: model 'TSANG_MARSDEN' needs 4 fields (argument 'fields'), "
                         f"got {len(out)}")
    return out


def _check_compressible(mat, routine, body):
    """poisson 0.5 (Solfec-1.0 decks use it): accepted by BULK_MATERIAL, refused here for
    deformable bodies; so is the TSANG_MARSDEN model, which has no constitutive law."""
    if mat.model == "TSANG_MARSDEN":
        raise ValueError(f"{routine}: BULK_MATERIAL '{mat.label}' has model 'TSANG_MARSDEN' "
                         f"(nuclear graphite), which has no constitutive law (nor has it in "
                         f"Solfec-1.0, which stops when such a body is evaluated), so the "
                         f"deformable body {body} cannot use it (argument 'material'); use "
                         f"it for RIGID and OBSTACLE bodies only (density), or 'KIRCHHOFF'")
    if mat.poisson > 0.4999999:
        raise ValueError(f"{routine}: BULK_MATERIAL '{mat.label}' has poisson = {mat.poisson} "
                         f"(incompressible), which the deformable body {body} cannot use "
                         f"(argument 'material'); use poisson <= 0.4999999, or the material "
                         f"for RIGID and OBSTACLE bodies only")


def _apply_bulk_material(solfec, body, volid, material, r):
    A.instance(solfec, SOLFEC, r, "solfec")
    A.instance(body, BODY, r, "body")
    if body._solfec is not solfec:
        raise ValueError(f"{r}: the body belongs to another SOLFEC object (argument "
                         "'body')")
    if body.kind != "FINITE_ELEMENT":
        raise ValueError(f"{r}: applies to FINITE_ELEMENT bodies only, got a "
                         f"{body.kind} body (argument 'body')")
    vid = A.integer(volid, r, "volid")
    mat = _bulk_material(solfec, material, r)
    _check_compressible(mat, r, f"{body.id}" + (f" ('{body.label}')" if body.label else ""))
    try:
        body._d.apply_bulk_material(body._id, vid, mat._m)
    except ValueError as e:  # the core names APPLY_BULKMAT; MATERIAL is the manual's name
        raise ValueError(str(e).replace("APPLY_BULKMAT", r, 1)) from None
    if not hasattr(body, "_bulk_by_volid"):  # the fracture check reads each volume's material
        body._bulk_by_volid = {}
    body._bulk_by_volid[vid] = mat


def INITIAL_VELOCITY(body, linear, angular):
    """INITIAL_VELOCITY(body, linear, angular): spatial linear velocity of the mass centre
    [m/s] and spatial angular velocity [rad/s]."""
    r = "INITIAL_VELOCITY"
    A.instance(body, BODY, r, "body")
    lin, ang = A.vec3(linear, r, "linear"), A.vec3(angular, r, "angular")
    for arg, vec, unit in (("linear", lin, "m/s"), ("angular", ang, "rad/s")):
        for i, x in enumerate(vec):
            A.in_range(x, r, f"{arg}[{i}]", -A.VELOCITY_MAX, A.VELOCITY_MAX, unit)
    body._d.set_initial_velocity(body._id, lin, ang)


class CONSTRAINT:
    """A constraint or contact; returned by FIX_POINT, ... (constraints.py) and by the
    .constraints members of SOLFEC and BODY."""

    def __init__(self):
        raise TypeError("CONSTRAINT objects are created by FIX_POINT, FIX_DIRECTION, SET_*, "
                        "PUT_RIGID_LINK, PUT_SPRING or found in solfec.constraints")

    @classmethod
    def _wrap(cls, solfec, cid):
        obj = cls.__new__(cls)
        obj._solfec = solfec
        obj._id = cid
        return obj

    @property
    def _d(self):
        d = self._solfec._domain
        if not d.has_constraint(self._id):
            raise ValueError(f"CONSTRAINT: constraint {self._id} no longer exists (deleted or a "
                             f"contact that separated)")
        return d

    def __eq__(self, other):
        return isinstance(other, CONSTRAINT) and other._id == self._id and \
            other._solfec is self._solfec

    def __hash__(self):
        return hash((id(self._solfec), self._id))

    kind = property(lambda self: self._d.constraint_kind(self._id))
    R = property(lambda self: tuple(self._d.constraint_R(self._id)))
    U = property(lambda self: tuple(self._d.constraint_U(self._id)))

    @property
    def V(self):
        """Solfec-1.0's input velocity: the local relative velocity at the start of the last
        step (U is the one at its end), in the constraint's base."""
        if self._solfec._mode == "READ":
            raise ValueError("CONSTRAINT.V: the velocity at the start of a step is not stored in "
                             "the results (READ mode); U of the previous frame is the nearest")
        return tuple(self._d.constraint_V(self._id))
    base = property(lambda self: self._d.constraint_base(self._id))
    point = property(lambda self: self._d.constraint_point(self._id))
    area = property(lambda self: self._d.constraint_area(self._id))
    gap = property(lambda self: self._d.constraint_gap(self._id))
    merit = property(lambda self: self._d.constraint_merit(self._id))
    matlab = property(lambda self: self._d.constraint_material_label(self._id))
    spair = property(lambda self: self._d.constraint_surfaces(self._id))
    # SPRING: stroke [m] at the middle of the last step (None for other kinds)
    stroke = property(lambda self: self._d.constraint_stroke(self._id))

    @property
    def adjbod(self):
        b1, b2 = self._d.constraint_bodies(self._id)
        bodies = self._solfec._bodies
        got = [bodies.get(b) for b in (b1, b2) if b >= 0]
        return got[0] if len(got) == 1 else tuple(got)

    def __repr__(self):
        try:
            return f"<CONSTRAINT {self._id} {self.kind}>"
        except ValueError:
            return f"<CONSTRAINT {self._id} (gone)>"


@A.keyword_aliases("DELETE", object="obj")
def DELETE(solfec, obj):
    """DELETE(solfec, object): removes a BODY (with its constraints) or a CONSTRAINT."""
    r = "DELETE"
    A.instance(solfec, SOLFEC, r, "solfec")
    if isinstance(obj, BODY):
        if (not solfec._domain.has_body(obj._id) and solfec.mode == "WRITE"
                and not _mpi.active()):  # (solfec-mpi: a body may live on another rank)
            raise ValueError(f"DELETE: body {obj._id} is not in this SOLFEC object (argument "
                             f"'object'): it was deleted already or belongs to another one")
        solfec._domain.delete_body(obj._id)
        solfec._bodies.pop(obj._id, None)
    elif isinstance(obj, CONSTRAINT):
        solfec._domain.delete_constraint(obj._id)
    else:
        raise TypeError(f"DELETE: argument 'object' must be a BODY or CONSTRAINT, got "
                        f"{type(obj).__name__}")
