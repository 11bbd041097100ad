"""INITIALIZE_STATE and RIGID_TO_FEM (Solfec-1.0 extensions, solfec/initial_state.py):
starting a run from a frame of another run's results."""

import os

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from solfec.results import Results
from shapes_for_tests import box, slab

H = 1e-3
GS = dict(epsilon=1e-10, maxiter=1000)
CORNERS = [0, 0, 0, 0.2, 0, 0, 0.2, 0.2, 0, 0, 0.2, 0,
           0, 0, 0.2, 0.2, 0, 0.2, 0.2, 0.2, 0.2, 0, 0.2, 0.2]


# --- models ----------------------------------------------------------------------------------
def bouncing(out, reverse=False):
    """A spinning ball falling onto a floor (first impact near t = 0.286 s) and a tumbling
    cube that touches nothing: at t = 0.25 no body is in contact. `reverse` creates the two
    bodies in the opposite order (other ids, same labels)."""
    sol = SOLFEC("DYNAMIC", H, out)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.3, restitution=0.5)
    BODY(sol, "OBSTACLE", slab(), bulk, label="floor")

    def ball():
        b = BODY(sol, "RIGID", SPHERE((0, 0, 0.5), 0.1, 1, 1), bulk, label="ball")
        INITIAL_VELOCITY(b, (0.4, 0.1, 0.0), (1.0, -3.0, 2.0))
        return b

    def cube():
        b = BODY(sol, "RIGID", box(2.0, 0.0, 3.0, 0.2, 0.3, 0.4), bulk, label="cube")
        INITIAL_VELOCITY(b, (-0.5, 0.2, 3.0), (2.0, 1.0, -4.0))
        return b

    if reverse:
        c, b = cube(), ball()
    else:
        b, c = ball(), cube()
    GRAVITY(sol, (0, 0, -9.81))
    return sol, b, c


def state(*bodies):
    return [(tuple(b.conf), tuple(b.velo)) for b in bodies]


@pytest.fixture
def run_a(tmp_path):
    """Run A of `bouncing` for 0.5 s with a frame every 0.05 s; returns (dir, state at 0.25,
    state at 0.5) of (ball, cube)."""
    out = str(tmp_path / "A")
    sol, b, c = bouncing(out)
    OUTPUT(sol, 0.05)
    RUN(sol, GAUSS_SEIDEL_SOLVER(**GS), 0.25)
    mid = state(b, c)
    RUN(sol, GAUSS_SEIDEL_SOLVER(**GS), 0.25)
    assert sol.time == pytest.approx(0.5, abs=1e-9)
    return out, mid, state(b, c)


def frame_state(path, t, ids):
    with Results(path) as r:
        fr = r.frame(r.nearest_frame(t))
        return fr.time, [(tuple(fr.body_q(i)), tuple(fr.body_u(i))) for i in ids]


# --- INITIALIZE_STATE ------------------------------------------------------------------------
def test_run_b_from_a_at_quarter_time_ends_in_a_s_final_state(run_a, tmp_path):
    a_dir, a_mid, a_end = run_a
    sol, b, c = bouncing(str(tmp_path / "B"))
    t, stored = frame_state(a_dir, 0.25, (b.id, c.id))
    assert t == pytest.approx(0.25, abs=1e-9)
    assert stored == a_mid  # the file holds the doubles of the run
    assert INITIALIZE_STATE(sol, a_dir, 0.25) == 3  # floor, ball, cube matched by id
    assert state(b, c) == a_mid
    assert sol.time == 0.0  # as in Solfec-1.0 the clock is not copied
    assert sol.ncon == 0    # nor are constraints
    RUN(sol, GAUSS_SEIDEL_SOLVER(**GS), 0.25)
    # Same step size and step count from the same states: nobody is in contact at 0.25 s, so
    # the constraint history that INITIALIZE_STATE does not copy plays no role and the ball's
    # bounce (at ~0.286 s) is computed by the same operations: bitwise equal.
    assert b.conf[11] > 0.05  # the ball bounced (without the floor z(0.5) = -0.73)
    assert state(b, c) == a_end
    # the work counters (ENERGY's external, contact, friction work) were copied at 0.25 s and
    # went on as in A: the gravity work and the bounce's contact work of A's last frame
    with Results(a_dir) as r:
        fr = r.frame(r.nearest_frame(0.5))
        for body in (b, c):
            stored = fr.bodies["energy"][fr.position(body.id)][2:5]
            got = sol._domain.body_works(body.id)
            np.testing.assert_allclose(got, stored, rtol=1e-12, atol=1e-12)
        assert fr.bodies["energy"][fr.position(b.id)][2] > 1.0  # the ball fell: external work


