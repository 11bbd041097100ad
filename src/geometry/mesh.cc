// Volume mesh: element faces, validation, boundary extraction, convex conversion and mass.
#include "geometry/mesh.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <unordered_map>

#include <Eigen/Eigenvalues>

#include "base/errors.h"
#include "base/math.h"

namespace solfec::geometry {
namespace {

using LocalFaces = std::vector<std::vector<int>>;

// Outward (counter-clockwise from outside) local faces per element size (manual Fig. 4.1).
const LocalFaces& LocalFacesOf(int num_nodes) {
  static const LocalFaces kTet = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}};
  static const LocalFaces kPyr = {{0, 3, 2, 1}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}};
  static const LocalFaces kWed = {{0, 2, 1}, {3, 4, 5}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}};
  static const LocalFaces kHex = {{0, 3, 2, 1}, {0, 1, 5, 4}, {1, 2, 6, 5},
                                  {2, 3, 7, 6}, {3, 0, 4, 7}, {4, 5, 6, 7}};
  static const LocalFaces kNone;
  switch (num_nodes) {
    case 4:
      return kTet;
    case 5:
      return kPyr;
    case 6:
      return kWed;
    case 8:
      return kHex;
    default:
      return kNone;
  }
}

// A face identified by its sorted node set (padded with INT_MAX for triangles).
using FaceKey = std::array<int, 4>;

FaceKey MakeKey(const std::vector<int>& nodes) {
  FaceKey key;
  key.fill(std::numeric_limits<int>::max());
  for (int i = 0; i < static_cast<int>(nodes.size()) && i < 4; ++i) key[i] = nodes[i];
  std::sort(key.begin(), key.end());
  return key;
}

struct FaceKeyHash {
  size_t operator()(const FaceKey& k) const {
    size_t h = 0;
    for (int v : k) h = h * 1000003u ^ std::hash<int>()(v);
    return h;
  }
};

// Elements using a face: up to two are recorded, `count` counts all.
struct FaceUses {
  int count = 0;
  int element[2] = {-1, -1};
};

using FaceTable = std::unordered_map<FaceKey, FaceUses, FaceKeyHash>;
using SurfaceTable = std::unordered_map<FaceKey, int, FaceKeyHash>;

FaceTable BuildFaceTable(const Mesh& mesh) {
  FaceTable table;
  for (int e = 0; e < static_cast<int>(mesh.elements.size()); ++e) {
    for (const std::vector<int>& face : Mesh::ElementFaces(mesh.elements[e])) {
      FaceUses& uses = table[MakeKey(face)];
      if (uses.count < 2) uses.element[uses.count] = e;
      ++uses.count;
    }
  }
  return table;
}

SurfaceTable BuildSurfaceTable(const Mesh& mesh) {
  SurfaceTable table;
  for (const MeshFace& face : mesh.surface_faces) table[MakeKey(face.nodes)] = face.surfid;
  return table;
}

int SurfaceIdOf(const Mesh& mesh, const SurfaceTable& surfaces, const FaceKey& key) {
  auto it = surfaces.find(key);
  return it == surfaces.end() ? mesh.default_surfid : it->second;
}

Convex MakeElementConvex(const Mesh& mesh, int e, const FaceTable& faces,
                         const SurfaceTable& surfaces) {
  const MeshElement& el = mesh.elements[e];
  Convex c;
  c.volid = el.volid;
  for (int i = 0; i < el.num_nodes; ++i) c.vertices.push_back(mesh.nodes[el.nodes[i]]);
  for (const std::vector<int>& local : LocalFacesOf(el.num_nodes)) {
    ConvexFace face;
    face.vertices = local;
    std::vector<int> global;
    for (int i : local) global.push_back(el.nodes[i]);
    const FaceKey key = MakeKey(global);
    auto it = faces.find(key);
    const bool boundary = it != faces.end() && it->second.count == 1;
    face.surfid = boundary ? SurfaceIdOf(mesh, surfaces, key) : mesh.default_surfid;
    c.faces.push_back(std::move(face));
  }
  return c;
}

