"""The includes of src/ follow the module layers of docs/design.md (tests/check_includes.py,
also run by ctest as include_layers), and the check catches a forbidden include."""

import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import check_includes  # noqa: E402


def test_every_include_of_src_follows_the_design_table():
    assert check_includes.violations() == []


def test_an_upward_include_mpi_in_the_core_and_an_abort_in_the_library_are_reported(tmp_path):
    # A copy of the table and a few modules: body including domain (a layer above it),
    # <mpi.h> in solvers and MPI_Abort in the library (not in the launcher) are violations.
    (tmp_path / "docs").mkdir()
    shutil.copy(os.path.join(ROOT, "docs", "design.md"), tmp_path / "docs" / "design.md")
    for m in os.listdir(os.path.join(ROOT, "src")):
        if os.path.isdir(os.path.join(ROOT, "src", m)):
            (tmp_path / "src" / m).mkdir(parents=True)
    (tmp_path / "src" / "body" / "x.cc").write_text(
        '#include "body/body.h"\n#include "geometry/shape.h"\n#include "domain/domain.h"\n')
    (tmp_path / "src" / "solvers" / "y.h").write_text("#include <vector>\n#include <mpi.h>\n")
    (tmp_path / "src" / "domain" / "z.cc").write_text('#include "local_dynamics/a.h"\n')
    (tmp_path / "src" / "parallel" / "w.cc").write_text(
        "// MPI_Abort( in a comment is fine\nvoid F() {\n  MPI_Abort(comm, 1);\n}\n")
    (tmp_path / "src" / "apps" / "main.cc").write_text("int main() { MPI_Abort(c, 1); }\n")
    found = check_includes.violations(str(tmp_path))
    assert len(found) == 3, found
    assert found[0].startswith("src/body/x.cc:3:") and "may not include domain" in found[0]
    assert found[1].startswith("src/parallel/w.cc:3:") and "MPI_Abort ends" in found[1]
    assert found[2].startswith("src/solvers/y.h:2:") and "<mpi.h>" in found[2]
