"""MBFCP_EXPORT: the file is parsed back (a parser of Solfec-1.0's MBFCP text format written
from its writers' layout: sps.c, mat.c, dom.c, bod.c, shp.c, cvx.c, msh.c, sph.c, tms.c) and
its values are checked against the model: materials, body kinds and labels, the referential
geometry (volumes of the parsed convexes, hexahedra and spheres times the density give the
bodies' masses), velocities, loads and constraints."""

import math

import numpy as np
import pytest

import solfec
from solfec import (BODY, BULK_MATERIAL, FIX_DIRECTION, FIX_POINT, FORCE, GRAVITY, HEX, HULL,
                    INITIAL_VELOCITY, MBFCP_EXPORT, PUT_RIGID_LINK, SET_VELOCITY, SOLFEC,
                    SPHERE, SURFACE_MATERIAL, TIME_SERIES, TORQUE)


class Lines:
    def __init__(self, text):
        self.lines = text.split("\n")
        self.i = 0

    def next(self):
        while self.lines[self.i] == "":
            self.i += 1
        line = self.lines[self.i]
        self.i += 1
        return line

    def peek(self):
        j = self.i
        while j < len(self.lines) and self.lines[j] == "":
            j += 1
        return self.lines[j] if j < len(self.lines) else ""

    def key(self, name):
        line = self.next()
        k, _, v = line.partition(":")
        assert k == name, f"expected {name}, got {line!r}"
        return v.strip()

    def nums(self, name=None, conv=float):
        return [conv(x) for x in (self.key(name) if name else self.next()).split()]


def tms(r):
    line = r.next()
    k, _, v = line.partition(":")
    if k == "CONSTANT":
        return float(v)
    assert k == "TIME_SERIES"
    return [tuple(float(x) for x in r.next().split("\t")) for _ in range(int(v))]


def parse(text):
    r = Lines(text)
    out = {"surface": [], "bulk": [], "gravity": None, "bodies": [], "constraints": []}
    for _ in range(int(r.key("SURFACE_MATERIALS"))):
        m = {"surf1": r.key("SURF1"), "surf2": r.key("SURF2"), "model": r.key("MODEL"),
             "friction": float(r.key("FRICTION")), "cohesion": float(r.key("COHESION"))}
        if m["model"] == "SPRING_DASHPOT":
            m["spring"], m["dashpot"] = float(r.key("SPRING")), float(r.key("DASHPOT"))
        else:
            m["restitution"] = float(r.key("RESTITUTION"))
        out["surface"].append(m)
    for _ in range(int(r.key("BULK_MATERIALS"))):
        out["bulk"].append({"label": r.key("LABEL"), "model": r.key("MODEL"),
                            "young": float(r.key("YOUNG")), "poisson": float(r.key("POISSON")),
                            "density": float(r.key("DENSITY"))})
    if r.peek() == "GRAVITY:":
        r.next()
        out["gravity"] = [tms(r) for _ in range(3)]
    for _ in range(int(r.key("BODIES"))):
        b = {"id": int(r.key("ID")), "label": r.key("LABEL"), "kind": r.key("KINEMATICS"),
             "material": r.key("BULK_MATERIAL"), "convexes": [], "meshes": [], "spheres": []}
        nshapes = int(r.key("SHAPES"))
        if r.peek().startswith("CONVEXES"):
            for _ in range(int(r.key("CONVEXES"))):
                V = [r.nums() for _ in range(int(r.key("VERTEXES")))]
                F = []
                for _ in range(int(r.key("FACES"))):
                    row = [int(x) for x in r.next().split()]
                    assert len(row) == row[0] + 2
                    F.append((row[1:-1], row[-1]))
                b["convexes"].append((np.array(V), F))
        if r.peek().startswith("MESHES"):
            for _ in range(int(r.key("MESHES"))):
                X = np.array([r.nums() for _ in range(int(r.key("NODES")))])
                E = []
                for _ in range(int(r.key("ELEMENTS"))):
                    row = [int(x) for x in r.next().split()]
                    assert len(row) == row[0] + 1
                    E.append(row[1:])
                F = []
                for _ in range(int(r.key("FACES"))):
                    row = [int(x) for x in r.next().split()]
                    F.append((row[1:-1], row[-1]))
                b["meshes"].append((X, E, F))
        if r.peek().startswith("SPHERES"):
            for _ in range(int(r.key("SPHERES"))):
                b["spheres"].append((r.nums("CENTER"), float(r.key("RADIUS")),
                                     int(r.key("SURFID"))))
        assert nshapes == (1 if b["convexes"] else 0) + len(b["meshes"]) + len(b["spheres"])
        b["velo"] = [float(x) for x in r.next().split()[1:]]
        b["forces"] = []
        for _ in range(int(r.key("FORCES"))):
            b["forces"].append({"kind": r.key("KIND"), "point": r.nums("POINT"),
                                "direction": r.nums("DIRECTION"), "value": tms(r)})
        out["bodies"].append(b)
    for _ in range(int(r.key("CONSTRAINTS"))):
        c = {"id": int(r.key("ID")), "kind": r.key("KIND")}
        if c["kind"] == "RIGLNK":
            c["body1"], c["body2"] = r.key("BODY1"), r.key("BODY2")
            c["point1"], c["point2"] = r.nums("POINT1"), r.nums("POINT2")
        else:
            c["body"] = int(r.key("BODY"))
            c["point"] = r.nums("POINT")
            if c["kind"] in ("FIXDIR", "VELODIR"):
                c["direction"] = r.nums("DIRECTION")
            if c["kind"] == "VELODIR":
                c["value"] = tms(r)
        out["constraints"].append(c)
    assert r.peek() == ""  # nothing left
    return out


