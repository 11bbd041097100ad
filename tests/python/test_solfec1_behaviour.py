"""What Solfec-1.0 does, checked against its source (issue 34): GAUSS_SEIDEL_SOLVER's stopping
rule and defaults (bgs.c, lng.c), BODY.mesh (lng.c), ... Each test states the expected
behaviour and where it comes from."""

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, pushed_stack, slab


# ---------------------------------------------------------------- GAUSS_SEIDEL_SOLVER

def test_gauss_seidel_defaults_are_solfec_1_0s():
    # lng.c: meritval defaults to 1.0 (bgs.c: meritval >= 1 turns the merit test off),
    # diagepsilon to 0.01 min(epsilon, meritval, 1e-4); the manual's "either" rule keeps the
    # manual's 1e-3.
    gs = GAUSS_SEIDEL_SOLVER(1e-4, 100)
    assert (gs.meritval, gs.stopping) == (1.0, "BOTH")
    assert gs.diagepsilon == pytest.approx(1e-6, rel=1e-12)
    either = GAUSS_SEIDEL_SOLVER(1e-4, 100, stopping="EITHER")
    assert (either.meritval, either.stopping) == (1e-3, "EITHER")
    with pytest.raises(ValueError, match="GAUSS_SEIDEL_SOLVER.*stopping"):
        GAUSS_SEIDEL_SOLVER(1e-4, 100, stopping="ANY")


def test_gauss_seidel_sweeps_until_epsilon_and_meritval_both_hold(tmp_path):
    # bgs.c: `while (++iters < maxiter && (error > epsilon || merit > meritval))`. Three unit
    # boxes stacked on a floor, the top one pushed at 0.5 m/s (friction 0.5, g = 10): it
    # slides, decelerated by 0.5 g, on the middle one, which with the bottom one stays at
    # rest (the friction it could get from below, 0.5 * 2 m g, exceeds m g / 2). After
    # 30 ms: v = 0.5 - 5 * 0.03 = 0.35 m/s exactly (sticking and sliding reached exactly by
    # the implicit step).
    sol, bodies = pushed_stack(str(tmp_path / "both"), n=3)
    gs = GAUSS_SEIDEL_SOLVER(1e-8, 5000)  # Solfec-1.0's defaults: merit test off
    for _ in range(30):
        RUN(sol, gs, 1e-3)
        assert gs.error == "OK" and gs.rerhist[-1] <= 1e-8
    v = [np.array(b.velo[3:]) for b in bodies]  # RIGID velo = (Omega, v)
    assert v[2] == pytest.approx([0.35, 0, 0], abs=1e-7)
    assert np.abs(v[0]).max() < 1e-7 and np.abs(v[1]).max() < 1e-7
    # Merit test on (meritval < 1): both must hold; with a loose epsilon the merit decides
    loose = GAUSS_SEIDEL_SOLVER(1e-1, 5000, meritval=1e-16)
    RUN(sol, loose, 1e-3)
    assert loose.error == "OK" and loose.merit <= 1e-16
    # 'EITHER' (the manual's Alg. 9.1 as printed, meritval 1e-3): the merit alone ends the
    # sweeps after 1-2 of them, the lower boxes get spurious velocities of mm/s
    sol, bodies = pushed_stack(str(tmp_path / "either"), n=3)
    either = GAUSS_SEIDEL_SOLVER(1e-8, 5000, stopping="EITHER")
    for _ in range(30):
        RUN(sol, either, 1e-3)
        assert either.error == "OK" and either.merit <= 1e-3 and either.iters <= 3
    assert np.abs(np.array(bodies[1].velo[3:])).max() > 1e-3


# ---------------------------------------------------------------- BODY.mesh

def unit_cube(x=0.0, n=2, surfids=(1, 2, 3, 4, 5, 6)):
    c = [x, 0, 0, x + 1, 0, 0, x + 1, 1, 0, x, 1, 0,
         x, 0, 1, x + 1, 0, 1, x + 1, 1, 1, x, 1, 1]
    return HEX(c, n, n, n, 1, list(surfids))


