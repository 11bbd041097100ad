# Finds the libraries solfec builds against (all from Debian packages; see cmake/setup.sh).
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(Python3 REQUIRED COMPONENTS Interpreter Development)
find_package(pybind11 CONFIG REQUIRED)
find_package(Qhull CONFIG REQUIRED)
find_package(GTest)
find_package(Threads REQUIRED)
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(ZLIB REQUIRED)  # chunks deflated off the HDF5 library (io/chunk_codec.h)

# CHOLMOD (Debian libsuitesparse-dev) factorizes the sparse inertia operators of deformable
# bodies; Debian ships no CMake package for it, so find the header and library directly.
find_path(CHOLMOD_INCLUDE_DIR cholmod.h PATH_SUFFIXES suitesparse REQUIRED)
find_library(CHOLMOD_LIBRARY cholmod REQUIRED)
add_library(SuiteSparse::CHOLMOD UNKNOWN IMPORTED)
set_target_properties(SuiteSparse::CHOLMOD PROPERTIES
  IMPORTED_LOCATION ${CHOLMOD_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${CHOLMOD_INCLUDE_DIR})

# Spectra (Debian libspectra-dev, header-only) runs the shift-invert Lanczos iteration of
# MODAL_ANALYSIS (src/body/fem/modal_analysis.cc).
find_path(SPECTRA_INCLUDE_DIR Spectra/SymEigsSolver.h REQUIRED)
include_directories(SYSTEM ${SPECTRA_INCLUDE_DIR})
