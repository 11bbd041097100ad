#!/usr/bin/env bash
# One entry point: install the Debian packages solfec needs (idempotent), build, and
# optionally run a deck or the whole test suite.
#   bash cmake/setup.sh                 install what is missing + build (build/)
#   bash cmake/setup.sh run DECK [ARGS] ... then run DECK with build/solfec
#   bash cmake/setup.sh test            ... then run every test (ctest + pytest)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SOLFEC_BUILD_DIR:-$root/build}"
jobs="${SOLFEC_JOBS:-$(nproc)}"

# Packages needed to build and test (Debian 12 names).
packages=(build-essential cmake pkg-config python3 python3-dev python3-numpy python3-pytest
  python3-h5py python3-matplotlib python3-meshio pybind11-dev libeigen3-dev libqhull-dev libgtest-dev
  libsuitesparse-dev libhdf5-dev zlib1g-dev libspectra-dev
  libmetis-dev  # METIS: PARTITION of FINITE_ELEMENT bodies (docs/deck-language.md)
  libsiconos-numerics-dev  # Siconos numerics: SICONOS_SOLVER (docs/deck-language.md)
  python3-lib2to3  # converts Python 2 (Solfec-1.0) decks in memory (docs/deck-language.md)
  tetgen  # TetGen's command-line mesher: TETRAHEDRALIZE (docs/deck-language.md)
  openmpi-bin libopenmpi-dev libtrilinos-zoltan-dev  # MPI + Zoltan: solfec-mpi (docs/parallel.md)
  chromium)  # headless browser of the viewer's end-to-end test (docs/viewer.md)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The viewer's three.js and playwright-core, pinned in viewer/package-lock.json (docs/viewer.md);
# before the configure step, which copies three.js into the build tree.
if command -v npm >/dev/null 2>&1; then
  lock="$root/viewer/package-lock.json"
  if [ ! -f "$root/viewer/node_modules/.package-lock.json" ] ||
     [ "$lock" -nt "$root/viewer/node_modules/.package-lock.json" ]; then
    (cd "$root/viewer" && npm ci --no-audit --no-fund)
  fi
else
  echo "setup: npm not found: solfec -v needs viewer/node_modules (apt install npm; then rerun)"
fi

# Debian's interpreter owns numpy/h5py/pytest; a pyenv python3 may shadow it on PATH.
py=/usr/bin/python3
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE="$py" >/dev/null
cmake --build "$build" -j "$jobs"

case "${1:-}" in
  run)
    shift
    exec "$build/solfec" "$@"
    ;;
  test)
    shift
    (cd "$build" && ctest --output-on-failure -j "$jobs")
    cd "$root"
    SOLFEC_BUILD_DIR="$build" "$py" -m pytest -q tests/python "$@"
    ;;
  "") ;;
  *) echo "setup: unknown command '$1' (use: run DECK | test)" >&2; exit 2 ;;
esac
