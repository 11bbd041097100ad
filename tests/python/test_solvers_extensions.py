"""Solver features of issue 6 in decks: NEWTON_SOLVER(locdyn='OFF') against 'ON' on rigid and
finite-element models, AUTO_SOLVER, the Gauss-Seidel failure callback in both forms,
itershist / mvhist, the Solfec-1.0 members accepted as no-ops, and the stderr warning of an
unconverged solve."""

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box, slab


def stack(outdir, n=3, push=0.5, spacing=1.0):
    """n boxes on a floor slab (4-point faces: W is rank-deficient), the top one pushed."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    CONTACT_POINTS(sol, 4)   # the redundant 4-point faces are what these solver tests need
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, model="SIGNORINI_COULOMB", friction=0.5)
    BODY(sol, "OBSTACLE", slab(), bulk)
    bodies = [BODY(sol, "RIGID", box(-0.5 + 0.05 * k, -0.5, spacing * k, 1, 1, 1), bulk)
              for k in range(n)]
    INITIAL_VELOCITY(bodies[-1], (push, 0, 0), (0, 0, 0))
    GRAVITY(sol, (0, 0, -10))
    return sol, bodies


def cube_mesh(x, y, z, a, n):
    c = [x, y, z, x + a, y, z, x + a, y + a, z, x, y + a, z,
         x, y, z + a, x + a, y, z + a, x + a, y + a, z + a, x, y + a, z + a]
    return HEX(c, n, n, n, 1, [1, 2, 3, 4, 5, 6])


def fe_block(outdir):
    """A 2x2x2 HEX8 block (DEF_LIM: A^-1 is a factorised solve) dropped on a floor."""
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e7, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.3)
    BODY(sol, "OBSTACLE", slab(), bulk)
    b = BODY(sol, "FINITE_ELEMENT", cube_mesh(-0.5, -0.5, 0.0005, 1.0, 2), bulk)
    b.scheme = "DEF_LIM"
    b.damping = 1e-2
    GRAVITY(sol, (0, 0, -9.81))
    return sol, [b]


def run_locdyn(tmp_path, build, locdyn, steps):
    sol, bodies = build(str(tmp_path / ("out-" + locdyn)))
    # The default smoothing (10 Gauss-Seidel sweeps after 4 Newton iterations that do not
    # halve the merit) is on: without it the nonmonotone line search let Newton cycle between
    # two iterates on one step of the stack (merit alternating 1.4e-13 / 8.3e-11 for 200
    # iterations with locdyn 'ON' in a -march=native build, 2.7e-13 / 1.9e-13 in this one).
    ns = NEWTON_SOLVER(meritval=1e-20, maxiter=200, locdyn=locdyn, gsflag="OFF")
    contacts = 0
    for _ in range(steps):
        RUN(sol, ns, 1e-3)
        assert ns.merit <= 1e-18  # measured <= 1.0e-20 on every step
        contacts = max(contacts, sol.ncon)
    return np.concatenate([np.array(b.conf) for b in bodies]), \
        np.concatenate([np.array(b.velo) for b in bodies]), contacts


# locdyn 'OFF' solves with W x summed through the bodies instead of through the stored
# blocks. Smoothing may step in on another iteration in one run than in the other, so the
# two agree to the accuracy of the solves, not to round-off: merit <= 1e-20 bounds the
# relative velocity error by ~1e-10 of the velocities (~0.2 m/s) each step. Measured over
# initial pushes changed by 0 to 1e-11 relative, in this build and a -march=native one:
# positions 4.6e-14 to 1.4e-12 m, velocities 1.6e-11 to 3.0e-10 m/s (FE block: 4.4e-16 m,
# 2.4e-14 m/s). A wrong operator product gives errors of the order of the velocity changes.
@pytest.mark.parametrize("build,steps", [(stack, 60), (fe_block, 40)],
                         ids=["stacked-boxes", "finite-element"])
def test_locdyn_off_gives_the_assembled_solution(tmp_path, build, steps):
    q_on, u_on, n_on = run_locdyn(tmp_path, build, "ON", steps)
    q_off, u_off, n_off = run_locdyn(tmp_path, build, "OFF", steps)
    assert n_on == n_off and n_on >= 4  # contacts were active
    assert np.abs(q_on - q_off).max() < 1e-10
    assert np.abs(u_on - u_off).max() < 1e-8 * max(1.0, np.abs(u_on).max())


def test_locdyn_member_and_gauss_seidel_fallback(tmp_path):
    sol, bodies = stack(str(tmp_path / "out"))
    ns = NEWTON_SOLVER(meritval=1e-30, maxiter=1, locdyn="OFF")  # forces the fallback
    assert ns.locdyn == "OFF"
    RUN(sol, ns, 5e-3)
    assert ns.fallback and ns.error == "OK"  # GS assembled W and converged
    with pytest.raises(ValueError, match="locdyn"):
        ns.locdyn = "MAYBE"


def test_auto_solver_runs_a_stack_and_records_winners(tmp_path):
    sol, bodies = stack(str(tmp_path / "out"))
    au = AUTO_SOLVER(meritval=1e-10, maxiter=500)
    au.itershist = "ON"
    RUN(sol, au, 0.02)
    assert len(au.winner_history) == 20
    assert set(au.winner_history) <= {"NEWTON_SOLVER", "GAUSS_SEIDEL_SOLVER"}
    assert au.error == "OK" and au.merit <= 1e-10
    assert au.winner == au.winner_history[-1]
    assert len(au.itershist) == 20 and au.itershist[-1] == au.iters
    assert au.newton_iters + au.gs_iters == au.iters
    with pytest.raises(ValueError, match="AUTO_SOLVER.*first"):
        AUTO_SOLVER(first="BOTH")
    with pytest.raises(ValueError, match="stallfactor"):
        AUTO_SOLVER(stallfactor=1.5)


def failing_stack(outdir):
    """Overlapping boxes: contacts from the first step on."""
    sol, _ = stack(outdir, push=0.0, spacing=0.999)
    return sol


@pytest.mark.parametrize("form", ["manual", "solfec1"])
def test_gauss_seidel_failure_callback_in_both_forms(tmp_path, form):
    sol = failing_stack(str(tmp_path / "out"))
    calls = []
    if form == "manual":
        def on_fail(solver, a, b):  # callback(solver, *data)
            calls.append((solver.error, a, b, sol.time))
            return 0
    else:
        def on_fail(a, b):  # Solfec-1.0: callback(*data)
            calls.append((a, b, sol.time))
            return 0
    gs = GAUSS_SEIDEL_SOLVER(1e-14, 2, meritval=1e-30, failure="CALLBACK", data=(1, "x"),
                             callback=on_fail)
    RUN(sol, gs, 0.01)
    assert len(calls) == 1  # returning 0 stopped the run at the first failure
    assert calls[0][:-1] == (("DIVERGED", 1, "x") if form == "manual" else (1, "x"))
    assert sol.time == calls[0][-1] < 0.01 - 1e-9
    assert gs.error == "DIVERGED" and gs.iters == 2 and len(gs.merhist) == 2


def test_gauss_seidel_histories_and_serial_members(tmp_path):
    sol = failing_stack(str(tmp_path / "out"))
    gs = GAUSS_SEIDEL_SOLVER(1e-10, 500, meritval=1e-14, diagsolver="PROJECTED_NEWTON")
    assert gs.itershist == []
    gs.itershist = "ON"
    gs.variant = "MIDDLE_JACOBI"  # parallel settings: accepted, no effect in serial
    gs.innerloops = 3
    RUN(sol, gs, 0.005)
    assert len(gs.itershist) == 5 and gs.itershist[-1] == gs.iters
    assert len(gs.rerhist) == gs.iters and gs.error == "OK"
    with pytest.raises(ValueError, match="variant"):
        gs.variant = "JACOBI"
    with pytest.raises(ValueError, match="innerloops"):
        gs.innerloops = 0
    sol, _ = stack(str(tmp_path / "out2"), spacing=0.999)
    ns = NEWTON_SOLVER(meritval=1e-12, linver="GMRES", theta=0.25, reldelta="OFF")
    RUN(sol, ns, 0.002)
    assert len(ns.mvhist) == len(ns.merhist) > 0 and sum(ns.mvhist) == ns.linear_iters


DECK = """
def box(x, y, z, a=1.0):
    v = [x, y, z, x + a, y, z, x + a, y + a, z, x, y + a, z,
         x, y, z + 1, x + a, y, z + 1, x + a, y + a, z + 1, x, y + a, z + 1]
    f = [4, 0, 3, 2, 1, 1, 4, 0, 1, 5, 4, 1, 4, 1, 2, 6, 5, 1,
         4, 2, 3, 7, 6, 1, 4, 3, 0, 4, 7, 1, 4, 4, 5, 6, 7, 1]
    return CONVEX(v, f, 1)
