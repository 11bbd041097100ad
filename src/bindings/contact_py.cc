// Bindings of the node-to-face contact method (CONTACT_METHOD) and its search timings.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <tuple>
#include <vector>

#include "base/errors.h"
#include "base/timer.h"
#include "bindings/bindings.h"
#include "domain/domain.h"

namespace py = pybind11;

namespace solfec::bindings {

namespace {

using contact::NodeFaceContact;
using domain::Domain;

std::vector<body::Body*> Bodies(Domain& d) {
  std::vector<body::Body*> out;
  for (const auto& b : d.bodies()) out.push_back(b.get());
  return out;
}

py::dict StatsDict(const contact::NodeToFace& n) {
  const contact::NodeToFaceStats& s = n.stats();
  py::dict r;
  r["refresh"] = s.refresh;
  r["octree"] = s.octree;
  r["bvh"] = s.bvh;
  r["local"] = s.local;
  r["total"] = s.total;
  r["body_pairs"] = s.body_pairs;
  r["elementary_pairs"] = s.elementary_pairs;
  r["box_tests"] = s.box_tests;
  r["contacts"] = s.contacts;
  r["accumulated"] = n.accumulated_time();
  r["searches"] = n.searches();
  return r;
}

// (master id, slave id, node, face) of each contact.
std::vector<std::tuple<Id, Id, int, int>> Keys(const std::vector<NodeFaceContact>& cs) {
  std::vector<std::tuple<Id, Id, int, int>> k;
  for (const auto& c : cs) k.emplace_back(c.master->id(), c.slave->id(), c.node, c.face);
  return k;
}

}  // namespace

void DefineContact(py::module_& m) {
  m.def("set_contact_method",
        [](Domain& d, const std::string& method, double margin, double depth_fraction) {
          if (method == "OVERLAP") d.node_to_face.method = contact::ContactMethod::kOverlap;
          else if (method == "NODE_TO_FACE")
            d.node_to_face.method = contact::ContactMethod::kNodeToFace;
          else
            throw InputError("CONTACT_METHOD: unknown method '" + method +
                             "' (argument 'method'); use 'OVERLAP' or 'NODE_TO_FACE'");
          d.node_to_face.options.margin = margin;
          d.node_to_face.options.depth_fraction = depth_fraction;
        });
  m.def("contact_method", [](const Domain& d) {
    return d.node_to_face.enabled() ? "NODE_TO_FACE" : "OVERLAP";
  });
  // Timings [s] and counts of the last node-to-face search, and the accumulated search time.
  m.def("node_to_face_stats", [](const Domain& d) { return StatsDict(d.node_to_face); });
  m.def("node_to_face_reset_timer", [](Domain& d) { d.node_to_face.ResetAccumulated(); });
  // Runs the three-stage search and the brute-force search on the current configuration
  // (`repeat` times each, best time kept) and compares the contact sets.
  m.def(
      "node_to_face_compare",
      [](Domain& d, int repeat) {
        const auto bodies = Bodies(d);
        const contact::NodeToFaceFilters f{&d.excluded_bodies, &d.excluded_surfaces};
        std::vector<NodeFaceContact> fast, brute;
        double t_fast = 1e300, t_brute = 1e300;
        for (int i = 0; i < std::max(1, repeat); ++i) {
          Timer t;
          fast = d.node_to_face.Search(bodies, d.step(), f);
          t_fast = std::min(t_fast, t.Stop());
        }
        py::dict stats = StatsDict(d.node_to_face);
        for (int i = 0; i < std::max(1, repeat); ++i) {
          Timer t;
          brute = d.node_to_face.SearchBruteForce(bodies, d.step(), f);
          t_brute = std::min(t_brute, t.Stop());
        }
        py::dict r;
        r["three_stage_time"] = t_fast;
        r["brute_force_time"] = t_brute;
        r["contacts"] = fast.size();
        r["brute_force_contacts"] = brute.size();
        r["same"] = Keys(fast) == Keys(brute);
        r["stats"] = stats;
        return r;
      },
      py::arg("domain"), py::arg("repeat") = 1);
}

}  // namespace solfec::bindings
