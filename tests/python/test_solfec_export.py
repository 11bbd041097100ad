"""SOLFEC_EXPORT writes Solfec-1.0's PBF files (pbf.c's XDR .dat/.idx/.lab, dio.c's
dom_write_state records); read back here with solfec.pbf and, for the layout, byte by byte,
and compared with the HDF5 results the run wrote at the same times."""

import os
import struct

import numpy as np
import pytest

from solfec import *  # noqa: F401,F403
from solfec import pbf, results

C = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]


def model(outdir, export0=None):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    GRAVITY(sol, (0, 0, -10))
    mat = BULK_MATERIAL(sol, young=1e7, poisson=0.25, density=1e3)
    SURFACE_MATERIAL(sol, friction=0.3)
    floor = TRANSLATE(SCALE(HEX(C, 1, 1, 1, 1, [1] * 6), (4, 2, 0.2)), (-1, -0.5, -0.2))
    BODY(sol, "OBSTACLE", floor, mat, label="floor")
    rb = BODY(sol, "RIGID", HULL(C, 1, 1), mat, label="rb")
    pr = BODY(sol, "PSEUDO_RIGID", TRANSLATE(HULL(C, 1, 1), (1.5, 0, 0)), mat, label="prb")
    fe = BODY(sol, "FINITE_ELEMENT", TRANSLATE(HEX(C, 2, 2, 2, 1, [1] * 6), (0, 0, 1.5)), mat,
              label="fe")
    INITIAL_VELOCITY(rb, (1, 0, 0), (0, 0, 2))
    INITIAL_VELOCITY(fe, (0, 0, -1), (0, 0, 0))
    if export0 is not None:
        export0(sol)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 200), 0.02)
    return sol, {"floor": 0, "rb": rb.id, "prb": pr.id, "fe": fe.id}


def test_read_mode_export_holds_the_stored_frames(tmp_path, outdir, monkeypatch):
    monkeypatch.chdir(tmp_path)
    model(outdir)
    sol, ids = model(outdir)
    assert sol.mode == "READ"
    base = SOLFEC_EXPORT(sol, [0.004, 0.0101, 0.02], "exp/three")
    assert base == os.path.join("exp/three", "three")
    frames = pbf.read_states(base)
    with results.Results(os.path.join(outdir, os.path.basename(outdir) + ".h5")) as res:
        idx = [res.nearest_frame(t) for t in (0.004, 0.0101, 0.02)]
        assert [f["time"] for f in frames] == [float(res.times[i]) for i in idx]
        ncons = 0
        for f, fr in zip(frames, res.iter_frames(idx)):
            assert f["iover"] == 4 and f["step"] == 1e-3
            assert f["merit"] == float(fr.row["merit"])
            assert sorted(f["bodies"]) == sorted(int(i) for i in fr.bodies["id"])
            for name, bid in ids.items():
                b = f["bodies"][bid]
                k = fr.position(bid)
                e = fr.bodies["energy"][k]  # ours: kinetic, internal, external, contact, friction
                assert b["label"] == name
                if name == "fe":  # Solfec-1.0's FE conf: node displacements (mesh space)
                    x, v = res.fe_nodes(fr, bid)
                    X = np.asarray(res.fe_mesh(bid).nodes)
                    assert b["kind"] == "FINITE_ELEMENT"
                    assert np.array_equal(b["conf"], (x - X).ravel())
                    assert np.array_equal(b["velo"], np.asarray(v).ravel())
                    assert len(b["conf"]) == 3 * 27
                else:  # bitwise: doubles go through XDR unchanged
                    assert b["conf"] == fr.body_q(bid).tolist()
                    assert b["velo"] == fr.body_u(bid).tolist()
                want = {"floor": [], "rb": [e[0], e[2], e[3], e[4]]}.get(
                    name, [e[0], e[2], e[3], e[4], e[1]])
                assert b["energy"] == [float(v) for v in want]
            cons = fr.constraints
            assert len(f["constraints"]) == len(cons)
            for c, rec in zip(f["constraints"], cons):
                ncons += 1
                assert c["id"] == rec["id"] and c["kind"] == "CONTACT"
                assert c["R"] == rec["R"].tolist() and c["U"] == rec["U"].tolist()
                assert c["point"] == rec["point"].tolist()
                assert c["base"] == rec["base"].tolist()
                assert (c["master"], c["slave"]) == (rec["body1"], rec["body2"])
                assert c["spair"] == [rec["surf1"], rec["surf2"]]
                assert c["gap"] == rec["gap"] and c["area"] == rec["area"]
                assert c["material"] == 0 and c["state"] == []  # the one material, no cohesion
            assert set(f["timers"]) == {"TIMINT", "CONUPD", "CONDET", "LOCDYN", "CONSOL",
                                        "PARBAL"}
        assert ncons > 0  # the cubes rest on the floor: contacts are written
    # an interval (t0, t1): every stored frame between; a subset: those bodies and the
    # constraints among them (the cubes' contacts are with the floor: none)
    inter = pbf.read_states(SOLFEC_EXPORT(sol, (0.005, 0.008), "exp/inter", subset="^rb$"))
    assert [round(f["time"], 9) for f in inter] == [0.005, 0.006, 0.007, 0.008]
    assert all(list(f["bodies"]) == [ids["rb"]] and not f["constraints"] for f in inter)
    floor_rb = pbf.read_states(SOLFEC_EXPORT(sol, 0.01, "exp/two", subset=["floor", "^rb$"]))
    assert sorted(floor_rb[0]["bodies"]) == [0, ids["rb"]]
    assert floor_rb[0]["constraints"] and all(
        {c["master"], c["slave"]} == {0, ids["rb"]} for c in floor_rb[0]["constraints"])


