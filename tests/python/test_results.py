"""Results output: HDF5 round trip, READ mode, HISTORY, SEEK, h5py/XDMF readers, kill-safety,
restart and output errors (docs/output.md)."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from solfec import _state, results
from shapes_for_tests import box, slab

H = 2e-3


def model(out, restitution=0.5, duration=0.2, interval=None, compression="OFF", record=None):
    """A ball bouncing next to a box resting on a floor slab; `record` collects per-step
    values through CALLBACK (WRITE mode)."""
    sol = SOLFEC("DYNAMIC", H, out)
    sol.verbose = "OFF"
    # the box rests on a 4-point face (up to 5 contacts, test_small_model_file...);
    # with one point per pair it rocks about the face centre
    CONTACT_POINTS(sol, 4)
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.3, restitution=restitution)
    floor = BODY(sol, "OBSTACLE", slab(), bulk, label="floor")
    ball = BODY(sol, "RIGID", SPHERE((0, 0, 0.3), 0.1, 1, 1), bulk, label="ball")
    cube = BODY(sol, "RIGID", box(0.5, 0.5, 0.0, 0.2, 0.2, 0.2), bulk, label="cube")
    INITIAL_VELOCITY(ball, (0.1, 0, -1.0), (0, 2.0, 0))
    GRAVITY(sol, (0, 0, -9.81))
    if interval is not None:
        OUTPUT(sol, interval, compression)
    if record is not None:
        def cb():
            cons = []
            for c in sol.constraints:
                cons.append((c._id, c.kind, c.R, c.U, c.point, c.base, c.gap, c.area, c.merit,
                             c.spair, c.adjbod.id if isinstance(c.adjbod, BODY) else
                             tuple(b.id for b in c.adjbod)))
            record.append({"t": sol.time, "ball": (ball.conf, ball.velo), "cube": (cube.conf, cube.velo),
                           "E": ENERGY(sol), "Eb": ENERGY(sol, ball), "cons": cons,
                           "T": [TIMING(sol, k) for k in results.TIMING_NAMES],
                           "DX": DISPLACEMENT(ball, (0, 0, 0.3))[0],
                           "VZ": VELOCITY(ball, (0, 0.1, 0.3))[2]})
            return 1
        CALLBACK(sol, H, (), cb)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 500), duration)
    return sol, ball, cube


def test_write_then_read_round_trip_of_every_stored_quantity(outdir):
    rec = []
    sol, _, _ = model(outdir, record=rec)
    assert sol.mode == "WRITE"
    assert any(r["cons"] for r in rec)  # the ball and the cube touch the floor
    sol2, ball, cube = model(outdir)
    assert sol2.mode == "READ"
    assert DURATION(sol2) == pytest.approx((0.0, 0.2), abs=1e-12)
    for r in rec[::7]:
        SEEK(sol2, r["t"])
        assert sol2.time == r["t"]
        # states and work counters are stored as doubles: bitwise round trip
        assert ball.conf == r["ball"][0] and ball.velo == r["ball"][1]
        assert cube.conf == r["cube"][0] and cube.velo == r["cube"][1]
        assert ENERGY(sol2) == r["E"] and ENERGY(sol2, ball) == r["Eb"]
        assert [TIMING(sol2, k) for k in results.TIMING_NAMES] == r["T"]
        assert DISPLACEMENT(ball, (0, 0, 0.3))[0] == r["DX"]
        cons = [(c._id, c.kind, c.R, c.U, c.point, c.base, c.gap, c.area, c.merit, c.spair,
                 c.adjbod.id if isinstance(c.adjbod, BODY) else tuple(b.id for b in c.adjbod))
                for c in sol2.constraints]
        assert cons == r["cons"]
        assert sum(b.ncon for b in sol2.bodies) >= len(cons)
    # READ mode ignores RUN's physics: each RUN reads the next frame
    SEEK(sol2, 0.0)
    RUN(sol2, GAUSS_SEIDEL_SOLVER(1e-8, 500), 1.0)
    assert sol2.time == pytest.approx(H, abs=1e-15)
    FORWARD(sol2, 5)
    assert sol2.time == pytest.approx(6 * H, abs=1e-15)
    BACKWARD(sol2, 2)
    assert sol2.time == pytest.approx(4 * H, abs=1e-15)


def test_read_mode_history_equals_values_recorded_during_write(outdir):
    rec = []
    sol, ball, _ = model(outdir, record=rec)
    items = [(ball, (0, 0, 0.3), "DX"), (ball, (0, 0.1, 0.3), "VZ"), (sol, "KINETIC"),
             (ball, "CONTACT"), "CONS", "GSITERS", "MERIT", "TIMINT", (sol, "CR"), (sol, "GAP"),
             (ball, None, (1, 1), "CR"), ([ball], (0, 0, 1), None, "R"), "STEP", "BODS"]
    hw = HISTORY(sol, items, 0.0, 0.2)  # WRITE mode: reads the file written so far
    sol2, ball2, _ = model(outdir)
    hr = HISTORY(sol2, [(ball2,) + it[1:] if isinstance(it, tuple) and it[0] is ball else
                        ((sol2,) + it[1:] if isinstance(it, tuple) and it[0] is sol else
                         ([ball2],) + it[1:] if isinstance(it, tuple) else it) for it in items],
                 0.0, 0.2)
    for a, b in zip(hw, hr):
        np.testing.assert_array_equal(a, b)
    t = hr[0]
    assert len(t) == 101 and t[0] == 0.0 and t[-1] == pytest.approx(0.2)
    # frame k >= 1 holds the state after step k, exactly what CALLBACK saw
    np.testing.assert_array_equal(t[1:], [r["t"] for r in rec])
    np.testing.assert_array_equal(hr[1][1:], [r["DX"] for r in rec])
    np.testing.assert_array_equal(hr[2][1:], [r["VZ"] for r in rec])
    np.testing.assert_array_equal(hr[3][1:], [r["E"][0] for r in rec])
    np.testing.assert_array_equal(hr[4][1:], [r["Eb"][3] for r in rec])
    np.testing.assert_array_equal(hr[5][1:], [len(r["cons"]) for r in rec])
    cr = [sum(c[2][2] for c in r["cons"] if c[1] == "CONTACT") for r in rec]
    np.testing.assert_allclose(hr[9][1:], cr, rtol=1e-12, atol=1e-12)
    gap = [min([c[6] for c in r["cons"] if c[1] == "CONTACT"] or [0.0]) for r in rec]
    np.testing.assert_array_equal(hr[10][1:], gap)
    # along +z the spatial reaction of a floor contact equals its normal component
    ball_cr = [sum(c[2][2] for c in r["cons"] if c[10] in ((0, 1), (1, 0), 1)) for r in rec]
    np.testing.assert_allclose(hr[11][1:], ball_cr, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(hr[12][1:], ball_cr, rtol=1e-9, atol=1e-9)
    assert (hr[13] == H).all() and (hr[14] == 3).all()
    # skip and the time window
    ts = HISTORY(sol2, ["STEP"], 0.05, 0.1, skip=5)[0]
    np.testing.assert_allclose(ts, [0.05, 0.06, 0.07, 0.08, 0.09, 0.1], atol=1e-12)


def test_seek_lands_on_the_nearest_frame(outdir):
    model(outdir, interval=0.01, duration=0.1)
    sol, ball, _ = model(outdir, interval=0.01, duration=0.1)
    assert sol.mode == "READ"
    SEEK(sol, 0.026)
    assert sol.time == pytest.approx(0.03, abs=1e-12)
    SEEK(sol, 0.0249)
    assert sol.time == pytest.approx(0.02, abs=1e-12)
    SEEK(sol, 5.0)
    assert sol.time == pytest.approx(0.1, abs=1e-12)
    BACKWARD(sol, 100)
    assert sol.time == 0.0
    assert len(HISTORY(sol, ["STEP"], 0, 1)[0]) == 11


def test_h5py_reads_the_file_without_solfec(tmp_path, run_solfec):
    # a finished `solfec` run leaves a closed file that plain h5py opens
    deck = KILL_DECK.replace("GRAVITY(", "OUTPUT(sol, 0.02, 'ON')\nGRAVITY(")
    assert _final(run_solfec(deck, args=["0.2"]))[0] == "WRITE"
    path = str(tmp_path / "out" / "k" / "k.h5")
    code = f"""
