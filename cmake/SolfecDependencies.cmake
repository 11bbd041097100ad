# Finds the libraries solfec builds against (all from Debian packages; see cmake/setup.sh).
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(Python3 REQUIRED COMPONENTS Interpreter Development)
find_package(pybind11 CONFIG REQUIRED)
find_package(Qhull CONFIG REQUIRED)
find_package(GTest)
find_package(Threads REQUIRED)
find_package(HDF5 REQUIRED COMPONENTS C)