def test_the_files_follow_solfec_1_0_pbf_layout(tmp_path, outdir, monkeypatch):
    """Decoded here with struct alone: the .lab strings, the .idx frame markers, the .dat
    block's compression byte and the DOM record's first values (pbf.c, dio.c)."""
    monkeypatch.chdir(tmp_path)
    model(outdir)
    sol, ids = model(outdir)
    base = SOLFEC_EXPORT(sol, [0.01, 0.02], "exp/raw")
    lab = open(base + ".lab", "rb").read()
    names, p = [], 0
    while p < len(lab):
        n = struct.unpack_from(">I", lab, p)[0]
        names.append(lab[p + 4:p + 4 + n].decode())
        p += 4 + n + (-n % 4)
    assert names[:5] == ["DOM", "IOVER", "STEP", "MERIT", "BODS"]
    assert {"floor", "rb", "prb", "fe", "CONS", "TIMERS", "TIMINT"} <= set(names)
    idx = open(base + ".idx", "rb").read()
    dat = open(base + ".dat", "rb").read()
    t0, doff0 = struct.unpack_from(">dQ", idx, 0)
    assert t0 == pytest.approx(0.01, abs=1e-12) and doff0 == 0
    # labels of frame 0: (index, position) pairs up to -1; DOM and IOVER at position 0
    assert struct.unpack_from(">iIiI", idx, 16) == (0, 0, 1, 0)
    assert dat[0] == 0  # not compressed
    iover, = struct.unpack_from(">i", dat, 1)
    step, merit = struct.unpack_from(">dd", dat, 5)
    nbod, first_id = struct.unpack_from(">iI", dat, 21)
    assert (iover, step, nbod) == (4, 1e-3, 4)
    # the final marker: DBL_MAX, the .dat size, -2
    assert struct.unpack_from(">dQi", idx, len(idx) - 20) == (pbf.DBL_MAX, len(dat), -2)
    # the deck is copied beside the files only when a deck file runs (not under pytest)
    assert not os.path.exists(base + ".py") or os.path.getsize(base + ".py") > 0


