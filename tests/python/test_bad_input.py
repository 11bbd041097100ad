"""Bad and absurd input (issue 36): values outside their valid ranges (docs/deck-language.md),
stresses read back from results for every BULK_MATERIAL model, unknown or deleted bodies in
HISTORY, Results and the viewer's API, coincident MESH nodes, and what the results file
records about solves, counts and units (docs/output.md)."""

import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import warnings
from http.server import ThreadingHTTPServer

import h5py
import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from solfec import results
from conftest import BUILD
from shapes_for_tests import box

CUBE_V = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
CUBE_F = [4, 0, 3, 2, 1, 1, 4, 0, 1, 5, 4, 1, 4, 1, 2, 6, 5, 1, 4, 2, 3, 7, 6, 1,
          4, 3, 0, 4, 7, 1, 4, 4, 5, 6, 7, 1]
NAN, INF = float("nan"), float("inf")


@pytest.fixture
def sol(outdir):
    s = SOLFEC("DYNAMIC", 1e-3, outdir)
    s.verbose = "OFF"
    return s


def _raises(exc, fn, *words):
    with pytest.raises(exc) as info:
        fn()
    msg = str(info.value)
    for w in words:
        assert w in msg, f"'{w}' not in: {msg}"
    return msg


# --- valid ranges: (routine word, argument word, range text, call) -------------------------
RANGE_CASES = {
    "young=1e300": ("BULK_MATERIAL", "young", "[1e-06, 1e+20] Pa",
                    lambda s: BULK_MATERIAL(s, young=1e300)),
    "young=1e-300": ("BULK_MATERIAL", "young", "[1e-06, 1e+20] Pa",
                     lambda s: BULK_MATERIAL(s, young=1e-300)),
    "young=-1": ("BULK_MATERIAL", "young", "[1e-06, 1e+20]",
                 lambda s: BULK_MATERIAL(s, young=-1.0)),
    "poisson=0.5-1e-11": ("BULK_MATERIAL", "poisson = 0.49999999999", "[-0.999, 0.4999999]",
                          lambda s: BULK_MATERIAL(s, poisson=0.49999999999)),
    "poisson=-1": ("BULK_MATERIAL", "poisson", "[-0.999, 0.4999999]",
                   lambda s: BULK_MATERIAL(s, poisson=-1.0)),
    "density=1e300": ("BULK_MATERIAL", "density", "[1e-12, 1e+12] kg/m^3",
                      lambda s: BULK_MATERIAL(s, density=1e300)),
    "density=0": ("BULK_MATERIAL", "density", "[1e-12, 1e+12]",
                  lambda s: BULK_MATERIAL(s, density=0.0)),
    "friction=1e300": ("SURFACE_MATERIAL", "friction", "[0, 1000]",
                       lambda s: SURFACE_MATERIAL(s, friction=1e300)),
    "cohesion=-1": ("SURFACE_MATERIAL", "cohesion", "[0, 1e+30] Pa",
                    lambda s: SURFACE_MATERIAL(s, cohesion=-1.0)),
    "restitution=2": ("SURFACE_MATERIAL", "restitution", "[0, 1]",
                      lambda s: SURFACE_MATERIAL(s, restitution=2.0)),
    "spring=1e300": ("SURFACE_MATERIAL", "spring", "[0, 1e+20] N/m",
                     lambda s: SURFACE_MATERIAL(s, model="SPRING_DASHPOT", spring=1e300)),
    "dashpot=-1e300": ("SURFACE_MATERIAL", "dashpot", "[-1e+20, 1e+20]",
                       lambda s: SURFACE_MATERIAL(s, model="SPRING_DASHPOT", spring=1e6,
                                                  dashpot=-1e300)),
    "hpow=1e300": ("SURFACE_MATERIAL", "hpow", "(0, 10]",
                   lambda s: SURFACE_MATERIAL(s, model="SPRING_DASHPOT", spring=1e6,
                                              hpow=1e300)),
    "SPHERE radius=1e150": ("SPHERE", "radius", "[1e-12, 1e+12] m",
                            lambda s: SPHERE((0, 0, 0), 1e150, 1, 1)),
    "SPHERE radius=1e-300": ("SPHERE", "radius", "[1e-12, 1e+12] m",
                             lambda s: SPHERE((0, 0, 0), 1e-300, 1, 1)),
    "SPHERE center=1e200": ("SPHERE", "center[1]", "[-1e+12, 1e+12] m",
                            lambda s: SPHERE((0, 1e200, 0), 1.0, 1, 1)),
    "CONVEX vertex=1e200": ("CONVEX", "vertices[3]", "[-1e+12, 1e+12] m",
                            lambda s: CONVEX([v * 1e200 for v in CUBE_V], CUBE_F, 1)),
    "HULL point=1e200": ("HULL", "points[3]", "[-1e+12, 1e+12] m",
                         lambda s: HULL([0, 0, 0, 1e200, 0, 0, 0, 1, 0, 0, 0, 1], 1, 1)),
    "MESH node=1e200": ("MESH", "nodes[3]", "[-1e+12, 1e+12] m",
                        lambda s: MESH([0, 0, 0, 1e200, 0, 0, 0, 1, 0, 0, 0, 1],
                                       [4, 0, 1, 2, 3, 1], 1)),
    "step=1e300": ("SOLFEC", "step", "[1e-12, 1e+06] s",
                   lambda s: SOLFEC("DYNAMIC", 1e300, s.outpath + "-2")),
    "step=1e-300": ("SOLFEC", "step", "[1e-12, 1e+06] s",
                    lambda s: SOLFEC("DYNAMIC", 1e-300, s.outpath + "-2")),
    "SOLFEC.step=1e300": ("SOLFEC.step", "step", "[1e-12, 1e+06] s",
                          lambda s: setattr(s, "step", 1e300)),
    "GRAVITY=1e300": ("GRAVITY", "vector[2]", "[-1e+08, 1e+08] m/s^2",
                      lambda s: GRAVITY(s, (0, 0, -1e300))),
    "GRAVITY TIME_SERIES=1e300": ("GRAVITY", "vector[1] (a TIME_SERIES value)",
                                  "[-1e+08, 1e+08] m/s^2",
                                  lambda s: GRAVITY(s, (0, TIME_SERIES([0, 0, 1, 1e300]), 0))),
    "INITIAL_VELOCITY=1e300": ("INITIAL_VELOCITY", "linear[0]", "[-1e+08, 1e+08] m/s",
                               lambda s: INITIAL_VELOCITY(
                                   BODY(s, "RIGID", box(0, 0, 0, 1, 1, 1), BULK_MATERIAL(s)),
                                   (1e300, 0, 0), (0, 0, 0))),
    "INITIAL_VELOCITY angular=1e300": ("INITIAL_VELOCITY", "angular[2]", "rad/s",
                                       lambda s: INITIAL_VELOCITY(
                                           BODY(s, "RIGID", box(0, 0, 0, 1, 1, 1),
                                                BULK_MATERIAL(s)), (0, 0, 0), (0, 0, 1e300))),
    "TRANSLATE by 1e300": ("TRANSLATE", "coordinate 1e+300", "[-1e+12, 1e+12] m",
                           lambda s: TRANSLATE(box(0, 0, 0, 1, 1, 1), (1e300, 0, 0))),
    "SCALE sphere by 1e200": ("SCALE", "coordinate", "[-1e+12, 1e+12] m",
                              lambda s: SCALE(SPHERE((0, 0, 0), 1, 1, 1), (1e200, 1, 1))),
    "BODY.conf position=1e300": ("BODY.conf", "conf[9:12][0]", "[-1e+12, 1e+12] m",
                                 lambda s: setattr(BODY(s, "RIGID", box(0, 0, 0, 1, 1, 1),
                                                        BULK_MATERIAL(s)), "conf",
                                                   [1, 0, 0, 0, 1, 0, 0, 0, 1, 1e300, 0, 0])),
}


