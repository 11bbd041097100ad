// Run-time splitting of bodies: SIMPLIFIED_CRACK (CrackSet) and RT_SPLIT (python/solfec/split.py).
#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "base/errors.h"
#include "body/body_factory.h"
#include "body/fem/fe_body.h"
#include "bindings/bindings.h"
#include "domain/body_split.h"
#include "domain/domain.h"

namespace py = pybind11;

namespace solfec::bindings {

namespace {

using domain::Crack;
using domain::CrackSet;
using domain::Domain;

Crack MakeCrack(const Vec3& point, const Vec3& normal, int sid1, int sid2, bool topoadj,
                double ft, double Gf) {
  Crack c;
  c.point = point;
  c.normal = normal.normalized();
  c.surfids = {sid1, sid2};
  c.topoadj = topoadj;
  c.ft = ft;
  c.Gf = Gf;
  return c;
}

const body::Body& FindOrThrow(const Domain& d, Id id, const std::string& routine) {
  const body::Body* b = d.FindBody(id);
  if (!b)
    throw InputError(routine + ": body " + std::to_string(id) + " has been deleted (argument 'body')");
  return *b;
}

}  // namespace

void DefineSplit(py::module_& m) {
  py::class_<CrackSet>(m, "CrackSet")
      .def(py::init<>())
      // SIMPLIFIED_CRACK: checks the crack against the body now (InputError) and keeps it
      .def(
          "add",
          [](CrackSet& s, const Domain& d, Id id, const Vec3& point, const Vec3& normal, int sid1,
             int sid2, bool topoadj, double ft, double Gf) {
            Crack c = MakeCrack(point, normal, sid1, sid2, topoadj, ft, Gf);
            domain::PrepareCrack(FindOrThrow(d, id, "SIMPLIFIED_CRACK"), c, "SIMPLIFIED_CRACK");
            s.Add(id, std::move(c));
          },
          py::arg("domain"), py::arg("id"), py::arg("point"), py::arg("normal"), py::arg("sid1"),
          py::arg("sid2"), py::arg("topoadj"), py::arg("ft"), py::arg("Gf"))
      // one check of every crack: [(parent id, [part ids]), ...] of the bodies split
      .def("check", &CrackSet::Check, py::arg("domain"))
      .def("remap", &CrackSet::Remap, py::arg("domain"), py::arg("gone"), py::arg("parts"))
      .def_property_readonly("count", &CrackSet::count)
      .def_property_readonly("splits", &CrackSet::splits);
  // The largest normal tension over a crack's sample points (tests, diagnostics).
  m.def(
      "crack_tension",
      [](const Domain& d, Id id, const Vec3& point, const Vec3& normal, bool topoadj) {
        const body::Body& b = FindOrThrow(d, id, "crack_tension");
        Crack c = MakeCrack(point, normal, 0, 0, topoadj, 0.0, 0.0);
        domain::PrepareCrack(b, c, "crack_tension");
        return domain::CrackTension(b, c);
      },
      py::arg("domain"), py::arg("id"), py::arg("point"), py::arg("normal"),
      py::arg("topoadj") = false);
  // RT_SPLIT: (part ids, node maps)
  m.def(
      "rt_split",
      [](Domain& d, Id id, const std::vector<std::vector<int>>& faces, int sid1, int sid2,
         const std::string& label1, const std::string& label2) {
        std::vector<std::vector<int>> maps;
        auto ids = domain::SplitBodyByFaces(d, id, faces, sid1, sid2, label1, label2, maps);
        return py::make_tuple(ids, maps);
      },
      py::arg("domain"), py::arg("id"), py::arg("faces"), py::arg("sid1"), py::arg("sid2"),
      py::arg("label1"), py::arg("label2"));
  // A mesh split along faces (node lists): [(mesh Shape, parent nodes of the part's nodes)]
  m.def(
      "split_mesh_at_faces",
      [](const geometry::Shape& shape, const std::vector<std::vector<int>>& faces, int sid1,
         int sid2) {
        if (shape.meshes.size() != 1)
          throw InputError("split_mesh_at_faces: expects a single MESH (argument 'mesh')");
        int matched = 0;
        auto parts = domain::SplitMeshAtFaces(shape.meshes[0], faces, sid1, sid2, &matched);
        py::list out;
        for (auto& p : parts) {
          geometry::Shape s;
          s.meshes.push_back(std::move(p.mesh));
          out.append(py::make_tuple(std::move(s), p.nodes));
        }
        return py::make_tuple(out, matched);
      },
      py::arg("mesh"), py::arg("faces"), py::arg("sid1"), py::arg("sid2"));
  // READ mode: a body made from its stored definition under its stored id (a part of a
  // split, or a body a CALLBACK made during the run)
  m.def(
      "add_body_with_id",
      [](Domain& d, Id id, const std::string& kind, geometry::Shape& shape,
         const material::BulkMaterial& mat, const std::string& label,
         const std::optional<geometry::Shape>& mesh) {
        body::BodyKind k = body::BodyKind::kRigid;
        if (kind == "PSEUDO_RIGID") k = body::BodyKind::kPseudoRigid;
        else if (kind == "FINITE_ELEMENT") k = body::BodyKind::kFiniteElement;
        else if (kind == "OBSTACLE") k = body::BodyKind::kObstacle;
        else if (kind != "RIGID") throw InputError("add_body_with_id: unknown kind " + kind);
        std::optional<geometry::Mesh> background;
        if (mesh) background = mesh->meshes.at(0);
        auto b = body::MakeBody(k, shape, mat, label, std::move(background));
        return d.AddBodyWithId(std::move(b), id).id();
      },
      py::arg("domain"), py::arg("id"), py::arg("kind"), py::arg("shape"), py::arg("material"),
      py::arg("label"), py::arg("mesh") = py::none());
  // The boundary faces of a FINITE_ELEMENT body's referential mesh: [(nodes, surfid)]
  m.def(
      "body_mesh_boundary_faces",
      [](const Domain& d, Id id) {
        const body::FeBody* fe = FindOrThrow(d, id, "body_mesh_boundary_faces").MeshBody();
        if (!fe) throw InputError("body_mesh_boundary_faces: not a FINITE_ELEMENT body");
        py::list out;
        for (const auto& f : fe->mesh().BoundaryFaces()) out.append(py::make_tuple(f.nodes, f.surfid));
        return out;
      },
      py::arg("domain"), py::arg("id"));
  // Inter-element faces of a MESH on a plane (oriented +normal) and the elements it cuts.
  m.def(
      "mesh_faces_on_plane",
      [](const geometry::Shape& shape, const Vec3& point, const Vec3& normal, bool topoadj) {
        if (shape.meshes.size() != 1)
          throw InputError("mesh_faces_on_plane: expects a single MESH (argument 'mesh')");
        int crossing = 0;
        auto f = domain::MeshFacesOnPlane(shape.meshes[0], point, normal, topoadj, &crossing);
        return py::make_tuple(f, crossing);
      },
      py::arg("mesh"), py::arg("point"), py::arg("normal"), py::arg("topoadj") = false);
}

}  // namespace solfec::bindings