def test_time_picks_the_nearest_frame_and_clamps_outside_the_stored_range(run_a, tmp_path):
    a_dir, a_mid, a_end = run_a
    sol, b, c = bouncing(str(tmp_path / "B"))
    INITIALIZE_STATE(sol, a_dir, 0.26)  # frames every 0.05 s: 0.25 is the nearest
    assert state(b, c) == a_mid
    INITIALIZE_STATE(sol, a_dir, 99.0)  # after the last frame: the last frame
    assert state(b, c) == a_end
    sol2, b2, c2 = bouncing(str(tmp_path / "C"))
    INITIALIZE_STATE(sol2, a_dir + os.sep, 0)  # t = 0: the initial frame (a trailing / too)
    fresh = bouncing(str(tmp_path / "D"))
    assert state(b2, c2) == state(fresh[1], fresh[2])


def test_subset_restricts_the_bodies_and_matches_them_by_label(run_a, tmp_path):
    a_dir, a_mid, _ = run_a
    sol, b, c = bouncing(str(tmp_path / "B"))
    c0 = state(c)
    assert INITIALIZE_STATE(sol, a_dir, 0.25, subset="ball") == 1
    assert state(b) == a_mid[:1] and state(c) == c0
    assert INITIALIZE_STATE(sol, a_dir, 0.25, subset=["^cu", "ba.l"]) == 2
    assert state(b, c) == a_mid
    # other creation order: ids differ, labels do not
    sol2, b2, c2 = bouncing(str(tmp_path / "C"), reverse=True)
    assert (b2.id, c2.id) != (b.id, c.id)
    assert INITIALIZE_STATE(sol2, a_dir, 0.25, subset="ball|cube") == 2
    assert state(b2, c2) == a_mid
    # without subset bodies are matched by id, as in Solfec-1.0: the states swap
    sol3, b3, c3 = bouncing(str(tmp_path / "E"), reverse=True)
    INITIALIZE_STATE(sol3, a_dir, 0.25)
    assert state(c3, b3) == a_mid


def test_initialize_state_errors_name_routine_argument_and_body(run_a, tmp_path):
    a_dir, _, _ = run_a
    sol, b, c = bouncing(str(tmp_path / "B"))
    before = state(b, c)
    r = "INITIALIZE_STATE"
    with pytest.raises(TypeError, match=f"{r}: argument 'solfec'"):
        INITIALIZE_STATE(b, a_dir, 0.25)
    with pytest.raises(TypeError, match=f"{r}: argument 'path'"):
        INITIALIZE_STATE(sol, 3, 0.25)
    with pytest.raises(TypeError, match=f"{r}: argument 'time'"):
        INITIALIZE_STATE(sol, a_dir, "0.25")
    with pytest.raises(ValueError, match=f"{r}: argument 'time' must be >= 0"):
        INITIALIZE_STATE(sol, a_dir, -1.0)
    with pytest.raises(ValueError, match=f"{r}: argument 'path': '.*nowhere' does not exist"):
        INITIALIZE_STATE(sol, str(tmp_path / "nowhere"), 0.25)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match=f"{r}: argument 'path': no solfec results file"):
        INITIALIZE_STATE(sol, str(empty), 0.25)
    native = tmp_path / "old"
    native.mkdir()
    for ext in (".dat", ".idx", ".lab"):
        (native / ("old" + ext)).write_bytes(b"\0")
    with pytest.raises(ValueError, match="Solfec-1.0 output files .* not read"):
        INITIALIZE_STATE(sol, str(native), 0.25)
    with pytest.raises(TypeError, match=f"{r}: argument 'subset' must be a string or a list"):
        INITIALIZE_STATE(sol, a_dir, 0.25, subset=3)
    with pytest.raises(TypeError, match=r"argument 'subset\[1\]' must be a string"):
        INITIALIZE_STATE(sol, a_dir, 0.25, subset=["ball", 2])
    with pytest.raises(ValueError, match=r"argument 'subset\[0\]' = '\(' is not a valid"):
        INITIALIZE_STATE(sol, a_dir, 0.25, subset="(")
    with pytest.raises(ValueError, match=r"pattern 'bal\$' matches no body label"):
        INITIALIZE_STATE(sol, a_dir, 0.25, subset="bal$")
    with pytest.raises(ValueError, match="empty list"):
        INITIALIZE_STATE(sol, a_dir, 0.25, subset=[])
    assert state(b, c) == before  # nothing was changed by the failed calls


