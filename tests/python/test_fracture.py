"""BODY.fracturecheck with BULK_MATERIAL tensile= / fracene= (Solfec-1.0's fra.c), and
FRACTURE_EXPORT_YAFFEMS / FRACTURE_EXPORT_MOFEM reading the records back in READ mode.

The model: a bar L x a x a (4 x 1 x 1 hexahedra, E = 1 MPa) held at x = 0 without lateral
restraint and pulled by a pressure sigma = 1 kPa on its end x = L, QUASI_STATIC: uniaxial
stress sigma, strain sigma / E = 1e-3, elastic energy sigma^2 / (2 E) per unit volume."""

import math
import re

import numpy as np
import pytest

from solfec import (BODY, BULK_MATERIAL, FIX_DIRECTION, FRACTURE_EXPORT_MOFEM,
                    FRACTURE_EXPORT_YAFFEMS, HEX, NEWTON_SOLVER, PRESSURE, RUN, SOLFEC)
from solfec import fracture_check

L, A_, E, SIG = 1.0, 0.1, 1e6, 1000.0
U = SIG ** 2 / (2 * E)  # elastic energy density [J/m^3]

DECK = """
L, a, E, sig = {L!r}, {a!r}, {E!r}, {sig!r}
cube = [0,0,0, L,0,0, L,a,0, 0,a,0, 0,0,a, L,0,a, L,a,a, 0,a,a]
sol = SOLFEC("QUASI_STATIC", 1e-2, "out")
sol.verbose = "OFF"
mat = BULK_MATERIAL(sol, young=E, poisson=0.3, density=100, tensile={tensile!r})
b = BODY(sol, "FINITE_ELEMENT", HEX(cube, 4, 1, 1, 1, [1, 2, 3, 4, 5, 6]), mat, "BAR")
for y in (0, a):
    for z in (0, a):
        FIX_DIRECTION(b, (0, y, z), (1, 0, 0))
FIX_DIRECTION(b, (0, 0, 0), (0, 1, 0)); FIX_DIRECTION(b, (0, 0, a), (0, 1, 0))
FIX_DIRECTION(b, (0, 0, 0), (0, 0, 1)); FIX_DIRECTION(b, (0, a, 0), (0, 0, 1))
PRESSURE(b, 4, sig)   # surface 4: the end x = L
b.fracturecheck = "ON"
OUTPUT(sol, 0.05)
if sol.mode == "READ":
    print("YAFFEMS", FRACTURE_EXPORT_YAFFEMS(b, "fra_BAR", 0.001))
    print("MOFEM", FRACTURE_EXPORT_MOFEM(b, "fra_BAR_MoFEM.txt", 0.001))
else:
    print("WRITE", FRACTURE_EXPORT_YAFFEMS(b, "fra_write"))
    RUN(sol, NEWTON_SOLVER(), 0.1)
"""


def bar(outdir, tensile=math.inf, fracene=math.inf):
    sol = SOLFEC("QUASI_STATIC", 1e-2, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=E, poisson=0.3, density=100, tensile=tensile,
                        fracene=fracene)
    cube = [0, 0, 0, L, 0, 0, L, A_, 0, 0, A_, 0, 0, 0, A_, L, 0, A_, L, A_, A_, 0, A_, A_]
    b = BODY(sol, "FINITE_ELEMENT", HEX(cube, 4, 1, 1, 1, [1, 2, 3, 4, 5, 6]), mat)
    for y in (0, A_):
        for z in (0, A_):
            FIX_DIRECTION(b, (0, y, z), (1, 0, 0))
    FIX_DIRECTION(b, (0, 0, 0), (0, 1, 0))
    FIX_DIRECTION(b, (0, 0, A_), (0, 1, 0))
    FIX_DIRECTION(b, (0, 0, 0), (0, 0, 1))
    FIX_DIRECTION(b, (0, A_, 0), (0, 0, 1))
    PRESSURE(b, 4, SIG)
    b.fracturecheck = "ON"
    RUN(sol, NEWTON_SOLVER(), 0.1)  # 10 steps: converged to 1e-5 of the load
    return sol, b


def test_tensile_past_the_strength_records_fracture_states_and_below_it_none(outdir):
    # principal stress sigma = 1000 Pa (Cauchy: 0.06 % more at this strain) against 800 Pa
    sol, b = bar(outdir, tensile=800.0)
    rec = fracture_check.read(sol.outpath, b.id)
    assert len(rec) == 10  # every step after the load: the criterion holds at each
    t, disp, radius, point, force = rec[-1]
    assert t == pytest.approx(0.1)
    # displacement: sigma L / E at the loaded end (finite strain: 0.1 % more)
    assert disp[:, 0].max() == pytest.approx(SIG * L / E, rel=2e-3)
    # one entry per constraint: points on the body at x = 0, zero radius (no area); the
    # reactions balance the applied force sigma a^2 (quasi-static equilibrium)
    assert len(radius) == len(b.constraints) == 8 and np.all(radius == 0.0)
    assert np.all(point[:, 0] == 0.0)
    assert force.sum(axis=0)[0] == pytest.approx(-SIG * A_ * A_, rel=1e-4)
    energy, bound, excess = fracture_check.criterion(sol, b)
    assert bound == math.inf and excess == pytest.approx(SIG - 800.0, rel=0.01)
    sol2, b2 = bar(outdir + "2", tensile=1250.0)
    assert fracture_check.read(sol2.outpath, b2.id) == []


