"""PARTITION (manual 4.4): a FINITE_ELEMENT body split into METIS parts glued by GLUEPNT
constraints: the split mesh, the glued statics against the unsplit body and beam theory,
momentum of a free glued body, what the parts inherit, the results file and argument
errors."""

import numpy as np
import pytest

from solfec import (APPLY_BULKMAT, BODY, BODY_CHARS, BULK_MATERIAL, CONTACT_EXCLUDE_BODIES,
                    FIX_POINT, FORCE, GAUSS_SEIDEL_SOLVER, GRAVITY, HEX, INITIAL_VELOCITY,
                    NEWTON_SOLVER, PARTITION, PRESSURE, RUN, SOLFEC, SURFACE_MATERIAL, _solfec)
from solfec import results
from fe_decks_for_tests import bar_corners, face_weights
from shapes_for_tests import slab

E, L, A, P = 1e9, 1.0, 0.1, 1.0  # slender 10:1 cantilever, tip load 1 N
NX, NY, NZ = 16, 2, 2


def nodes(b):
    return np.array(b.conf).reshape(-1, 3)


def glue_constraints(sol):
    return [c for c in sol.constraints if c.kind == "GLUEPNT"]


def beam(outdir, analysis="QUASI_STATIC", step=0.1, label="BEAM"):
    sol = SOLFEC(analysis, step, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=E, poisson=0.0, density=1000.0)
    b = BODY(sol, "FINITE_ELEMENT", HEX(bar_corners(L, A), NX, NY, NZ, 1, [1] * 6), bulk,
             label=label)
    return sol, b


def clamp_and_load(b):
    """FIX_POINT on the x = 0 nodes, tip shear P on the x = L face (consistent weights)."""
    X = nodes(b)
    for p in X[np.abs(X[:, 0]) < 1e-12]:
        FIX_POINT(b, tuple(p))
    for p in X[np.abs(X[:, 0] - L) < 1e-12]:
        FORCE(b, "SPATIAL", tuple(p), (0, 0, -1), P * face_weights(p, A, NY, NZ))


def tip_deflection(bodies, X0):
    """Mean deflection of the distinct tip nodes (duplicated interface copies counted once)."""
    w = {}
    for b, X in zip(bodies, X0):
        x = nodes(b)
        for Xi, xi in zip(X, x):
            if abs(Xi[0] - L) < 1e-12:
                w[tuple(np.round(Xi, 9))] = xi[2] - Xi[2]
    return -np.mean(list(w.values()))


def test_split_covers_the_mesh_once_with_parent_volume_and_manual_labels(outdir):
    sol, b = beam(outdir)
    V, m, n0 = b.volume, b.mass, len(nodes(b))
    parts = PARTITION(b, 3)
    assert [p.label for p in parts] == ["BEAM PART1", "BEAM PART2", "BEAM PART3"]
    assert [p.id for p in parts] == sorted(p.id for p in parts)  # body1 of a glue = lower id
    assert all(p.kind == "FINITE_ELEMENT" for p in parts)
    # Volumes and masses add up to the parent's (sums of element volumes: roundoff only).
    assert sum(p.volume for p in parts) == pytest.approx(V, rel=1e-12)
    assert sum(p.mass for p in parts) == pytest.approx(m, rel=1e-12)
    # 64 elements in 3 parts: METIS recursive bisection cuts the bar into slabs of whole
    # 2 x 2 cross-sections (measured 20, 24, 20 elements), 2 interfaces of 3 x 3 nodes.
    assert all(20 * V / 64 * (1 - 1e-12) <= p.volume <= 24 * V / 64 * (1 + 1e-12)
               for p in parts)
    # One glue per duplicated node copy (k-1 per node shared by k parts).
    glue = glue_constraints(sol)
    extra = sum(len(nodes(p)) for p in parts) - n0
    assert extra == 18 and len(glue) == extra
    ids = {p.id: p for p in parts}
    for c in glue:
        b1, b2 = c.adjbod
        assert b1.id < b2.id and b1.id in ids and b2.id in ids
        pt = c.point
        assert np.allclose(pt[:3], pt[3:], atol=0)  # coincident copies at creation
    assert sol.nbod == 3 and b not in sol.bodies