MassProperties ElementMassProperties(const Mesh& mesh, const MeshElement& el) {
  Vec3 apex = Vec3::Zero();
  for (int i = 0; i < el.num_nodes; ++i) apex += mesh.nodes[el.nodes[i]];
  apex /= std::max(el.num_nodes, 1);
  ConeIntegrator integrator(apex);
  Vec3 polygon[4];
  for (const std::vector<int>& local : LocalFacesOf(el.num_nodes)) {
    const int n = static_cast<int>(local.size());
    for (int i = 0; i < n; ++i) polygon[i] = mesh.nodes[el.nodes[local[i]]];
    // Warped quadrilaterals are split into 4 triangles about the face centre (the centre of
    // the bilinear face), which reproduces the trilinear hexahedron's volume.
    integrator.AddPolygon(polygon, n);
  }
  return integrator.Finish();
}

[[noreturn]] void Fail(const std::string& routine, const std::string& what,
                       const std::string& argument, const std::string& fix) {
  throw InputError(routine + ": " + what + " (argument '" + argument + "'); " + fix);
}

void ValidateElement(const Mesh& mesh, int e, const std::string& routine) {
  const MeshElement& el = mesh.elements[e];
  const std::string name = "element " + std::to_string(e);
  const int nn = static_cast<int>(mesh.nodes.size());
  if (el.num_nodes != 4 && el.num_nodes != 5 && el.num_nodes != 6 && el.num_nodes != 8) {
    throw InputError(routine + ": " + name + " has " + std::to_string(el.num_nodes) +
                     " nodes; use 4, 5, 6 or 8 (argument 'elements')");
  }
  for (int i = 0; i < el.num_nodes; ++i) {
    if (el.nodes[i] < 0 || el.nodes[i] >= nn) {
      Fail(routine, name + " has an out-of-range node index " + std::to_string(el.nodes[i]),
           "elements", "use node indices 0.." + std::to_string(nn - 1));
    }
    for (int j = 0; j < i; ++j) {
      if (el.nodes[i] == el.nodes[j]) {
        Fail(routine, name + " repeats node " + std::to_string(el.nodes[i]), "elements",
             "list distinct nodes");
      }
    }
  }
  Aabb box;
  for (int i = 0; i < el.num_nodes; ++i) box.Extend(mesh.nodes[el.nodes[i]]);
  const double diag = (box.hi - box.lo).norm();
  const double volume = ElementMassProperties(mesh, el).volume;
  if (std::abs(volume) <= 1e-12 * diag * diag * diag) {
    Fail(routine, name + " has zero volume", "elements", "fix the node coordinates");
  }
  if (volume < 0.0) {
    std::ostringstream what;
    what << name << " is inverted (volume " << volume << ")";
    Fail(routine, what.str(), "elements",
         "order the element nodes as in manual Figure 4.1 (bottom counter-clockwise seen "
         "from the top)");
  }
}

}  // namespace

std::vector<std::vector<int>> Mesh::ElementFaces(const MeshElement& e) {
  std::vector<std::vector<int>> faces = LocalFacesOf(e.num_nodes);
  for (std::vector<int>& face : faces) {
    for (int& v : face) v = e.nodes[v];
  }
  return faces;
}

