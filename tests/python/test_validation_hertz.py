"""Hertz contact (tests/validation/hertz_contact.py): an elastic spherical end pressed on a
rigid plane in QUASI_STATIC steps against Hertz's theory (compression of the axis segment and
contact radius at our contact force). The tolerances are the mesh study's (README.md there):
the coarse default mesh in CI, the 12-element mesh with CONTACT_POINTS 4 as a slow case."""

import os

import pytest

DECK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "validation",
                    "hertz_contact.py")


def _passes(run_solfec, args, timeout):
    r = run_solfec(deck_path=DECK, options=("-w",), args=args, timeout=timeout)
    print(r.stdout)
    assert r.returncode == 0, r.stderr
    lines = [x for x in r.stdout.splitlines() if x.strip()]
    assert lines and lines[-1] == "PASSED", r.stdout + r.stderr


def test_hertz_contact_coarse(run_solfec):
    _passes(run_solfec, (), 300)


@pytest.mark.slow
def test_hertz_contact_n12_patches(run_solfec):
    _passes(run_solfec, ("12", "4", "20"), 1800)