sol = SOLFEC('DYNAMIC', 1e-3, 'out')
CONTACT_POINTS(sol, 4)  # redundant face points: one sweep leaves every step unconverged
bulk = BULK_MATERIAL(sol)
BODY(sol, 'OBSTACLE', box(-5, -5, -1, 10.0), bulk)
for i in range(3):
    BODY(sol, 'RIGID', box(-0.5, -0.5, i * 0.999), bulk)
GRAVITY(sol, (0, 0, -10))
gs = GAUSS_SEIDEL_SOLVER(1e-14, 1, meritval=1e-30)
RUN(sol, gs, 0.005)
RUN(sol, gs, 0.005)
"""


def test_unconverged_solves_warn_once_per_run_on_stderr(run_solfec):
    p = run_solfec(DECK)
    assert p.returncode == 0, p.stderr
    lines = [ln for ln in p.stderr.splitlines() if ln.startswith("WARNING: GAUSS_SEIDEL_SOLVER")]
    assert len(lines) == 2  # two RUNs with unconverged steps: one line each
    # The contacts exist from step 1 (touching boxes); the second RUN warns at its first
    # step, 6.
    assert "did not converge at step 1 " in lines[0] and "at step 6 " in lines[1]
    assert "merit" in lines[0] and "after 1 iterations (error DIVERGED)" in lines[0]
    # The progress line (verbose 'ON', printed at the end of each RUN off a terminal) shows
    # the final merit and the error code.
    ends = [ln for ln in p.stdout.splitlines() if ln.startswith("t=")]
    assert ends and all("merit" in ln and "(not converged: DIVERGED)" in ln for ln in ends[-2:])
