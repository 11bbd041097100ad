"""The validation suite (tests/validation): each deck compares our results with a reference
from outside the project (a closed form, a published or Code_Aster value) at a stated
tolerance, prints reference, ours and error, and ends with PASSED or FAILED. The quick decks
run here; the slow ones are marked slow (SOLFEC_SLOW=1)."""

import os

import pytest

VALIDATION = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "validation")

QUICK = ["lame_cylinder.py", "bar_tension_pressure.py", "pressure_large_strain.py"]


@pytest.mark.parametrize("deck", QUICK)
def test_validation_deck_passes(deck, run_solfec):
    r = run_solfec(deck_path=os.path.join(VALIDATION, deck), options=("-w",), timeout=300)
    print(r.stdout)
    assert r.returncode == 0, r.stderr
    lines = [x for x in r.stdout.splitlines() if x.strip()]
    assert lines and lines[-1] == "PASSED", r.stdout + r.stderr
