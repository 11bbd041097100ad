// The Python module _reference_searches (built with the tests into build/tests/benchmarks):
// the reference node-to-face searches of tests/cpp/contact/reference_searches.h on a
// solfec domain, for the contact search benchmark (run_contact_search.py) and
// tests/python/test_node_to_face.py. Methods: 'THREE_STAGE' (the library's search),
// 'CLASSIC_BVH', 'BRUTE_FORCE', 'BRUTE_FORCE_BOXED'.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "contact/reference_searches.h"
#include "domain/contact_manager.h"
#include "domain/domain.h"

namespace py = pybind11;

namespace solfec {
namespace {

using Finder = std::shared_ptr<const contact::PairFinder>;

// The stage 2 of `method` (null: the three-stage search); `routine` names the caller.
Finder FinderNamed(const std::string& routine, const std::string& method) {
  if (method == "THREE_STAGE") return nullptr;
  if (method == "CLASSIC_BVH") return std::make_shared<contact::reference::ClassicBvh>();
  if (method == "BRUTE_FORCE") return std::make_shared<contact::reference::BruteForce>();
  if (method == "BRUTE_FORCE_BOXED") return std::make_shared<contact::reference::BruteForce>(true);
  throw py::value_error(routine + ": unknown method '" + method +
                        "' (argument 'method'); use 'THREE_STAGE', 'CLASSIC_BVH', "
                        "'BRUTE_FORCE' or 'BRUTE_FORCE_BOXED'");
}

}  // namespace
}  // namespace solfec

PYBIND11_MODULE(_reference_searches, m) {
  using solfec::domain::Domain;
  // The domain type and node_to_face_stats are those of the solfec module.
  py::module_ core = py::module_::import("solfec._solfec");
  // The way the steps' node-to-face searches find the node-face pairs (benchmarks time each
  // over a run of its own, as the paper's Table 3; all find the same contacts, so the runs
  // are identical).
  m.def(
      "set_run_method",
      [](Domain& d, const std::string& method) {
        d.node_to_face().pair_finder = solfec::FinderNamed("set_run_method", method);
      },
      py::arg("domain"), py::arg("method"));
  // Runs one node-to-face search on the current configuration `repeat` times (the existing
  // contacts those of the domain): the least CPU time of the searching thread, the stats of
  // the last run (solfec._solfec.node_to_face_stats) and the contacts as (master, slave,
  // node, face).
  m.def(
      "search",
      [core](py::object domain, const std::string& method, int repeat) {
        Domain& d = domain.cast<Domain&>();
        const auto finder = solfec::FinderNamed("search", method);
        std::vector<solfec::body::Body*> bodies;
        for (const auto& b : d.bodies()) bodies.push_back(b.get());
        std::vector<solfec::contact::HeldContact> held;
        solfec::domain::HeldContacts(d.constraints(), held);
        const solfec::contact::NodeToFaceFilters filters{&d.contact_settings().excluded_bodies,
                                                         &d.contact_settings().excluded_surfaces};
        std::vector<std::tuple<solfec::Id, solfec::Id, int, int>> contacts;
        double best = 1e300;
        for (int i = 0; i < std::max(1, repeat); ++i) {
          const auto& found =
              d.node_to_face().SearchWith(finder.get(), bodies, d.step(), filters, held);
          best = std::min(best, d.node_to_face().stats().total);
          contacts.clear();
          for (const auto& c : found)
            contacts.emplace_back(c.master->id(), c.slave->id(), c.node, c.face);
        }
        py::dict r;
        r["time"] = best;
        r["contacts"] = contacts;
        r["stats"] = core.attr("node_to_face_stats")(domain);
        return r;
      },
      py::arg("domain"), py::arg("method") = "THREE_STAGE", py::arg("repeat") = 1);
}
