// Bindings of the node-to-face contact method (CONTACT_METHOD) and its search timings, and of
// the shape overlap test of OVERLAPPING.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/errors.h"
#include "bindings/bindings.h"
#include "contact/ellipsoid_contact.h"
#include "contact/shape_overlap.h"
#include "domain/domain.h"

namespace py = pybind11;

namespace solfec::bindings {

namespace {

using domain::Domain;

// The stage times [s] of node-to-face stats (refresh, octree, bvh, local) into `r`.
void PutStages(const contact::NodeToFaceStats& s, py::dict& r) {
  r["refresh"] = s.refresh;
  r["octree"] = s.octree;
  r["bvh"] = s.bvh;
  r["local"] = s.local;
}

py::dict StatsDict(const contact::NodeToFace& n) {
  const contact::NodeToFaceStats& s = n.stats();
  py::dict r;
  PutStages(s, r);
  r["total"] = s.total;
  r["body_pairs"] = s.body_pairs;
  r["elementary_pairs"] = s.elementary_pairs;
  r["box_tests"] = s.box_tests;
  r["contacts"] = s.contacts;
  r["surfaces"] = s.surfaces;
  r["refreshed"] = s.refreshed;
  r["octree_pairs"] = s.octree_pairs;
  r["skin_kept"] = s.skin_kept;
  r["skin_pairs"] = s.skin_pairs;
  r["accumulated"] = n.accumulated_time();
  py::dict stages;
  PutStages(n.accumulated_stages(), stages);
  r["accumulated_stages"] = stages;
  r["searches"] = n.searches();
  return r;
}

}  // namespace

void DefineContact(py::module_& m) {
  m.def("shapes_overlap", &contact::ShapesOverlap, py::arg("a"), py::arg("b"), py::arg("gap"),
        py::arg("epsilon"),
        "whether a piece of a and a piece of b make a contact with gap <= `gap` (OVERLAPPING)");
  m.def(
      "piece_contact",
      [](const geometry::Shape& a, int pa, const geometry::Shape& b, int pb,
         double epsilon) -> py::object {
        auto count = [](const geometry::Shape& s) {
          return static_cast<int>(s.convexes.size() + s.spheres.size() + s.ellipsoids.size());
        };
        if (pa < 0 || pa >= count(a) || pb < 0 || pb >= count(b))
          throw InputError("piece_contact: piece index out of range (arguments 'pa', 'pb')");
        const int ea = static_cast<int>(a.convexes.size() + a.spheres.size());
        const int eb = static_cast<int>(b.convexes.size() + b.spheres.size());
        if (pa < ea && pb < eb)
          throw InputError("piece_contact: one of the pieces must be an ellipsoid");
        const auto g = contact::EllipsoidPiecePair(a, pa, b, pb, epsilon);
        if (!g) return py::none();
        py::dict r;
        r["point"] = py::make_tuple(g->point.x(), g->point.y(), g->point.z());
        r["normal"] = py::make_tuple(g->normal.x(), g->normal.y(), g->normal.z());
        r["gap"] = g->gap;
        r["area"] = g->area;
        r["surfaces"] = py::make_tuple(g->surf1, g->surf2);
        return r;
      },
      py::arg("a"), py::arg("pa"), py::arg("b"), py::arg("pb"), py::arg("epsilon"),
      "the contact of piece pa of a with piece pb of b, one an ellipsoid (pieces: convexes, "
      "spheres, ellipsoids), normal from a into b; None when apart by epsilon or more");
  m.def("set_contact_method",
        [](Domain& d, const std::string& method, double margin, double depth_fraction) {
          if (method == "OVERLAP")
            d.node_to_face().method = contact::ContactMethod::kOverlap;
          else if (method == "NODE_TO_FACE")
            d.node_to_face().method = contact::ContactMethod::kNodeToFace;
          else
            throw InputError("CONTACT_METHOD: unknown method '" + method +
                             "' (argument 'method'); use 'OVERLAP' or 'NODE_TO_FACE'");
          d.node_to_face().options.margin = margin;
          d.node_to_face().options.depth_fraction = depth_fraction;
        });
  m.def("contact_method",
        [](const Domain& d) { return d.node_to_face().enabled() ? "NODE_TO_FACE" : "OVERLAP"; });
  // Timings [s] and counts of the last node-to-face search, and the accumulated search time
  // (process CPU) and stage times (wall clock) since the last reset. (The reference searches
  // that benchmarks compare are in tests: tests/benchmarks/reference_searches_py.cc.)
  m.def("node_to_face_stats", [](const Domain& d) { return StatsDict(d.node_to_face()); });
  // The skin of the three-stage search's temporal coherence (NodeToFaceOptions::skin, a
  // fraction of the mean face diameter; 0: none): benchmarks time the search without it.
  m.def("node_to_face_skin", [](Domain& d, double skin) {
    if (!(skin >= 0.0) || !std::isfinite(skin))
      throw InputError("node_to_face_skin: skin must be finite and >= 0 (argument 'skin')");
    d.node_to_face().options.skin = skin;
  });
  m.def("node_to_face_reset_timer", [](Domain& d) { d.node_to_face().ResetAccumulated(); });
}

}  // namespace solfec::bindings
