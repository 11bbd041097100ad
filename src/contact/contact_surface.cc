// Face and slave-node numbering of a body surface and its per-step refresh.
#include "contact/contact_surface.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
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
  const body::FeBody* fe = b.AsFeBody();
  return fe && !fe->embedded() ? fe : nullptr;
}

// The normal N = S_s x S_t of a face as an affine function of the natural coordinates:
// N(s, t) = n0 + s n1 + t n2. A bilinear quadrilateral S = c + s e1 + t e2 + s t e12 has
// S_s = e1 + t e12 and S_t = e2 + s e12, so n0 = e1 x e2, n1 = e1 x e12, n2 = e12 x e2
// (e12 x e12 = 0); a triangle (e1 = x1 - x0, e2 = x2 - x0) has the constant n0.
struct NormalPolynomial {
  Vec3 n0, n1, n2;
  double len;  // |n0|
  NormalPolynomial(const Vec3* x, int n) {
    if (n == 3) {
      n0 = (x[1] - x[0]).cross(x[2] - x[0]);
      n1.setZero();
      n2.setZero();
    } else {
      const Vec3 e1 = 0.25 * (x[1] + x[2] - x[0] - x[3]);
      const Vec3 e2 = 0.25 * (x[2] + x[3] - x[0] - x[1]);
      const Vec3 e12 = 0.25 * (x[0] + x[2] - x[1] - x[3]);
      n0 = e1.cross(e2);
      n1 = e1.cross(e12);
      n2 = e12.cross(e2);
    }
    len = n0.norm();
  }
  // Area vector (outward, length = area): a triangle's is n0 / 2; a quadrilateral's, half
  // the cross product of its diagonals 2 (e1 + e2) and 2 (e2 - e1), is 4 n0.
  Vec3 Area(int n) const { return (n == 3 ? 0.5 : 4.0) * n0; }
  // |Area| / n: the share of each vertex.
  double Share(int n) const { return n == 3 ? len / 6.0 : len; }
  // Bounds of the unit normal's components n_i = N_i / |N| over the natural domain
  // (see ContactSurface::NormalRange); returns the lower bound of |N| they rest on (0: no
  // bound, lo = -1, hi = 1).
  double Range(Vec3& lo, Vec3& hi) const {
    lo = -Vec3::Ones();
    hi = Vec3::Ones();
    if (!(len > 0.0)) return 0.0;
    // (s, t) within 1 + 1e-6 of the centre (the inside test accepts (s, t) up to 1e-9
    // outside the face). N is affine, so over that square N_i lies within
    // n0_i -+ g (|n1_i| + |n2_i|), |N| <= |n0| + g (|n1| + |n2|)
    // <= |n0| + g sqrt(2 (|n1|^2 + |n2|^2)) and, along d = n0 / |n0|,
    // |N| >= N . d >= |n0| - g (|n1 . d| + |n2 . d|) (the extremes are at the corners).
    constexpr double g = 1.0 + 1e-6;
    const double lower = len - g * (std::abs(n1.dot(n0)) + std::abs(n2.dot(n0))) / len;
    if (!(lower > 0.0)) return 0.0;
    const double upper = len + g * std::sqrt(2.0 * (n1.squaredNorm() + n2.squaredNorm()));
    const Vec3 spread = g * (n1.cwiseAbs() + n2.cwiseAbs());
    const double il = 1.0 / lower, iu = 1.0 / upper;
    for (int i = 0; i < 3; ++i) {
      const double a = n0[i] - spread[i], b = n0[i] + spread[i];
      // The smallest n_i has the smallest N_i over the largest |N| if positive, over the
      // smallest |N| if negative (and the largest n_i the converse).
      lo[i] = std::max(-1.0, std::min(a * iu, a * il));
      hi[i] = std::min(1.0, std::max(b * il, b * iu));
    }
    return lower;
  }
};

