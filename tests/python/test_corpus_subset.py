"""A fast subset of Solfec-1.0's own decks (the corpus in ../shared/solfec1-decks beside the
clone) runs unchanged through the launcher, as tests/compat/run_corpus.py runs the whole corpus
(tests/compat/README.md): each deck from the root of a fresh copy of the corpus, Python 2
converted in memory. Skipped when the corpus is not there."""

import ast
import math
import os
import re
import sys

import pytest

from conftest import ROOT, SOLFEC_EXE

sys.path.insert(0, os.path.join(ROOT, "tests", "compat"))
import run_corpus  # noqa: E402

CORPUS = next((c for c in (os.path.join(os.path.dirname(ROOT), "shared", "solfec1-decks"),
                           "/work/shared/solfec1-decks") if os.path.isdir(c)), None)
pytestmark = pytest.mark.skipif(CORPUS is None, reason="the Solfec-1.0 corpus "
                                "(../shared/solfec1-decks) is not beside the clone")

# Decks that finish in a few seconds (each well under 5 s on one core).
FAST = ["inp/devel/integration-points.py", "inp/tutorial/ball-impact.py", "inp/cylsec.py",
        "inp/domino.py", "inp/rotating-bar.py", "inp/selfcontact.py", "inp/shockabs.py",
        "inp/tetpart.py", "examples/time-series/labeled-ts.py"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    parent = str(tmp_path_factory.mktemp("corpus"))
    env = dict(os.environ, MPLBACKEND="Agg", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = {}
    for deck in FAST:
        # the decks of this subset read files of their own top directory only
        scratch = run_corpus.fresh_copy(CORPUS, parent, deck, [deck.split("/")[0]])
        out[deck] = run_corpus.run_one(SOLFEC_EXE, scratch, deck, 60.0, env, parent)
        with open(os.path.join(parent, deck.replace("/", "__") + ".out")) as f:
            out[deck] += (f.read(),)
    return out


@pytest.mark.parametrize("deck", FAST)
def test_fast_corpus_deck_runs_to_its_end(runs, deck):
    status, wall, line, _ = runs[deck]
    assert status == "finished", f"{deck}: {status} after {wall:.1f} s: {line}"


def test_integration_points_deck_prints_gauss_points(runs):
    # inp/devel/integration-points.py prints the 2x2x2 Gauss points of a unit hexahedron:
    # every coordinate is (1 -+ 1/sqrt(3)) / 2.
    text = runs["inp/devel/integration-points.py"][3]
    m = re.search(r"All volume integration points:\n(\[.*\])", text)
    assert m, text
    pts = ast.literal_eval(m.group(1))
    assert len(pts) == 8
    g = {(1 - 1 / math.sqrt(3)) / 2, (1 + 1 / math.sqrt(3)) / 2}
    for p in pts:
        for c in p:
            assert min(abs(c - v) for v in g) < 1e-12
    assert len({tuple(round(c, 9) for c in p) for p in pts}) == 8


def test_the_runner_classifies_decks_it_does_not_run():
    assert run_corpus.not_run_reason("examples/hybrid-solver1/hs1-parmec.py")[0] == \
        "outside Debian"
    assert run_corpus.not_run_reason("inp/fratest.py")[0] == "outside Debian"
    assert run_corpus.not_run_reason("inp/cores/inc/simple_core_base.py")[0] == "library"
    assert run_corpus.not_run_reason("inp/domino.py") is None
    status, line = run_corpus.first_error(
        'Traceback (most recent call last):\n  File "inp/drum.py", line 67, in <module>\n'
        'ValueError: ELLIP: radii[0] = -1 is not positive\n', "inp/drum.py")
    assert status == "error" and line.endswith("(drum.py:67)")
    status, _ = run_corpus.first_error(
        'Traceback (most recent call last):\n  File "hs1-solfec.py", line 9, in <module>\n'
        'NotImplementedError: HYBRID_SOLVER: it needs Parmec\n', "hs1-solfec.py")
    assert status == "outside Debian"