def test_fracture_energy_criterion_compares_the_elastic_energy_with_fracene_volume(outdir):
    sol, b = bar(outdir, fracene=0.5 * U)
    energy, bound, excess = fracture_check.criterion(sol, b)
    assert energy == pytest.approx(U * L * A_ * A_, rel=5e-3)  # sigma^2 / 2E times volume
    assert bound == pytest.approx(0.5 * U * L * A_ * A_, rel=1e-12) and excess == -math.inf
    assert len(fracture_check.read(sol.outpath, b.id)) == 10
    sol2, b2 = bar(outdir + "2", fracene=2 * U)
    assert fracture_check.read(sol2.outpath, b2.id) == []


def read_vtk(text):
    """The legacy VTK file as {'points', 'cells', 'types', 'point_vectors', 'cell_vectors'}."""
    lines = text.split("\n")
    out = {"point_vectors": {}, "cell_vectors": {}}
    i, section = 0, None
    while i < len(lines):
        w = lines[i].split()
        if not w:
            i += 1
            continue
        if w[0] == "POINTS":
            n = int(w[1])
            out["points"] = np.array([[float(x) for x in lines[i + 1 + k].split()]
                                      for k in range(n)])
            i += n + 1
        elif w[0] == "CELLS":
            n = int(w[1])
            out["cells"] = [[int(x) for x in lines[i + 1 + k].split()] for k in range(n)]
            assert sum(len(c) for c in out["cells"]) == int(w[2])
            i += n + 1
        elif w[0] == "CELL_TYPES":
            n = int(w[1])
            out["types"] = [int(lines[i + 1 + k]) for k in range(n)]
            i += n + 1
        elif w[0] in ("POINT_DATA", "CELL_DATA"):
            section, size = w[0], int(w[1])
            i += 1
        elif w[0] == "VECTORS":
            vals = np.array([[float(x) for x in lines[i + 1 + k].split()]
                             for k in range(size)])
            key = "point_vectors" if section == "POINT_DATA" else "cell_vectors"
            out[key][w[1]] = vals
            i += size + 1
        else:
            i += 1
    return out


def tet_volume(P):
    return np.dot(P[1] - P[0], np.cross(P[2] - P[0], P[3] - P[0])) / 6.0


