"""FIELD (Solfec-1.0's scalar field of (x, y, z, t) given by a Python callback), BYLABEL of
fields, BULK_MATERIAL's `fields` and the TSANG_MARSDEN model (no constitutive law: refused for
deformable bodies, as Solfec-1.0 cannot run it either)."""

import pytest

from solfec import *  # noqa: F401,F403

CUBE = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]


def model(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    sol.verbose = "OFF"
    return sol


def test_field_evaluates_its_callback_with_the_data_first(outdir):
    sol = model(outdir)
    plain = FIELD(sol, lambda x, y, z, t: x + 2 * y + 3 * z + 4 * t)
    scaled = FIELD(sol, lambda a, b, x, y, z, t: a * (x + y + z) + b * t, "scaled", (2.0, 10.0))
    one = FIELD(sol, lambda d, x, y, z, t: d["k"] * x * t, "one", {"k": 3.0})
    assert plain(1.0, 2.0, 3.0, 0.5) == 1 + 4 + 9 + 2
    assert plain((1.0, 2.0, 3.0), 0.5) == 16.0      # a point and a time
    assert plain((1.0, 2.0, 3.0)) == 14.0           # t defaults to 0
    assert scaled(1.0, 1.0, 1.0, 2.0) == 2 * 3 + 10 * 2
    assert one(2.0, 0.0, 0.0, 5.0) == 30.0
    assert isinstance(plain(0, 0, 0, 0), float)


def test_labels_bylabel_and_redefinition(outdir):
    sol = model(outdir)
    a = FIELD(sol, lambda x, y, z, t: 1.0)
    b = FIELD(sol, lambda x, y, z, t: 2.0, "temperature")
    c = FIELD(sol, lambda x, y, z, t: 3.0)
    assert (a.label, b.label, c.label) == ("FIELD_0", "temperature", "FIELD_2")
    assert BYLABEL(sol, "FIELD", "temperature") is b
    assert BYLABEL(sol, "FIELD", "FIELD_2") is c
    assert BYLABEL(sol, "FIELD", "pressure") is None
    # the same label again redefines the field (Solfec-1.0's field set) and returns it
    b2 = FIELD(sol, lambda k, x, y, z, t: k * 5.0, "temperature", (2.0,))
    assert b2 is b and b(0, 0, 0, 0) == 10.0
    with pytest.raises(AttributeError, match="FIELD.label is read-only"):
        b.label = "other"
    # fields belong to their SOLFEC object
    assert BYLABEL(model(outdir + "2"), "FIELD", "temperature") is None


def test_field_errors_name_the_routine(outdir):
    sol = model(outdir)
    with pytest.raises(TypeError, match="FIELD: argument 'solfec'"):
        FIELD(None, lambda x, y, z, t: 0.0)
    with pytest.raises(TypeError, match="FIELD: argument 'filed_callback'"):
        FIELD(sol, 3.0)
    with pytest.raises(TypeError, match="FIELD: argument 'label'"):
        FIELD(sol, lambda x, y, z, t: 0.0, 7)
    bad = FIELD(sol, lambda x, y, z, t: "hot", "bad")
    with pytest.raises(TypeError, match="FIELD: the callback of field 'bad' must return a "
                                        "number, got 'hot'"):
        bad(0, 0, 0, 0)


def test_bulk_material_fields_and_tsang_marsden(outdir):
    sol = model(outdir)
    fs = [FIELD(sol, lambda x, y, z, t, k=k: k * x, f"f{k}") for k in range(4)]
    mat = BULK_MATERIAL(sol, "KIRCHHOFF", "k", 1e9, 0.25, 2000.0, fields=[fs[0], "f1"])
    assert mat.fields == [fs[0], fs[1]] and mat.model == "KIRCHHOFF"
    with pytest.raises(TypeError, match=r"BULK_MATERIAL: argument 'fields' item 1 = 'f9' must "
                                        r"be a FIELD object of this SOLFEC object or a valid "
                                        r"field label"):
        BULK_MATERIAL(sol, fields=[fs[0], "f9"])
    with pytest.raises(TypeError, match="BULK_MATERIAL: argument 'fields' must be a list"):
        BULK_MATERIAL(sol, fields="f0")
    with pytest.raises(ValueError, match="BULK_MATERIAL: model 'TSANG_MARSDEN' needs 4 fields "
                                         r"\(argument 'fields'\), got 3"):
        BULK_MATERIAL(sol, model="TSANG_MARSDEN", fields=fs[:3])
    graphite = BULK_MATERIAL(sol, model="TSANG_MARSDEN", label="graphite", density=1800.0,
                             fields=["f0", "f1", "f2", "f3"])
    assert graphite.model == "TSANG_MARSDEN" and graphite.fields == fs
    # Solfec-1.0's positional order: solfec, model, label, young, poisson, density, tensile,
    # fields, fracene
    g2 = BULK_MATERIAL(sol, "TSANG_MARSDEN", "g2", 1e10, 0.2, 1800.0, 2e7, fs[::-1], 100.0)
    assert g2.fields == fs[::-1] and g2.density == 1800.0
    assert BYLABEL(sol, "BULK_MATERIAL", "graphite") is graphite
    # a rigid body uses the density only (as Solfec-1.0): mass of a 1 m cube = 1800 kg
    rb = BODY(sol, "RIGID", HULL(CUBE, 1, 1), graphite)
    assert rb.mass == pytest.approx(1800.0, rel=1e-12)
    for kind, shape in (("PSEUDO_RIGID", HULL(CUBE, 1, 1)),
                        ("FINITE_ELEMENT", HEX(CUBE, 1, 1, 1, 1, [1] * 6))):
        with pytest.raises(ValueError, match="BODY: BULK_MATERIAL 'graphite' has model "
                                             "'TSANG_MARSDEN'.*no constitutive law"):
            BODY(sol, kind, shape, graphite)
    fe = BODY(sol, "FINITE_ELEMENT", HEX(CUBE, 1, 1, 1, 1, [1] * 6), mat)
    with pytest.raises(ValueError, match="APPLY_BULKMAT: BULK_MATERIAL 'graphite' has model "
                                         "'TSANG_MARSDEN'"):
        APPLY_BULKMAT(sol, fe, 1, "graphite")
