"""pytest setup: import the solfec package from the build tree and helpers for decks."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("SOLFEC_BUILD_DIR", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(BUILD, "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

SOLFEC_EXE = os.path.join(BUILD, "solfec")


@pytest.fixture
def outdir(tmp_path):
    """A fresh output directory path for a SOLFEC object."""
    return str(tmp_path / "out")


@pytest.fixture
def keep_geometric_epsilon():
    """GEOMETRIC_EPSILON is global (as in Solfec-1.0): restores it for the other tests."""
    import solfec
    from solfec import _state
    eps = _state.geometric_epsilon
    yield
    solfec.GEOMETRIC_EPSILON(eps)


@pytest.fixture
def run_solfec(tmp_path):
    """Runs `solfec [options] deck [args]` in tmp_path; returns the CompletedProcess."""
    def run(deck_source=None, deck_path=None, options=(), args=(), timeout=600):
        if deck_path is None:
            deck_path = tmp_path / "deck.py"
            deck_path.write_text(deck_source)
        cmd = [SOLFEC_EXE, *options, str(deck_path), *args]
        return subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True,
                              timeout=timeout)
    return run


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long validation case; skipped unless "
                            "SOLFEC_SLOW=1 (run them with tests/benchmarks or by hand)")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("SOLFEC_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow validation case: set SOLFEC_SLOW=1 to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