def test_kind_and_size_mismatches_are_refused_and_change_nothing(run_a, tmp_path):
    a_dir, _, _ = run_a
    sol = SOLFEC("DYNAMIC", H, str(tmp_path / "B"))
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    BODY(sol, "OBSTACLE", slab(), bulk)
    ball = BODY(sol, "RIGID", SPHERE((0, 0, 0.5), 0.1, 1, 1), bulk)  # id 1: as in A
    cube = BODY(sol, "PSEUDO_RIGID", box(2.0, 0.0, 3.0, 0.2, 0.3, 0.4), bulk, label="cube")
    before = state(ball, cube)
    with pytest.raises(ValueError, match=r"INITIALIZE_STATE: body 2 \('cube'\) is PSEUDO_RIGID "
                                         r"in this run but body 2 is RIGID in '.*A.h5' at time"):
        INITIALIZE_STATE(sol, a_dir, 0.25)
    assert state(ball, cube) == before  # the ball (checked first) was not set either
    BODY(sol, "FINITE_ELEMENT", HEX(CORNERS, 1, 1, 1, 1, [1] * 6), bulk, label="fe")
    assert INITIALIZE_STATE(sol, a_dir, 0.25, subset="fe") == 0  # no 'fe' in A: skipped
    # an FE body against another FE body of a different mesh
    A2 = str(tmp_path / "A2")
    s2 = SOLFEC("DYNAMIC", H, A2)
    s2.verbose = "OFF"
    b2 = BULK_MATERIAL(s2, young=1e9, poisson=0.25, density=1000.0)
    BODY(s2, "FINITE_ELEMENT", HEX(CORNERS, 2, 1, 1, 1, [1] * 6), b2, label="fe")
    RUN(s2, GAUSS_SEIDEL_SOLVER(**GS), H)
    with pytest.raises(ValueError, match=r"body 3 \('fe'\) has 24 configuration and 24 velocity "
                                         r"values in this run but body 0 stores 36 and 36"):
        INITIALIZE_STATE(sol, A2, 0.0, subset="fe")


def test_kind_mismatch_message_suggests_rigid_to_fem(run_a, tmp_path):
    a_dir, _, _ = run_a
    sol = SOLFEC("DYNAMIC", H, str(tmp_path / "B"))
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    BODY(sol, "FINITE_ELEMENT", HEX(CORNERS, 1, 1, 1, 1, [1] * 6), bulk, label="ball")
    with pytest.raises(ValueError, match=r"is FINITE_ELEMENT in this run but body 1 is RIGID .*"
                                         r"use RIGID_TO_FEM"):
        INITIALIZE_STATE(sol, a_dir, 0.25, subset="ball")