import h5py, numpy as np
f = h5py.File({path!r}, 'r')
assert f.attrs['format'] in (b'solfec-results', 'solfec-results') and f.attrs['version'] == 2
n = int(f['frames/count'][0])
fr = f['frames/table'][:n]
defs = f['bodies/table'][:]
b = fr[-1]
q = f['frames/q'][b['q_start']:b['q_start'] + b['q_count']]
ids = f['frames/bodies'][b['body_start']:b['body_start'] + b['body_count']]['id']
# a frame's constraints: state rows, their fixed fields in /constraints/table rows 'def'
c = f['frames/constraints'][b['con_start']:b['con_start'] + b['con_count']]
cdef = f['constraints/table'][:][c['def']]
assert len(c) > 0 and (cdef['kind'] == 0).all()
assert ((cdef['body1'] == 0) | (cdef['body2'] == 0)).all()  # all on the floor (body 0)
assert (abs(c['base'][:, 8]) > 0.99).all()  # so their normals (column 3) are vertical
print(n, list(defs['kind']), list(ids), len(q), f['frames/q'].compression,
      round(float(fr['time'][-1]), 9))
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd="/")
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["11", "[3,", "0,", "0]", "[0,", "1,", "2]", "36", "gzip", "0.2"]


def test_xdmf_export_loads_in_meshio(outdir):
    meshio = pytest.importorskip("meshio")
    sol, _, _ = model(outdir, interval=0.05)
    paths = XDMF_EXPORT(sol)
    with results.Results(outdir) as res:
        last = res.frame(res.nframes - 1)
    with meshio.xdmf.TimeSeriesReader(paths[0]) as r:
        pts, cells = r.read_points_cells()
        assert r.num_steps == 5
        # slab and cube: 8 vertices and 6 quads = 12 triangles each
        assert pts.shape == (16, 3) and cells[0].type == "triangle" and len(cells[0].data) == 24
        t, _, cd = r.read_data(4)
        assert t == pytest.approx(0.2) and sorted(cd["body"][0]) == [0] * 12 + [2] * 12
    with meshio.xdmf.TimeSeriesReader(paths[1]) as r:
        pts, cells = r.read_points_cells()
        _, pd, _ = r.read_data(0)
        assert pts.shape == (1, 3) and pd["radius"] == pytest.approx([0.1])
    with meshio.xdmf.TimeSeriesReader(paths[2]) as r:
        r.read_points_cells()
        _, pd, _ = r.read_data(4)
        n = len(last.constraints)
        assert n > 0 and pd["reaction"].shape == (n, 3)
        base = last.constraints["base"].reshape(-1, 3, 3)
        np.testing.assert_allclose(pd["normal"], base[:, 2, :])
        np.testing.assert_allclose(pd["reaction"] @ np.array([0, 0, 1.0]),
                                   np.einsum("kji,kj->ki", base, last.constraints["R"])[:, 2])