// For ReachBox: a bound of (k (|S_s| + |S_t|))^2 over a face from its squared vertex
// distances e[a][c] (a < c), k the most S_s or S_t move per unit of vertex drift. A quad's
// S_s = ((1 - t)(x1 - x0) + (1 + t)(x2 - x3)) / 4 (|t| <= g = 1 + 1e-6): it moves by at
// most g drift (k = g) and |S_s| <= g max(|x1 - x0|, |x2 - x3|) / 2, so the square is at
// most g^4 (max_s^2 + max_t^2) / 2. A triangle's S_s = x1 - x0, S_t = x2 - x0: k = 2, at
// most 8 (|S_s|^2 + |S_t|^2).
double FaceSpread2(const double (&e)[4][4], int n) {
  if (n == 4) return 0.500003 * (std::max(e[0][1], e[2][3]) + std::max(e[0][3], e[1][2]));
  return 8.0 * (e[0][1] + e[0][2]);
}
double FaceDriftSquare(int n) { return n == 4 ? 1.000003 : 4.0; }  // k^2

// The squared distances e[a][c] (a < c) between the vertices of face x[0..n); returns the
// largest (the squared face diameter).
double VertexDistances2(const Vec3* x, int n, double (&e)[4][4]) {
  double d2 = 0.0;
  for (int a = 0; a < n; ++a)
    for (int c = a + 1; c < n; ++c) {
      e[a][c] = (x[a] - x[c]).squaredNorm();
      d2 = std::max(d2, e[a][c]);
    }
  return d2;
}

}  // namespace

bool ContactSurface::CanBeSlave(const Body& b) { return AsMeshFe(b) != nullptr; }

bool ContactSurface::CanBeMaster(const Body& b) {
  if (CanBeSlave(b)) return true;
  const auto& s = b.shape();
  return !s.convexes.empty() && s.spheres.empty() && s.meshes.empty() && s.ellipsoids.empty();
}

void ContactSurface::Build(const Body& b) {
  skin_valid_ = false;  // faces and slave nodes renumbered
  body_ = &b;
  fresh_ = false;
  faces_.clear();
  face_diam_.clear();
  nodes_.clear();
  node_surfid_.clear();
  slot_.clear();
  layout_.clear();
  is_mesh_ = CanBeSlave(b);
  if (is_mesh_) BuildMesh(b);
  else BuildConvexes(b);
  face_bvh_ = SurfaceBvh();
  node_bvh_ = SurfaceBvh();
  faces_refreshed_ = false;
}

