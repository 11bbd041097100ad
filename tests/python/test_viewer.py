"""The browser viewer (`solfec -v`, docs/viewer.md): its JSON API and, end to end, the page in
headless Chromium (Debian chromium + playwright-core from viewer/node_modules)."""

import base64
import contextlib
import json
import os
import re
import shutil
import subprocess
import time
import urllib.request

import numpy as np
import pytest

from conftest import ROOT, SOLFEC_EXE

DECK = os.path.join(ROOT, "examples", "box-of-cubes", "cubes.py")
VIEWER_DIR = os.path.join(ROOT, "viewer")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def _get(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=20) as r:
        return json.loads(r.read())


def _f32(o):
    return np.frombuffer(base64.b64decode(o["f32"]), dtype="<f4")


def _need_browser():
    """Skips the test without headless Chromium, node and the bundled playwright-core."""
    if not (os.path.isfile(CHROMIUM) and shutil.which("node")):
        pytest.skip("headless test needs chromium (apt install chromium) and node")
    if not os.path.isdir(os.path.join(VIEWER_DIR, "node_modules", "playwright-core")):
        pytest.skip("viewer/node_modules missing: run `npm ci` in viewer/ (cmake/setup.sh)")


@contextlib.contextmanager
def _served(tmp_path, *args):
    """Starts `solfec -v --port 0 args...` in tmp_path; yields the port; stops the server."""
    proc = subprocess.Popen([SOLFEC_EXE, "-v", "--port", "0", *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port, lines, t0 = None, [], time.time()
    while port is None and time.time() - t0 < 120:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"serving http://127\.0\.0\.1:(\d+)/", line)
        port = int(m.group(1)) if m else None
    try:
        assert port is not None, "".join(lines)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
def viewer(tmp_path):
    """Runs the box of 2^3 cubes for 0.3 s (61 frames), then serves it with `solfec -v`;
    yields the port."""
    run = subprocess.run([SOLFEC_EXE, DECK, "2", "0.3"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    with _served(tmp_path, DECK, "2", "0.3") as port:
        yield port


def test_run_button_computes_a_deck_without_output(tmp_path):
    with _served(tmp_path, DECK, "2", "0.3") as port:
        s = _get(port, "/api/status")["models"][0]
        # viewer mode: RUN only recorded its duration; the initial state is a one-frame preview
        assert (s["mode"], s["runs"], s["duration"], s["nframes"]) == ("WRITE", 1, 0.3, 1)
        assert len(_get(port, "/api/model?m=0")["bodies"]) == 9
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/run", method="POST")
        with urllib.request.urlopen(req, timeout=20) as r:
            assert json.loads(r.read())["started"] is True
        t0 = time.time()
        while _get(port, "/api/status")["running"] and time.time() - t0 < 60:
            time.sleep(0.5)
        st = _get(port, "/api/status")
        assert st["returncode"] == 0 and st["models"][0]["nframes"] == 61
        assert _get(port, "/api/frame?m=0&i=60")["time"] == pytest.approx(0.3)
    # the results are the deck's own: a plain run now opens them in READ mode
    from solfec.results import is_valid
    assert is_valid(str(tmp_path / "out" / "box-of-cubes" / "n2"))


def test_api_serves_model_and_frames_of_the_results(viewer):
    s = _get(viewer, "/api/status")
    assert [m["nframes"] for m in s["models"]] == [61]  # 0.3 s / 5 ms steps + frame 0
    m = _get(viewer, "/api/model?m=0")
    assert len(m["bodies"]) == 9  # 8 cubes + the walls
    box = next(b for b in m["bodies"] if b["label"] == "box")
    assert box["kind"] == "OBSTACLE"
    cube = next(b for b in m["bodies"] if b["label"] == "cube-0-0-0")
    # a cube of edge 0.1 m and density 2000 kg/m^3 weighs 2 kg; 12 triangles, 8 vertices
    assert cube["mass"] == pytest.approx(2.0, rel=1e-9)
    assert len(_f32(cube["positions"])) == 24
    f0, f1 = _get(viewer, "/api/frame?m=0&i=0"), _get(viewer, "/api/frame?m=0&i=10")
    k = f0["ids"].index(cube["id"])
    z0, z1 = _f32(f0["placement"])[12 * k + 11], _f32(f1["placement"])[12 * k + 11]
    # free fall for 0.05 s before touching anything: dz = -g t^2 / 2 = -12.3 mm (the lowest
    # cube starts 20 mm above the floor); float32 placements, Euler-type steps: 10 %
    assert z1 - z0 == pytest.approx(-0.5 * 9.81 * 0.05 ** 2, rel=0.1)
    assert f1["time"] == pytest.approx(0.05)
    # the frame's velocity (float32, binary like the placements): v = -g t after 0.05 s of fall
    assert _f32(f1["velocity"])[3 * k + 2] == pytest.approx(-9.81 * 0.05, rel=1e-6)
    h = _get(viewer, f"/api/history?m=0&id={cube['id']}")
    assert len(h["time"]) == 61 and h["label"] == "cube-0-0-0"
    # free fall: v = g t = 0.4905 m/s and kinetic energy m v^2 / 2 = 0.2406 J at t = 0.05 s
    # (the stored velocity of the step: 1e-9 relative; the energy within the step's 10 %)
    assert h["velocity"][10][2] == pytest.approx(-9.81 * 0.05, rel=1e-9)
    assert h["kinetic"][10] == pytest.approx(0.5 * 2.0 * (9.81 * 0.05) ** 2, rel=0.1)


# the page draws bodies of one shape as a merged mesh on software GL (headless Chromium) and
# as an InstancedMesh on a GPU (?instancing=1 forces that path here); merged bodies small on
# screen as impostors (?lod=1000: every cube, whatever its size)
@pytest.mark.parametrize("query", ["", "?instancing=1", "?lod=1000"],
                         ids=["merged", "instanced", "impostors"])
def test_page_renders_bodies_follows_the_slider_and_picks_a_body(viewer, tmp_path, query):
    _need_browser()
    art = tmp_path / "artefacts"
    art.mkdir()
    p = subprocess.run(["node", os.path.join(ROOT, "tests", "viewer", "e2e.mjs"),
                        f"http://127.0.0.1:{viewer}/{query}", str(art)], capture_output=True,
                       text=True,
                       timeout=240, env={**os.environ, "VIEWER_DIR": VIEWER_DIR,
                                        "CHROMIUM": CHROMIUM})
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["errors"] == []
    assert out["nframes"] == 61 and out["models"] == 1
    assert out["bodies"] == 9  # every body of the model is drawn
    # the deck turns cube (i, j, k) by 5 ((i + j + k) % 3) degrees before the run: 3 referential
    # shapes of 2, 3, 3 cubes, i.e. 3 InstancedMeshes, or one merged mesh of 8; the box apart
    m, instanced = out["meshes"], "instancing" in query
    assert (sorted(m["instanced"]), m["merged"]) == (([2, 3, 3], [1]) if instanced else ([], [8, 1]))
    if not instanced:
        # the cubes as impostors (one point each; the fragment shader casts the pixel's view ray
        # against the slabs of the 3 face pairs) give the image of their meshes: both sample
        # pixel centres, so only pixels at ties of depth or coverage and colour rounding may
        # differ: < 1 % (0 measured). Cubes beyond the GL's largest point size / 1.5 (166 px on
        # llvmpipe) stay meshes: 7 of the 8 here
        assert out["lod"]["impostors"] >= 4, out["lod"]
        assert out["lod"]["lit"] > 0.1 and out["lod"]["differing"] < 0.01, out["lod"]
    (i0, x0), (i1, x1) = out["before"], out["after"]
    assert (i0, i1) == (0, 60)
    # the cubes settle ~20 mm lower onto the floor (or each other) by the last frame
    assert x1[2] < x0[2] - 0.01
    assert "frame 60 / 60" in out["clock"]
    assert out["pick2"] is not None, "no unoccluded cube to click"
    assert re.match(r"cube-\d-\d-\d", out["pick2"]["label"])
    assert f"label    {out['pick2']['label']}" in out["info"]
    assert "kind     RIGID" in out["info"] and "mass     2.0000 kg" in out["info"]
    assert out.get("plot") is True  # the HISTORY panel opened for the picked cube
    # non-blank: a uniform background has variance 0; the bodies give ~400 (8-bit luminance^2)
    assert out["stats"]["variance"] > 50.0
    assert (art / "viewer-screenshot.png").stat().st_size > 10000
    print(f"viewer{query}: render loop {out['fps']:.1f} frames/s in headless Chromium (software GL); "
          f"impostors against meshes: {100 * out['lod']['differing']:.2f} % of the pixels differ; "
          f"screenshot {art / 'viewer-screenshot.png'}")


MANY_CUBES = """
import sys
n = int(sys.argv[1])
sol = SOLFEC('DYNAMIC', 1E-3, 'out/many')
bulk = BULK_MATERIAL(sol, young=1E9, poisson=0.25, density=2E3)
GRAVITY(sol, (0, 0, -9.81))
a, p, m, k = 0.1, 0.2, round(n ** (1 / 3)) + 1, 0
for i in range(m):
    for j in range(m):
        for l in range(m):
            if k < n:
                x, y, z = i * p, j * p, l * p
                BODY(sol, 'RIGID', HULL([x, y, z, x + a, y, z, x + a, y + a, z, x, y + a, z,
                     x, y, z + a, x + a, y, z + a, x + a, y + a, z + a, x, y + a, z + a], 1, 1),
                     bulk, label='c%d' % k)
                k += 1
RUN(sol, GAUSS_SEIDEL_SOLVER(1E-6, 100), 5E-3)
"""


@pytest.mark.slow
def test_ten_thousand_bodies_frame_rate_is_printed(tmp_path):
    """10^4 separated falling cubes (6 frames): load time, the render loop's frame rate while
    playing and the browser's CPU time per frame in headless Chromium, printed (software GL on
    a shared machine: no bound on the rate asserted; what is drawn is)."""
    _need_browser()
    deck = tmp_path / "many.py"
    deck.write_text(MANY_CUBES)
    run = subprocess.run([SOLFEC_EXE, str(deck), "10000"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    with _served(tmp_path, str(deck), "10000") as port:
        p = subprocess.run(["node", os.path.join(ROOT, "tests", "viewer", "fps.mjs"),
                            f"http://127.0.0.1:{port}/"], capture_output=True, text=True,
                           timeout=600, env={**os.environ, "VIEWER_DIR": VIEWER_DIR,
                                             "CHROMIUM": CHROMIUM})
        out = json.loads(p.stdout.strip().splitlines()[-1])
        assert out["errors"] == [] and out["bodies"] == 10000
        pr, play = out["profile"], out["play"]
        # the fitted view holds every cube: those small on screen as impostors (one point each),
        # the others with only their faces towards the camera: a point outside a cube sees 1 to
        # 3 of its 6 faces (2 triangles each)
        assert pr["drawn_bodies"] == 10000
        meshes = 10000 - pr["impostors"]
        assert pr["points"] == pr["impostors"]
        assert 2 * meshes <= pr["triangles"] <= 6 * meshes
        assert play["frames"] > 0
        cpu, idle = play["cpu_ms_per_frame"], out["render_cpu_ms_per_frame"]
        print(f"viewer, 10000 bodies ({pr['gl_renderer']}): page ready in "
              f"{out['load_seconds']:.1f} s; PLAYING (new placements every drawn frame, drawn at "
              f"{play.get('scale', 1)} of the resolution per axis): "
              f"{play['fps']:.1f} frames/s, browser CPU per frame {cpu['total']:.0f} ms (page JS "
              f"{cpu['renderer']:.0f}, GL + compositing {cpu['gpu']:.0f}); redrawing one frame: "
              f"{out['render_fps']:.1f} frames/s, CPU {idle['total']:.0f} ms; stepping with goto "
              f"{out['step_fps']:.1f} frames/s; per frame {pr['triangles']} triangles in "
              f"{pr['calls']} draw calls ({pr['impostors']} bodies as impostors) on "
              f"{pr['width']}x{pr['height']} px, one render "
              f"{pr['render_ms']:.0f} ms ({pr['geometry_ms']:.0f} ms at 1 % of the pixels), "
              f"placement + culling {pr['body_update_ms']:.1f} ms, frame fetch {pr['fetch_ms']:.0f} ms")


BALLS = """
sol = SOLFEC('DYNAMIC', 5E-3, 'out/balls')
bulk = BULK_MATERIAL(sol, young=1E9, poisson=0.25, density=2E3)
GRAVITY(sol, (0, 0, -9.81))
BODY(sol, 'OBSTACLE', HULL([-0.1, -0.1, -0.05, 0.4, -0.1, -0.05, 0.4, 0.4, -0.05, -0.1, 0.4, -0.05,
     -0.1, -0.1, 0, 0.4, -0.1, 0, 0.4, 0.4, 0, -0.1, 0.4, 0], 1, 1), bulk, label='floor')
for k in range(8):
    i, j, l = k % 2, (k // 2) % 2, k // 4
    BODY(sol, 'RIGID', SPHERE((0.05 + 0.2 * i, 0.05 + 0.2 * j, 0.05 + 0.12 * l), 0.04, 1, 1), bulk,
         label='ball-%d' % k)
RUN(sol, GAUSS_SEIDEL_SOLVER(1E-6, 100), 0.05)
"""


def test_page_draws_spheres_as_impostors_and_picks_one(tmp_path):
    """8 spheres on a floor: drawn as impostors (one point each, ray-sphere per pixel), picked
    analytically, and close to their tessellated meshes."""
    _need_browser()
    deck = tmp_path / "balls.py"
    deck.write_text(BALLS)
    run = subprocess.run([SOLFEC_EXE, str(deck)], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    with _served(tmp_path, str(deck)) as port:
        art = tmp_path / "artefacts"
        art.mkdir()
        p = subprocess.run(["node", os.path.join(ROOT, "tests", "viewer", "e2e.mjs"),
                            f"http://127.0.0.1:{port}/", str(art)], capture_output=True,
                           text=True, timeout=240, env={**os.environ, "VIEWER_DIR": VIEWER_DIR,
                                                       "CHROMIUM": CHROMIUM})
        assert p.returncode == 0, p.stderr
        out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["errors"] == []
    assert out["nframes"] == 11 and out["bodies"] == 9
    assert (out["meshes"]["instanced"], out["meshes"]["merged"]) == ([], [1])  # the floor
    lod = out["meshLod"]
    print(f"spheres: {lod}")
    # every ball is an impostor (each < 166 px across); as meshes of 520 triangles (polygonal
    # silhouettes, Gouraud shading) the image differs by less than 1 % of its pixels (0.14 %
    # measured; the balls cover ~17 %)
    assert lod["current"] == 8 and lod["impostors"] == 0
    assert lod["lit"] > 0.1 and lod["differing"] < 0.01, lod
    assert out["pick2"] is not None and re.match(r"ball-\d", out["pick2"]["label"])
    assert f"label    {out['pick2']['label']}" in out["info"] and "kind     RIGID" in out["info"]
    assert out["stats"]["variance"] > 50.0