void Mesh::Validate(const std::string& routine) const {
  const int nn = static_cast<int>(nodes.size());
  if (nn == 0) Fail(routine, "the mesh has no nodes", "nodes", "give node coordinates");
  for (int n = 0; n < nn; ++n) {
    if (!nodes[n].allFinite()) {
      Fail(routine, "node " + std::to_string(n) + " has a non-finite coordinate", "nodes",
           "give finite coordinates");
    }
  }
  if (elements.empty()) Fail(routine, "the mesh has no elements", "elements", "give elements");
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) ValidateElement(*this, e, routine);
  const FaceTable table = BuildFaceTable(*this);
  for (const auto& [key, uses] : table) {
    if (uses.count > 2) {
      Fail(routine,
           "a face of element " + std::to_string(uses.element[0]) + " is shared by " +
               std::to_string(uses.count) + " elements",
           "elements", "a face may belong to at most two elements");
    }
  }
  for (int s = 0; s < static_cast<int>(surface_faces.size()); ++s) {
    const std::vector<int>& fn = surface_faces[s].nodes;
    const std::string name = "surface face " + std::to_string(s);
    if (fn.size() != 3 && fn.size() != 4) {
      Fail(routine, name + " has " + std::to_string(fn.size()) + " nodes", "surfids",
           "a face has 3 or 4 nodes");
    }
    for (int v : fn) {
      if (v < 0 || v >= nn) {
        Fail(routine, name + " has an out-of-range node index " + std::to_string(v), "surfids",
             "use node indices 0.." + std::to_string(nn - 1));
      }
    }
    auto it = table.find(MakeKey(fn));
    if (it == table.end() || it->second.count != 1) {
      std::string list;
      for (int v : fn) {
        if (!list.empty()) list += ' ';
        list += std::to_string(v);
      }
      const std::string why =
          it == table.end()
              ? " matches no element face (a missing surface)"
              : " is an inner face of elements " + std::to_string(it->second.element[0]) +
                    " and " + std::to_string(it->second.element[1]);
      Fail(routine, name + " (nodes " + list + ") is not a boundary face:" + why, "surfids",
           "list only faces on the mesh boundary");
    }
  }
}

std::vector<MeshFace> Mesh::BoundaryFaces() const {
  const FaceTable table = BuildFaceTable(*this);
  const SurfaceTable surfaces = BuildSurfaceTable(*this);
  std::vector<MeshFace> out;
  for (const MeshElement& el : elements) {
    for (std::vector<int>& face : ElementFaces(el)) {
      const FaceKey key = MakeKey(face);
      auto it = table.find(key);
      if (it == table.end() || it->second.count != 1) continue;
      out.push_back(MeshFace{std::move(face), SurfaceIdOf(*this, surfaces, key)});
    }
  }
  return out;
}

Convex Mesh::ElementConvex(int e) const {
  return MakeElementConvex(*this, e, BuildFaceTable(*this), BuildSurfaceTable(*this));
}

std::vector<Convex> Mesh::ToConvexes() const {
  const FaceTable table = BuildFaceTable(*this);
  const SurfaceTable surfaces = BuildSurfaceTable(*this);
  std::vector<Convex> out;
  out.reserve(elements.size());
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    out.push_back(MakeElementConvex(*this, e, table, surfaces));
  }
  // Elements sharing a face are neighbours.
  for (const auto& [key, uses] : table) {
    if (uses.count != 2) continue;
    out[uses.element[0]].neighbors.push_back(uses.element[1]);
    out[uses.element[1]].neighbors.push_back(uses.element[0]);
  }
  for (Convex& c : out) std::sort(c.neighbors.begin(), c.neighbors.end());
  return out;
}

