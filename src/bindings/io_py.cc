// Results binding: the Output object of a SOLFEC in WRITE mode (frames, STATE) and
// restore_frame, which puts a frame read by solfec.results (h5py) back into a Domain.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/errors.h"
#include "bindings/bindings.h"
#include "domain/domain.h"
#include "io/output.h"
#include "io/restore.h"

namespace py = pybind11;

namespace solfec::bindings {

namespace {

using io::BodyStateRow;
using io::ConstraintRow;
using io::FrameRow;
using FieldList = std::vector<std::pair<const char*, size_t>>;

// Copies a structured numpy array (as h5py reads a record dataset) into C records after
// checking that its fields sit at the offsets of T (the file type is the memory type).
template <typename T>
std::vector<T> Records(const py::array& arr, const FieldList& fields, const char* what) {
  const py::dtype dt = arr.dtype();
  if (static_cast<size_t>(dt.itemsize()) != sizeof(T))
    throw InputError(std::string("RESTORE: ") + what + " records have " +
                     std::to_string(dt.itemsize()) + " bytes, expected " +
                     std::to_string(sizeof(T)) + " (unsupported results format)");
  const py::dict f = dt.attr("fields");
  for (const auto& [name, off] : fields) {
    if (!f.contains(name) || py::cast<size_t>(py::cast<py::tuple>(f[name])[1]) != off)
      throw InputError(std::string("RESTORE: field '") + name + "' of " + what +
                       " records is missing or misplaced (unsupported results format)");
  }
  py::array c = py::array::ensure(arr, py::array::c_style);
  std::vector<T> out(static_cast<size_t>(c.size()));
  if (!out.empty()) std::memcpy(out.data(), c.data(), out.size() * sizeof(T));
  return out;
}

#define FIELD(T, n) {#n, offsetof(T, n)}

const FieldList kFrameFields = {FIELD(FrameRow, time), FIELD(FrameRow, step),
                                FIELD(FrameRow, step_count), FIELD(FrameRow, next_constraint_id)};
const FieldList kBodyFields = {FIELD(BodyStateRow, id), FIELD(BodyStateRow, energy)};
const FieldList kConstraintFields = {
    FIELD(ConstraintRow, id),    FIELD(ConstraintRow, kind),   FIELD(ConstraintRow, age),
    FIELD(ConstraintRow, body1), FIELD(ConstraintRow, body2),  FIELD(ConstraintRow, point),
    FIELD(ConstraintRow, point2), FIELD(ConstraintRow, base),  FIELD(ConstraintRow, R),
    FIELD(ConstraintRow, U),     FIELD(ConstraintRow, gap),    FIELD(ConstraintRow, area),
    FIELD(ConstraintRow, merit), FIELD(ConstraintRow, surf1),  FIELD(ConstraintRow, surf2),
    FIELD(ConstraintRow, piece1), FIELD(ConstraintRow, piece2), FIELD(ConstraintRow, X1),
    FIELD(ConstraintRow, X2),    FIELD(ConstraintRow, cohesive)};

#undef FIELD

}  // namespace

void DefineIo(py::module_& m) {
  py::class_<io::Output, std::shared_ptr<io::Output>>(m, "Output")
      .def(py::init<std::string, std::string, bool, std::map<std::string, std::string>>(),
           py::arg("results_path"), py::arg("state_path"), py::arg("append"),
           py::arg("attributes") = std::map<std::string, std::string>{})
      .def("attach",
           [](const std::shared_ptr<io::Output>& self, domain::Domain& d) {
             io::Output::Attach(self, d);
           })
      .def_property("interval", &io::Output::interval, &io::Output::set_interval)
      .def("set_compression", &io::Output::set_compression)
      .def("set_bases_in_file", &io::Output::set_bases_in_file)
      // benchmark knob (tests/benchmarks/run_output_write.py): 'PIPELINE', 'DIRECT', 'BACKGROUND'
      .def("set_write_mode",
           [](io::Output& o, const std::string& mode) {
             using M = io::ResultsWriter::WriteMode;
             if (mode == "PIPELINE") o.writer().set_write_mode(M::kPipeline);
             else if (mode == "DIRECT") o.writer().set_write_mode(M::kDirect);
             else if (mode == "BACKGROUND") o.writer().set_write_mode(M::kBackground);
             else
               throw py::value_error("Output.set_write_mode: argument 'mode' must be 'PIPELINE', "
                                     "'DIRECT' or 'BACKGROUND', got '" + mode + "'");
           })
      .def("begin_run", &io::Output::BeginRun)
      .def("end_run", &io::Output::EndRun)
      .def("finish", &io::Output::Finish)
      .def("write_frame", &io::Output::WriteFrame)
      .def("close", [](io::Output& o) { o.writer().Close(); })
      .def_property_readonly("is_open", [](io::Output& o) { return o.writer().is_open(); })
      .def_property_readonly("frames", [](io::Output& o) { return o.writer().frames(); })
      .def_property_readonly("pending", [](io::Output& o) { return o.writer().pending(); })
      .def_property_readonly("seconds", [](io::Output& o) { return o.writer().seconds(); })
      .def_property_readonly("last_frame_time",
                             [](io::Output& o) { return o.writer().last_frame_time(); });

  m.def(
      "restore_frame",
      [](domain::Domain& d, const py::array& frame, const py::array& bodies,
         const std::vector<int>& nq, const std::vector<int>& nu, const std::vector<double>& q,
         const std::vector<double>& u, const py::array& constraints) {
        io::FrameState s;
        const auto rows = Records<FrameRow>(frame, kFrameFields, "frame");
        if (rows.size() != 1) throw InputError("RESTORE: expected one frame record");
        s.frame = rows[0];
        s.bodies = Records<BodyStateRow>(bodies, kBodyFields, "body state");
        s.nq = nq;
        s.nu = nu;
        s.q = q;
        s.u = u;
        s.constraints = Records<ConstraintRow>(constraints, kConstraintFields, "constraint");
        const io::RestoreReport r = io::RestoreFrame(d, s);
        py::dict out;
        out["bodies_restored"] = r.bodies_restored;
        out["bodies_missing"] = r.bodies_missing;
        out["constraints_restored"] = r.constraints_restored;
        out["constraints_skipped"] = r.constraints_skipped;
        return out;
      },
      py::arg("domain"), py::arg("frame"), py::arg("bodies"), py::arg("nq"), py::arg("nu"),
      py::arg("q"), py::arg("u"), py::arg("constraints"));
}

}  // namespace solfec::bindings