@pytest.mark.parametrize("case", list(RANGE_CASES))
def test_absurd_finite_values_name_routine_value_and_valid_range(sol, case):
    routine, arg, rng, call = RANGE_CASES[case]
    _raises(ValueError, lambda: call(sol), routine + ":", arg, rng)


def test_refused_material_member_leaves_the_material_unchanged(sol):
    bulk = BULK_MATERIAL(sol, young=2e9)
    _raises(ValueError, lambda: setattr(bulk, "young", 1e300), "BULK_MATERIAL", "young")
    assert bulk.young == 2e9
    surf = SURFACE_MATERIAL(sol, friction=0.3)
    _raises(ValueError, lambda: setattr(surf, "friction", 1e300), "SURFACE_MATERIAL", "friction")
    assert surf.friction == 0.3


@pytest.mark.parametrize("kind", ["FINITE_ELEMENT", "PSEUDO_RIGID"])
def test_a_body_too_stiff_for_the_step_is_refused_by_run(sol, kind):
    """young 1e20 with density 1e-12 (each valid alone): h^2 c^2 / L^2 = 1.2e26 for the unit
    cube at h = 1 ms (c^2 = (lambda + 2 mu)/density = 1.2e32); the implicit step would lose the
    body's fall to round-off (measured: an FE cube did not move at all)."""
    m = BULK_MATERIAL(sol, young=1e20, poisson=0.25, density=1e-12)
    b = BODY(sol, kind, HEX(CUBE_V, 1, 1, 1, 1, [1] * 6), m)
    b.scheme = "DEF_LIM"
    GRAVITY(sol, (0, 0, -10))
    _raises(ValueError, lambda: RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.002),
            "RUN: body 0", "too stiff", "1.2e+26", "young 1e+20", "density 1e-12")
    assert sol.time == 0.0  # refused before anything moved