void ContactSurface::BuildMesh(const Body& b) {
  const auto& mesh = AsMeshFe(b)->mesh();
  ref_points_ = mesh.nodes;
  std::map<int, int> slot;  // mesh node -> slave node index
  for (const auto& f : mesh.BoundaryFaces()) {
    SurfaceFace sf;
    sf.size = static_cast<int>(f.nodes.size());
    for (int a = 0; a < sf.size; ++a) sf.vertices[a] = f.nodes[a];
    sf.surfid = f.surfid;
    faces_.push_back(sf);
    for (int a = 0; a < sf.size; ++a) {
      if (slot.try_emplace(f.nodes[a], static_cast<int>(nodes_.size())).second) {
        nodes_.push_back(f.nodes[a]);
        node_surfid_.push_back(sf.surfid);
      }
    }
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

void ContactSurface::RefreshPoints(const Body& b) {
  if (body_ != &b || LayoutChanged(b)) Build(b);
  Body& mb = const_cast<Body&>(b);  // u_free() has no const accessor
  const VecX& uf = mb.u_free();
  // Coordinates and free velocities of the points.
  if (is_mesh_) {
    const auto* fe = AsMeshFe(b);
    const int n = fe->num_nodes();
    points_.resize(n);
    velocities_.resize(n);
    // Copied as flat arrays (a Vec3 is three doubles): a copy, not n segment extractions.
    static_assert(sizeof(Vec3) == 3 * sizeof(double));
    Eigen::Map<VecX> points(reinterpret_cast<double*>(points_.data()), 3 * n);
    Eigen::Map<VecX> velocities(reinterpret_cast<double*>(velocities_.data()), 3 * n);
    points = fe->node_coordinates().head(3 * n);
    if (uf.size() == 3 * n) velocities = uf;
    else velocities.setZero();
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
  Vec3 sum = Vec3::Zero();
  for (size_t i = 0; i < points_.size(); ++i) {
    v2 = std::max(v2, velocities_[i].squaredNorm());
    bounds_.Extend(points_[i]);
    sum += points_[i];
  }
  max_speed_ = std::sqrt(v2);
  centroid_ = points_.empty() ? Vec3::Zero() : Vec3(sum / static_cast<double>(points_.size()));
  centre_ = centroid_;
  rotation_.setIdentity();
  drift_ = 0.0;
  // Face diameters (the longest vertex distance).
  const int nf = static_cast<int>(faces_.size());
  face_diam_.resize(nf);
  mean_diam_ = 0.0;
  double dmax2 = 0.0, spread2 = 0.0;
  bool triangles = false;
  Vec3 x[4];
  for (int f = 0; f < nf; ++f) {
    const int n = face_vertices(f, x);
    double e[4][4];
    const double d2 = VertexDistances2(x, n, e);
    dmax2 = std::max(dmax2, d2);
    spread2 = std::max(spread2, FaceSpread2(e, n));
    triangles = triangles || n == 3;
    face_diam_[f] = std::sqrt(d2);
    mean_diam_ += face_diam_[f];
  }
  if (nf > 0) mean_diam_ /= nf;
  max_diam_ = std::sqrt(dmax2);
  max_spread_ = std::sqrt(spread2);
  spread_square_ = FaceDriftSquare(triangles ? 3 : 4);
  max_bound_ = max_diam_;
  mean_bound_ = mean_diam_;
  fresh_ = true;
}

namespace {

// The rotation R of the polar decomposition A = R U, by Newton's iteration
// R <- (g R + (g R)^-T) / 2 with the determinant scaling g = |det R|^(-1/3) (Higham); false
// when A is (nearly) singular, reflects, or the iteration does not settle.
bool PolarRotation(const Mat3& A, Mat3& R) {
  const double scale = A.norm();
  if (!(scale > 0.0) || !std::isfinite(scale)) return false;
  R = A / scale;
  if (!(R.determinant() > 1e-9)) return false;
  for (int k = 0; k < 40; ++k) {
    const double det = R.determinant();
    if (!(det > 0.0)) return false;
    const double g = std::cbrt(1.0 / det);
    const Mat3 next = 0.5 * (g * R + R.inverse().transpose() / g);
    const double change = (next - R).cwiseAbs().maxCoeff();
    R = next;
    if (change < 1e-15) break;
  }
  return (R.transpose() * R - Mat3::Identity()).cwiseAbs().maxCoeff() < 1e-12 &&
         R.determinant() > 0.0;
}

}  // namespace

bool ContactSurface::Bound(const Body& b) {
  if (!is_mesh_ || body_ != &b || face_diam_.size() != faces_.size() || !has_face_boxes())
    return false;
  const auto* fe = AsMeshFe(b);
  const int n = fe ? fe->num_nodes() : -1;
  if (n <= 0 || n != static_cast<int>(points_.size())) return false;
  const VecX& x = fe->node_coordinates();
  const VecX& uf = const_cast<Body&>(b).u_free();  // u_free() has no const accessor
  // The motion since the last RefreshPoints: x_i = c + R (x_i^last - c^last) + r_i with c
  // the centroid, R the rotation that best fits (polar decomposition of
  // A = sum (x_i - c)(x_i^last - c^last)^T = sum x_i (x_i^last - c^last)^T; the identity
  // when it does not apply) and the drift max |r_i|, which alone changes shapes.
  Aabb box;
  Vec3 sum = Vec3::Zero();
  Mat3 A = Mat3::Zero();
  double v2 = 0.0;
  const bool speeds = uf.size() == 3 * n;
  for (int i = 0; i < n; ++i) {
    const Vec3 p = x.segment<3>(3 * i);
    box.Extend(p);
    sum += p;
    A.noalias() += p * (points_[i] - centroid_).transpose();
    if (speeds) v2 = std::max(v2, uf.segment<3>(3 * i).squaredNorm());
  }
  const Vec3 c = sum / static_cast<double>(n);
  Mat3 R;
  if (!PolarRotation(A, R)) R.setIdentity();
  double d2 = 0.0;
  for (int i = 0; i < n; ++i)
    d2 = std::max(d2, (x.segment<3>(3 * i) - c - R * (points_[i] - centroid_)).squaredNorm());
  if (!std::isfinite(d2) || !std::isfinite(v2)) return false;
  bounds_ = box;
  max_speed_ = std::sqrt(v2);
  centre_ = c;
  rotation_ = R;
  drift_ = std::sqrt(d2);
  max_bound_ = max_diam_ + 2.0 * drift_;
  mean_bound_ = mean_diam_ + 2.0 * drift_;
  fresh_ = false;
  return true;
}

Aabb ContactSurface::ReachBox(double inflate, double depth_fraction, double depth_cap,
                              double sink) const {
  // What a local test can accept of face f: y = S(s, t) + g n(s, t), S in (about) the hull
  // of the vertices, -depth <= g <= inflate, depth = depth_fraction min(d_f, depth_cap) +
  // sink.
  // Two boxes hold it; the reach box is their intersection.
  // 1. The point bounds grown by max(depth, inflate) (|n_i| <= 1); 1e-9 relative and
  //    2e-6 d more cover the projection's inside tolerance and rounding.
  const double d = max_bound_;
  const double depth = depth_fraction * std::min(d, depth_cap) + sink;
  Aabb box = bounds_;
  box.Inflate(std::max(depth, inflate) * (1.0 + 1e-9) + 2e-6 * d);
  if (fresh_ || !has_face_boxes() || depth_fraction != fitted_fraction_) return box;
  // 2. The union B of the face boxes of the last RefreshFaces (face_bounds())
  //    carried by the motion (Bound) and grown. B holds S' + g n' for the faces then (S',
  //    n') and g within the ranges then; g within today's ranges is at most
  //    delta = max(|depth change|, |inflate change|) farther along n' (the depth change is
  //    at most depth_fraction (2 drift + |depth_cap change|) + |sink change|: face diameters
  //    change by at most 2 drift). Now S = c + R (S' - c') + r with |r| <= drift (a weighted
  //    mean of the vertices' r_i) and n = R n' + v: the edges, S_s and S_t (combinations of
  //    vertices whose weights sum to zero) moved from R times their old values by at most k drift
  //    (RefreshPoints: k = 1 + 1e-6 on quads, 2 on triangles), so N = S_s x S_t from R N' by
  //    at most drift K + k^2 drift^2 (K >= k (|S_s| + |S_t|)) and |v| <= theta =
  //    2 (drift K + k^2 drift^2) / N_min (|a/|a| - b/|b|| <= 2 |a - b| / |b|,
  //    |R N'| = |N'| >= N_min; faces without a normal bound have boxes holding every
  //    direction: v = 0 there). So y = c + R (y' - c') + r + g v with y' in B grown by
  //    delta: the box of centre c + R (b - c') and half-widths |R| e + delta + drift +
  //    max(depth, inflate) theta (b, e: B's centre and half-widths).
  const double theta =
      min_lower_ > 0.0
          ? 2.0 * (drift_ * max_spread_ + spread_square_ * drift_ * drift_) / min_lower_
          : 0.0;
  const double ddepth = depth_fraction * (2.0 * drift_ + std::abs(depth_cap - fitted_cap_)) +
                        std::abs(sink - fitted_sink_);
  const double dinflate = std::abs(inflate - fitted_inflate_);
  const double grow = std::max(ddepth, dinflate) + drift_ +
                      std::max(depth, inflate) * (theta + 1e-9) + 2e-6 * d;
  const Aabb& last = face_bounds_;
  const Vec3 centre = centre_ + rotation_ * (0.5 * (last.lo + last.hi) - centroid_);
  const Vec3 half = rotation_.cwiseAbs() * (0.5 * (last.hi - last.lo)) + Vec3::Constant(grow);
  box.lo = box.lo.cwiseMax(centre - half);
  box.hi = box.hi.cwiseMin(centre + half);
  return box;
}

void ContactSurface::RefreshFaces(double inflate, double depth_fraction, double depth_cap,
                                  double sink) {
  // One pass over the faces: each face's box and (slave surfaces) its area vector and area
  // share added to its vertices' normals and tributary areas (a face's vertices are slave
  // nodes; faces in order, so every node sums its faces in increasing order); then the face
  // hierarchy refitted.
  const int nf = static_cast<int>(faces_.size());
  const int nn = static_cast<int>(nodes_.size());
  face_boxes_.resize(nf);
  face_normals_.resize(nf);
  if (nn > 0) {
    node_normal_.assign(nn, Vec3::Zero());
    node_area_.assign(nn, 0.0);
  }
  Vec3 x[4], lo, hi;
  Aabb bounds;
  double lower = std::numeric_limits<double>::infinity();  // for ReachBox
  for (int f = 0; f < nf; ++f) {
    const int n = face_vertices(f, x);
    Aabb box;  // of the vertices, then grown
    for (int a = 0; a < n; ++a) box.Extend(x[a]);
    const NormalPolynomial N(x, n);
    const double bound = N.Range(lo, hi);
    if (bound > 0.0) lower = std::min(lower, bound);
    // An accepted node is y = S(s, t) + gap n(s, t) with S in the hull of the vertices and
    // -depth <= gap <= capture, so y_i - S_i = gap n_i lies between the products of those
    // bounds and of lo_i <= n_i <= hi_i: [min(-depth hi_i, capture lo_i),
    // max(-depth lo_i, capture hi_i)] (a face box reaches the capture distance outwards and
    // the depth inwards, not the sum of both each way); 1e-6 d more covers the inside
    // tolerance of the projection and rounding.
    const double depth = depth_fraction * std::min(face_diam_[f], depth_cap) + sink;
    const double eps = 1e-6 * face_diam_[f];
    for (int i = 0; i < 3; ++i) {
      box.lo[i] += std::min(-depth * hi[i], inflate * lo[i]) - eps;
      box.hi[i] += std::max(-depth * lo[i], inflate * hi[i]) + eps;
    }
    face_boxes_[f] = box;
    bounds.Extend(box);
    face_normals_[f] = {lo, hi};
    if (nn > 0) {
      const Vec3 area = N.Area(n);
      const double share = N.Share(n);
      for (int a = 0; a < n; ++a) {
        const int k = slot_[faces_[f].vertices[a]];
        node_normal_[k] += area;
        node_area_[k] += share;
      }
    }
  }
  face_bounds_ = bounds;
  faces_refreshed_ = true;
  face_tree_fitted_ = false;  // FitFaces refits the hierarchy when a search needs it
  fitted_inflate_ = inflate;
  fitted_fraction_ = depth_fraction;
  fitted_cap_ = depth_cap;
  fitted_sink_ = sink;
  min_lower_ = std::isfinite(lower) ? lower : 0.0;
}

void ContactSurface::FitFaces() {
  if (face_tree_fitted_) return;
  face_tree_fitted_ = true;
  if (face_bvh_.size() == static_cast<int>(face_boxes_.size()) && !face_bvh_.empty())
    face_bvh_.Refit(face_boxes_);
  else
    face_bvh_.Build(face_boxes_);
}

void ContactSurface::FitNodes() {
  const int nn = static_cast<int>(nodes_.size());
  if (nn == 0) return;
  if (node_bvh_.empty()) {  // built once (the leaf size set), then refitted
    std::vector<Aabb> boxes(nn);
    for (int k = 0; k < nn; ++k) boxes[k].lo = boxes[k].hi = points_[nodes_[k]];
    node_bvh_.Build(boxes, kNodeLeafSize);
    return;
  }
  node_bvh_.RefitPoints(points_, nodes_);
  skin_valid_ = false;  // the node tree no longer holds the snapshot
}

namespace {

// m / |m|_1 (zero for m = 0, which FacedAwayBy never culls, nor do ranges around 0).
Vec3 NormalDirection(const Vec3& m) {
  const double l1 = m.cwiseAbs().sum();
  return l1 > 0.0 ? Vec3(m / l1) : Vec3::Zero();
}

}  // namespace

bool ContactSurface::SkinHolds() const {
  if (!skin_valid_ || skin_points_.size() != nodes_.size() ||
      skin_boxes_.size() != faces_.size())
    return false;
  // Positions relative to the centroid against 0.999 skin: the trees' boxes, grown by skin
  // in floating point, then hold the exact bounds with room for their rounding (and for
  // that of the differences). Normals within the snapshot's ranges (SkinFacedAway holds for
  // the ranges' ends). Every entry is compared (no branch each; NaN fails).
  const double s = 0.999 * skin_;
  const Vec3& c = centroid_;
  bool holds = true;
  for (size_t k = 0; k < nodes_.size(); ++k) {
    holds &= ((points_[nodes_[k]] - c - skin_points_[k]).cwiseAbs().array() <= s).all();
    // u = m / |m|_1 within [lo, hi] as m within |m|_1 [lo, hi] (no division; SkinFacedAway's
    // margin covers the rounding); m = 0 (u = 0, never culled) only if the range holds 0.
    const NormalBounds& r = skin_node_normals_[k];
    const Vec3& m = node_normal_[k];
    const double l1 = m.cwiseAbs().sum();
    holds &= (m.array() >= l1 * r.lo.array()).all() & (m.array() <= l1 * r.hi.array()).all() &
             ((l1 > 0.0) | ((r.lo.array() <= 0.0).all() & (r.hi.array() >= 0.0).all()));
  }
  for (size_t f = 0; f < faces_.size(); ++f) {
    const Aabb& b = face_boxes_[f];
    const Aabb& o = skin_boxes_[f];
    holds &= ((b.lo - c).array() >= o.lo.array() - s).all() &
             ((b.hi - c).array() <= o.hi.array() + s).all();
    const NormalBounds& n = face_normals_[f];
    const NormalBounds& r = skin_face_normals_[f];
    holds &= (n.lo.array() >= r.lo.array()).all() & (n.hi.array() <= r.hi.array()).all();
  }
  return holds;
}

std::uint64_t ContactSurface::FitSkin(double skin) {
  static std::atomic<std::uint64_t> versions{0};
  if (SkinHolds()) return skin_version_;
  skin_ = skin;
  const int nn = static_cast<int>(nodes_.size());
  skin_points_.resize(nn);
  const Vec3& c = centroid_;
  for (int k = 0; k < nn; ++k) skin_points_[k] = points_[nodes_[k]] - c;
  skin_boxes_.resize(face_boxes_.size());
  for (size_t f = 0; f < face_boxes_.size(); ++f)
    skin_boxes_[f] = {face_boxes_[f].lo - c, face_boxes_[f].hi - c};
  const Vec3 turn = Vec3::Constant(kSkinTurn);
  skin_node_normals_.resize(nn);
  for (int k = 0; k < nn; ++k) {
    const Vec3 u = NormalDirection(node_normal_[k]);
    skin_node_normals_[k] = {u - turn, u + turn};
  }
  skin_face_normals_.resize(face_normals_.size());
  for (size_t f = 0; f < face_normals_.size(); ++f)
    skin_face_normals_[f] = {face_normals_[f].lo - turn, face_normals_[f].hi + turn};
  if (nn > 0) {
    skin_scratch_.resize(nn);
    for (int k = 0; k < nn; ++k) {
      skin_scratch_[k] = {skin_points_[k], skin_points_[k]};
      skin_scratch_[k].Inflate(skin);
    }
    if (node_bvh_.empty()) node_bvh_.Build(skin_scratch_, kNodeLeafSize);
    else node_bvh_.Refit(skin_scratch_);
  }
  skin_scratch_ = skin_boxes_;
  for (Aabb& b : skin_scratch_) b.Inflate(skin);
  if (skin_face_bvh_.empty()) skin_face_bvh_.Build(skin_scratch_);
  else skin_face_bvh_.Refit(skin_scratch_);
  skin_valid_ = true;
  skin_version_ = ++versions;
  return skin_version_;
}

double ContactSurface::NormalChangeBound(const Vec3* x, int n, double drift) {
  double e[4][4];
  VertexDistances2(x, n, e);
  Vec3 lo, hi;
  const double lower = NormalPolynomial(x, n).Range(lo, hi);
  if (!(lower > 0.0)) return 2.0;
  return 2.0 * (drift * std::sqrt(FaceSpread2(e, n)) + FaceDriftSquare(n) * drift * drift) /
         lower;
}

void ContactSurface::NormalRange(const Vec3* x, int n, Vec3& lo, Vec3& hi) {
  // N(s, t) = S_s x S_t: constant on a triangle; on a bilinear quad affine in (s, t)
  // (NormalPolynomial::Range).
  NormalPolynomial(x, n).Range(lo, hi);
}

}  // namespace solfec::contact
