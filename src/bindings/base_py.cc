// TIME_SERIES binding.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "base/time_series.h"
#include "bindings/bindings.h"

namespace py = pybind11;

namespace solfec::bindings {

void DefineBase(py::module_& m) {
  py::class_<TimeSeries>(m, "TimeSeries")
      .def(py::init<std::vector<double>, std::vector<double>>(), py::arg("times"),
           py::arg("values"))
      .def_static("from_file", &TimeSeries::FromFile, py::arg("path"))
      .def("value", &TimeSeries::Value, py::arg("t"))
      .def("derivative", &TimeSeries::Derivative)
      .def("integral", &TimeSeries::Integral)
      .def_property_readonly("times", &TimeSeries::times)
      .def_property_readonly("values", &TimeSeries::values);
}

}  // namespace solfec::bindings
