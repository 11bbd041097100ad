"""The masonry arch of Solfec-1.0's tests/arch.py against limit analysis
(tests/validation/arch: arch_model.py, limit_analysis.py, bisect_collapse.py, README there)
and the contact detection rule it relies on (pieces within GEOMETRIC_EPSILON touch)."""

import os
import sys

import pytest

import solfec as S
from shapes_for_tests import box, slab

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "validation", "arch"))
import arch_model  # noqa: E402
import limit_analysis  # noqa: E402


# GEOMETRIC_EPSILON is global: conftest's fixture restores it after each test.
pytestmark = pytest.mark.usefixtures("keep_geometric_epsilon")


def cube_on_floor(outdir, points=None, lift=0.0):
    S.GEOMETRIC_EPSILON(1e-4)
    sol = S.SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    if points is not None:
        S.CONTACT_POINTS(sol, points)
    bulk = S.BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    S.SURFACE_MATERIAL(sol, friction=0.5)
    S.GRAVITY(sol, (0, 0, -9.81))
    S.BODY(sol, "OBSTACLE", slab(), bulk)
    cube = S.BODY(sol, "RIGID", box(0, 0, lift, 1, 1, 1), bulk)
    return sol, cube


@pytest.mark.parametrize("lift", [0.0, 5e-5])
def test_block_laid_on_a_floor_carries_its_weight_from_the_first_step(outdir, lift):
    # Touching (or closer than GEOMETRIC_EPSILON = 1e-4): in contact at once, as in
    # Solfec-1.0, so the block does not fall g h = 9.81e-3 m/s in the first step (which a
    # masonry arch with touching joints turns into impacts: it fell at h/r = 0.1095).
    sol, cube = cube_on_floor(outdir, lift=lift)
    S.RUN(sol, S.GAUSS_SEIDEL_SOLVER(1e-8, 1000), 1e-3)
    assert sol.ncon == 1   # the default: one point per pair of touching pieces
    assert abs(cube.velo[5]) < 1e-9


def test_contact_points_default_one_at_the_face_centroid_four_at_its_corners(outdir):
    # Default (Solfec-1.0's model, goc.c): one point at the centroid of the contact face.
    sol, cube = cube_on_floor(outdir)
    S.RUN(sol, S.GAUSS_SEIDEL_SOLVER(1e-8, 1000), 1e-3)
    assert sol.ncon == 1
    (con,) = [c for c in sol.constraints if c.kind == "CONTACT"]
    assert con.point == pytest.approx((0.5, 0.5, 0.0), abs=1e-4)
    assert con.gap == 0.0
    with pytest.raises(ValueError, match="CONTACT_POINTS.*'points'"):
        S.CONTACT_POINTS(sol, 2)


def test_contact_points_four_puts_the_corners_of_the_contact_face(outdir):
    sol, cube = cube_on_floor(outdir + "4", points=4)
    S.RUN(sol, S.GAUSS_SEIDEL_SOLVER(1e-8, 1000), 1e-3)
    pts = sorted(tuple(c.point) for c in sol.constraints if c.kind == "CONTACT")
    corners = [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0)]
    assert len(pts) == 4
    for p, c in zip(pts, corners):   # within GEOMETRIC_EPSILON (the swollen face)
        assert p == pytest.approx(c, abs=1e-4)
    assert abs(cube.velo[5]) < 1e-9


def test_limit_analysis_of_a_fine_arch_is_ochsendorfs_minimum_thickness():
    # Continuous joints: t/R = 0.1075 (Ochsendorf 2006; Heyman's 0.106 uses another weight
    # distribution); 400 voussoirs are within 1e-4 of it (0.10748 at 1000).
    assert limit_analysis.min_ratio(400, 0.5) == pytest.approx(0.1075, abs=2e-4)
    # Friction 0.5 never binds for the semicircle (the thrust stays within 26.6 degrees of
    # every joint normal), and fewer joints leave fewer hinge places: thinner arches stand.
    assert limit_analysis.min_ratio(27) == pytest.approx(limit_analysis.min_ratio(27, 0.5),
                                                         abs=1e-6)
    assert limit_analysis.min_ratio(9) < limit_analysis.min_ratio(27) < 0.1075


def test_nine_voussoir_arch_stands_above_and_falls_below_its_limit_thickness():
    # Solfec-1.0's contact model (the default one point per pair: hinges at the centroids of
    # the 2.5% edge strips, reach 0.975): limit analysis gives t/R = 0.10476 for 9 voussoirs. 2% above it
    # the arch stays at rest (KE ~1e-9 J after 0.3 s), 2% below it is falling (KE ~3e-2 J);
    # the bounds are Solfec-1.0's (tests/arch.py). About 7 s.
    la = limit_analysis.min_ratio(9, 0.5, reach=0.975)
    assert la == pytest.approx(0.10476, abs=1e-5)
    assert arch_model.run(S, 1.02 * la, n=9, duration=0.3) < 1e-4
    assert arch_model.run(S, 0.98 * la, n=9, duration=0.3) > 1e-3


@pytest.mark.slow
def test_solfec1_arch_of_27_voussoirs_stands_at_01095_and_falls_at_01094():
    # Solfec-1.0's tests/arch.py verdict with the issue's settings and the default contact
    # points (about 35 s per run): limit analysis with this contact model puts the minimum at
    # 0.10952 (0.02% above 0.1095: at the limit the mechanism starts too slowly to show in
    # 0.75 s). Measured: 2.14e-6 J and 1.76e-3 J.
    assert arch_model.run(S, 0.1095) < 1e-4
    assert arch_model.run(S, 0.1094) > 1e-3