# --- RIGID_TO_FEM ----------------------------------------------------------------------------
# a brick, not a cube: its inertia is not isotropic, so the spatial angular velocity R Omega
# differs from the referential Omega
BRICK = [0, 0, 0, 0.2, 0, 0, 0.2, 0.3, 0, 0, 0.3, 0, 0, 0, 0.5, 0.2, 0, 0.5, 0.2, 0.3, 0.5,
         0, 0.3, 0.5]
W0 = [(1.0, 2.0, -3.0), (-2.0, 0.5, 1.5), (0.3, -4.0, 1.0)]
V0 = [(0.5, -0.2, 1.0), (0.0, 1.0, 0.3), (-1.0, 0.0, 2.0)]


def bricks(out, kind="RIGID", forms=("TL", "BC", "FFR")):
    """Three HEX bricks (0.2 x 0.3 x 0.5 m) 1 m apart (kind RIGID, or FINITE_ELEMENT of the
    given forms), labelled c0, c1, c2, tumbling under gravity (no contact), and a ball."""
    sol = SOLFEC("DYNAMIC", H, out)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e7, poisson=0.3, density=1000.0)
    cubes = []
    for k in range(3):
        m = HEX(BRICK, 2, 2, 2, 1, [1] * 6)
        TRANSLATE(m, (k * 1.0, 0.1 * k, 0.0))
        if kind == "RIGID":
            b = BODY(sol, "RIGID", m, bulk, label=f"c{k}")
        else:
            b = BODY(sol, "FINITE_ELEMENT", m, bulk, label=f"c{k}", form=forms[k])
            b.scheme = "DEF_LIM"
        INITIAL_VELOCITY(b, V0[k], W0[k])
        cubes.append(b)
    ball = BODY(sol, "RIGID", SPHERE((5, 0, 0), 0.1, 1, 1), bulk, label="ball")
    INITIAL_VELOCITY(ball, (1, 2, 3), (3, 2, 1))
    GRAVITY(sol, (0, 0, -9.81))
    return sol, cubes, ball


@pytest.fixture
def rigid_run(tmp_path):
    out = str(tmp_path / "R")
    sol, _, _ = bricks(out)
    OUTPUT(sol, 0.05)
    RUN(sol, GAUSS_SEIDEL_SOLVER(**GS), 0.3)
    return out


def rigid_motion(path, t, bid):
    """(R, x0, X0, v0, w) of stored rigid body bid at the frame nearest t."""
    with Results(path) as r:
        fr = r.frame(r.nearest_frame(t))
        q, u = fr.body_q(bid), fr.body_u(bid)
        R = np.asarray(q[:9]).reshape(3, 3, order="F")
        return (R, np.asarray(q[9:12]), np.asarray(r.definition(bid)["center"], dtype=float),
                np.asarray(u[3:6]), R @ np.asarray(u[:3]))


def test_rigid_to_fem_maps_the_rigid_motion_onto_every_node(rigid_run, tmp_path):
    sol, cubes, ball = bricks(str(tmp_path / "F"), kind="FINITE_ELEMENT")
    X = [np.array(b.conf).reshape(-1, 3) for b in cubes[:2]]  # TL, BC: referential nodes
    X.append(X[1] + (1.0, 0.1, 0.0))                         # FFR: q is not node coords
    assert RIGID_TO_FEM(rigid_run, 0.2, sol) == 4
    for k, b in enumerate(cubes):
        R, x0, C, v0, w = rigid_motion(rigid_run, 0.2, b.id)
        assert abs(np.linalg.norm(R - np.eye(3))) > 0.5  # a real rotation
        assert np.linalg.norm(w - R.T @ w) > 0.1          # R Omega != Omega
        x = x0 + (X[k] - C) @ R.T                          # x = R (X - X0) + x0
        v = v0 + np.cross(w, x - x0)                       # v = w x (x - x0) + v0
        got_x = np.array([np.add(p, DISPLACEMENT(b, tuple(p))) for p in X[k]])
        got_v = np.array([VELOCITY(b, tuple(p)) for p in X[k]])
        assert np.abs(got_x - x).max() < 1e-12
        assert np.abs(got_v - v).max() < 1e-12
        if k < 2:  # TL and BC store the node coordinates and velocities themselves
            assert np.abs(np.array(b.conf).reshape(-1, 3) - x).max() < 1e-12
            assert np.abs(np.array(b.velo).reshape(-1, 3) - v).max() < 1e-12
        # rigid motion: no strain, and the FE mass centre moves with the rigid one
        assert np.abs(ENERGY(sol, b)[1]) < 1e-20
        assert np.allclose(DISPLACEMENT(b, b.center), x0 - C, rtol=0, atol=1e-12)
    # the RIGID ball (RIGID in both runs) copies its state
    with Results(rigid_run) as r:
        fr = r.frame(r.nearest_frame(0.2))
        assert ball.conf == tuple(fr.body_q(ball.id)) and ball.velo == tuple(fr.body_u(ball.id))