def test_emptied_body_raises_naming_partition(outdir):
    sol, b = beam(outdir)
    PARTITION(b, 2)
    with pytest.raises(ValueError, match="PARTITION: body .* was emptied by PARTITION"):
        b.mass
    with pytest.raises(ValueError, match="PARTITION"):
        FIX_POINT(b, (0, 0, 0))
    with pytest.raises(ValueError, match="PARTITION"):
        PARTITION(b, 2)


def test_bad_arguments_give_clear_errors(outdir):
    sol, b = beam(outdir)
    with pytest.raises(ValueError, match=r"PARTITION: .*>= 1.*\(argument 'parts'\)"):
        PARTITION(b, 0)
    with pytest.raises(TypeError, match=r"PARTITION: argument 'parts' must be an integer"):
        PARTITION(b, 2.5)
    with pytest.raises(ValueError, match=r"PARTITION: 65 parts .* only 64 elements .*'parts'"):
        PARTITION(b, 65)
    rig = BODY(sol, "RIGID", HEX(bar_corners(1, 1), 1, 1, 1, 1, [1] * 6), b.material)
    with pytest.raises(ValueError, match=r"PARTITION: the body is RIGID, not FINITE_ELEMENT "
                                         r"\(argument 'body'\)"):
        PARTITION(rig, 2)
    with pytest.raises(TypeError, match=r"PARTITION: argument 'body'"):
        PARTITION("BEAM", 2)
    assert b.volume > 0 and sol.nbod == 2  # nothing changed by the failed calls
    assert len(PARTITION(b, 64)) == 64  # one element per part is allowed


def test_glued_cantilever_matches_unsplit_and_beam_theory(tmp_path):
    # Unsplit reference: 16 x 2 x 2 HEX8, clamped by FIX_POINT, tip shear 1 N, 5 QUASI_STATIC
    # steps with Newton (meritval 1e-24) as in test_fe_validation.
    sol, b = beam(str(tmp_path / "one"))
    clamp_and_load(b)
    X = nodes(b)
    RUN(sol, NEWTON_SOLVER(meritval=1e-24), 0.5)
    w1 = tip_deflection([b], [X])
    # Same deck, clamp and loads given before PARTITION (they move to the parts).
    sol3, b3 = beam(str(tmp_path / "three"))
    clamp_and_load(b3)
    parts = PARTITION(b3, 3)
    assert sum(p.ncon for p in parts) - 2 * len(glue_constraints(sol3)) == 9  # the clamp
    X3 = [nodes(p) for p in parts]
    # The glue rows couple the parts stiffly: GMRES needs more than the default 10 inner
    # iterations (with 10 Newton stalls at merit 5e-11 and w3 is 1.7e-4 off).
    RUN(sol3, NEWTON_SOLVER(meritval=1e-24, linmaxiter=50), 0.5)
    w3 = tip_deflection(parts, X3)
    # The glued parts discretise the same displacement field (continuity at the shared
    # nodes), so the discrete equilibrium is the unsplit one; what differs is the residual
    # the 5 regularised steps leave (contracting by 1/(1 + (h w)^2) = 1/101 per step) and
    # the solver's: measured relative difference 1.0e-10, bound 1e-8.
    assert w3 == pytest.approx(w1, rel=1e-8)
    # Glued copies coincide: measured gap 4.7e-16 m, bound 1e-12 m (2.5e-8 of the 4e-5 m
    # deflection).
    for c in glue_constraints(sol3):
        pts = c.point  # current points of both copies
        assert np.linalg.norm(np.subtract(pts[:3], pts[3:])) < 1e-12
    # Beam theory, roughly: Euler-Bernoulli P L^3 / (3 E I) = 4e-5 m; 16 x 2 x 2 HEX8 lock in
    # bending (test_fe_validation: 16.4% too stiff against Timoshenko, which adds 0.6%).
    euler = P * L ** 3 / (3 * E * A ** 4 / 12)
    assert 0.75 * euler < w3 < euler
    # The touching cut faces of the parts are not in contact (contact between parts is
    # excluded; the parent had no self-contact).
    assert not [c for c in sol3.constraints if c.kind == "CONTACT"]