def test_stiff_but_computable_fe_body_falls_as_the_analytic_free_fall(sol):
    """young 1e16 (BM23's stiff material) is accepted and the cube falls as -g t^2 / 2 (the
    mid-point scheme integrates a constant acceleration exactly; 1e-9 leaves room for the
    stiffness' round-off, measured 9e-11)."""
    m = BULK_MATERIAL(sol, young=1e16, poisson=0.25, density=1e3)
    b = BODY(sol, "FINITE_ELEMENT", HEX(CUBE_V, 2, 2, 2, 1, [1] * 6), m)
    b.scheme = "DEF_LIM"
    GRAVITY(sol, (0, 0, -10))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.05)
    assert DISPLACEMENT(b, (0.5, 0.5, 0.5))[2] == pytest.approx(-5 * sol.time ** 2, rel=1e-9)


# --- NaN, wrong types, missing files, broken meshes ---------------------------------------
OTHER_CASES = {
    "young=nan": (ValueError, ("BULK_MATERIAL", "young", "not finite"),
                  lambda s: BULK_MATERIAL(s, young=NAN)),
    "young='1e9'": (TypeError, ("BULK_MATERIAL", "young", "number"),
                    lambda s: BULK_MATERIAL(s, young="1e9")),
    "cohesion=inf": (ValueError, ("SURFACE_MATERIAL", "cohesion", "not finite"),
                     lambda s: SURFACE_MATERIAL(s, cohesion=INF)),
    "SPHERE center nan": (ValueError, ("SPHERE", "center[1]", "not finite"),
                          lambda s: SPHERE((0, NAN, 0), 1.0, 1, 1)),
    "SPHERE radius None": (TypeError, ("SPHERE", "radius"),
                           lambda s: SPHERE((0, 0, 0), None, 1, 1)),
    "CONVEX vertex nan": (ValueError, ("CONVEX", "vertices[0]", "not finite"),
                          lambda s: CONVEX([NAN] + CUBE_V[1:], CUBE_F, 1)),
    "CONVEX flat": (ValueError, ("CONVEX", "zero volume"),
                    lambda s: CONVEX([v if i % 3 != 2 else 0.0 for i, v in enumerate(CUBE_V)],
                                     CUBE_F, 1)),
    "HULL inf": (ValueError, ("HULL", "points[11]", "not finite"),
                 lambda s: HULL([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, INF], 1, 1)),
    "HULL collinear": (ValueError, ("HULL", "collinear"),
                       lambda s: HULL([0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0], 1, 1)),
    "MESH node nan": (ValueError, ("MESH", "nodes[11]", "not finite"),
                      lambda s: MESH([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NAN],
                                     [4, 0, 1, 2, 3, 1], 1)),
    "MESH node index out of range": (ValueError, ("MESH", "node index 7"),
                                     lambda s: MESH([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
                                                    [4, 0, 1, 2, 7, 1], 1)),
    "MESH inverted TET4": (ValueError, ("MESH", "element 0 is inverted"),
                           lambda s: MESH([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
                                          [4, 0, 2, 1, 3, 1], 1)),
    "MESH inverted HEX8": (ValueError, ("MESH", "element 0 is inverted"),
                           lambda s: MESH(CUBE_V, [8, 4, 5, 6, 7, 0, 1, 2, 3, 1], 1)),
    "MESH repeated node": (ValueError, ("MESH", "repeats node 2"),
                           lambda s: MESH([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
                                          [4, 0, 1, 2, 2, 1], 1)),
    "MESH_READ missing file": (FileNotFoundError, ("MESH_READ", "/nonexistent/m.msh"),
                               lambda s: MESH_READ("/nonexistent/m.msh")),
    "TIME_SERIES missing file": (ValueError, ("TIME_SERIES", "/nonexistent/ts.txt"),
                                 lambda s: TIME_SERIES("/nonexistent/ts.txt")),
    "step nan": (ValueError, ("SOLFEC", "step", "not finite"),
                 lambda s: SOLFEC("DYNAMIC", NAN, s.outpath + "-2")),
    "GRAVITY nan": (ValueError, ("GRAVITY", "vector[1]", "not finite"),
                    lambda s: GRAVITY(s, (0, NAN, -10))),
    "RUN duration nan": (ValueError, ("RUN", "duration", "not finite"),
                         lambda s: RUN(s, GAUSS_SEIDEL_SOLVER(1e-6, 10), NAN)),
    "HEX float subdivisions": (TypeError, ("HEX", "'i'", "integer"),
                               lambda s: HEX(CUBE_V, 1.5, 1, 1, 1, [1] * 6)),
    "CONVEX open (a face missing)": (ValueError, ("CONVEX", "borders only one face", "open"),
                                     lambda s: CONVEX(CUBE_V, CUBE_F[:-6], 1)),
    "MESH_READ not a mesh": (ValueError, ("MESH_READ", "cannot read", "not a mesh file"),
                             lambda s: MESH_READ(_text_file(s, "g.msh", "garbage\n1 2 3\n"))),
    "TIME_SERIES file header": (ValueError, ("TIME_SERIES", "line 1 is not 'time value'"),
                                lambda s: TIME_SERIES(_text_file(s, "h.txt", "t v\n0 1\n"))),
    "TIME_SERIES file 3 columns": (ValueError, ("TIME_SERIES", "line 2", "more than two"),
                                   lambda s: TIME_SERIES(_text_file(s, "c.txt",
                                                                    "# ok\n0 1 2\n"))),
    "BODY.conf not a rotation": (ValueError, ("BODY.conf", "must be a rotation"),
                                 lambda s: setattr(BODY(s, "RIGID", box(0, 0, 0, 1, 1, 1),
                                                        BULK_MATERIAL(s)), "conf",
                                                   [2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])),
    "DELETE twice": (ValueError, ("DELETE: body 0", "deleted already"),
                     lambda s: [DELETE(s, b) for b in
                                [BODY(s, "RIGID", box(0, 0, 0, 1, 1, 1), BULK_MATERIAL(s))] * 2]),
    "BODY.conf inverted F": (ValueError, ("BODY.conf", "det F"),
                             lambda s: setattr(BODY(s, "PSEUDO_RIGID", box(0, 0, 0, 1, 1, 1),
                                                    BULK_MATERIAL(s)), "conf",
                                               [-1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])),
}


def _text_file(sol, name, text):
    path = os.path.join(os.path.dirname(sol.outpath), name)
    with open(path, "w") as f:
        f.write(text)
    return path


def test_rotate_by_a_huge_angle_is_the_rotation_by_the_angle_modulo_360(sol):
    """ROTATE(1e300 degrees) was NaN coordinates; fmod(1e300, 360) = 328 exactly: the same
    vertices as ROTATE by 328 degrees (to round-off of the rotation)."""
    a, b = box(0, 0, 0, 1, 1, 1), box(0, 0, 0, 1, 1, 1)
    ROTATE(a, (0, 0, 0), (0, 0, 1), 1e300)
    ROTATE(b, (0, 0, 0), (0, 0, 1), 1e300 % 360)
    np.testing.assert_allclose(a._get().convex_vertices(), b._get().convex_vertices(),
                               rtol=0, atol=1e-15)
    assert BODY(sol, "RIGID", a, BULK_MATERIAL(sol)).volume == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("case", list(OTHER_CASES))
def test_malformed_values_types_files_and_meshes_are_named(sol, case):
    exc, words, call = OTHER_CASES[case]
    _raises(exc, lambda: call(sol), *words)


def test_gauss_seidel_epsilon_not_below_one_warns_and_stops_after_one_sweep(sol):
    """Solfec-1.0 accepts any positive epsilon (its corpus decks use 1 and 10): the run goes
    on, with a warning (at the deck's line) that a relative accuracy of 1 or more is met after
    the first sweep, so that with the default meritval every solve ends after one sweep."""
    for name, call in (("epsilon", lambda: GAUSS_SEIDEL_SOLVER(1e300, 10)),
                       ("epsilon", lambda: GAUSS_SEIDEL_SOLVER(1.0, 10)),
                       ("diagepsilon", lambda: GAUSS_SEIDEL_SOLVER(1e-6, 10, diagepsilon=10.0))):
        with pytest.warns(UserWarning, match=rf"GAUSS_SEIDEL_SOLVER: argument '{name}' = .* is "
                                             r"not below 1: .* after (one sweep|its first)") as w:
            gs = call()
        assert w[0].filename == __file__  # the deck's line
    assert gs.diagepsilon == 10.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GAUSS_SEIDEL_SOLVER(0.5, 10)
    # two boxes stacked on a floor: every step's solve ends after one sweep (bgs.c: the
    # relative change is <= 1 <= epsilon after it)
    GRAVITY(sol, (0, 0, -10))
    bulk = BULK_MATERIAL(sol)
    BODY(sol, "OBSTACLE", box(-2, -2, -1, 4, 4, 1), bulk)
    BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), bulk)
    BODY(sol, "RIGID", box(0, 0, 1, 1, 1, 1), bulk)
    with pytest.warns(UserWarning):
        gs = GAUSS_SEIDEL_SOLVER(10.0, 100)
    gs.itershist = "ON"
    RUN(sol, gs, 0.005)
    assert len(gs.itershist) == 5 and set(gs.itershist) == {1}


def test_mesh_with_coincident_nodes_warns_naming_them():
    """Two tetrahedra on copies of the same corners (node 4 at node 1, node 5 within 1e-15 of
    node 3): unconnected elements, which the warning names."""
    nodes = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1 + 1e-15]
    with pytest.warns(UserWarning, match=r"MESH: 4 nodes share 2 positions.*nodes \[1, 4\].*"
                                         r"nodes \[3, 5\]"):
        MESH(nodes, [4, 0, 1, 2, 3, 1, 4, 0, 4, 2, 5, 1], 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # distinct nodes: no warning
        MESH(nodes[:12], [4, 0, 1, 2, 3, 1], 1)


# --- deleted and unknown bodies -------------------------------------------------------------
def test_history_of_a_deleted_body(sol):
    """A body deleted after some frames: its stored values, then NaN (free fall
    dz = -g t^2 / 2 to round-off, with the midpoint rule); deleted before any frame: an error."""
    bulk = BULK_MATERIAL(sol)
    falling = BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), bulk)
    early = BODY(sol, "RIGID", box(3, 0, 0, 1, 1, 1), bulk)
    DELETE(sol, early)
    GRAVITY(sol, (0, 0, -10))
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 100)
    RUN(sol, gs, 0.002)
    DELETE(sol, falling)
    RUN(sol, gs, 0.002)
    t, dz = HISTORY(sol, [(falling, (0.5, 0.5, 0.5), "DZ")])
    assert len(t) == 5
    np.testing.assert_allclose(dz[:3], -5 * t[:3] ** 2, rtol=0, atol=1e-15)  # x ~ 0.5: eps x
    assert np.isnan(dz[3:]).all()
    _raises(ValueError, lambda: HISTORY(sol, [(early, (0, 0, 0), "DX")]),
            "HISTORY: body 1 is not in the results", "deleted")
    _raises(ValueError, lambda: STRESS(falling, (0, 0, 0)), "body 0 has been deleted")


