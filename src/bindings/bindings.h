// Declarations of the per-area binding functions called by module.cc.
#pragma once

#include <pybind11/pybind11.h>

namespace solfec::bindings {

void DefineErrors(pybind11::module_& m);    // errors_py.cc
void DefineBase(pybind11::module_& m);      // base_py.cc: TimeSeries
void DefineGeometry(pybind11::module_& m);  // geometry_py.cc: Shape and shape routines
void DefineSolvers(pybind11::module_& m);   // solvers_py.cc: GaussSeidelSolver
void DefineDomain(pybind11::module_& m);    // domain_py.cc: Domain, bodies, constraints
void DefineIo(pybind11::module_& m);
void DefineBases(pybind11::module_& m);   // bases_py.cc: modal analysis, reduced bases
void DefineContact(pybind11::module_& m);  // contact_py.cc: CONTACT_METHOD, search timings
void DefineFem(pybind11::module_& m);      // fem_py.cc: FeMesh, stress_values, cauchy_stresses
void DefineExport(pybind11::module_& m);   // export_py.cc: model data for MBFCP_EXPORT, fracture
void DefineSplit(pybind11::module_& m);    // split_py.cc: SIMPLIFIED_CRACK, RT_SPLIT

}  // namespace solfec::bindings
