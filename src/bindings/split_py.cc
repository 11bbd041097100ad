// Run-time splitting of bodies: SIMPLIFIED_CRACK (CrackSet) and RT_SPLIT (python/solfec/split.py).
#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <limits>
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

// A Python mesher as a Tetrahedralizer (called with the GIL held: from deck code).
domain::Tetrahedralizer WrapTetgen(py::function f) {
  return [f](const std::vector<Vec3>& points, const std::vector<std::array<int, 3>>& tris,
             const std::vector<int>& markers) {
    py::tuple r = f(points, tris, markers);
    domain::TetMesh m;
    m.nodes = r[0].cast<std::vector<Vec3>>();
    m.tets = r[1].cast<std::vector<std::array<int, 4>>>();
    m.faces = r[2].cast<std::vector<std::array<int, 3>>>();
    m.markers = r[3].cast<std::vector<int>>();
    return m;
  };
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
            c.remesh = s.has_tetgen();
            domain::PrepareCrack(FindOrThrow(d, id, "SIMPLIFIED_CRACK"), c, "SIMPLIFIED_CRACK");
            s.Add(id, std::move(c));
          },
          py::arg("domain"), py::arg("id"), py::arg("point"), py::arg("normal"), py::arg("sid1"),
          py::arg("sid2"), py::arg("topoadj"), py::arg("ft"), py::arg("Gf"))
      // the mesher of cracks through elements: f(points, triangles, markers) -> (nodes,
      // tetrahedra, boundary triangles, their markers)
      .def(
          "set_tetgen",
          [](CrackSet& s, py::function f) { s.set_tetgen(WrapTetgen(std::move(f))); },
          py::arg("tetgen"))
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
  // A mesh split along faces (node lists): [(mesh Shape, parent nodes of the part's nodes,
  // their numbers in the split mesh as a whole)], number of faces cut
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
          out.append(py::make_tuple(std::move(s), p.nodes, p.split_nodes));
        }
        return py::make_tuple(out, matched);
      },
      py::arg("mesh"), py::arg("faces"), py::arg("sid1"), py::arg("sid2"));
  // SPLIT of a MESH through its elements: ([part Shapes], number below)
  m.def(
      "remesh_split_mesh",
      [](const geometry::Shape& shape, const Vec3& point, const Vec3& normal, int sid1, int sid2,
         bool topoadj, py::function tetgen) {
        if (shape.meshes.size() != 1)
          throw InputError("remesh_split_mesh: expects a single MESH (argument 'mesh')");
        const geometry::Mesh& mesh = shape.meshes[0];
        const bool slit =
            topoadj && !domain::SectionConnected(domain::CutMeshByPlane(mesh, point, normal));
        std::vector<geometry::Aabb> boxes;
        for (const auto& el : mesh.elements) {  // element boxes from the nodes
          geometry::Aabb b{mesh.nodes[el.nodes[0]], mesh.nodes[el.nodes[0]]};
          for (int a = 1; a < el.num_nodes; ++a)
            b.lo = b.lo.cwiseMin(mesh.nodes[el.nodes[a]]), b.hi = b.hi.cwiseMax(mesh.nodes[el.nodes[a]]);
          boxes.push_back(b);
        }
        bool one_volid = true;
        for (const auto& el : mesh.elements) one_volid &= el.volid == mesh.elements[0].volid;
        auto volid_at = [&](const Vec3& X) {  // the element holding X (nearest box otherwise)
          if (one_volid) return mesh.elements[0].volid;
          int best = 0;
          double bd = std::numeric_limits<double>::infinity();
          for (size_t e = 0; e < boxes.size(); ++e) {
            const Vec3 q = X.cwiseMax(boxes[e].lo).cwiseMin(boxes[e].hi);
            const double dist = (q - X).norm();
            if (dist == 0.0 && mesh.ElementConvex(static_cast<int>(e)).Contains(X, 1e-12))
              return mesh.elements[e].volid;
            if (dist < bd) bd = dist, best = static_cast<int>(e);
          }
          return mesh.elements[best].volid;
        };
        int below = 0;
        std::vector<geometry::Mesh> parts;
        if (slit) {  // the section piece next to the point inside the re-meshed whole
          parts = domain::RemeshSlit(mesh, point, normal.normalized(), {sid1, sid2},
                                     WrapTetgen(std::move(tetgen)), volid_at, "SPLIT");
          // the parts by side (mass centres); one part (a slit mesh) counts as below
          std::stable_sort(parts.begin(), parts.end(), [&](const auto& a, const auto& b) {
            return normal.dot(a.ComputeMassProperties().center - point) <
                   normal.dot(b.ComputeMassProperties().center - point);
          });
          below = 1;
          for (size_t k = 1; k < parts.size(); ++k)
            if (normal.dot(parts[k].ComputeMassProperties().center - point) < 0.0) below = k + 1;
        } else {
          parts = domain::RemeshSplit(mesh, point, normal.normalized(), {sid1, sid2},
                                      WrapTetgen(std::move(tetgen)), volid_at, "SPLIT", &below);
        }
        py::list out;
        for (auto& p : parts) {
          geometry::Shape s;
          s.meshes.push_back(std::move(p));
          out.append(std::move(s));
        }
        return py::make_tuple(out, below);
      },
      py::arg("mesh"), py::arg("point"), py::arg("normal"), py::arg("sid1"), py::arg("sid2"),
      py::arg("topoadj"), py::arg("tetgen"));
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
