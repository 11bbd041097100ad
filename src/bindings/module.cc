// The solfec Python extension module (_solfec): calls one Define<Area>(m) per area.
#include <pybind11/pybind11.h>

PYBIND11_MODULE(_solfec, m) { m.doc() = "solfec core"; }