def test_fracture_export_yaffems_writes_the_instances_on_a_tet_mesh(run_solfec, tmp_path):
    w = run_solfec(DECK.format(L=L, a=A_, E=E, sig=SIG, tensile=800.0))
    assert w.returncode == 0, w.stderr
    assert "WRITE 0" in w.stdout  # WRITE mode: nothing to export, an empty file
    assert (tmp_path / "fra_write.vtk").read_text() == ""
    r = run_solfec(DECK.format(L=L, a=A_, E=E, sig=SIG, tensile=800.0))
    assert r.returncode == 0, r.stderr
    assert re.search(r"YAFFEMS 10\b", r.stdout) and "MOFEM 0" in r.stdout
    text = (tmp_path / "fra_BAR.vtk").read_text()
    assert text.startswith("# vtk DataFile Version 2.0\nTest Title\nASCII\n\n"
                           "DATASET UNSTRUCTURED_GRID\n")
    v = read_vtk(text)
    X, cells, types = v["points"], v["cells"], v["types"]
    tets = [c[1:] for c in cells if c[0] == 4]
    tris = [c[1:] for c in cells if c[0] == 3]
    assert types == [10] * len(tets) + [5] * len(tris)
    # the tetrahedra fill the bar (volume bound 0.001: at least 10 of them), the triangles
    # cover its surface
    assert len(tets) >= 10
    assert sum(tet_volume(X[t]) for t in tets) == pytest.approx(L * A_ * A_, rel=1e-5)
    area = sum(0.5 * np.linalg.norm(np.cross(X[b] - X[a], X[c] - X[a])) for a, b, c in tris)
    assert area == pytest.approx(2 * A_ * A_ + 4 * L * A_, rel=1e-5)
    # 10 instances, the latest first; uniaxial strain ~ sigma / E: u_x = 1e-3 x (the end held
    # at its 4 corners only: u_x varies over a section by up to 0.5 % of sigma L / E), and the
    # lateral contraction stays below poisson * 1e-3 * a
    assert sorted(v["point_vectors"]) == sorted(f"disp{m}" for m in range(1, 11))
    u = v["point_vectors"]["disp1"]
    assert u.shape == X.shape
    np.testing.assert_allclose(u[:, 0], SIG / E * X[:, 0], rtol=0, atol=6e-6)
    # the values are the recorded ones interpolated: equal at the bar's end corners (which
    # are nodes of both meshes), to the 6 decimals written
    assert (tmp_path / "out" / "out-fracture.h5").is_file()  # beside the results out.h5
    rec = fracture_check.read(str(tmp_path / "out"), 0)
    assert len(rec) == 10
    end = np.nonzero(X[:, 0] == L)[0]
    assert u[end, 0].max() == pytest.approx(rec[-1][1][:, 0].max(), abs=1e-6)
    assert v["point_vectors"]["disp10"][end, 0].max() == \
        pytest.approx(rec[0][1][:, 0].max(), abs=1e-6)
    assert np.abs(u[:, 1:]).max() <= 0.3 * SIG / E * A_ + 1e-6
    # pressures: zero on the tetrahedra, on the triangles near the held end only, pulling
    # towards -x there (the reactions of the x-fixes)
    assert sorted(v["cell_vectors"]) == sorted(f"pres{m}" for m in range(10))
    p = v["cell_vectors"]["pres0"]
    assert np.all(p[:len(tets)] == 0.0)
    pt = p[len(tets):]
    loaded = np.nonzero(np.abs(pt).sum(axis=1) > 0)[0]
    assert len(loaded) > 0
    for k in loaded:
        tet = next(t for t in tets if set(tris[k]) <= set(t))
        assert X[tet][:, 0].min() == 0.0  # the triangle's tetrahedron touches x = 0
    assert pt[:, 0].sum() < 0.0
    # MoFEM: header, nodes with displacements (the state at the time of the call: t = 0 in
    # this READ replay), triangles with the earliest instance's pressures, tetrahedra
    mo = (tmp_path / "fra_BAR_MoFEM.txt").read_text().split("\n")
    nn, nf, ne = (int(x) for x in mo[0].split()[1:])
    assert mo[0].startswith("mOFF") and (nn, nf, ne) == (len(X), len(tris), len(tets))
    assert all(len(mo[1 + k].split()) == 6 for k in range(nn))
    assert all(mo[1 + nn + k].startswith("3 ") for k in range(nf))
    assert all(mo[1 + nn + nf + k].startswith("4 ") for k in range(ne))


def test_fracture_errors_name_the_routine_and_argument(outdir, tmp_path):
    sol = SOLFEC("QUASI_STATIC", 1e-2, outdir)
    with pytest.raises(ValueError, match="BULK_MATERIAL: argument 'tensile' must be >= 0"):
        BULK_MATERIAL(sol, tensile=-1.0)
    with pytest.raises(TypeError, match="BULK_MATERIAL: argument 'fracene'"):
        BULK_MATERIAL(sol, fracene="high")
    mat = BULK_MATERIAL(sol, young=E, poisson=0.3, density=100, tensile=5.0)
    assert (mat.tensile, mat.fracene) == (5.0, math.inf)
    cube = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
    fe = BODY(sol, "FINITE_ELEMENT", HEX(cube, 1, 1, 1, 1, [1] * 6), mat)
    rig = BODY(sol, "RIGID", HEX(cube, 1, 1, 1, 1, [1] * 6), mat)
    with pytest.warns(UserWarning, match="BODY.fracturecheck: body .* RIGID"):
        rig.fracturecheck = "ON"
    assert rig.fracturecheck == "OFF"  # as Solfec-1.0: a warning, the flag stays off
    with pytest.raises(ValueError, match="BODY.fracturecheck"):
        fe.fracturecheck = "MAYBE"
    p = str(tmp_path / "f")
    with pytest.raises(ValueError, match="FRACTURE_EXPORT_YAFFEMS: body .* fracturecheck "
                                         "'OFF' \\(argument 'body'\\)"):
        FRACTURE_EXPORT_YAFFEMS(fe, p)
    fe.fracturecheck = "ON"
    assert fe.fracturecheck == "ON"
    with pytest.raises(ValueError, match="FRACTURE_EXPORT_YAFFEMS: argument 'quality' must be "
                                         "> 1"):
        FRACTURE_EXPORT_YAFFEMS(fe, p, 1.0, 1.0)
    with pytest.raises(ValueError, match="FRACTURE_EXPORT_MOFEM: argument 'volume'"):
        FRACTURE_EXPORT_MOFEM(fe, p, -1.0)
    with pytest.raises(TypeError, match="FRACTURE_EXPORT_YAFFEMS: argument 'body'"):
        FRACTURE_EXPORT_YAFFEMS(sol, p)