def polyhedron_volume(V, faces):
    """Volume of a closed polyhedron with outward faces (divergence theorem on a fan)."""
    vol = 0.0
    for f in faces:
        p = [V[i] for i in f]
        for k in range(1, len(p) - 1):
            vol += np.dot(p[0], np.cross(p[k], p[k + 1])) / 6.0
    return vol


def hex_volume(X, e):
    """A hexahedron's volume as a polyhedron of its six faces (manual node order)."""
    faces = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
    return polyhedron_volume(X[e], faces)


CUBE = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]


def model(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=0.3, restitution=0.1)
    SURFACE_MATERIAL(sol, surf1=7, surf2=2, model="SPRING_DASHPOT", friction=0.2, spring=1e5,
                     dashpot=10.0)
    soft = BULK_MATERIAL(sol, label="SOFT", young=1e6, poisson=0.3, density=500.0)
    hard = BULK_MATERIAL(sol, label="HARD", young=2e11, poisson=0.25, density=7800.0)
    pts = [(0, 0, 0), (2, 0, 0), (0, 1, 0), (2, 1, 0), (0, 0, 3), (2, 0, 3), (0, 1, 3),
           (2, 1, 3)]
    hull = HULL([x for p in pts for x in p], 1, 7)
    ball = SPHERE((5, 0, 0), 0.5, 1, 2)
    b0 = BODY(sol, "RIGID", [hull, ball], hard, "BOX+BALL")
    b1 = BODY(sol, "RIGID", HEX(CUBE, 2, 2, 1, 1, [3] * 6), soft, "HEXRIGID")
    fe = BODY(sol, "FINITE_ELEMENT", HEX([x + 10 for x in CUBE], 2, 1, 1, 1, [4] * 6), soft)
    GRAVITY(sol, (0, 0, -9.81))
    ts = TIME_SERIES([0, 0, 1, 2.5])
    FORCE(b0, "SPATIAL", (1, 0.5, 1.5), (0, 0, 1), 100.0)
    FORCE(b0, "CONVECTED", (0, 0, 0), (1, 0, 0), ts)
    TORQUE(b1, "SPATIAL", (0, 0, 1), 3.0)
    INITIAL_VELOCITY(b1, (1, 2, 3), (0, 0, 0.5))
    FIX_POINT(b0, (0, 0, 0))
    FIX_DIRECTION(b1, (0.5, 0.5, 0.5), (0, 1, 0))
    SET_VELOCITY(fe, (10, 10, 10), (1, 0, 0), ts)
    PUT_RIGID_LINK(b0, b1, (2, 1, 3), (0, 0, 0))
    return sol, b0, b1, fe