def translated_fe_cube(outdir):
    """A 2x2x2 HEX8 unit cube moving at 1 m/s along x, no gravity: a rigid translation,
    which every scheme integrates exactly (no strain, no force)."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1e3)
    body = BODY(sol, "FINITE_ELEMENT", unit_cube(), mat)
    INITIAL_VELOCITY(body, (1, 0, 0), (0, 0, 0))
    return sol, body


def test_body_mesh_of_a_finite_element_body_is_a_live_view(outdir):
    # lng.c (BODY.mesh): FEM_MESH(bod), the body's own mesh whose nodes move with it
    X = np.array([unit_cube().node(i) for i in range(27)])
    sol, body = translated_fe_cube(outdir)
    m = body.mesh
    assert (m.nnod, m.nelem) == (27, 8)
    assert len(m.inter_element_faces()) == 12  # 3 inner planes of 4 faces
    assert sorted(m.nodes_on_surface(2)) == sorted(unit_cube().nodes_on_surface(2))
    np.testing.assert_array_equal([m.node(i) for i in range(27)], X)  # referential
    before = COPY(body.mesh)  # an independent MESH
    assert type(before) is MESH
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.1)
    moved = np.array([m.node(i) for i in range(27)])  # the same view, now current
    np.testing.assert_allclose(moved - X, np.tile([0.1, 0, 0], (27, 1)), atol=1e-12)
    np.testing.assert_array_equal([before.node(i) for i in range(27)], X)
    nodes, elements, _ = body.mesh.get_data()
    np.testing.assert_allclose(np.reshape(nodes, (-1, 3)), moved, atol=0)
    with pytest.raises(ValueError, match="MESH.node: the mesh of a BODY"):
        m.node(0, 1.0, 2.0, 3.0)


def test_body_mesh_follows_seek_in_read_mode(outdir):
    X = np.array([unit_cube().node(i) for i in range(27)])
    sol, body = translated_fe_cube(outdir)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.1)
    del sol, body  # the deck again, on its results: READ mode
    sol2, body2 = translated_fe_cube(outdir)
    assert sol2.mode == "READ"
    for t in (0.05, 0.1, 0.02):
        SEEK(sol2, t)
        x = np.array([body2.mesh.node(i) for i in range(27)])
        np.testing.assert_allclose(x - X, np.tile([t, 0, 0], (27, 1)), atol=1e-9)


def test_body_mesh_of_an_embedded_body_is_the_background_mesh(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1e3)
    background = unit_cube(n=3)
    body = BODY(sol, "FINITE_ELEMENT", box(0.1, 0.1, 0.1, 0.8, 0.8, 0.8), mat, mesh=background)
    assert (body.mesh.nnod, body.mesh.nelem) == (64, 27)
    np.testing.assert_array_equal([body.mesh.node(i) for i in range(64)],
                                  [background.node(i) for i in range(64)])


def test_body_mesh_of_other_kinds_is_the_mesh_shape_moving_with_the_body(outdir):
    # lng.c: the MESH pieces of the shape: one -> that MESH, several -> a list, none -> None
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    mat = BULK_MATERIAL(sol, young=1e6, poisson=0.25, density=1e3)
    assert BODY(sol, "RIGID", box(5, 0, 0, 1, 1, 1), mat).mesh is None
    two = BODY(sol, "OBSTACLE", [unit_cube(10, 1), unit_cube(12, 1)], mat).mesh
    assert isinstance(two, list) and [m.nnod for m in two] == [8, 8]
    assert two[1].node(0) == pytest.approx((12, 0, 0))
    X = np.array([unit_cube(n=1).node(i) for i in range(8)])
    body = BODY(sol, "RIGID", unit_cube(n=1), mat)
    assert body.mesh.nnod == 8
    # spinning at 1 rad/s about the vertical axis through its centre (isotropic inertia:
    # a steady rotation) for 0.1 s: the nodes turn by 0.1 rad about that axis
    INITIAL_VELOCITY(body, (0, 0, 0), (0, 0, 1))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.1)
    c, a = np.array([0.5, 0.5, 0.5]), 0.1
    R = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    expected = (X - c) @ R.T + c
    np.testing.assert_allclose([body.mesh.node(i) for i in range(8)], expected, atol=1e-9)
    nodes, _, _ = body.mesh.get_data()
    np.testing.assert_allclose(np.reshape(nodes, (-1, 3)), expected, atol=1e-9)