std::vector<int> Mesh::NodesOnSurface(int surfid) const {
  std::vector<int> out;
  for (const MeshFace& face : BoundaryFaces()) {
    if (face.surfid == surfid) out.insert(out.end(), face.nodes.begin(), face.nodes.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Aabb Mesh::Bounds() const {
  Aabb box;
  for (const Vec3& n : nodes) box.Extend(n);
  return box;
}

MassProperties Mesh::ComputeMassProperties() const {
  MassProperties total;
  for (const MeshElement& el : elements) total += ElementMassProperties(*this, el);
  return total;
}

void Mesh::Transform(const Mat3& A, const Vec3& t) {
  for (Vec3& n : nodes) n = A * n + t;
  if (A.determinant() >= 0.0) return;
  // A reflection turns elements inside out: mirror the local numbering back.
  for (MeshElement& el : elements) {
    auto& v = el.nodes;
    switch (el.num_nodes) {
      case 4:
        std::swap(v[1], v[2]);
        break;
      case 5:
        std::swap(v[1], v[3]);
        break;
      case 6:
        std::swap(v[1], v[2]);
        std::swap(v[4], v[5]);
        break;
      case 8:
        std::swap(v[1], v[3]);
        std::swap(v[5], v[7]);
        break;
      default:
        break;
    }
  }
}

namespace {

// Unit direction normal to d along which the nodes spread most (see Mesh::Bend).
Vec3 ExtentDirection(const std::vector<Vec3>& nodes, const Vec3& d) {
  const Mat3 P = Mat3::Identity() - d * d.transpose();
  Vec3 mean = Vec3::Zero();
  for (const Vec3& x : nodes) mean += P * x;
  mean /= static_cast<double>(nodes.size());
  Mat3 cov = Mat3::Zero();
  for (const Vec3& x : nodes) {
    const Vec3 y = P * x - mean;
    cov += y * y.transpose();
  }
  Eigen::SelfAdjointEigenSolver<Mat3> eig(cov);
  return eig.eigenvectors().col(2).normalized();  // eigenvalues ascending
}

}  // namespace

void Mesh::Bend(const Vec3& point, const Vec3& direction, double degrees) {
  const std::string r = "BEND";
  if (nodes.empty()) Fail(r, "the mesh has no nodes", "mesh", "pass a non-empty MESH");
  if (!point.allFinite()) Fail(r, "the point is not finite", "point", "give (x, y, z)");
  const double len = direction.norm();
  if (!direction.allFinite() || !(len > 0.0))
    Fail(r, "the axis direction is zero", "direction", "give a non-zero direction");
  if (!std::isfinite(degrees) || degrees == 0.0 || std::abs(degrees) > 360.0) {
    std::ostringstream what;
    what << "the angle " << degrees << " is out of range";
    Fail(r, what.str(), "degrees", "give 0 < |degrees| <= 360");
  }
  Vec3 d = direction / len;
  if (degrees < 0.0) d = -d;
  const double total = std::abs(degrees) * kPi / 180.0;
  const Aabb box = Bounds();
  const double size = (box.hi - box.lo).norm();
  const Vec3 e0 = ExtentDirection(nodes, d);
  Vec3 n = e0.cross(d);
  double mean_r = 0.0;
  for (const Vec3& x : nodes) mean_r += (x - point).dot(n);
  if (mean_r < 0.0) n = -n;
  const Vec3 e = d.cross(n);
  double smin = std::numeric_limits<double>::infinity(), smax = -smin;
  for (int k = 0; k < static_cast<int>(nodes.size()); ++k) {
    const Vec3 y = nodes[k] - point;
    const double s = y.dot(e), rho = y.dot(n);
    smin = std::min(smin, s);
    smax = std::max(smax, s);
    if (!(rho > 1e-12 * size)) {
      std::ostringstream what;
      what << "node " << k << " lies on the axis or beyond it (distance " << rho
           << " from the axis along the bending radius)";
      Fail(r, what.str(), "point", "place the axis beside the mesh, outside it");
    }
  }
  if (!(smax - smin > 1e-12 * size))
    Fail(r, "the mesh has no extent normal to the axis", "direction",
         "choose an axis normal to the mesh's long direction");
  for (Vec3& x : nodes) {
    const Vec3 y = x - point;
    const double a = total * (y.dot(e) - smin) / (smax - smin);
    x = point + y.dot(d) * d + y.dot(n) * (std::cos(a) * n + std::sin(a) * e);
  }
  Validate(r);
}

}  // namespace solfec::geometry