def test_results_with_an_unknown_body_id_name_the_routine_and_the_id(sol):
    BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), BULK_MATERIAL(sol))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.002)
    with results.Results(sol.outpath) as r:
        msg = _raises(ValueError, lambda: r.body_point_history(99, (0, 0, 0), "DX"),
                      "Results.body_point_history", "no body with id 99", "holds body id 0")
        assert "KeyError" not in msg
        _raises(KeyError, lambda: r.definition(7))  # still a KeyError for older callers
        _raises(ValueError, lambda: r.kind(7), "results: no body with id 7")


def _serve(h5path):
    """The viewer's request handler over one results file; returns (server, port)."""
    from solfec.viewer import server
    from solfec.viewer.scene import Scene

    class Model:
        scene = Scene(h5path)

        def info(self):
            return {"index": 0}

    class Viewer:
        models = [Model()]
        lock = threading.Lock()
        dirs, three = [], None

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), server._handler(Viewer()))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, httpd.server_address[1]


def _status(port, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_viewer_api_answers_404_for_unknown_objects_and_400_for_bad_parameters(sol):
    BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), BULK_MATERIAL(sol))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.002)
    httpd, port = _serve(os.path.join(sol.outpath, os.path.basename(sol.outpath) + ".h5"))
    try:
        code, body = _status(port, "/api/model?m=0")
        assert code == 200 and [b["id"] for b in body["bodies"]] == [0]
        code, body = _status(port, "/api/model?m=3")
        assert code == 404 and "no SOLFEC object m=3" in body["error"]
        code, body = _status(port, "/api/history?m=0&id=42")
        assert code == 404 and "no body with id 42" in body["error"]
        code, body = _status(port, "/api/history?m=0")
        assert code == 400 and "'id'" in body["error"]
        code, body = _status(port, "/api/frame?m=0&i=x")
        assert code == 400 and "'i'" in body["error"]
    finally:
        httpd.shutdown()