def _floor_deck(step, out, restitution):
    """Opening lines of the decks run as scripts below: the end time from argv[1], SOLFEC
    (DYNAMIC, `step`, `out`), one material and an obstacle floor below z = 0."""
    return f"""
import sys
T = float(sys.argv[1])
sol = SOLFEC('DYNAMIC', {step}, '{out}')
sol.verbose = 'OFF'
bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
SURFACE_MATERIAL(sol, friction=0.3, restitution={restitution})
BODY(sol, 'OBSTACLE', HULL([-5,-5,-1, 5,-5,-1, 5,5,-1, -5,5,-1, -5,-5,0, 5,-5,0, 5,5,0, -5,5,0], 1, 1), bulk)
"""


KILL_DECK = _floor_deck("1e-3", "out/k", 0.5) + """b = BODY(sol, 'RIGID', SPHERE((0, 0, 0.3), 0.1, 1, 1), bulk, label='ball')
c = BODY(sol, 'RIGID', HULL([0.5,0.5,0, 0.7,0.5,0, 0.7,0.7,0, 0.5,0.7,0, 0.5,0.5,0.2, 0.7,0.5,0.2, 0.7,0.7,0.2, 0.5,0.7,0.2], 1, 1), bulk)
INITIAL_VELOCITY(b, (0.1, 0, -1.0), (0, 2.0, 0))
INITIAL_VELOCITY(c, (0.3, 0, 0), (0, 0, 0))
GRAVITY(sol, (0, 0, -9.81))
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 500), T)
print('END', sol.mode, repr((sol.time, b.conf, b.velo, c.conf, c.velo)))
"""


