"""OVERLAPPING (Solfec-1.0, docs/deck-language.md): the shapes that overlap obstacles, or with
'NOT' those that do not; the gap bound; emptied inputs; return forms; errors."""

import pytest

from solfec import *  # noqa: F401,F403
from shapes_for_tests import box

R = 0.1


def wall():
    """The half-space x <= 0 near the balls: a box [-1, 0] x [-1, 2] x [-1, 1]."""
    return box(-1, -1, -1, 1, 3, 2)


def balls(xs):
    return [SPHERE((x, 0.2 * i, 0), R, 1, 1) for i, x in enumerate(xs)]


def centres(objs):
    if objs is None:
        return []
    objs = objs if isinstance(objs, list) else [objs]
    return [round(o.center[0], 6) for o in objs]


# Centre x of each ball: it overlaps the wall x <= 0 when x < R (penetration R - x).
XS = [-0.05, 0.02, 0.09, 0.0999, 0.11, 0.5]


def test_balls_overlapping_a_wall_are_those_closer_than_their_radius():
    up = OVERLAPPING(wall(), balls(XS))
    # 0.0999: penetration 1e-4 m, beyond GEOMETRIC_EPSILON (1e-6); 0.11: 1 cm away
    assert centres(up) == [-0.05, 0.02, 0.09, 0.0999]


def test_not_gives_the_complement_in_input_order():
    down = OVERLAPPING([wall()], balls(XS), 'NOT')
    assert centres(down) == [0.11, 0.5]
    assert isinstance(down, list)


def test_gap_keeps_only_penetrations_deeper_than_minus_gap():
    # penetrations R - x: 0.15, 0.08, 0.01, 1e-4; gap -0.05 keeps those beyond 5 cm
    assert centres(OVERLAPPING(wall(), balls(XS), gap=-0.05)) == [-0.05, 0.02]
    assert centres(OVERLAPPING(wall(), balls(XS), None, -0.009)) == [-0.05, 0.02, 0.09]
    assert centres(OVERLAPPING(wall(), balls(XS), 'NOT', -0.05)) == [0.09, 0.0999, 0.11, 0.5]


def test_inputs_are_emptied_and_kept_objects_are_new():
    bs = balls([0.0, 1.0])
    w = wall()
    kept = OVERLAPPING(w, bs)
    assert isinstance(kept, SPHERE) and kept is not bs[0]  # one kept: the object itself
    assert kept.center == pytest.approx((0.0, 0.0, 0.0))
    for b in bs:
        with pytest.raises(ValueError, match="emptied"):
            TRANSLATE(b, (1, 0, 0))
    MASS_CENTER(w)  # the obstacle is only read
    assert OVERLAPPING(w, balls([1.0, 2.0])) is None


def test_meshes_and_convexes_take_part_by_their_elements():
    cube = HEX([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1],
               2, 2, 2, 1, [1] * 6)
    inside = SPHERE((0.5, 0.5, 0.5), 0.1, 1, 1)     # inside the mesh, touching no face
    near = SPHERE((1.05, 0.5, 0.5), 0.1, 1, 1)      # 5 cm into the x = 1 face
    far = SPHERE((1.2, 0.5, 0.5), 0.1, 1, 1)
    assert centres(OVERLAPPING(cube, [inside, near, far])) == [0.5, 1.05]
    # a mesh among the shapes, a convex obstacle
    m = COPY(cube)
    assert OVERLAPPING(box(0.9, 0.2, 0.2, 1, 0.5, 0.5), [m]) is not None
    m2 = COPY(cube)
    TRANSLATE(m2, (2.0, 0, 0))
    assert OVERLAPPING(box(0.9, 0.2, 0.2, 1, 0.5, 0.5), m2) is None  # box ends at x = 1.9


def test_packing_deck_pattern_of_solfec_1_0():
    """inp/cascade.py: balls generated over a chute; keep those above it, not inside it."""
    obstacles = [box(-1, -1, -1, 2, 2, 1)]               # top face z = 0
    generated = [SPHERE((0, 0, z), 0.1, 1, 1) for z in (-0.5, 0.05, 0.3)]
    zone = box(-1, -1, 0, 2, 2, 1)                         # the region above the chute
    up = OVERLAPPING(zone, generated)                      # z = 0.05 (half in) and 0.3
    kept = OVERLAPPING(obstacles, up, 'NOT')               # drops z = 0.05 (in the chute)
    assert isinstance(kept, SPHERE) and kept.center[2] == pytest.approx(0.3)


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: OVERLAPPING(wall(), balls([0.0]), 'NO'), ValueError, "argument 3 must be 'NOT'"),
    (lambda: OVERLAPPING(wall(), balls([0.0]), None, 0.01), ValueError, "'gap' must be <= 0"),
    (lambda: OVERLAPPING(wall(), balls([0.0]), None, 'x'), TypeError, "'gap'"),
    (lambda: OVERLAPPING(wall(), 3), TypeError, "argument 'shapes'"),
    (lambda: OVERLAPPING([], balls([0.0])), ValueError, "argument 'obstacles' is an empty list"),
])
def test_bad_arguments_raise_clear_errors(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()


def test_touching_is_not_overlapping_and_the_convex_tolerance_is_geometric_epsilon():
    """Sphere-convex: any penetration counts; convex-convex: beyond GEOMETRIC_EPSILON (1e-6)."""
    for x, hit in ((R, False), (R + 1e-7, False), (R - 1e-7, True)):
        assert (OVERLAPPING(wall(), SPHERE((x, 0, 0), R, 1, 1)) is not None) == hit
    for dx, hit in ((1.0, False), (1.0 - 1e-7, False), (1.0 - 2e-6, True)):
        assert (OVERLAPPING(box(0, 0, 0, 1, 1, 1), box(dx, 0, 0, 1, 1, 1)) is not None) == hit