# --- the results file: solves, counts, units ------------------------------------------------
def test_frames_mark_no_solve_counts_are_integers_and_datasets_carry_units(sol):
    bulk = BULK_MATERIAL(sol)
    BODY(sol, "OBSTACLE", box(-2, -2, -1, 4, 4, 1), bulk)
    BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), bulk)
    GRAVITY(sol, (0, 0, -10))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.003)
    out = HISTORY(sol, ["GSITERS", "CONS", "BODS", "NEWCONS", "STEP", "MERIT"])
    assert [a.dtype.kind for a in out] == ["f", "i", "i", "i", "i", "f", "f"]
    assert out[3].tolist() == [2, 2, 2, 2]  # both bodies in every frame
    with results.Results(sol.outpath) as r:
        assert r.frames["converged"].tolist() == [-1, 1, 1, 1]  # frame 0: before any solve
        f = r._f
        assert f["frames/table"].attrs["units"].startswith("time: s; step: s")
        for name, unit in [("frames/q", "m for positions"), ("frames/u", "m/s"),
                           ("frames/bodies", "energy: J"), ("frames/constraints", "R: N"),
                           ("bodies/table", "mass: kg"), ("shapes/vertices", "m")]:
            assert unit in f[name].attrs["units"], name


def test_output_doc_names_the_xdmf_files_as_written(sol):
    BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), BULK_MATERIAL(sol))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.002)
    paths = XDMF_EXPORT(sol)
    name = os.path.basename(sol.outpath)
    assert [os.path.basename(p) for p in paths] == [
        f"{name}-xdmf-bodies.xmf", f"{name}-xdmf-spheres.xmf", f"{name}-xdmf-contacts.xmf"]
    doc = open(os.path.join(os.path.dirname(BUILD), "docs", "output.md")).read()
    for p in ["NAME-xdmf-bodies.xmf", "NAME-xdmf-spheres.xmf", "NAME-xdmf-contacts.xmf",
              "NAME-xdmf-fe.xmf", "NAME-xdmf.h5"]:
        assert p in doc


