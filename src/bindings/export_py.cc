// Model data for the exports to other codes (python/solfec/mbfcp.py MBFCP_EXPORT and the
// fracture records of python/solfec/fracture_check.py): the referential geometry, loads and
// user constraints of a Domain as plain Python values.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "base/errors.h"
#include "bindings/bindings.h"
#include "body/fem/fe_body.h"
#include "domain/domain.h"

namespace py = pybind11;

namespace solfec::bindings {

namespace {

using domain::Domain;

py::tuple Tuple3(const Vec3& v) { return py::make_tuple(v.x(), v.y(), v.z()); }

// A constant or a time series: a float, or (times, values).
py::object Value(const ScalarOrSeries& v) {
  if (!v.is_series()) return py::float_(v.constant());
  return py::make_tuple(v.series().times(), v.series().values());
}

const body::Body& FindBodyOrThrow(const Domain& d, Id id, const char* routine) {
  const body::Body* b = d.FindBody(id);
  if (!b) throw InputError(std::string(routine) + ": no body " + std::to_string(id));
  return *b;
}

const char* BodyKindName(body::BodyKind k) {
  switch (k) {
    case body::BodyKind::kObstacle: return "OBSTACLE";
    case body::BodyKind::kRigid: return "RIGID";
    case body::BodyKind::kPseudoRigid: return "PSEUDO_RIGID";
    case body::BodyKind::kFiniteElement: return "FINITE_ELEMENT";
  }
  return "UNKNOWN";
}

py::list MeshData(const geometry::Mesh& m) {
  py::list nodes, elements, faces;
  for (const Vec3& x : m.nodes) nodes.append(Tuple3(x));
  for (const geometry::MeshElement& e : m.elements)
    elements.append(std::vector<int>(e.nodes.begin(), e.nodes.begin() + e.num_nodes));
  for (const geometry::MeshFace& f : m.BoundaryFaces()) faces.append(py::make_tuple(f.nodes, f.surfid));
  py::list out;
  out.append(nodes), out.append(elements), out.append(faces);
  return out;
}

}  // namespace

void DefineExport(py::module_& m) {
  m.def(
      "export_body",  // referential geometry, velocity and point loads of a body
      [](const Domain& d, Id id) {
        const body::Body& b = FindBodyOrThrow(d, id, "export_body");
        py::dict out;
        out["kind"] = BodyKindName(b.kind());
        out["label"] = b.label();
        out["material"] = b.material().label;
        const geometry::Shape& s = b.ref_shape();
        py::list convexes, spheres, meshes;
        for (const geometry::Convex& c : s.convexes) {
          py::list vertices, faces;
          for (const Vec3& v : c.vertices) vertices.append(Tuple3(v));
          for (const geometry::ConvexFace& f : c.faces)
            faces.append(py::make_tuple(f.vertices, f.surfid));
          convexes.append(py::make_tuple(vertices, faces));
        }
        for (const geometry::Sphere& sp : s.spheres)
          spheres.append(py::make_tuple(Tuple3(sp.center), sp.radius, sp.surfid));
        const body::FeBody* fe = b.MeshBody();
        if (fe && !fe->embedded()) {
          meshes.append(MeshData(fe->mesh()));
          convexes = py::list();  // the element convexes of the current shape
          spheres = py::list();
        } else {
          for (const geometry::Mesh& mesh : s.meshes) meshes.append(MeshData(mesh));
        }
        out["convexes"] = convexes;
        out["spheres"] = spheres;
        out["meshes"] = meshes;
        out["ellipsoids"] = static_cast<int>(s.ellipsoids.size());
        out["velo"] = std::vector<double>(b.u().data(), b.u().data() + b.u().size());
        py::list loads;
        for (const body::PointLoad& l : const_cast<body::Body&>(b).loads()) {
          py::dict ld;
          ld["torque"] = l.type == body::PointLoad::Type::kTorque;
          ld["convected"] = l.convected;
          ld["point"] = Tuple3(l.point);
          ld["direction"] = Tuple3(l.direction);
          ld["value"] = l.callback ? py::object(py::none()) : Value(l.value);
          loads.append(ld);
        }
        out["loads"] = loads;
        return out;
      },
      py::arg("domain"), py::arg("id"));
  m.def(
      "export_gravity",  // the three GRAVITY components: floats or (times, values)
      [](Domain& d) {
        py::list out;
        for (const ScalarOrSeries& g : d.gravity()) out.append(Value(g));
        return out;
      },
      py::arg("domain"));
  m.def(
      "export_constraints",  // the constraints other than contacts, in creation order
      [](const Domain& d) {
        py::list out;
        for (const contact::Constraint& c : d.constraints()) {
          if (c.kind == contact::ConstraintKind::kContact) continue;
          py::dict k;
          k["id"] = c.id;
          k["kind"] = contact::KindName(c.kind);
          k["body1"] = c.body1 ? py::object(py::int_(c.body1->id())) : py::object(py::none());
          k["body2"] = c.body2 ? py::object(py::int_(c.body2->id())) : py::object(py::none());
          k["X1"] = Tuple3(c.X1);
          k["X2"] = Tuple3(c.X2);
          k["direction"] = Tuple3(c.base.col(2));  // FIXDIR, VELODIR: the base normal
          // SET_DISPLACEMENT: the velocity is the displacement's derivative (as Solfec-1.0 keeps it)
          k["velocity"] = c.has_displacement ? Value(ScalarOrSeries(c.displacement.Derivative()))
                                             : Value(c.velocity);
          out.append(k);
        }
        return out;
      },
      py::arg("domain"));
  m.def(
      "constraint_referential_point",  // the constraint's referential point on body `id`
      [](Domain& d, Id cid, Id id) {
        const contact::Constraint* c = d.FindConstraint(cid);
        if (!c) throw InputError("constraint_referential_point: no constraint " + std::to_string(cid));
        if (c->body1 && c->body1->id() == id) return Tuple3(c->X1);
        if (c->body2 && c->body2->id() == id) return Tuple3(c->X2);
        throw InputError("constraint_referential_point: constraint " + std::to_string(cid) +
                         " does not hold body " + std::to_string(id));
      },
      py::arg("domain"), py::arg("constraint"), py::arg("body"));
}

}  // namespace solfec::bindings
