"""Forms found in Solfec-1.0's own decks (the corpus, tests/compat/README.md) that stopped
them with an error although Solfec-1.0 accepts them (docs/deck-language.md, "Coming from
Solfec-1.0")."""

import subprocess

from conftest import SOLFEC_EXE

# A rigid cube falling freely for 0.1 s from z = 1: z(t) = 1 - g t^2 / 2.
COMPUTE_THEN_READ = """
def create_simulation(step, stop):
    sol = SOLFEC('DYNAMIC', step, 'out/fall')
    sol.verbose = 'OFF'
    GRAVITY(sol, (0, 0, -10))
    mat = BULK_MATERIAL(sol, young=1e9, poisson=0.25, density=1000.0)
    v = [0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 2, 1, 0, 2, 1, 1, 2, 0, 1, 2]
    BODY(sol, 'RIGID', HULL(v, 1, 1), mat)
    RUN(sol, GAUSS_SEIDEL_SOLVER(1e-8, 100), stop)
    return sol

solfec = create_simulation(1e-3, 0.1)        # computes
solfec = create_simulation(1e-3, 0.1)        # the same directory again: reads the results back
print('MODE', solfec.mode)
b = solfec.bodies[0]
SEEK(solfec, 0.1)
print('DZ %.6f' % DISPLACEMENT(b, (0.5, 0.5, 1.5))[2])
"""


def test_a_second_solfec_object_reads_back_what_the_first_computed(tmp_path):
    # Solfec-1.0's validation decks (tests/BM*) compute with one SOLFEC object, then create a
    # second one on the same output directory to read the results in READ mode.
    (tmp_path / "deck.py").write_text(COMPUTE_THEN_READ)
    p = subprocess.run([SOLFEC_EXE, "deck.py"], cwd=tmp_path, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert "MODE READ" in p.stdout
    dz = float(p.stdout.split("DZ ")[1].split()[0])
    assert abs(dz - (-0.5 * 10 * 0.1 ** 2)) < 1e-3  # -0.05 m, to the integrator's O(h) error