# --- stresses from results for every material model ----------------------------------------
STRESS_DECK = r'''
import json, sys
import numpy as np
from solfec import *
model, out = sys.argv[1], sys.argv[2]
sol = SOLFEC("DYNAMIC", 1e-3, out)
sol.verbose = "OFF"
mat = BULK_MATERIAL(sol, model=model, young=1e6, poisson=0.3, density=1e3)
b = BODY(sol, "FINITE_ELEMENT",
         HEX([0, 0, 0, 2, 0, 0, 2, 1, 0, 0, 1, 0, 0, 0, 1, 2, 0, 1, 2, 1, 1, 0, 1, 1],
             2, 1, 1, 1, [1] * 6), mat, label="block")
b.scheme = "DEF_LIM"
X = np.array(b.conf).reshape(-1, 3)
if sol.mode == "WRITE":   # a non-uniform deformation and spin
    b.conf = (X + 0.08 * np.c_[X[:, 0] * X[:, 1], X[:, 2] ** 2, X[:, 0] * X[:, 2]]).ravel().tolist()
    b.velo = (0.5 * np.c_[X[:, 1], -X[:, 0], X[:, 2]]).ravel().tolist()
GRAVITY(sol, (0, 0, -10))
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.004)
SEEK(sol, 1.0)   # READ mode: the last frame (ignored in WRITE mode)
points = [(0.5, 0.5, 0.5), (1.5, 0.5, 0.5), (0.2, 0.9, 0.1), (1.7, 0.3, 0.8)]
print(json.dumps({"mode": sol.mode, "time": sol.time, "id": b.id,
                  "stress": [list(STRESS(b, p)) for p in points]}))
'''
POINTS = [(0.5, 0.5, 0.5), (1.5, 0.5, 0.5), (0.2, 0.9, 0.1), (1.7, 0.3, 0.8)]


