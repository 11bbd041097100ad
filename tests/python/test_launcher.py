"""The `solfec` launcher's embedded Python (docs/cli.md "The embedded Python"): the
interpreter it was built against whatever PATH holds, UTF-8 mode under any locale, a missing
module named by its Debian package in one line, and the BLAS thread policy."""

import os
import shutil
import subprocess

import pytest

from conftest import BUILD, SOLFEC_EXE


def _built_python():
    """Python3_EXECUTABLE of the build (CMakeCache.txt)."""
    with open(os.path.join(BUILD, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("Python3_EXECUTABLE:"):
                return line.split("=", 1)[1].strip()
    pytest.skip("no Python3_EXECUTABLE in the build's CMakeCache.txt")


def _run(tmp_path, args, env=None, **kw):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([SOLFEC_EXE, *args], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env=e, **kw)


NUMPY_DECK = """
import sys, numpy, h5py
print('EXE', sys.executable)
print('NUMPY', numpy.__file__)
print('SUM', int(numpy.arange(5).sum()))
"""


def test_the_built_python_is_used_whatever_python3_comes_first_on_path(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "python3"
    fake.write_text("#!/bin/sh\necho FAKE PYTHON >&2\nexit 3\n")
    fake.chmod(0o755)
    (tmp_path / "deck.py").write_text(NUMPY_DECK)
    paths = [str(bin_dir)]
    # a venv of the built python without its site-packages: a python3 without numpy (with
    # the launcher taking its prefix from PATH, this was "No module named 'numpy'")
    venv = subprocess.run([_built_python(), "-m", "venv", "--without-pip",
                           str(tmp_path / "venv")], capture_output=True)
    if venv.returncode == 0:
        paths.append(str(tmp_path / "venv" / "bin"))
    other = shutil.which("python3")   # e.g. a pyenv shim on a workstation, and its python
    if other and os.path.realpath(other) != os.path.realpath(_built_python()):
        paths.append(os.path.dirname(other))
        real = subprocess.run([other, "-c", "import sys; print(sys.executable)"],
                              capture_output=True, text=True)
        if real.returncode == 0 and real.stdout.strip():
            paths.append(os.path.dirname(real.stdout.strip()))
    for first in paths:
        p = _run(tmp_path, ["deck.py"], env={"PATH": first + os.pathsep + os.environ["PATH"]})
        assert p.returncode == 0, (first, p.stderr)
        assert f"EXE {_built_python()}\n" in p.stdout and "SUM 10" in p.stdout
        assert "FAKE" not in p.stderr


def test_a_missing_module_is_one_line_naming_its_debian_package(tmp_path):
    # a numpy that is not there (solfec itself needs it): shadowed through PYTHONPATH
    for name in ("numpy", "yaml"):
        pkg = tmp_path / "shadow" / name
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text(
            f"raise ModuleNotFoundError(\"No module named '{name}'\", name='{name}')\n")
    (tmp_path / "deck.py").write_text("print('RAN')\n")
    env = {"PYTHONPATH": str(tmp_path / "shadow")}
    p = _run(tmp_path, ["deck.py"], env=env)
    assert p.returncode == 1 and "RAN" not in p.stdout
    assert p.stderr.splitlines() == [
        f"solfec: the Python module 'numpy' is missing from {_built_python()} (the Python "
        "solfec was built with): install the Debian package python3-numpy (sudo apt install "
        "python3-numpy)"]
    # a module the deck imports: the deck's line, then the package
    shutil.rmtree(tmp_path / "shadow" / "numpy")
    (tmp_path / "deck.py").write_text("x = 1\nimport yaml\n")
    p = _run(tmp_path, ["deck.py"], env=env)
    assert p.returncode == 1
    assert 'deck.py", line 2' in p.stderr and "frozen" not in p.stderr
    assert p.stderr.splitlines()[-1].startswith(
        "solfec: the Python module 'yaml' is missing from ")
    assert "install the Debian package python3-yaml" in p.stderr


UTF8_DECK = """# -*- coding: utf-8 -*-  Grüße: a deck in UTF-8 (PEP 3120)
import os, sys
print('ü', 'Ω', sys.flags.utf8_mode)
sol = SOLFEC('DYNAMIC', 1e-3, 'out/ü-run')
sol.verbose = 'OFF'
b = BODY(sol, 'RIGID', SPHERE((0, 0, 0), 1, 1, 1), BULK_MATERIAL(sol, label='stål'))
GRAVITY(sol, (0, 0, -10))
RUN(sol, GAUSS_SEIDEL_SOLVER(1e-6, 10), 0.01)
print('OUT', sol.outpath, sorted(os.listdir(sol.outpath)))
print('ARGV', sys.argv[1:])
"""


def test_utf8_deck_output_and_path_work_under_the_c_locale(tmp_path):
    deck = tmp_path / "déck.py"
    deck.write_text(UTF8_DECK, encoding="utf-8")
    env = {"LANG": "C", "LC_ALL": "C"}
    env.pop("PYTHONIOENCODING", None)
    p = subprocess.run([SOLFEC_EXE, "déck.py", "naïve"], cwd=tmp_path, capture_output=True,
                       timeout=120, env={**os.environ, **env})
    out, err = p.stdout.decode("utf-8"), p.stderr.decode("utf-8")
    assert p.returncode == 0, err
    assert "ü Ω 1\n" in out
    assert "OUT out/ü-run ['.solfec.lock', 'ü-run.h5', 'ü-run.py']" in out.replace(
        "'STATE', ", "")
    assert "ARGV ['naïve']" in out
    # the file the C++ writer created has the UTF-8 bytes of the name and reads back
    name = "ü-run".encode("utf-8")
    assert name + b".h5" in os.listdir(os.path.join(os.fsencode(tmp_path), b"out", name))
    from solfec import results
    with results.Results(str(tmp_path / "out" / "ü-run")) as r:
        assert r.nframes == 11 and r.material_label(r.definitions["id"][0]) == "stål"


def test_blas_threads_default_to_one_unless_the_user_sets_them(tmp_path):
    deck = ("import os, numpy\na = numpy.ones((400, 400))\nfor _ in range(3):\n    a @ a\n"
            "print('ENV', os.environ.get('OPENBLAS_NUM_THREADS'), "
            "os.environ.get('OMP_NUM_THREADS'))\n"
            "print('THREADS', len(os.listdir('/proc/self/task')))\n")
    (tmp_path / "deck.py").write_text(deck)
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    p = subprocess.run([SOLFEC_EXE, "deck.py"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert "ENV 1 1" in p.stdout
    default = int(p.stdout.split("THREADS")[1])
    p = subprocess.run([SOLFEC_EXE, "deck.py"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120, env={**env, "OPENBLAS_NUM_THREADS": "2"})
    assert p.returncode == 0, p.stderr
    assert "ENV 2 1" in p.stdout   # the user's setting wins
    threaded = int(p.stdout.split("THREADS")[1])
    if threaded == default:
        pytest.skip("numpy's BLAS starts no threads here (not OpenBLAS)")
    assert default == 1 and threaded == 2   # the main thread only, then one BLAS worker more


def test_a_deck_in_another_encoding_runs_if_declared_and_is_named_if_not(tmp_path):
    (tmp_path / "declared.py").write_bytes(
        b"# -*- coding: latin-1 -*-\nprint('caf\xe9', len('caf\xe9'))\n")
    p = _run(tmp_path, ["declared.py"], env={"LANG": "C", "LC_ALL": "C"})
    assert p.returncode == 0 and p.stdout == "caf\u00e9 4\n", p.stderr
    (tmp_path / "latin.py").write_bytes(b"x = 1\n# caf\xe9\nprint('RAN')\n")
    p = _run(tmp_path, ["latin.py"])
    assert p.returncode == 1 and "RAN" not in p.stdout
    assert p.stderr == ("solfec: cannot read the deck 'latin.py': byte 0xe9 on line 2 is not "
                        "utf-8; save it as UTF-8, or declare its encoding in its first two "
                        "lines (e.g. '# -*- coding: latin-1 -*-', PEP 263)\n")
