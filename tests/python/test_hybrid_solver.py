"""HYBRID_SOLVER stays a clear error (Parmec, which it couples with, is not in Debian): the
message names the routine and the docs section that says what providing it would take."""

import os

import pytest

import solfec

DOCS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))), "docs", "deck-language.md")


def test_hybrid_solver_error_points_to_its_docs_section():
    with pytest.raises(NotImplementedError) as e:
        solfec.HYBRID_SOLVER("parmec.py", 1e-4, {0: 1}, solfec.GAUSS_SEIDEL_SOLVER(1e-4, 100))
    msg = str(e.value)
    assert msg.startswith("HYBRID_SOLVER: ") and "Parmec" in msg
    section = "HYBRID_SOLVER (not provided)"
    assert f"'{section}'" in msg
    text = open(DOCS).read()
    assert f"### {section}\n" in text
    body = text.split(f"### {section}\n")[1].split("\n## ")[0]
    for word in ("parmec2solfec", "force and torque", "velocities", "sub-steps"):
        assert word in body
