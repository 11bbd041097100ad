"""Bad input gives a clear Python exception naming the routine and the argument."""

import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, slab

CUBE_V = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
CUBE_F = [4, 0, 3, 2, 1, 1, 4, 0, 1, 5, 4, 1, 4, 1, 2, 6, 5, 1, 4, 2, 3, 7, 6, 1,
          4, 3, 0, 4, 7, 1, 4, 4, 5, 6, 7, 1]


@pytest.fixture
def sol(outdir):
    s = SOLFEC("DYNAMIC", 1e-3, outdir)
    s.verbose = "OFF"
    return s


def expect(exc, *words):
    """pytest.raises whose message must contain every word (routine, argument...)."""
    class Check:
        def __enter__(self):
            self.ctx = pytest.raises(exc)
            self.info = self.ctx.__enter__()
            return self.info

        def __exit__(self, *a):
            ret = self.ctx.__exit__(*a)
            msg = str(self.info.value)
            for w in words:
                assert w in msg, f"'{w}' not in message: {msg}"
            return ret
    return Check()


def test_wrong_argument_types_name_routine_and_argument(sol):
    bulk = BULK_MATERIAL(sol)
    with expect(TypeError, "CONVEX", "vertices"):
        CONVEX("not a list", CUBE_F, 1)
    with expect(TypeError, "SPHERE", "radius"):
        SPHERE((0, 0, 0), "1", 1, 1)
    with expect(TypeError, "BODY", "material"):
        BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), 42)
    with expect(TypeError, "GRAVITY", "solfec"):
        GRAVITY(None, (0, 0, -10))
    with expect(TypeError, "RUN", "solver"):
        RUN(sol, "GS", 1.0)
    with expect(TypeError, "INITIAL_VELOCITY", "body"):
        INITIAL_VELOCITY(bulk, (0, 0, 0), (0, 0, 0))


def test_wrong_lengths_are_reported(sol):
    with expect(ValueError, "GRAVITY", "vector"):
        GRAVITY(sol, (0, -10))
    with expect(ValueError, "CONVEX", "vertices"):
        CONVEX(CUBE_V[:-1], CUBE_F, 1)
    with expect(ValueError, "SPHERE", "center"):
        SPHERE((0, 0), 1.0, 1, 1)
    with expect(ValueError, "HEX", "surfids"):
        HEX(CUBE_V, 1, 1, 1, 0, [1, 2, 3])
    with expect(ValueError, "EXTENTS", "extents"):
        EXTENTS(sol, (0, 0, 0, 1, 1))


def test_empty_shape_and_emptied_shape_are_rejected(sol):
    bulk = BULK_MATERIAL(sol)
    with expect(ValueError, "BODY", "shape"):
        BODY(sol, "RIGID", [], bulk)
    s = box(0, 0, 0, 1, 1, 1)
    BODY(sol, "RIGID", s, bulk)
    with expect(ValueError, "BODY", "emptied", "COPY"):
        BODY(sol, "RIGID", s, bulk)


def test_unknown_kind_strings_list_the_choices(sol):
    bulk = BULK_MATERIAL(sol)
    with expect(ValueError, "BODY", "kind", "'RIGID'"):
        BODY(sol, "SOLID", box(0, 0, 0, 1, 1, 1), bulk)
    with expect(ValueError, "SOLFEC", "analysis"):
        SOLFEC("STATIC", 1e-3, "x")
    with expect(ValueError, "GAUSS_SEIDEL_SOLVER", "diagsolver"):
        GAUSS_SEIDEL_SOLVER(1e-4, 100, diagsolver="NEWTON")
    with expect(ValueError, "FORCE", "kind"):
        FORCE(BODY(sol, "RIGID", box(0, 0, 0, 1, 1, 1), bulk), "GLOBAL", (0, 0, 0), (1, 0, 0), 1.0)


def test_negative_density_and_other_bad_values(sol):
    with expect(ValueError, "BULK_MATERIAL", "density"):
        BULK_MATERIAL(sol, density=-1.0)
    with expect(ValueError, "SURFACE_MATERIAL", "restitution"):
        SURFACE_MATERIAL(sol, restitution=1.5)
    with expect(ValueError, "SURFACE_MATERIAL", "friction"):
        SURFACE_MATERIAL(sol, friction=-0.1)
    with expect(ValueError, "SOLFEC", "step"):
        SOLFEC("DYNAMIC", -1e-3, "x")
    with expect(ValueError, "SPHERE", "radius"):
        SPHERE((0, 0, 0), 0.0, 1, 1)
    with expect(ValueError, "GAUSS_SEIDEL_SOLVER", "epsilon"):
        GAUSS_SEIDEL_SOLVER(-1e-4, 100)
    with expect(ValueError, "TIME_SERIES", "points"):
        TIME_SERIES([0, 1, 0, 2])  # times do not increase
    with expect(ValueError, "GRAVITY"):
        GRAVITY(sol, (0, 0, float("nan")))


def test_degenerate_convex_is_rejected(sol):
    flat = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]
    with expect(ValueError, "CONVEX"):
        CONVEX(flat + flat, CUBE_F, 1)  # all 8 vertices in one plane: zero volume
    with expect(ValueError, "CONVEX", "faces"):
        CONVEX(CUBE_V, [4, 0, 3, 2, 99, 1] + CUBE_F[6:], 1)  # index out of range
    with expect(ValueError, "HULL"):
        HULL(flat + [0.5, 0.5, 0], 1, 1)  # coplanar points


def test_missing_time_series_file(sol, tmp_path):
    with expect(ValueError, "TIME_SERIES", "not found"):
        TIME_SERIES(str(tmp_path / "missing.txt"))


def test_callback_errors_reach_the_deck(sol):
    bulk = BULK_MATERIAL(sol)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 1, 1, 1), bulk)
    FORCE(b, "SPATIAL", (0, 0, 0), (1, 0, 0), lambda q, u, t, h: (1.0, 2.0))
    with expect(ValueError, "FORCE", "9"):
        RUN(sol, GAUSS_SEIDEL_SOLVER(1e-4, 10), 0.01)


def test_solver_failure_exit_raises_solver_error(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol)
    SURFACE_MATERIAL(sol, friction=0.5)
    BODY(sol, "OBSTACLE", slab(), bulk)
    for i in range(3):
        BODY(sol, "RIGID", box(-0.5, -0.5, i * 0.999, 1, 1, 1), bulk)
    GRAVITY(sol, (0, 0, -10))
    gs = GAUSS_SEIDEL_SOLVER(1e-12, 1, meritval=1e-16, failure="EXIT")
    with pytest.raises(SolverError, match="GAUSS_SEIDEL_SOLVER"):
        RUN(sol, gs, 0.1)
    assert gs.error != "OK"


def test_solver_failure_callback_can_stop_the_run(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol)
    BODY(sol, "OBSTACLE", slab(), bulk)
    for i in range(3):
        BODY(sol, "RIGID", box(-0.5, -0.5, i * 0.999, 1, 1, 1), bulk)
    GRAVITY(sol, (0, 0, -10))
    calls = []

    def on_fail(solver, tag):
        calls.append((solver.iters, tag))
        return 0
    gs = GAUSS_SEIDEL_SOLVER(1e-12, 1, meritval=1e-16, failure="CALLBACK", data=("x",),
                             callback=on_fail)
    RUN(sol, gs, 0.1)
    assert calls and calls[0] == (1, "x")
    assert sol.time < 0.1 - 1e-9  # stopped early
