// Maps the core's error tiers to Python: InputError -> ValueError, TypeError -> TypeError,
// SolverError -> solfec.SolverError (a RuntimeError), GeometryError -> RuntimeError.
#include <pybind11/pybind11.h>

#include "base/errors.h"
#include "bindings/bindings.h"

namespace py = pybind11;

namespace solfec::bindings {

void DefineErrors(py::module_& m) {
  static py::exception<SolverError> solver_error(m, "SolverError", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(e.kind() == InputError::Kind::kType ? PyExc_TypeError : PyExc_ValueError,
                      e.what());
    } catch (const SolverError& e) {
      solver_error(e.what());
    } catch (const GeometryError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

}  // namespace solfec::bindings