def test_rigid_to_fem_from_a_moved_body_and_then_running_on(rigid_run, tmp_path):
    sol, cubes, _ = bricks(str(tmp_path / "F"), kind="FINITE_ELEMENT")
    X = np.array(cubes[0].conf).reshape(-1, 3)
    RIGID_TO_FEM(rigid_run, 0.1, sol)                  # TL, BC and FFR bricks from t = 0.1
    RIGID_TO_FEM(rigid_run, 0.3, sol, subset=["c0"])   # c0 again, from its rotated state
    R, x0, C, v0, w = rigid_motion(rigid_run, 0.3, cubes[0].id)
    x = x0 + (X - C) @ R.T
    assert np.abs(np.array(cubes[0].conf).reshape(-1, 3) - x).max() < 1e-12
    assert np.abs(np.array(cubes[0].velo).reshape(-1, 3) - (v0 + np.cross(w, x - x0))).max() < 1e-12
    # Every form then moves on as the rigid bodies would: internal forces do not change the
    # linear momentum, so after 20 steps the mass centre (the referential centre's point:
    # no deformation to speak of) is on the free-fall parabola (seen: 3e-15 m).
    starts = [rigid_motion(rigid_run, t, b.id) for t, b in zip((0.3, 0.1, 0.1), cubes)]
    RUN(sol, GAUSS_SEIDEL_SOLVER(**GS), 20 * H)
    t = sol.time
    assert t == pytest.approx(20 * H, abs=1e-12)
    for b, (R, x0, C, v0, w) in zip(cubes, starts):
        xc = np.add(b.center, DISPLACEMENT(b, b.center))
        expect = x0 + v0 * t + 0.5 * np.array([0, 0, -9.81]) * t * t
        assert np.abs(xc - expect).max() < 1e-9


def test_rigid_to_fem_subset_and_errors(rigid_run, tmp_path):
    sol, cubes, ball = bricks(str(tmp_path / "F"), kind="FINITE_ELEMENT")
    before = state(*cubes, ball)
    assert RIGID_TO_FEM(rigid_run, 0.2, sol, subset="c1") == 1
    after = state(*cubes, ball)
    assert after[0] == before[0] and after[2:] == before[2:] and after[1] != before[1]
    r = "RIGID_TO_FEM"
    with pytest.raises(TypeError, match=f"{r}: argument 'solfec'"):
        RIGID_TO_FEM(rigid_run, 0.2, cubes[0])
    with pytest.raises(TypeError, match=f"{r}: argument 'path'"):
        RIGID_TO_FEM(sol, 0.2, rigid_run)  # Solfec-1.0 order: (path, time, solfec)
    with pytest.raises(ValueError, match=f"{r}: argument 'time' must be >= 0"):
        RIGID_TO_FEM(rigid_run, -0.1, sol)
    with pytest.raises(ValueError, match=f"{r}: argument 'path': no solfec results file"):
        RIGID_TO_FEM(str(tmp_path), 0.2, sol)
    # a PSEUDO_RIGID body is neither FINITE_ELEMENT nor RIGID: refused, names the body
    sol2 = SOLFEC("DYNAMIC", H, str(tmp_path / "P"))
    bulk = BULK_MATERIAL(sol2, young=1e7, poisson=0.3, density=1000.0)
    BODY(sol2, "PSEUDO_RIGID", HEX(CORNERS, 1, 1, 1, 1, [1] * 6), bulk, label="c0")
    with pytest.raises(ValueError, match=r"RIGID_TO_FEM: body 0 \('c0'\) is PSEUDO_RIGID in "
                                         r"this run but body 0 is RIGID"):
        RIGID_TO_FEM(rigid_run, 0.2, sol2)