def _final(p):
    assert p.returncode == 0, p.stderr
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("END")][-1]
    return line.split(" ", 2)[1], eval(line.split(" ", 2)[2])


def _kill_after_steps(proc, state, steps, timeout):
    """SIGKILL `proc` once its STATE file reports `steps` steps (or after `timeout` s)."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        if state.exists() and "step" in state.read_text():
            if int(dict(ln.split() for ln in state.read_text().splitlines())["step"]) >= steps:
                break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def test_killed_run_opens_in_read_mode_and_continues_to_the_uninterrupted_result(tmp_path,
                                                                                 run_solfec):
    deck = tmp_path / "deck.py"
    deck.write_text(KILL_DECK)
    from conftest import SOLFEC_EXE
    proc = subprocess.Popen([SOLFEC_EXE, str(deck), "1000"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _kill_after_steps(proc, tmp_path / "out" / "k" / "STATE", 200, 30)
    with results.Results(str(tmp_path / "out" / "k")) as res:
        n = res.nframes
        t_last = float(res.times[-1])
        last = res.frame(n - 1)
        ball_q = last.body_q(1).copy()
    assert n >= 200 and t_last == pytest.approx((n - 1) * 1e-3, abs=1e-12)
    # the killed output opens in READ mode up to its last complete frame
    mode, _ = _final(run_solfec(deck_path=deck, args=["0.5"]))
    assert mode == "READ"
    # an uninterrupted run to the killed run's last frame time reproduces that frame
    (tmp_path / "ref").mkdir()
    ref_deck = tmp_path / "ref" / "deck.py"
    ref_deck.write_text(KILL_DECK)
    _, ref = _final(subprocess.run([SOLFEC_EXE, str(ref_deck), repr(t_last)], cwd=tmp_path / "ref",
                                   capture_output=True, text=True))
    assert np.array_equal(ref[1], ball_q)
    # restart (-c) continues the killed run to T; it matches the uninterrupted run to T
    T = t_last + 0.15
    mode, cont = _final(run_solfec(deck_path=deck, options=["-c"], args=[repr(T)]))
    _, full = _final(subprocess.run([SOLFEC_EXE, "-w", str(ref_deck), repr(T)],
                                    cwd=tmp_path / "ref", capture_output=True, text=True))
    assert mode == "WRITE"
    assert cont[0] == pytest.approx(full[0], rel=0, abs=1e-13)
    for a, b in zip(cont[1:], full[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9)  # solver tolerance 1e-8
    with results.Results(str(tmp_path / "out" / "k")) as res:
        assert res.times[-1] == pytest.approx(T, abs=1e-12)
        assert np.all(np.diff(res.times) > 0)


def test_restart_of_a_finished_run_matches_the_uninterrupted_run(tmp_path):
    full, fball, fcube = model(str(tmp_path / "full"), duration=0.3)
    ref = (fball.conf, fcube.conf, fcube.velo)
    half, _, _ = model(str(tmp_path / "half"), duration=0.16)
    del half
    _state.options["continue"] = True
    try:
        sol, ball, cube = model(str(tmp_path / "half"), duration=0.3)
    finally:
        _state.options["continue"] = False
    assert sol.mode == "WRITE" and sol.time == pytest.approx(0.3, abs=1e-12)
    np.testing.assert_allclose(ball.conf, ref[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(cube.conf, ref[1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(cube.velo, ref[2], rtol=0, atol=1e-9)
    h1 = HISTORY(full, [(full, "KINETIC"), "CONS"], 0, 1)
    h2 = HISTORY(sol, [(sol, "KINETIC"), "CONS"], 0, 1)
    np.testing.assert_array_equal(h1[0], h2[0])
    np.testing.assert_allclose(h1[1], h2[1], rtol=1e-9, atol=1e-12)


def test_unwritable_output_gives_a_clear_error_before_computing(tmp_path, monkeypatch):
    out = tmp_path / "o"
    (out / "o.h5").mkdir(parents=True)  # the results path is taken by a directory
    with pytest.raises(ValueError, match=r"SOLFEC: cannot create the results file .*o\.h5"):
        SOLFEC("DYNAMIC", H, str(out))
    with pytest.raises(ValueError, match="SOLFEC: cannot create the output directory"):
        SOLFEC("DYNAMIC", H, "/proc/solfec-results")
    # a nearly full disk stops RUN before the first step
    sol = SOLFEC("DYNAMIC", H, str(tmp_path / "full"))
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol)
    BODY(sol, "RIGID", SPHERE((0, 0, 0), 0.1, 1, 1), bulk)

    class Tiny:
        f_bavail, f_frsize = 100, 4096
    monkeypatch.setattr(os, "statvfs", lambda p: Tiny())
    with pytest.raises(ValueError, match="RUN: not enough disk space"):
        RUN(sol, GAUSS_SEIDEL_SOLVER(1e-6, 100), 10.0)
    assert sol.time == 0.0


def test_file_of_the_previous_format_version_is_refused_naming_its_version(outdir):
    import h5py
    model(outdir, duration=0.01)
    path = results.results_path(outdir)
    with h5py.File(path, "r+") as f:
        f.attrs["version"] = 1
    with pytest.raises(ValueError, match="format version 1; this solfec reads version 2"):
        results.Results(path)
    # a deck on such a file stops instead of overwriting it; -w overwrites it
    with pytest.raises(ValueError, match="has format version 1.*run the deck with -w"):
        model(outdir, duration=0.01)
    _state.options["write"] = True
    try:
        sol, _, _ = model(outdir, duration=0.01)
    finally:
        _state.options["write"] = False
    assert sol.mode == "WRITE"
    with results.Results(path) as r:
        assert r.version == 2 and r.nframes == 6


def test_frame_constraints_join_states_and_definitions_of_the_file(outdir):
    import h5py
    model(outdir, duration=0.2)
    with results.Results(outdir) as r:
        frames = [r.frame(i) for i in range(r.nframes)]
    with h5py.File(results.results_path(outdir), "r") as f:
        states, defs = f["frames/constraints"][:], f["constraints/table"][:]
    rows = sum(len(fr.constraints) for fr in frames)
    assert rows > 50
    # fixed fields once per constraint (a definition row per id here: no piece or surface
    # changes in this model), the changing ones every frame; rows between the deflated
    # blocks of frames are unused: id -1 (def -1 in the states)
    used = defs[defs["id"] >= 0]
    assert len(used) == len(np.unique(used["id"])) < rows
    assert (states["def"] >= -1).all() and (states["def"] < len(defs)).all()
    assert np.array_equal(np.unique(states["def"][states["def"] >= 0]),
                          np.nonzero(defs["id"] >= 0)[0])
    for fr in frames:
        c = fr.constraints
        assert c.dtype == results.CONSTRAINT_DTYPE and c.dtype.itemsize == 296
        s = states[fr.row["con_start"]:fr.row["con_start"] + fr.row["con_count"]]
        np.testing.assert_array_equal(c["id"], defs["id"][s["def"]])
        np.testing.assert_array_equal(c["R"], s["R"])
        np.testing.assert_array_equal(c["X2"], s["X2"])


def test_small_model_file_is_not_bloated_by_chunks(outdir):
    # 101 frames of 3 rigid bodies and up to 5 contacts: the file holds little more than the
    # raw bytes of its frames (chunks sized from the first frame, deflated constraint chunks
    # written once); fixed 64 kB chunks of q and u alone would exceed the bound
    model(outdir, duration=0.2)
    path = results.results_path(outdir)
    with results.Results(path) as r:
        fr = r.frames
        payload = int(fr.size * fr.dtype.itemsize + 48 * fr["body_count"].sum() +
                      8 * (fr["q_count"].sum() + fr["u_count"].sum()) +
                      256 * fr["con_count"].sum())
    assert r.nframes == 101 and payload > 100_000
    assert os.path.getsize(path) <= payload + 32 * 1024  # HDF5 metadata and shapes


def test_stress_is_not_defined_for_rigid_bodies(outdir):
    sol, ball, _ = model(outdir, duration=0.01)
    with pytest.raises(ValueError, match="STRESS: not defined for RIGID bodies"):
        STRESS(ball, (0, 0, 0))
    with pytest.raises(ValueError, match="STRESS: not defined for RIGID bodies"):
        HISTORY(sol, [(ball, (0, 0, 0), "MISES")], 0, 1)


def test_cli_writes_deck_copy_and_state_and_w_forces_write(tmp_path, run_solfec):
    deck = tmp_path / "deck.py"
    deck.write_text(KILL_DECK)
    mode, _ = _final(run_solfec(deck_path=deck, args=["0.05"]))
    assert mode == "WRITE"
    state = dict(ln.split() for ln in (tmp_path / "out/k/STATE").read_text().splitlines())
    assert float(state["time"]) == pytest.approx(0.05) and int(state["step"]) == 50
    assert (tmp_path / "out/k/k.py").read_text() == KILL_DECK
    assert _final(run_solfec(deck_path=deck, args=["0.05"]))[0] == "READ"
    assert _final(run_solfec(deck_path=deck, options=["-w"], args=["0.05"]))[0] == "WRITE"


def _resting_balls(outdir, h):
    """400 rigid balls in a 20 x 20 grid just touching a floor slab (400 contacts)."""
    sol = SOLFEC("DYNAMIC", h, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    SURFACE_MATERIAL(sol, friction=0.3, restitution=0.0)
    BODY(sol, "OBSTACLE", slab(), bulk)
    balls = [BODY(sol, "RIGID", SPHERE((0.25 * i - 2.4, 0.25 * j - 2.4, 0.0999), 0.1, 1, 1), bulk)
             for i in range(20) for j in range(20)]
    GRAVITY(sol, (0, 0, -9.81))
    return sol, balls


@pytest.mark.parametrize("compression", ["OFF", "ON"])
def test_large_frames_deflated_while_the_next_step_runs_read_back_exactly(outdir, compression):
    # 400 balls resting on the floor: 400 contacts, 100 kB of constraint states a frame, more
    # than the 64 kB from which a frame's deflated blocks are encoded on the writer's worker
    # thread (written when the next frame comes, or when RUN ends); with compression 'ON' the
    # body states, q and u go the same way
    sol, balls = _resting_balls(outdir, H)
    OUTPUT(sol, H, compression)
    record, pending = [], []

    def cb():
        pending.append(sol._output.pending)
        record.append((sol.time, {c._id: c.R for c in sol.constraints},
                       [np.array(b.conf) for b in balls[::37]],
                       [np.array(b.velo) for b in balls[::37]]))
        return 1
    CALLBACK(sol, H, (), cb)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 500), 10 * H)
    assert any(pending)  # the worker path ran (a frame was in flight during a step)
    assert not sol._output.pending and sol._output.frames == 11  # all written when RUN returns
    assert all(len(r[1]) == 400 for r in record)
    with results.Results(outdir) as res:
        assert res.nframes == 11
        for t, cons, confs, velos in record:
            i = int(np.argmin(np.abs(res.times - t)))
            assert res.times[i] == pytest.approx(t, abs=1e-12)
            fr = res.frame(i)
            stored = {int(k): r for k, r in zip(fr.constraints["id"], fr.constraints["R"])}
            assert stored.keys() == cons.keys()
            for k, R in cons.items():
                assert np.array_equal(stored[k], R)
            for b, q, u in zip(balls[::37], confs, velos):
                assert np.array_equal(fr.body_q(b.id), q)
                assert np.array_equal(fr.body_u(b.id), u)


BALLS_DECK = _floor_deck("2e-3", "out/b", 0.0) + """for i in range(20):
    for j in range(20):
        BODY(sol, 'RIGID', SPHERE((0.25 * i - 2.4, 0.25 * j - 2.4, 0.0999), 0.1, 1, 1), bulk)
