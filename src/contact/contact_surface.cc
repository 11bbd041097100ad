// Face and slave-node numbering of a body surface and its per-step refresh.
#include "contact/contact_surface.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "body/fem/fe_body.h"

namespace solfec::contact {

using body::Body;
using body::BodyKind;
using geometry::Aabb;

namespace {

// Slave nodes per leaf of the node hierarchy: a leaf meeting a face box tests its points
// directly (fewer, cheaper node-pair tests than a tree down to single points).
constexpr int kNodeLeafSize = 8;

const body::FeBody* AsMeshFe(const Body& b) {
  if (b.kind() != BodyKind::kFiniteElement) return nullptr;
  const auto* fe = dynamic_cast<const body::FeBody*>(&b);
  return fe && !fe->embedded() ? fe : nullptr;
}

// Area vector of a face (outward, length = area): half the cross product of the diagonals
// for quadrilaterals.
Vec3 AreaVector(const Vec3* x, int n) {
  if (n == 3) return 0.5 * (x[1] - x[0]).cross(x[2] - x[0]);
  return 0.5 * (x[2] - x[0]).cross(x[3] - x[1]);
}

}  // namespace

bool ContactSurface::CanBeSlave(const Body& b) { return AsMeshFe(b) != nullptr; }

bool ContactSurface::CanBeMaster(const Body& b) {
  if (CanBeSlave(b)) return true;
  const auto& s = b.shape();
  return !s.convexes.empty() && s.spheres.empty() && s.meshes.empty();
}

void ContactSurface::Build(const Body& b) {
  body_ = &b;
  faces_.clear();
  nodes_.clear();
  node_surfid_.clear();
  node_faces_.clear();
  node_first_.clear();
  slot_.clear();
  layout_.clear();
  is_mesh_ = CanBeSlave(b);
  if (is_mesh_) BuildMesh(b);
  else BuildConvexes(b);
  face_bvh_ = SurfaceBvh();
  node_bvh_ = SurfaceBvh();
}

void ContactSurface::BuildMesh(const Body& b) {
  const auto& mesh = AsMeshFe(b)->mesh();
  ref_points_ = mesh.nodes;
  std::map<int, int> slot;  // mesh node -> slave node index
  std::vector<std::vector<int>> around;  // faces around each slave node
  for (const auto& f : mesh.BoundaryFaces()) {
    SurfaceFace sf;
    sf.size = static_cast<int>(f.nodes.size());
    for (int a = 0; a < sf.size; ++a) sf.vertices[a] = f.nodes[a];
    sf.surfid = f.surfid;
    const int fi = static_cast<int>(faces_.size());
    faces_.push_back(sf);
    for (int a = 0; a < sf.size; ++a) {
      auto [it, inserted] = slot.try_emplace(f.nodes[a], static_cast<int>(nodes_.size()));
      if (inserted) {
        nodes_.push_back(f.nodes[a]);
        node_surfid_.push_back(sf.surfid);
        around.emplace_back();
      }
      around[it->second].push_back(fi);
    }
  }
  node_first_.push_back(0);
  for (const std::vector<int>& faces : around) {
    node_faces_.insert(node_faces_.end(), faces.begin(), faces.end());
    node_first_.push_back(static_cast<int>(node_faces_.size()));
  }
  slot_.assign(ref_points_.size(), -1);
  for (const auto& [point, k] : slot) slot_[point] = k;
}

void ContactSurface::BuildConvexes(const Body& b) {
  ref_points_.clear();
  for (size_t c = 0; c < b.shape().convexes.size(); ++c) {
    const auto& cv = b.shape().convexes[c];
    const auto& ref = b.ref_shape().convexes.size() == b.shape().convexes.size()
                          ? b.ref_shape().convexes[c] : cv;
    const int base = static_cast<int>(ref_points_.size());
    layout_.push_back(static_cast<int>(cv.vertices.size()));
    for (size_t v = 0; v < cv.vertices.size(); ++v)
      ref_points_.push_back(v < ref.vertices.size() ? ref.vertices[v] : cv.vertices[v]);
    for (const auto& f : cv.faces) {
      const int n = static_cast<int>(f.vertices.size());
      if (n == 3 || n == 4) {
        SurfaceFace sf;
        sf.size = n;
        for (int a = 0; a < n; ++a) sf.vertices[a] = base + f.vertices[a];
        sf.surfid = f.surfid;
        faces_.push_back(sf);
        continue;
      }
      for (int a = 1; a + 1 < n; ++a) {  // fan of triangles
        SurfaceFace sf;
        sf.vertices = {base + f.vertices[0], base + f.vertices[a], base + f.vertices[a + 1], 0};
        sf.surfid = f.surfid;
        faces_.push_back(sf);
      }
    }
  }
}

bool ContactSurface::LayoutChanged(const Body& b) const {
  if (is_mesh_) return false;
  const auto& cs = b.shape().convexes;
  if (cs.size() != layout_.size()) return true;
  for (size_t c = 0; c < cs.size(); ++c)
    if (static_cast<int>(cs[c].vertices.size()) != layout_[c]) return true;
  return false;
}

int ContactSurface::face_vertices(int f, Vec3* x) const {
  const SurfaceFace& sf = faces_[f];
  for (int a = 0; a < sf.size; ++a) x[a] = points_[sf.vertices[a]];
  return sf.size;
}

void ContactSurface::Refresh(const Body& b) {
  if (body_ != &b || LayoutChanged(b)) Build(b);
  Body& mb = const_cast<Body&>(b);  // u_free() has no const accessor
  const VecX& uf = mb.u_free();
  // Coordinates and free velocities of the points.
  if (is_mesh_) {
    const auto* fe = AsMeshFe(b);
    const int n = fe->num_nodes();
    points_.resize(n);
    velocities_.resize(n);
    const bool has_u = uf.size() == 3 * n;
    for (int i = 0; i < n; ++i) {
      points_[i] = fe->node(i);
      velocities_[i] = has_u ? Vec3(uf.segment<3>(3 * i)) : Vec3::Zero();
    }
  } else {
    points_.clear();
    for (const auto& cv : b.shape().convexes)
      points_.insert(points_.end(), cv.vertices.begin(), cv.vertices.end());
    velocities_.assign(points_.size(), Vec3::Zero());
    if (b.kind() != BodyKind::kObstacle && uf.size() == b.num_dofs()) {
      body::HOperator H;
      for (size_t i = 0; i < points_.size(); ++i) {
        b.ComputeH(ref_points_[i], Mat3::Identity(), H);
        Vec3 v = Vec3::Zero();
        for (size_t k = 0; k < H.dofs.size(); ++k) v += H.values.col(k) * uf[H.dofs[k]];
        velocities_[i] = v;
      }
    }
  }
  double v2 = 0.0;  // sqrt is monotone: the max of the norms is the root of the max
  bounds_ = Aabb();
  for (size_t i = 0; i < points_.size(); ++i) {
    v2 = std::max(v2, velocities_[i].squaredNorm());
    bounds_.Extend(points_[i]);
  }
  max_speed_ = std::sqrt(v2);
  // Face diameters (the longest vertex distance) and area vectors (slave surfaces).
  const int nf = static_cast<int>(faces_.size());
  const int nn = static_cast<int>(nodes_.size());
  face_diam_.resize(nf);
  face_area_.resize(nn > 0 ? nf : 0);
  face_share_.resize(nn > 0 ? nf : 0);
  face_hull_.resize(nf);
  normal_bound_.resize(nf);
  mean_diam_ = 0.0;
  Vec3 x[4];
  for (int f = 0; f < nf; ++f) {
    const int n = face_vertices(f, x);
    double d2 = 0.0;
    Aabb hull;
    for (int a = 0; a < n; ++a) {
      hull.Extend(x[a]);
      for (int c = a + 1; c < n; ++c) d2 = std::max(d2, (x[a] - x[c]).squaredNorm());
    }
    face_hull_[f] = hull;
    normal_bound_[f] = NormalBound(x, n);
    face_diam_[f] = std::sqrt(d2);
    mean_diam_ += face_diam_[f];
    if (nn > 0) {
      face_area_[f] = AreaVector(x, n);
      face_share_[f] = face_area_[f].norm() / n;
    }
  }
  if (nf > 0) mean_diam_ /= nf;
  // Slave nodes: area-weighted normals, tributary areas, point boxes.
  if (nn == 0) return;
  node_normal_.resize(nn);
  node_area_.resize(nn);
  for (int k = 0; k < nn; ++k) {
    Vec3 normal = Vec3::Zero();
    double area = 0.0;
    for (int i = node_first_[k]; i < node_first_[k + 1]; ++i) {
      normal += face_area_[node_faces_[i]];
      area += face_share_[node_faces_[i]];
    }
    const double len = normal.norm();
    node_normal_[k] = len > 0.0 ? Vec3(normal / len) : normal;
    node_area_[k] = area;
  }
}

void ContactSurface::FitNodes() {
  const int nn = static_cast<int>(nodes_.size());
  if (nn == 0) return;
  node_boxes_.resize(nn);
  for (int k = 0; k < nn; ++k) node_boxes_[k].lo = node_boxes_[k].hi = points_[nodes_[k]];
  if (node_bvh_.size() == nn && !node_bvh_.empty()) node_bvh_.Refit(node_boxes_);
  else node_bvh_.Build(node_boxes_, kNodeLeafSize);
}

Vec3 ContactSurface::NormalBound(const Vec3* x, int n) {
  // N(s, t) = S_s x S_t: constant on a triangle; on a bilinear quad S_s = a + b t and
  // S_t = c + b s (b = S_st), so N = a x c + s (a x b) + t (b x c) is affine in (s, t) and
  // stays in the convex hull of its four corner values.
  Vec3 N[4];
  int m = 1;
  if (n == 3) {
    N[0] = (x[1] - x[0]).cross(x[2] - x[0]);
  } else {
    m = 4;
    for (int c = 0; c < 4; ++c) {  // corners (-1,-1), (1,-1), (1,1), (-1,1)
      const Vec3 Ss = c == 0 || c == 1 ? Vec3(x[1] - x[0]) : Vec3(x[2] - x[3]);
      const Vec3 St = c == 0 || c == 3 ? Vec3(x[3] - x[0]) : Vec3(x[2] - x[1]);
      N[c] = Ss.cross(St);
    }
  }
  Vec3 d = Vec3::Zero();
  for (int c = 0; c < m; ++c) d += N[c];
  const double len = d.norm();
  if (!(len > 0.0)) return Vec3::Ones();
  d /= len;
  // |N| >= N . d >= min over the corners of N . d; |N_i| <= max over the corners of |N_i|.
  double lower = 1e300;
  Vec3 upper = Vec3::Zero();
  for (int c = 0; c < m; ++c) {
    lower = std::min(lower, N[c].dot(d));
    upper = upper.cwiseMax(N[c].cwiseAbs());
  }
  if (!(lower > 0.0)) return Vec3::Ones();
  // Relative safety 1e-6: the inside test accepts (s, t) up to 1e-9 outside the face.
  return (upper * ((1.0 + 1e-6) / lower)).cwiseMin(1.0);
}

void ContactSurface::FitFaces(double inflate, double depth_fraction, double depth_cap) {
  const int nf = static_cast<int>(faces_.size());
  face_boxes_.resize(nf);
  for (int f = 0; f < nf; ++f) {
    Aabb box = face_hull_[f];  // of the vertices
    // An accepted node is y = S(s, t) + gap n(s, t) with S in the hull of the vertices and
    // -depth <= gap <= capture, so |y_i - S_i| <= (capture + depth) max |n_i| along axis i;
    // 1e-6 d more covers the inside tolerance of the projection.
    const double reach = inflate + depth_fraction * std::min(face_diam_[f], depth_cap);
    const Vec3 grow = reach * normal_bound_[f] + Vec3::Constant(1e-6 * face_diam_[f]);
    box.lo -= grow;
    box.hi += grow;
    face_boxes_[f] = box;
  }
  if (face_bvh_.size() == nf && !face_bvh_.empty()) face_bvh_.Refit(face_boxes_);
  else face_bvh_.Build(face_boxes_);
}

}  // namespace solfec::contact
