"""Serial answers of the parallel routines (docs/parallel.md) and IMBALANCE_TOLERANCE's
argument checks; runs without MPI."""

import pytest

from solfec import (BARRIER, BODY, BULK_MATERIAL, HERE, IMBALANCE_TOLERANCE, NCPU, RANK,
                    SOLFEC, SPHERE)


def test_serial_run_is_one_rank_that_holds_every_body(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    b = BODY(sol, "RIGID", SPHERE((0, 0, 0), 1, 1, 1), BULK_MATERIAL(sol))
    assert (NCPU(sol), NCPU(), RANK(), HERE(sol, b), BARRIER()) == (1, 1, 0, True, True)


def test_imbalance_tolerance_stores_valid_settings_and_names_bad_arguments(outdir):
    sol = SOLFEC("DYNAMIC", 1e-3, outdir)
    IMBALANCE_TOLERANCE(sol, 1.1, lockdir="ON", degenratio=5.0, weightfactor=0.5)
    assert sol._balance == {"tolerance": 1.1, "lockdir": True, "degenratio": 5.0,
                            "weightfactor": 0.5, "updatefreq": 10}
    for kwargs, arg in [({"tolerance": 0.9}, "tolerance"), ({"lockdir": "MAYBE"}, "lockdir"),
                        ({"degenratio": 1.0}, "degenratio"), ({"weightfactor": 1.5},
                                                              "weightfactor")]:
        args = {"tolerance": 1.3, **kwargs}
        with pytest.raises(ValueError, match=arg):
            IMBALANCE_TOLERANCE(sol, **args)