def test_write_mode_exports_the_current_state(tmp_path, outdir, monkeypatch):
    monkeypatch.chdir(tmp_path)
    got = {}

    def export0(sol):
        got["frames"] = pbf.read_states(SOLFEC_EXPORT(sol, 0.0, "exp/geom0"))
        got["conf"] = {b.id: (b.conf, b.velo) for b in sol.bodies if b.kind != "OBSTACLE"}

    sol, ids = model(outdir, export0)
    [f] = got["frames"]
    assert f["time"] == 0.0 and f["constraints"] == []
    assert list(f["bodies"]) == [ids["fe"], ids["prb"], ids["rb"], 0]  # newest first
    for bid, (q, u) in got["conf"].items():
        b = f["bodies"][bid]
        if bid == ids["fe"]:
            assert b["conf"] == [0.0] * 81  # no displacement yet
            assert b["velo"] == list(u) and b["velo"][2::3] == [-1.0] * 27
        else:
            assert b["conf"] == list(q) and b["velo"] == list(u)
    assert f["bodies"][ids["rb"]]["velo"] == [0.0, 0.0, 2.0, 1.0, 0.0, 0.0]
    # the obstacle: identity rotation and its mass centre, no velocity, no energy values
    obst = f["bodies"][0]
    assert obst["conf"][:9] == [1, 0, 0, 0, 1, 0, 0, 0, 1]
    assert obst["conf"][9:] == pytest.approx([1.0, 0.5, -0.1], abs=1e-12)
    assert obst["velo"] == [0.0] * 6 and obst["energy"] == []
    # later in WRITE mode: the state at the current time, the contacts with their V
    later = pbf.read_states(SOLFEC_EXPORT(sol, 0.0, "exp/now"))[0]
    assert later["time"] == pytest.approx(0.02, abs=1e-12)
    assert later["constraints"] and all(len(c["V"]) == 3 for c in later["constraints"])
    assert later["bodies"][ids["rb"]]["conf"] == list(BYLABEL(sol, "BODY", "rb").conf)


def test_a_deck_run_copies_itself_and_errors_name_the_routine(run_solfec, tmp_path):
    deck = ("sol = SOLFEC('DYNAMIC', 1e-3, 'out/d')\n"
            "mat = BULK_MATERIAL(sol)\n"
            "BODY(sol, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), mat, label='ball')\n"
            "SOLFEC_EXPORT(sol, 0.0, 'out/sx')\n"
            "try:\n    SOLFEC_EXPORT(sol, 0.0, 'out/sy', subset='nothing')\n"
            "except ValueError as e:\n    print('ERR', e)\n"
            "try:\n    SOLFEC_EXPORT(None, 0.0, 'out/sy')\n"
            "except TypeError as e:\n    print('ERR', e)\n")
    p = run_solfec(deck)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "out/sx/sx.py").read_text() == deck
    [f] = pbf.read_states(str(tmp_path / "out/sx/sx"))
    assert f["bodies"][0]["label"] == "ball"
    assert "ERR SOLFEC_EXPORT: argument 'subset' matches no body" in p.stdout
    assert "ERR SOLFEC_EXPORT: argument 'solfec'" in p.stdout


MPI_DECK = """
sol = SOLFEC('DYNAMIC', 1e-3, 'out/d')
sol.verbose = 'OFF'
GRAVITY(sol, (0, 0, -10))
mat = BULK_MATERIAL(sol, young=1e7, poisson=0.25, density=1e3)
SURFACE_MATERIAL(sol, friction=0.3)
C = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]
BODY(sol, 'OBSTACLE', TRANSLATE(SCALE(HULL(C, 1, 1), (4, 2, 0.2)), (-1, -0.5, -0.2)), mat)
for i in range(3):
    BODY(sol, 'RIGID', TRANSLATE(HULL(C, 1, 1), (i * 1.2, 0, 0)), mat, label='b%d' % i)
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.01)
if sol.mode == 'READ':
    SOLFEC_EXPORT(sol, [0.005, 0.01], 'out/sx')
else:
    try:
        SOLFEC_EXPORT(sol, 0.0, 'out/sw')
    except ValueError as e:
        print('ERR', e)
"""


def test_under_solfec_mpi_read_mode_writes_the_serial_files(tmp_path):
    import shutil
    import subprocess
    from conftest import BUILD
    mpi, mpirun = os.path.join(BUILD, "solfec-mpi"), shutil.which("mpirun")
    if not (os.path.exists(mpi) and mpirun):
        pytest.skip("solfec-mpi not built or no mpirun")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    (tmp_path / "deck.py").write_text(MPI_DECK)
    cmd = [mpirun, "--oversubscribe", "-np", "2", mpi, "deck.py"]
    p = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "ERR SOLFEC_EXPORT: the current state of a solfec-mpi run is spread" in p.stdout
    assert not (tmp_path / "out/sw/sw.dat").exists()
    p = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    frames = pbf.read_states(str(tmp_path / "out/sx/sx"))
    with results.Results(str(tmp_path / "out/d/d.h5")) as res:
        idx = [res.nearest_frame(t) for t in (0.005, 0.01)]
        for f, fr in zip(frames, res.iter_frames(idx)):
            assert f["time"] == fr.time
            assert sorted(f["bodies"]) == sorted(int(i) for i in fr.bodies["id"]) == [0, 1, 2, 3]
            for bid, b in f["bodies"].items():
                assert b["conf"] == fr.body_q(bid).tolist()
            assert len(f["constraints"]) == len(fr.constraints)
    assert (tmp_path / "out/sx/sx.py").read_text() == MPI_DECK


