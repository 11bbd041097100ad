// Shape binding: the data behind CONVEX, SPHERE and MESH objects and the shape routines
// (HULL, HEX, ROUGH_HEX, BEND, TRANSLATE, ROTATE, SCALE, SPLIT, MASS_CENTER). Argument
// checking of user input happens in the Python deck layer; flat-array parsing errors are
// reported here.
#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "base/errors.h"
#include "bindings/bindings.h"
#include "geometry/shape.h"

namespace py = pybind11;

namespace solfec::bindings {

using geometry::Convex;
using geometry::ConvexFace;
using geometry::Mesh;
using geometry::MeshElement;
using geometry::MeshFace;
using geometry::Shape;
using geometry::Sphere;

namespace {

std::vector<Vec3> Points(const std::vector<double>& xyz, const std::string& routine,
                         const std::string& arg) {
  if (xyz.size() % 3 != 0 || xyz.empty())
    throw InputError(routine + ": the length of '" + arg + "' (" + std::to_string(xyz.size()) +
                     ") is not a positive multiple of 3; pass [x0, y0, z0, x1, y1, z1, ...]");
  std::vector<Vec3> p(xyz.size() / 3);
  for (size_t i = 0; i < p.size(); ++i) p[i] = Vec3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
  return p;
}

// Reads the record at `pos` of a flat list [n, i1..in, id, ...]; returns false at the end.
bool NextRecord(const std::vector<int>& flat, size_t& pos, std::vector<int>& idx, int& id,
                const std::string& routine, const std::string& arg) {
  if (pos >= flat.size()) return false;
  const int n = flat[pos];
  if (n <= 0 || pos + n + 2 > flat.size())
    throw InputError(routine + ": malformed '" + arg + "' list at position " +
                     std::to_string(pos) + " (count " + std::to_string(n) +
                     "); each record is [count, index_1 .. index_count, id]");
  idx.assign(flat.begin() + pos + 1, flat.begin() + pos + 1 + n);
  id = flat[pos + n + 1];
  pos += n + 2;
  return true;
}

void AddConvex(Shape& s, const std::vector<double>& vertices, const std::vector<int>& faces,
               int volid) {
  Convex c;
  c.vertices = Points(vertices, "CONVEX", "vertices");
  c.volid = volid;
  size_t pos = 0;
  std::vector<int> idx;
  int sid = 0;
  while (NextRecord(faces, pos, idx, sid, "CONVEX", "faces")) c.faces.push_back({idx, sid});
  c.Validate("CONVEX");
  s.convexes.push_back(std::move(c));
}

void AddMesh(Shape& s, const std::vector<double>& nodes, const std::vector<int>& elements,
             const std::vector<int>& surfids) {
  Mesh mesh;
  mesh.nodes = Points(nodes, "MESH", "nodes");
  size_t pos = 0;
  std::vector<int> idx;
  int id = 0;
  while (NextRecord(elements, pos, idx, id, "MESH", "elements")) {
    MeshElement e;
    e.num_nodes = static_cast<int>(idx.size());
    if (e.num_nodes != 4 && e.num_nodes != 5 && e.num_nodes != 6 && e.num_nodes != 8)
      throw InputError("MESH: element " + std::to_string(mesh.elements.size()) + " has " +
                       std::to_string(e.num_nodes) +
                       " nodes; use 4, 5, 6 or 8 (argument 'elements')");
    std::copy(idx.begin(), idx.end(), e.nodes.begin());
    e.volid = id;
    mesh.elements.push_back(e);
  }
  if (surfids.empty())
    throw InputError("MESH: empty 'surfids'; pass a surface id or [gid, n, i1..in, sid, ...]");
  mesh.default_surfid = surfids[0];
  const std::vector<int> rest(surfids.begin() + 1, surfids.end());
  pos = 0;
  while (NextRecord(rest, pos, idx, id, "MESH", "surfids")) mesh.surface_faces.push_back({idx, id});
  mesh.Validate("MESH");
  s.meshes.push_back(std::move(mesh));
}

py::tuple Tuple3(const Vec3& v) { return py::make_tuple(v.x(), v.y(), v.z()); }

}  // namespace

void DefineGeometry(py::module_& m) {
  py::class_<Shape>(m, "Shape")
      .def(py::init<>())
      .def("copy", [](const Shape& s) { return Shape(s); })
      .def("add_convex", &AddConvex, py::arg("vertices"), py::arg("faces"), py::arg("volid"))
      .def("add_sphere",
           [](Shape& s, const Vec3& c, double r, int volid, int surfid) {
             Sphere sp{c, r, volid, surfid};
             sp.Validate("SPHERE");
             s.spheres.push_back(sp);
           },
           py::arg("center"), py::arg("radius"), py::arg("volid"), py::arg("surfid"))
      .def("add_ellipsoid",
           [](Shape& s, const Vec3& c, const Vec3& radii, int volid, int surfid) {
             geometry::Ellipsoid e;
             e.center = c;
             e.radii = radii;
             e.volid = volid;
             e.surfid = surfid;
             e.Validate("ELLIP");
             s.ellipsoids.push_back(e);
           },
           py::arg("center"), py::arg("radii"), py::arg("volid"), py::arg("surfid"))
      .def("add_mesh", &AddMesh, py::arg("nodes"), py::arg("elements"), py::arg("surfids"))
      .def("append", [](Shape& s, Shape& o) { s.Append(std::move(o)); o = Shape(); })
      .def("clear", [](Shape& s) { s = Shape(); })
      .def_property_readonly("empty", &Shape::empty)
      .def_property_readonly("num_convexes", [](const Shape& s) { return s.convexes.size(); })
      .def_property_readonly("num_spheres", [](const Shape& s) { return s.spheres.size(); })
      .def_property_readonly("num_meshes", [](const Shape& s) { return s.meshes.size(); })
      .def_property_readonly("num_ellipsoids",
                             [](const Shape& s) { return s.ellipsoids.size(); })
      .def("translate", &Shape::Translate, py::arg("vector"))
      .def("rotate", &Shape::Rotate, py::arg("point"), py::arg("axis"), py::arg("degrees"))
      .def("scale", &Shape::Scale, py::arg("coefs"))
      .def("mass_center",
           [](const Shape& s) { return Tuple3(s.ComputeMassProperties().center); })
      .def("volume", [](const Shape& s) { return s.ComputeMassProperties().volume; })
      .def("bounds",
           [](const Shape& s) {
             const auto b = s.Bounds();
             return py::make_tuple(b.lo.x(), b.lo.y(), b.lo.z(), b.hi.x(), b.hi.y(), b.hi.z());
           })
      .def("split",
           [](Shape& s, const Vec3& p, const Vec3& n, std::pair<int, int> surfids) {
             auto parts = geometry::Split(std::move(s), p, n, surfids);
             s = Shape();
             return parts;
           },
           py::arg("point"), py::arg("normal"), py::arg("surfids"))
      // members of CONVEX (vertices over the whole collection), MESH and SPHERE objects
      .def("convex_vertices",
           [](const Shape& s) {
             py::list out;
             for (const Convex& c : s.convexes)
               for (const Vec3& v : c.vertices) out.append(Tuple3(v));
             return out;
           })
      .def("mesh_nodes",
           [](const Shape& s) {
             py::list out;
             for (const Mesh& mesh : s.meshes)
               for (const Vec3& v : mesh.nodes) out.append(Tuple3(v));
             return out;
           })
      // one node (over the meshes in order) and the node count, without converting all
      .def("mesh_node",
           [](const Shape& s, int n) {
             for (const Mesh& mesh : s.meshes) {
               if (n >= 0 && n < static_cast<int>(mesh.nodes.size())) return Tuple3(mesh.nodes[n]);
               n -= static_cast<int>(mesh.nodes.size());
             }
             throw py::index_error("MESH.node: node index out of range (argument 'n')");
           })
      .def("mesh_node_count",
           [](const Shape& s) {
             size_t n = 0;
             for (const Mesh& mesh : s.meshes) n += mesh.nodes.size();
             return n;
           })
      .def("set_mesh_node",
           [](Shape& s, int n, const Vec3& x) {
             for (Mesh& mesh : s.meshes) {
               if (n < static_cast<int>(mesh.nodes.size())) {
                 mesh.nodes[n] = x;
                 return;
               }
               n -= static_cast<int>(mesh.nodes.size());
             }
             throw InputError("MESH.node: node index out of range (argument 'n')");
           })
      .def("bend",
           [](Shape& s, const Vec3& point, const Vec3& direction, double degrees) {
             if (s.meshes.empty())
               throw InputError("BEND: the shape holds no MESH (argument 'mesh'); pass a MESH");
             for (Mesh& mesh : s.meshes) mesh.Bend(point, direction, degrees);
           },
           py::arg("point"), py::arg("direction"), py::arg("degrees"))
      .def("mesh_element_count",
           [](const Shape& s) {
             size_t n = 0;
             for (const Mesh& mesh : s.meshes) n += mesh.elements.size();
             return n;
           })
      .def("mesh_elements",
           [](const Shape& s) {  // [(node indices), volid] of the first mesh
             py::list out;
             if (s.meshes.empty()) return out;
             for (const MeshElement& e : s.meshes[0].elements) {
               std::vector<int> idx(e.nodes.begin(), e.nodes.begin() + e.num_nodes);
               out.append(py::make_tuple(idx, e.volid));
             }
             return out;
           })
      .def_property_readonly("mesh_default_surfid",
                             [](const Shape& s) {  // of the first mesh: faces not listed
                               return s.meshes.empty() ? 0 : s.meshes[0].default_surfid;
                             })
      .def("mesh_to_convexes",
           [](const Shape& s) {  // MESH2CONVEX: every element of every mesh as a convex
             Shape out;
             for (const geometry::Mesh& m : s.meshes) {
               Shape part;
               part.convexes = m.ToConvexes();
               out.Append(std::move(part));
             }
             return out;
           })
      .def("mesh_boundary_faces",
           [](const Shape& s) {  // [(node indices), surfid] of the first mesh's boundary
             py::list out;
             if (s.meshes.empty()) return out;
             for (const MeshFace& f : s.meshes[0].BoundaryFaces())
               out.append(py::make_tuple(f.nodes, f.surfid));
             return out;
           })
      .def("nodes_on_surface",
           [](const Shape& s, int sid) {
             return s.meshes.empty() ? std::vector<int>{} : s.meshes[0].NodesOnSurface(sid);
           })
      .def("spheres",
           [](const Shape& s) {
             py::list out;
             for (const Sphere& sp : s.spheres) out.append(py::make_tuple(Tuple3(sp.center), sp.radius));
             return out;
           })
      .def("ellipsoids",  // [(center, radii, rot (9 numbers, row by row), volid, surfid)]
           [](const Shape& s) {
             py::list out;
             for (const geometry::Ellipsoid& e : s.ellipsoids) {
               py::tuple rot(9);
               for (int k = 0; k < 9; ++k) rot[k] = e.rot(k / 3, k % 3);
               out.append(py::make_tuple(Tuple3(e.center), Tuple3(e.radii), rot, e.volid,
                                         e.surfid));
             }
             return out;
           });

  m.def("hull",
        [](const std::vector<double>& points, int volid, int surfid) {
          Shape s;
          s.convexes.push_back(geometry::Hull(Points(points, "HULL", "points"), volid, surfid));
          return s;
        },
        py::arg("points"), py::arg("volid"), py::arg("surfid"));
  m.def("rough_hex",
        [](const Shape& shape, int i, int j, int k, const std::vector<double>& dx,
           const std::vector<double>& dy, const std::vector<double>& dz) {
          Shape s;
          s.meshes.push_back(geometry::RoughHex(shape.convexes, i, j, k, dx, dy, dz));
          return s;
        },
        py::arg("shape"), py::arg("i"), py::arg("j"), py::arg("k"), py::arg("dx"),
        py::arg("dy"), py::arg("dz"));
  m.def("hex",
        [](const std::vector<double>& nodes, int i, int j, int k, int volid,
           const std::vector<int>& surfids, const std::vector<double>& dx,
           const std::vector<double>& dy, const std::vector<double>& dz) {
          const auto corners = Points(nodes, "HEX", "nodes");
          if (corners.size() != 8)
            throw InputError("HEX: 'nodes' must hold 8 corner points (24 numbers), got " +
                             std::to_string(corners.size()));
          Shape s;
          s.meshes.push_back(geometry::Hex(corners, i, j, k, volid, surfids, dx, dy, dz));
          return s;
        },
        py::arg("nodes"), py::arg("i"), py::arg("j"), py::arg("k"), py::arg("volid"),
        py::arg("surfids"), py::arg("dx"), py::arg("dy"), py::arg("dz"));
}

}  // namespace solfec::bindings