def test_free_glued_body_keeps_momentum(outdir):
    # A soft free bar spinning about z: centrifugal stretching loads the glue, whose
    # reactions are internal (equal and opposite impulses through shape functions that sum
    # to one), so the total linear momentum stays at its initial value to roundoff.
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    bulk = BULK_MATERIAL(sol, young=1e5, poisson=0.3, density=1000.0)
    b = BODY(sol, "FINITE_ELEMENT", HEX(bar_corners(1.0, 0.2), 8, 2, 2, 1, [1] * 6), bulk)
    b.scheme = "DEF_LIM"
    INITIAL_VELOCITY(b, (0.3, -0.2, 0.1), (0, 0, 5))
    parts = PARTITION(b, 2)
    d = sol._domain

    def momentum():  # linear and angular (about the origin), lumped masses
        lin, ang = np.zeros(3), np.zeros(3)
        for p in parts:
            mv = (np.asarray(_solfec.fe_lumped_mass(d, p.id)).reshape(-1, 3) *
                  np.array(p.velo).reshape(-1, 3))
            lin += mv.sum(axis=0)
            ang += np.cross(nodes(p), mv).sum(axis=0)
        return lin, ang
    p0, l0 = momentum()
    mass = sum(p.mass for p in parts)
    assert np.allclose(p0 / mass, (0.3, -0.2, 0.1), atol=1e-12)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-10, 1000), 0.05)
    glue = glue_constraints(sol)
    assert max(np.linalg.norm(c.R) for c in glue) > 1.0  # the glue works (measured 31 N)
    # 50 steps of sums of ~1e2 terms of size ~0.1 kg m/s: roundoff ~1e-14 kg m/s (measured
    # 1.4e-14 of 14.4 kg m/s).
    p1, l1 = momentum()
    assert np.allclose(p1, p0, rtol=0, atol=1e-12 * mass)
    # Angular momentum: glue impulses are equal and opposite at points apart by the gap
    # (~1e-9 m), so their torque is ~ gap R h per step: measured drift 2.3e-9 of 13 kg m^2/s.
    assert np.linalg.norm(l1 - l0) < 1e-8 * np.linalg.norm(l0)
    # The interface stays closed (Gauss-Seidel to 1e-10 with the drift correction of the
    # glue rows): measured gap 1.4e-9 m, bound 1e-7 of the 1 m bar.
    gaps = [np.linalg.norm(np.subtract(c.point[:3], c.point[3:])) for c in glue]
    assert max(gaps) < 1e-7


def test_glue_constraints_are_written_to_the_results_file(outdir):
    sol, b = beam(outdir, analysis="DYNAMIC", step=1e-3)
    parts = PARTITION(b, 2)
    nglue = len(glue_constraints(sol))
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), 0.002)
    with results.Results(outdir) as res:
        fr = res.frame(res.nframes - 1)
        kinds = fr.constraints["kind"]
        assert results.CONSTRAINT_KINDS[6] == "GLUEPNT"
        assert int((kinds == 6).sum()) == nglue
        assert [res.label(p.id) for p in parts] == ["BEAM PART1", "BEAM PART2"]