def linked_model(outdir, export_end=None):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    GRAVITY(sol, (0, 0, -10))
    mat = BULK_MATERIAL(sol, young=1e7, poisson=0.25, density=1e3)
    SURFACE_MATERIAL(sol, friction=0.3)
    floor = TRANSLATE(SCALE(HEX(C, 1, 1, 1, 1, [1] * 6), (8, 2, 0.2)), (-1, -0.5, -0.2))
    BODY(sol, "OBSTACLE", floor, mat, label="floor")
    a = BODY(sol, "RIGID", TRANSLATE(HULL(C, 1, 1), (0, 0, 2)), mat, label="a")
    b = BODY(sol, "RIGID", TRANSLATE(HULL(C, 1, 1), (2, 0, 2)), mat, label="b")
    FIX_POINT(a, (0, 0, 3))
    PUT_RIGID_LINK(a, b, (1, 0.5, 2.5), (2, 0.5, 2.5))
    BODY(sol, "RIGID", TRANSLATE(HULL(C, 1, 1), (4, 0, 0)), mat, label="rest")
    BODY(sol, "FINITE_ELEMENT", TRANSLATE(HEX(C, 2, 2, 2, 1, [1] * 6), (5.5, 0, 0)), mat,
         label="fe")
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.03)
    if export_end is not None:
        export_end(sol)
    return sol


def test_write_mode_at_the_end_equals_read_mode_of_the_last_frame(tmp_path, outdir,
                                                                   monkeypatch):
    """Every step is a frame: the WRITE-mode export after RUN and the READ-mode export of the
    last frame write the same values (bitwise; READ mode has no contact V: zeros)."""
    monkeypatch.chdir(tmp_path)
    linked_model(outdir, lambda sol: SOLFEC_EXPORT(sol, 0.0, "exp/w"))
    sol = linked_model(outdir)
    assert sol.mode == "READ"
    [w] = pbf.read_states("exp/w/w")
    [r] = pbf.read_states(SOLFEC_EXPORT(sol, 0.03, "exp/r"))
    assert w["time"] == r["time"] == pytest.approx(0.03, abs=1e-12)
    assert (w["step"], w["merit"], w["timers"]) == (r["step"], r["merit"], r["timers"])
    assert sorted(w["bodies"]) == sorted(r["bodies"]) and len(w["bodies"]) == 5
    for bid in w["bodies"]:
        assert w["bodies"][bid] == r["bodies"][bid]
    kinds = sorted(c["kind"] for c in w["constraints"])
    assert kinds.count("FIXPNT") == 1 and kinds.count("RIGLNK") == 1
    assert kinds.count("CONTACT") >= 2  # the resting cube and the FE block on the floor
    rc = {c["id"]: c for c in r["constraints"]}
    assert sorted(rc) == sorted(c["id"] for c in w["constraints"])
    # WRITE mode has the contacts' V (the FE block still vibrates: not all zero)
    assert any(v != 0.0 for c in w["constraints"] if c["kind"] == "CONTACT" for v in c["V"])
    for c in w["constraints"]:
        d = rc[c["id"]]
        if c["kind"] == "CONTACT":
            assert d["V"] == [0.0, 0.0, 0.0]
            c = dict(c, V=d["V"])
        assert c == d
        if c["kind"] == "RIGLNK":  # link vector and length: the 1 m link is kept
            assert c["Z"][3] == pytest.approx(1.0, rel=1e-6)
            assert np.linalg.norm(c["Z"][:3]) == pytest.approx(c["Z"][3], rel=1e-12)