def test_mbfcp_export_writes_the_model_as_solfec1_does(outdir, tmp_path):
    sol, b0, b1, fe = model(outdir)
    path = tmp_path / "sub" / "model.mbfcp"
    assert MBFCP_EXPORT(sol, str(path)) is None
    m = parse(path.read_text())
    # surface materials: the default (pair ANY) first, then the pair, sorted (2, 7)
    assert [(s["surf1"], s["surf2"], s["model"]) for s in m["surface"]] == [
        ("ANY", "ANY", "SIGNORINI_COULOMB"), ("2", "7", "SPRING_DASHPOT")]
    assert m["surface"][0]["friction"] == 0.3 and m["surface"][0]["restitution"] == 0.1
    assert (m["surface"][1]["spring"], m["surface"][1]["dashpot"]) == (1e5, 10.0)
    # bulk materials by label in byte order
    assert [b["label"] for b in m["bulk"]] == ["HARD", "SOFT"]
    assert (m["bulk"][0]["young"], m["bulk"][0]["poisson"], m["bulk"][0]["density"]) == \
        (2e11, 0.25, 7800.0)
    assert m["gravity"] == [0.0, 0.0, -9.81]
    # bodies newest first, with their ids, kinds, labels and materials
    bodies = m["bodies"]
    assert [(b["id"], b["kind"], b["label"], b["material"]) for b in bodies] == [
        (fe.id, "FINITE_ELEMENT", "(null)", "SOFT"), (b1.id, "RIGID", "HEXRIGID", "SOFT"),
        (b0.id, "RIGID", "BOX+BALL", "HARD")]
    by_id = {b["id"]: b for b in bodies}
    # the convex of b0 (face vertices are written as offsets 3 i) and its sphere
    p0 = by_id[b0.id]
    (V, F), = p0["convexes"]
    assert all(i % 3 == 0 for f, _ in F for i in f) and {s for _, s in F} == {7}
    faces = [[i // 3 for i in f] for f, _ in F]
    vol = polyhedron_volume(V, faces) + 4 / 3 * math.pi * p0["spheres"][0][1] ** 3
    assert vol == pytest.approx(6 + 4 / 3 * math.pi * 0.125, rel=1e-12)
    assert vol * 7800 == pytest.approx(b0.mass, rel=1e-12)
    assert p0["spheres"] == [([5.0, 0.0, 0.0], 0.5, 2)]
    # the rigid HEX body keeps its MESH: 2 x 2 x 1 hexahedra, 18 nodes, 16 boundary quads
    p1 = by_id[b1.id]
    assert not p1["convexes"] and len(p1["meshes"]) == 1
    X, E, Fm = p1["meshes"][0]
    assert (len(X), len(E), len(Fm)) == (18, 4, 16) and {s for _, s in Fm} == {3}
    assert sum(hex_volume(X, e) for e in E) * 500 == pytest.approx(b1.mass, rel=1e-12)
    # FE body: its mesh, 12 nodes
    X, E, Fm = by_id[fe.id]["meshes"][0]
    assert len(X) == 12 and len(E) == 2 and np.allclose(X.min(axis=0), 10)
    assert sum(hex_volume(X, e) for e in E) * 500 == pytest.approx(fe.mass, rel=1e-12)
    # velocities in Solfec-1.0's layout (rigid: referential angular, then linear velocity)
    assert p1["velo"] == pytest.approx(list(b1.velo), abs=1e-5)
    assert p1["velo"][3:] == [1.0, 2.0, 3.0]
    assert len(by_id[fe.id]["velo"]) == 36
    # loads, the last given first
    assert [f["kind"] for f in p0["forces"]] == ["CONVECTED", "SPATIAL"]
    assert p0["forces"][0]["value"] == [(0.0, 0.0), (1.0, 2.5)]
    assert p0["forces"][1] == {"kind": "SPATIAL", "point": [1.0, 0.5, 1.5],
                               "direction": [0.0, 0.0, 1.0], "value": 100.0}
    assert p1["forces"][0]["kind"] == "SPATIAL_TORQUE" and p1["forces"][0]["value"] == 3.0
    # constraints newest first (contacts are not part of the definition)
    cons = m["constraints"]
    assert [c["kind"] for c in cons] == ["RIGLNK", "VELODIR", "FIXDIR", "FIXPNT"]
    assert cons[0]["body1"] == str(b0.id) and cons[0]["body2"] == str(b1.id)
    assert cons[0]["point1"] == [2.0, 1.0, 3.0] and cons[0]["point2"] == [0.0, 0.0, 0.0]
    assert cons[1]["body"] == fe.id and cons[1]["value"] == [(0.0, 0.0), (1.0, 2.5)]
    assert cons[2]["direction"] == [0.0, 1.0, 0.0] and cons[2]["point"] == [0.5, 0.5, 0.5]
    assert cons[3] == {"id": cons[3]["id"], "kind": "FIXPNT", "body": b0.id,
                       "point": [0.0, 0.0, 0.0]}
    assert len({c["id"] for c in cons}) == 4


def test_mbfcp_export_errors_name_the_routine_and_argument(outdir, tmp_path):
    sol, b0, b1, fe = model(outdir)
    with pytest.raises(TypeError, match="MBFCP_EXPORT.*'solfec'"):
        MBFCP_EXPORT(b0, str(tmp_path / "x"))
    with pytest.raises((TypeError, ValueError), match="MBFCP_EXPORT.*'path'"):
        MBFCP_EXPORT(sol, 3)
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="MBFCP_EXPORT: cannot write argument 'path'"):
        MBFCP_EXPORT(sol, str(tmp_path / "file" / "x.mbfcp"))
    FORCE(b1, "SPATIAL", (0, 0, 0), (0, 0, 1), lambda q, u, t, h: (0,) * 9)
    with pytest.raises(ValueError, match="MBFCP_EXPORT: body .* callback"):
        MBFCP_EXPORT(sol, str(tmp_path / "y"))
    assert solfec.MBFCP_EXPORT is MBFCP_EXPORT


MPI_DECK = """
sol = SOLFEC('DYNAMIC', 1e-3, 'out/m')
sol.verbose = 'OFF'
mat = BULK_MATERIAL(sol, label='M', density=1e3)
GRAVITY(sol, (0, 0, -10))
cube = [0,0,0, 1,0,0, 1,1,0, 0,1,0, 0,0,1, 1,0,1, 1,1,1, 0,1,1]
BODY(sol, 'OBSTACLE', HEX(cube, 1, 1, 1, 1, [1]*6), mat, 'floor')
for i in range(3):
    BODY(sol, 'RIGID', SPHERE((0.5 + 3*i, 0.5, 1.6), 0.5, 1, 1), mat, 'ball%d' % i)
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-6, 100), 0.005)
MBFCP_EXPORT(sol, 'after.mbfcp')
"""


def test_mbfcp_export_under_solfec_mpi_writes_one_file_per_rank(tmp_path):
    from test_mpi_launcher import MPIRUN, SOLFEC_MPI, mpirun
    import os
    if not (os.path.isfile(SOLFEC_MPI) and MPIRUN):
        pytest.skip("solfec-mpi not built or no mpirun")
    p = mpirun(tmp_path, MPI_DECK, np=2)
    assert p.returncode == 0, p.stderr
    files = [parse((tmp_path / f"after.mbfcp.{r}").read_text()) for r in (0, 1)]
    labels = [[b["label"] for b in m["bodies"]] for m in files]
    # each rank: the balls it owns (together all three, once) and the floor it holds too
    assert all("floor" in lab for lab in labels)
    balls = sorted(x for lab in labels for x in lab if x != "floor")
    assert balls == ["ball0", "ball1", "ball2"]
    assert not (tmp_path / "after.mbfcp").exists()