def test_parts_carry_the_material_options_and_velocity_of_the_body(outdir):
    sol, b = beam(outdir, analysis="DYNAMIC", step=1e-3)
    dense = BULK_MATERIAL(sol, young=2e9, poisson=0.2, density=3000.0, label="DENSE")
    APPLY_BULKMAT(sol, b, 1, dense)  # every element (volid 1): 3x the mass
    b.scheme, b.damping = "DEF_EXP", 1e-4
    INITIAL_VELOCITY(b, (1, 2, 3), (0.5, 0, 0))
    X, V = nodes(b), np.array(b.velo).reshape(-1, 3)
    velocity = {tuple(np.round(x, 9)): v for x, v in zip(X, V)}
    m = b.mass
    parts = PARTITION(b, 3)
    assert m == pytest.approx(3000.0 * L * A * A, rel=1e-12)
    assert sum(p.mass for p in parts) == pytest.approx(m, rel=1e-12)
    for p in parts:
        assert (p.scheme, p.damping) == ("DEF_EXP", 1e-4)
        for x, v in zip(nodes(p), np.array(p.velo).reshape(-1, 3)):
            assert np.array_equal(v, velocity[tuple(np.round(x, 9))])


def test_pressure_moves_to_the_parts_with_the_surface(tmp_path):
    # One step of a free bar with a pressure on one side face (HEX surface ids 1..6): the
    # momentum gained is h times the pressure resultant, with or without PARTITION (the
    # cut faces carry the default surface id and no pressure).
    def gained(parts):
        sol = SOLFEC("DYNAMIC", 1e-3, str(tmp_path / f"p{parts}"))
        sol.verbose = "OFF"
        bulk = BULK_MATERIAL(sol, young=E, poisson=0.0, density=1000.0)
        b = BODY(sol, "FINITE_ELEMENT", HEX(bar_corners(L, A), NX, NY, NZ, 1,
                                            [1, 5, 4, 3, 2, 6]), bulk)  # 3: the x-max end
        b.scheme = "DEF_LIM"
        PRESSURE(b, 3, -10.0)
        bodies = PARTITION(b, parts) if parts > 1 else [b]
        RUN(sol, GAUSS_SEIDEL_SOLVER(1e-12, 1000), 1e-3)
        return sum((np.asarray(_solfec.fe_lumped_mass(sol._domain, p.id)).reshape(-1, 3) *
                    np.array(p.velo).reshape(-1, 3)).sum(axis=0) for p in bodies)
    one, three = gained(1), gained(3)
    # Resultant p * area = 10 Pa * 0.1 m^2 (a side face) or 10 * 0.01 (an end face).
    assert np.linalg.norm(one) / 1e-3 in (pytest.approx(1.0), pytest.approx(0.1))
    assert np.allclose(three, one, rtol=0, atol=1e-12 * np.linalg.norm(one))


def test_body_chars_mass_scaling_carries_over(outdir):
    sol, b = beam(outdir)
    BODY_CHARS(b, 2 * b.mass, b.volume, b.center, b.tensor)
    m = b.mass
    parts = PARTITION(b, 2)
    assert sum(p.mass for p in parts) == pytest.approx(m, rel=1e-12)


def test_contact_exclusions_of_the_body_carry_over_to_its_parts(tmp_path):
    # A FE cube overlapping a floor slab by 1 mm: contacts with the floor appear unless
    # CONTACT_EXCLUDE_BODIES(cube, floor), given before PARTITION, applies to every part.
    def contacts(exclude):
        sol = SOLFEC("DYNAMIC", 1e-3, str(tmp_path / f"e{exclude}"))
        sol.verbose = "OFF"
        SURFACE_MATERIAL(sol, friction=0.3)
        bulk = BULK_MATERIAL(sol, young=1e7, poisson=0.3, density=1000.0)
        floor = BODY(sol, "OBSTACLE", slab(top=0.001), bulk)
        cube = BODY(sol, "FINITE_ELEMENT", HEX(bar_corners(1.0, 1.0), 2, 2, 2, 1, [1] * 6),
                    bulk)
        cube.scheme = "DEF_LIM"
        if exclude:
            CONTACT_EXCLUDE_BODIES(cube, floor)
        PARTITION(cube, 2)
        GRAVITY(sol, (0, 0, -10))
        RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 1000), 0.003)
        return [c for c in sol.constraints if c.kind == "CONTACT"]
    assert len(contacts(False)) > 0
    assert contacts(True) == []