def test_rigid_to_fem_refuses_reduced_order_bodies(rigid_run, tmp_path):
    sol = SOLFEC("DYNAMIC", H, str(tmp_path / "F"))
    bulk = BULK_MATERIAL(sol, young=1e7, poisson=0.3, density=1000.0)
    tl = BODY(sol, "FINITE_ELEMENT", HEX(CORNERS, 1, 1, 1, 1, [1] * 6), bulk)
    base = MODAL_ANALYSIS(tl, 8)
    DELETE(sol, tl)
    BODY(sol, "FINITE_ELEMENT", HEX(CORNERS, 1, 1, 1, 1, [1] * 6), bulk, label="c0",
         form="BC-MODAL", base=base)
    with pytest.raises(ValueError, match=r"RIGID_TO_FEM: body 1 \('c0'\) is a reduced-order "
                                         r"FINITE_ELEMENT body .* forms 'TL', 'BC' and 'FFR'"):
        RIGID_TO_FEM(rigid_run, 0.2, sol, subset="c0")


# --- READ mode and the solfec launcher -------------------------------------------------------
DECK_A = """
sol = SOLFEC('DYNAMIC', 1e-3, 'A')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
b = BODY(sol, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), bulk, label='ball')
INITIAL_VELOCITY(b, (1, 0, 0), (0, 0, 5))
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.1)
"""

DECK_B = """
sol = SOLFEC('DYNAMIC', 1e-3, 'B')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
b = BODY(sol, 'RIGID', SPHERE((0, 0, 0), 0.1, 1, 1), bulk, label='ball')
n = INITIALIZE_STATE(sol, 'A', 0.05)
m = RIGID_TO_FEM('A', 0.05, sol, subset='ball')
print('MODE', sol.mode, n, m, repr(b.conf[9]), repr(b.velo[2]))
n = INITIALIZE_STATE(sol, 'no/such/run', 0.05) if sol.mode == 'READ' else -1
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.05)
print('END', sol.mode, repr(sol.time), repr(b.conf[9]), n)
"""


def test_builtins_in_a_deck_and_nothing_in_read_mode(tmp_path, run_solfec):
    pa = run_solfec(DECK_A, deck_path=None)
    assert pa.returncode == 0, pa.stderr
    (tmp_path / "b.py").write_text(DECK_B)
    first = run_solfec(deck_path=tmp_path / "b.py")
    assert first.returncode == 0, first.stderr
    mode, n, m, x, wz = first.stdout.split("MODE ")[1].split()[:5]
    assert (mode, n, m) == ("WRITE", "1", "1")
    assert float(x) == pytest.approx(0.05, abs=1e-12) and float(wz) == pytest.approx(5.0)
    end = first.stdout.split("END ")[1].split()
    assert float(end[2]) == pytest.approx(0.1, abs=1e-12)  # started at A's x(0.05)
    again = run_solfec(deck_path=tmp_path / "b.py")  # READ mode: both routines do nothing
    assert again.returncode == 0, again.stderr
    mode, n, m, x, wz = again.stdout.split("MODE ")[1].split()[:5]
    assert (mode, n, m, float(x), float(wz)) == ("READ", "0", "0", 0.0, 0.0)
    end = again.stdout.split("END ")[1].split()
    assert end[0] == "READ" and end[3] == "0"  # a bad path is not even opened