def _run_stress_deck(tmp_path, model):
    deck = tmp_path / "stress_deck.py"
    deck.write_text(STRESS_DECK)
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
    p = subprocess.run([sys.executable, str(deck), model, str(tmp_path / "out")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("model", ["KIRCHHOFF", "NEO_HOOKEAN", "BLATZ_KO"])
def test_stress_from_results_equals_the_live_stress_for_every_model(tmp_path, model):
    """The same deck computes STRESS live (WRITE) and from the file (READ mode, Results,
    XDMF_EXPORT): equal to round-off (1e-10 of the largest component; the deformation gradient
    is rebuilt from the stored node coordinates, the same doubles). The models differ by
    far more than that at these strains (about 10 %: checked), so a file read with the wrong
    model fails."""
    live = _run_stress_deck(tmp_path, model)
    read = _run_stress_deck(tmp_path, model)
    assert (live["mode"], read["mode"]) == ("WRITE", "READ")
    assert read["time"] == live["time"]
    ref = np.array(live["stress"])
    tol = 1e-10 * np.abs(ref).max()
    np.testing.assert_allclose(read["stress"], ref, rtol=0, atol=tol)
    out = str(tmp_path / "out")
    with results.Results(out) as r:
        assert r.material_model(live["id"]) == model
        for k, P in enumerate(POINTS):
            got = [r.body_point_history(live["id"], P, e)[1][-1] for e in results.STRESS_ENTITIES]
            np.testing.assert_allclose(got, ref[k], rtol=0, atol=tol)
        other = "KIRCHHOFF" if model != "KIRCHHOFF" else "NEO_HOOKEAN"
        F = r.fe_mesh(live["id"]).centre_gradients(r.fe_nodes(r.frame(r.nframes - 1), live["id"])[0])
        wrong = results.cauchy_stresses(F, 1e6, 0.3, other)[0][0]
        assert np.abs(wrong[[0, 1, 2, 0, 0, 1], [0, 1, 2, 1, 2, 2]] - ref[0][:6]).max() > 100 * tol
        from solfec import xdmf
        paths = xdmf.export(r)
    fe = [p for p in paths if p.endswith("-fe.xmf")][0]
    with h5py.File(fe[:-len("-fe.xmf")] + ".h5", "r") as f:
        stress = f[f"f{len(f.keys()) - 1}/fe_stress"][()]  # the last frame's cells
    # cells 0, 1 of the block have their centres at POINTS[0], POINTS[1]; Tensor6 xx xy xz yy yz zz
    for k in (0, 1):
        np.testing.assert_allclose(stress[k], ref[k][[0, 3, 4, 1, 5, 2]], rtol=0, atol=tol)


def test_a_results_file_without_material_models_reads_as_kirchhoff_with_a_warning(tmp_path):
    """Files written before the 'model' field: Saint Venant-Kirchhoff, and a warning says so."""
    live = _run_stress_deck(tmp_path, "NEO_HOOKEAN")
    h5 = str(tmp_path / "out" / "out.h5")
    with h5py.File(h5, "r+") as f:
        old = f["bodies/table"][()]
        names = [n for n in old.dtype.names if n != "model"]
        data = np.zeros(len(old), dtype=np.dtype([(n, old.dtype[n]) for n in names]))
        for n in names:
            data[n] = old[n]
        del f["bodies/table"]
        f.create_dataset("bodies/table", data=data, maxshape=(None,), chunks=True)
    with results.Results(h5) as r:
        with pytest.warns(UserWarning, match="stores no material models.*KIRCHHOFF"):
            assert r.material_model(live["id"]) == "KIRCHHOFF"
        sx = r.body_point_history(live["id"], POINTS[0], "SX")[1][-1]
        F = r.fe_mesh(live["id"]).centre_gradients(r.fe_nodes(r.frame(r.nframes - 1), live["id"])[0])
    svk = results.cauchy_stresses(F, 1e6, 0.3, "KIRCHHOFF")[0][0, 0, 0]
    assert sx == pytest.approx(svk, rel=1e-12)
