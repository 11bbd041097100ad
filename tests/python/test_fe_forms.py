"""BODY form= and base= arguments of FINITE_ELEMENT bodies and REGISTER_BASE: the choices,
the aliases of Solfec-1.0 and the error messages for bad combinations."""

import numpy as np
import pytest

from solfec import BODY, BULK_MATERIAL, HEX, REGISTER_BASE, SOLFEC, SPHERE

CORNERS = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]


@pytest.fixture
def sol(outdir):
    s = SOLFEC("DYNAMIC", 1e-3, outdir)
    s.verbose = "OFF"
    BULK_MATERIAL(s, young=1e6, poisson=0.25, density=1e3)
    return s


def mesh():
    return HEX(CORNERS, 1, 1, 1, 1, [1] * 6)  # 8 nodes


def test_unknown_form_lists_the_choices(sol):
    with pytest.raises(ValueError, match=r"BODY.*form.*'BC-RO'"):
        BODY(sol, "FINITE_ELEMENT", mesh(), sol._bulk[0], form="CR")


def test_base_is_for_finite_element_bodies_only_and_form_ignored_by_others(sol):
    # Solfec-1.0 ignores 'form' for other kinds (tests/python/test_solfec1_compat.py)
    assert BODY(sol, "RIGID", SPHERE((0, 0, 0), 1, 1, 1), sol._bulk[0], form="BC").kind == "RIGID"
    with pytest.raises(ValueError, match=r"BODY: argument 'base' applies to FINITE_ELEMENT.*RIGID"):
        BODY(sol, "RIGID", SPHERE((0, 0, 0), 1, 1, 1), sol._bulk[0], base="b")


@pytest.mark.parametrize("form", ["BC-RO", "BC_RO", "BC-MODAL", "BC_MODAL"])
def test_reduced_forms_need_a_base(sol, form):
    with pytest.raises(ValueError, match=r"BODY.*needs a reduced base.*'base'"):
        BODY(sol, "FINITE_ELEMENT", mesh(), sol._bulk[0], form=form)


def test_base_is_rejected_by_full_forms(sol):
    base = (np.zeros(6), np.zeros((24, 6)))
    with pytest.raises(ValueError, match=r"BODY: form 'TL' takes no reduced base"):
        BODY(sol, "FINITE_ELEMENT", mesh(), sol._bulk[0], base=base)


def test_base_size_must_match_the_mesh(sol):
    # 7 nodes' worth of components for an 8-node mesh, given flat mode after mode
    base = (np.zeros(2), np.zeros(2 * 21))
    with pytest.raises(ValueError, match=r"BODY: base vectors have 21 components but the mesh "
                                         r"has 8 nodes"):
        BODY(sol, "FINITE_ELEMENT", mesh(), sol._bulk[0], form="BC-RO", base=base)


def test_register_base_checks_its_arguments(sol):
    with pytest.raises(TypeError, match=r"REGISTER_BASE.*'base'.*pair"):
        REGISTER_BASE(sol, np.zeros(3), "b")
    with pytest.raises(ValueError, match=r"REGISTER_BASE.*do not split into 2 modes"):
        REGISTER_BASE(sol, (np.zeros(2), np.zeros(5)), "b")
    with pytest.raises(ValueError, match=r"REGISTER_BASE.*NaN"):
        REGISTER_BASE(sol, (np.zeros(1), np.full(24, np.nan)), "b")
    with pytest.raises(ValueError, match=r"BODY: no base registered under label 'nope'"):
        BODY(sol, "FINITE_ELEMENT", mesh(), sol._bulk[0], form="BC-MODAL", base="nope")


def test_flat_and_columnwise_bases_are_the_same(sol):
    from solfec.bases import _as_base
    E = np.arange(48.0).reshape(24, 2)
    ev1, E1 = _as_base((np.ones(2), E.T.reshape(-1)), "T")  # flat, mode after mode
    ev2, E2 = _as_base((np.ones(2), E), "T")               # one mode per column
    assert np.array_equal(E1, E) and np.array_equal(E2, E)