GRAVITY(sol, (0, 0, -9.81))
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 500), T)
print('END', sol.mode, repr((sol.time, sol.ncon)))
"""


def _check_ball_frames(path, h=2e-3):
    """Every complete frame of BALLS_DECK's file: 401 bodies, 400 contacts after the frame at
    t = 0 (none yet), times k h."""
    with results.Results(path) as res:
        n = res.nframes
        for i in range(n):
            fr = res.frame(i)
            assert len(fr.constraints) == (400 if i else 0) and len(fr.bodies) == 401, f"frame {i}"
            assert np.all(fr.constraints["id"] >= 0)
        np.testing.assert_allclose(res.times, h * np.arange(n), rtol=0, atol=1e-12)
        return n, float(res.times[-1])


def test_run_killed_while_a_frame_is_encoded_keeps_every_complete_frame(tmp_path, run_solfec):
    # frames of 400 contacts are deflated on the writer's worker thread and written one step
    # later: SIGKILL at any moment leaves the frames counted so far whole, and -c continues
    deck = tmp_path / "deck.py"
    deck.write_text(BALLS_DECK)
    from conftest import SOLFEC_EXE
    proc = subprocess.Popen([SOLFEC_EXE, str(deck), "100"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _kill_after_steps(proc, tmp_path / "out" / "b" / "STATE", 150, 60)
    n, t_last = _check_ball_frames(str(tmp_path / "out" / "b"))
    assert n >= 150
    mode, (t, ncon) = _final(run_solfec(deck_path=deck, options=["-c"], args=[repr(t_last + 0.02)]))
    assert mode == "WRITE" and ncon == 400 and t == pytest.approx(t_last + 0.02, abs=1e-9)
    n2, t2 = _check_ball_frames(str(tmp_path / "out" / "b"))
    assert n2 == n + 10 and t2 == pytest.approx(t, abs=1e-12)


def test_run_stopped_by_an_error_leaves_its_frames_in_the_file(outdir):
    sol, _ = _resting_balls(outdir, 2e-3)
    seen = []

    def cb():
        seen.append(sol._output.pending)
        if len(seen) == 6:
            raise RuntimeError("deck callback failed")
        return 1
    CALLBACK(sol, 2e-3, (), cb)
    with pytest.raises(RuntimeError, match="deck callback failed"):
        RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 500), 1.0)
    assert any(seen) and not sol._output.pending
    with results.Results(outdir) as res:
        assert res.nframes == sol._output.frames >= 6
        assert float(res.times[-1]) == pytest.approx(sol.time, abs=1e-12)
        assert len(res.frame(res.nframes - 1).constraints) == 400
