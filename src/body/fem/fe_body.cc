// Finite-element body: mesh precomputation, embedded pieces, self-contact exclusions, point
// location (element box trees), current shape and point maps.
#include "body/fem/fe_body.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "base/errors.h"
#include "base/math.h"
#include "body/fem/element_mesh.h"
#include "body/fem/elements.h"

namespace solfec::body {

namespace {

std::string Who(const std::string& label) {
  return label.empty() ? std::string() : ", body '" + label + "'";
}

// The body's contact shape: the mesh elements as convexes, or the embedded pieces.
geometry::Shape ContactShape(const geometry::Shape& shape,
                             const std::optional<geometry::Mesh>& mesh,
                             const std::string& label) {
  if (!shape.ellipsoids.empty())
    throw InputError("BODY: an ELLIP shape cannot make a FINITE_ELEMENT body (argument "
                     "'shape'" + Who(label) + "), as in Solfec-1.0; use kind 'RIGID', "
                     "'PSEUDO_RIGID' or 'OBSTACLE', or mesh the ellipsoid with ELLIP_MESH");
  if (mesh) {
    if (!shape.meshes.empty() || (shape.convexes.empty() && shape.spheres.empty()))
      throw InputError("BODY: a FINITE_ELEMENT body with a background mesh needs a shape "
                       "of CONVEX or SPHERE objects (argument 'shape'" + Who(label) +
                       "); pass the MESH only as 'mesh'");
    mesh->Validate("BODY");
    geometry::Shape s = shape;
    return s;
  }
  if (shape.meshes.size() != 1 || !shape.convexes.empty() || !shape.spheres.empty())
    throw InputError("BODY: a FINITE_ELEMENT body needs a shape that is a single MESH "
                     "(argument 'shape'" + Who(label) + "); pass one MESH (or HEX) object, or "
                     "CONVEX/SPHERE shapes together with a background MESH as argument 'mesh'");
  shape.meshes[0].Validate("BODY");
  geometry::Shape s;
  s.convexes = shape.meshes[0].ToConvexes();
  return s;
}

const char* ElementName(int num_nodes) {
  switch (num_nodes) {
    case 4: return "TET4";
    case 5: return "PYR5";
    case 6: return "WED6";
    default: return "HEX8";
  }
}

double BoxSize(const geometry::Aabb& b) { return (b.hi - b.lo).maxCoeff(); }

// H = base^T over mesh nodes `nodes` (count n) weighted by w: ComputeH at a located point,
// ComputeFaceH at a face point. With lumped masses (`lumped`) weights within 1e-12 of 0 are
// left out and the others rescaled to sum 1 (H holds only the nodes the point depends on,
// so rows couple only through them: LocalDynamics), and H gets its node form
// (LocalDynamics::ScatteredBlock). Returns whether a weight was kept (H empty if not).
bool FillNodeH(const int* nodes, const double* w, int n, bool lumped, const Mat3& base,
               HOperator& H) {
  const auto kept_weight = [&](int a) { return !lumped || std::abs(w[a]) > 1e-12; };
  double sum = 0.0;
  int kept = 0;
  for (int a = 0; a < n; ++a)
    if (kept_weight(a)) sum += w[a], ++kept;
  const Mat3 BT = base.transpose();
  H.dofs.resize(3 * kept);
  H.values.resize(3, 3 * kept);
  H.nodes.clear();
  H.weights.clear();
  if (lumped) H.frame = BT;
  for (int a = 0, c = 0; a < n; ++a) {
    if (!kept_weight(a)) continue;
    const double wa = lumped ? w[a] / sum : w[a];
    for (int j = 0; j < 3; ++j) H.dofs[3 * c + j] = 3 * nodes[a] + j;
    H.values.block<3, 3>(0, 3 * c) = wa * BT;
    if (lumped) {
      H.nodes.push_back(nodes[a]);
      H.weights.push_back(wa);
    }
    ++c;
  }
  return kept > 0;
}

}  // namespace

FeBody::FeBody(geometry::Shape shape, material::BulkMaterial material, std::string label,
               std::optional<geometry::Mesh> mesh)
    : Body(BodyKind::kFiniteElement, ContactShape(shape, mesh, label), std::move(material),
           label),
      mesh_(mesh ? std::move(*mesh) : std::move(shape.meshes[0])),
      embedded_(mesh.has_value()) {
  materials_.push_back(material_);
  SetupElements();
  ComputeMass();
  for (int i = 0; i < num_nodes(); ++i)
    if (!(mass_diag_[3 * i] > 0.0))
      throw InputError("BODY: node " + std::to_string(i) + " of the FINITE_ELEMENT mesh "
                       "belongs to no element (argument '" + (embedded_ ? "mesh" : "shape") +
                       "'" + Who(label_) + "); remove unused nodes");
  const int nn = num_nodes();
  q_.resize(3 * nn);
  for (int i = 0; i < nn; ++i) q_.segment<3>(3 * i) = mesh_.nodes[i];
  u_ = VecX::Zero(3 * nn);
  u_free_ = VecX::Zero(3 * nn);
  impulse_ = VecX::Zero(3 * nn);
  ref_tree_.Build(ElementBoxes(false));
  cur_tree_ = ref_tree_;
  if (embedded_) {
    EmbedPieces();
  } else {
    MeshTouchingElements();
  }
}

void FeBody::SetupElements() {
  elements_.resize(mesh_.elements.size());
  const std::string arg = embedded_ ? "mesh" : "shape";
  for (size_t e = 0; e < mesh_.elements.size(); ++e) {
    const geometry::MeshElement& me = mesh_.elements[e];
    ElementData& ed = elements_[e];
    ed.num_nodes = me.num_nodes;
    ed.nodes.assign(me.nodes.begin(), me.nodes.begin() + me.num_nodes);
    const Mat3X X = ElementNodes(static_cast<int>(e), false);
    for (int a = 0; a < ed.num_nodes; ++a) ed.ref_box.Extend(Vec3(X.col(a)));
    const auto& rule = fem::GaussRule(ed.num_nodes);
    for (size_t k = 0; k < rule.size(); ++k) {
      GaussData g;
      MatX3 dN;
      fem::ShapeFunctions(ed.num_nodes, rule[k].xi, g.N, dN);
      const Mat3 J = X * dN;  // dX/dxi
      const double det = J.determinant();
      if (!(det > 0.0)) {
        std::ostringstream msg;
        msg << "BODY: element " << e << " (" << ElementName(ed.num_nodes) << ", nodes";
        for (int n : ed.nodes) msg << ' ' << n;
        msg << ") of the FINITE_ELEMENT mesh has a non-positive Jacobian determinant " << det
            << " at Gauss point " << k << " (argument '" << arg << "'" << Who(label_)
            << "); the element is inverted or degenerate: fix the node coordinates or the "
               "node order (manual Figure 4.1)";
        throw InputError(msg.str());
      }
      g.dNdX = dN * J.inverse();
      g.dV = rule[k].weight * det;
      ed.gauss.push_back(std::move(g));
    }
  }
}

std::vector<geometry::Aabb> FeBody::ElementBoxes(bool current) const {
  std::vector<geometry::Aabb> boxes(elements_.size());
  for (size_t e = 0; e < elements_.size(); ++e) {
    geometry::Aabb& box = boxes[e];
    if (current) {
      for (int n : elements_[e].nodes) box.Extend(node(n));
    } else {
      box = elements_[e].ref_box;
    }
    box.Inflate(0.05 * (box.hi - box.lo).norm());
  }
  return boxes;
}

void FeBody::EmbedPieces() {
  const geometry::Shape& s = ref_shape_;
  auto embed = [&](const Vec3& X, const std::string& what) {
    EmbeddedPoint p;
    Vec3 xi;
    Locate(X, false, p.element, xi);
    const int k = elements_[p.element].num_nodes;
    if (fem::OutsideMeasure(k, xi) > 0.0) {
      VecX N;
      MatX3 dN;
      fem::ShapeFunctions(k, fem::ClampToElement(k, xi), N, dN);
      const double dist = (ElementNodes(p.element, false) * N - X).norm();
      const double size = BoxSize(elements_[p.element].ref_box);
      if (dist > 0.1 * size) {
        std::ostringstream msg;
        msg << "BODY: " << what << " at (" << X.x() << ", " << X.y() << ", " << X.z()
            << ") lies " << dist << " outside the background mesh, more than 10% of the size "
            << size << " of its nearest element " << p.element << " (argument 'mesh'"
            << Who(label_) << "); use a mesh that covers the whole shape";
        throw InputError(msg.str());
      }
    }
    MatX3 dN;
    fem::ShapeFunctions(k, xi, p.N, dN);
    embedded_points_.push_back(std::move(p));
  };
  for (size_t c = 0; c < s.convexes.size(); ++c) {
    std::vector<int> carriers;
    for (size_t v = 0; v < s.convexes[c].vertices.size(); ++v) {
      embed(s.convexes[c].vertices[v],
            "vertex " + std::to_string(v) + " of CONVEX " + std::to_string(c));
      carriers.push_back(embedded_points_.back().element);
    }
    std::sort(carriers.begin(), carriers.end());
    carriers.erase(std::unique(carriers.begin(), carriers.end()), carriers.end());
    piece_elements_.push_back(std::move(carriers));
  }
  for (size_t i = 0; i < s.spheres.size(); ++i) {
    embed(s.spheres[i].center, "the centre of SPHERE " + std::to_string(i));
    piece_elements_.push_back({embedded_points_.back().element});
  }

  // Self-contact exclusions: pieces that touch (or overlap) in the referential shape. The
  // test is conservative (boxes, then separating planes among the face normals), so a
  // pair it keeps apart is certainly separated.
  const int nc = static_cast<int>(s.convexes.size());
  const int np = nc + static_cast<int>(s.spheres.size());
  const double tol = 1e-6 * s.Bounds().hi.cwiseMax(-s.Bounds().lo).maxCoeff() + 1e-12;
  auto box = [&](int p) { return p < nc ? s.convexes[p].Bounds() : s.spheres[p - nc].Bounds(); };
  // Signed distance-like separation of piece q from face planes of convex p.
  auto separated_by = [&](int p, int q) {
    const geometry::Convex& a = s.convexes[p];
    for (int f = 0; f < static_cast<int>(a.faces.size()); ++f) {
      const Vec3 n = a.FaceNormal(f);
      const double d = a.FacePlaneOffset(f);
      const double m = q < nc ? n.dot(s.convexes[q].Support(-n))
                              : n.dot(s.spheres[q - nc].center) - s.spheres[q - nc].radius;
      if (m - d > tol) return true;
    }
    return false;
  };
  touching_.assign(np, {});
  for (int p = 0; p < np; ++p) {
    geometry::Aabb bp = box(p);
    bp.Inflate(tol);
    for (int q = p + 1; q < np; ++q) {
      if (!bp.Overlaps(box(q))) continue;
      bool apart = false;
      if (p < nc) apart = separated_by(p, q);
      if (!apart && q < nc) apart = separated_by(q, p);
      if (!apart && p >= nc && q >= nc) {
        const geometry::Sphere &a = s.spheres[p - nc], &b = s.spheres[q - nc];
        apart = (a.center - b.center).norm() > a.radius + b.radius + tol;
      }
      if (!apart) touching_[p].push_back(q), touching_[q].push_back(p);
    }
  }
  for (auto& t : touching_) std::sort(t.begin(), t.end());
}

void FeBody::MeshTouchingElements() {
  std::vector<std::vector<int>> of_node(num_nodes());
  for (int e = 0; e < num_elements(); ++e)
    for (int n : elements_[e].nodes) of_node[n].push_back(e);
  touching_.assign(elements_.size(), {});
  for (int e = 0; e < num_elements(); ++e) {
    std::vector<int>& t = touching_[e];
    for (int n : elements_[e].nodes) t.insert(t.end(), of_node[n].begin(), of_node[n].end());
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
  }
}

bool FeBody::SelfContactExcluded(int a, int b) const {
  if (a == b) return true;
  if (a < 0 || a >= static_cast<int>(touching_.size())) return false;
  return std::binary_search(touching_[a].begin(), touching_[a].end(), b);
}

Mat3X FeBody::ElementNodes(int e, bool current) const {
  Mat3X x(3, elements_[e].num_nodes);
  FillElementNodes(e, current, x);
  return x;
}

void FeBody::FillElementNodes(int e, bool current, Eigen::Ref<Mat3X> x) const {
  const ElementData& ed = elements_[e];
  for (int a = 0; a < ed.num_nodes; ++a)
    x.col(a) = current ? node(ed.nodes[a]) : mesh_.nodes[ed.nodes[a]];
}

void FeBody::UpdateShape() {
  if (embedded_) {
    if (shape_.convexes.size() != ref_shape_.convexes.size() ||
        shape_.spheres.size() != ref_shape_.spheres.size())
      shape_ = ref_shape_;
    size_t k = 0;
    auto map = [&](const EmbeddedPoint& p) {
      const ElementData& ed = elements_[p.element];
      Vec3 x = Vec3::Zero();
      for (int a = 0; a < ed.num_nodes; ++a) x += p.N[a] * node(ed.nodes[a]);
      return x;
    };
    for (auto& cv : shape_.convexes)
      for (Vec3& v : cv.vertices) v = map(embedded_points_[k++]);
    for (auto& sp : shape_.spheres) sp.center = map(embedded_points_[k++]);
  } else {
    if (shape_.convexes.size() != elements_.size()) shape_ = ref_shape_;
    for (size_t e = 0; e < elements_.size(); ++e) {
      std::vector<Vec3>& v = shape_.convexes[e].vertices;
      const ElementData& ed = elements_[e];
      for (int a = 0; a < ed.num_nodes; ++a) v[a] = node(ed.nodes[a]);
    }
  }
  cur_tree_.Refit(ElementBoxes(true));
}

void FeBody::Locate(const Vec3& p, bool current, int& element, Vec3& xi) const {
  fem::LocateInTree(
      current ? cur_tree_ : ref_tree_, [this](int e) { return elements_[e].num_nodes; },
      [this, current](int e, Eigen::Ref<Mat3X> x) { FillElementNodes(e, current, x); }, p,
      element, xi);
}

Vec3 FeBody::ReferentialPointOnPiece(const Vec3& x, int piece) const {
  std::vector<int> single;
  const std::vector<int>* elements = &single;
  if (embedded_ && piece >= 0 && piece < static_cast<int>(piece_elements_.size())) {
    elements = &piece_elements_[piece];
  } else if (!embedded_ && piece >= 0 && piece < num_elements()) {
    single.push_back(piece);
  } else {
    return ReferentialPoint(x);
  }
  double best = std::numeric_limits<double>::infinity();
  Vec3 X = ReferentialPoint(x);
  for (int e : *elements) {
    Vec3 xi;
    if (!fem::InverseMap(elements_[e].num_nodes, ElementNodes(e, true), x, xi)) continue;
    const double m = fem::OutsideMeasure(elements_[e].num_nodes, xi);
    if (m >= best) continue;
    best = m;
    VecX N;
    MatX3 dN;
    fem::ShapeFunctions(elements_[e].num_nodes, xi, N, dN);
    X = ElementNodes(e, false) * N;
  }
  return X;
}

const material::BulkMaterial& FeBody::MaterialAt(const Vec3& X) const {
  int e;
  Vec3 xi;
  Locate(X, false, e, xi);
  return element_material(e);
}

void FeBody::LocateReferential(const Vec3& X, int& element, Vec3& xi) const {
  Locate(X, false, element, xi);
}

void FeBody::Interpolate(const Vec3& X, int& element, VecX& N) const {
  Vec3 xi;
  Locate(X, false, element, xi);
  thread_local MatX3 dN;
  fem::ShapeFunctions(elements_[element].num_nodes, xi, N, dN);
}

Vec3 FeBody::SpatialPoint(const Vec3& X) const {
  int e;
  VecX N;
  Interpolate(X, e, N);
  return ElementNodes(e, true) * N;
}

Vec3 FeBody::ReferentialPoint(const Vec3& x) const {
  int e;
  Vec3 xi;
  Locate(x, true, e, xi);
  VecX N;
  MatX3 dN;
  fem::ShapeFunctions(elements_[e].num_nodes, xi, N, dN);
  return ElementNodes(e, false) * N;
}

Vec3 FeBody::PointVelocity(const Vec3& X) const {
  int e;
  VecX N;
  Interpolate(X, e, N);
  Vec3 v = Vec3::Zero();
  for (int a = 0; a < elements_[e].num_nodes; ++a)
    v += N[a] * u_.segment<3>(3 * elements_[e].nodes[a]);
  return v;
}

Mat3 FeBody::DeformationGradient(const Vec3& X) const {
  int e;
  Vec3 xi;
  Locate(X, false, e, xi);
  return DeformationGradient(e, xi);
}

Mat3 FeBody::DeformationGradient(int e, const Vec3& xi) const {
  return fem::DeformationGradient(elements_[e].num_nodes, xi, ElementNodes(e, false),
                                  ElementNodes(e, true));
}

std::vector<std::pair<int, Vec3>> FeBody::ElementsAtPoint(const Vec3& X, double eps) const {
  int e;
  Vec3 xi;
  Locate(X, false, e, xi);
  int node = -1;
  for (int a = 0; a < elements_[e].num_nodes && node < 0; ++a)
    if ((mesh_.nodes[elements_[e].nodes[a]] - X).cwiseAbs().maxCoeff() < eps)
      node = elements_[e].nodes[a];
  std::vector<std::pair<int, Vec3>> out;
  if (node < 0) {
    out.emplace_back(e, xi);
    return out;
  }
  const Vec3& Xn = mesh_.nodes[node];
  for (int k = 0; k < num_elements(); ++k) {
    const ElementData& ed = elements_[k];
    if (std::find(ed.nodes.begin(), ed.nodes.end(), node) == ed.nodes.end()) continue;
    Vec3 z;
    if (!fem::InverseMap(ed.num_nodes, ElementNodes(k, false), Xn, z)) continue;
    out.emplace_back(k, fem::ClampToElement(ed.num_nodes, z));
  }
  if (out.empty()) out.emplace_back(e, xi);
  return out;
}

void FeBody::ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const {
  int e;
  VecX N;
  Interpolate(X, e, N);
  const ElementData& ed = elements_[e];
  // With a diagonal A (lumped masses) the shape functions below the inverse map's accuracy
  // (those off the face, edge or node X lies on, 0 in exact arithmetic) are left out
  // (FillNodeH). With an operator A every row of A^-1 H^T is dense anyway: H keeps the
  // element's nodes.
  FillNodeH(ed.nodes.data(), N.data(), ed.num_nodes, DiagonalInertia() != nullptr, base, H);
}

bool FeBody::ComputeNodeH(int node, const Mat3& base, HOperator& H) const {
  MeshFacePoint p;
  p.size = 1;
  p.nodes[0] = node;
  p.weights[0] = 1.0;
  return ComputeFaceH(p, base, H);
}

bool FeBody::ComputeFaceH(const MeshFacePoint& p, const Mat3& base, HOperator& H) const {
  if (embedded_ || !DiagonalInertia() || p.size < 1 || p.size > 4) return false;
  for (int a = 0; a < p.size; ++a)
    if (p.nodes[a] < 0 || p.nodes[a] >= num_nodes()) return false;
  return FillNodeH(p.nodes.data(), p.weights.data(), p.size, true, base, H);
}

void FeBody::ApplyInverseInertia(Eigen::Ref<MatX> G) const {
  if (use_corotated_) return ApplyCorotatedInverse(G);  // form 'BC', DEF_LIM
  if (use_operator_) {
    operator_.Solve(G);
  } else {
    G.array().colwise() /= mass_diag_.array();
  }
}

bool FeBody::TrySetInertiaOperator(const SparseMat& A) {
  use_corotated_ = false;
  use_operator_ = operator_.Factorize(A);
  return use_operator_;
}

void FeBody::SetStiffnessOperator(const SparseMat& K, double c) {
  SparseMat A = MassMatrix() + c * K;
  if (TrySetInertiaOperator(A)) return;
  // Indefinite (initial stress on modes the constraints hold): the smallest shift tau I in
  // decades from 1e-8 max diag(c K) that restores definiteness; a shift, unlike dropping
  // the initial-stress part, keeps those modes stiff, so the free motion stays bounded.
  const double dmax = c * K.diagonal().cwiseAbs().maxCoeff();
  SparseMat I(num_dofs(), num_dofs());
  I.setIdentity();
  for (double tau = 1e-8 * dmax; tau <= dmax; tau *= 10.0)
    if (TrySetInertiaOperator(A + tau * I)) return;
  SetInertiaOperator(MassMatrix() + c * Stiffness(/*geometric=*/false));
}

void FeBody::SetInertiaOperator(const SparseMat& A) {
  if (!operator_.Factorize(A))
    throw SolverError("RUN: the inertia operator of FINITE_ELEMENT body " + std::to_string(id_) +
                      (label_.empty() ? "" : " ('" + label_ + "')") +
                      " is not positive definite; reduce the time step or the damping");
  use_operator_ = true;
  use_corotated_ = false;
}

SparseMat FeBody::MassMatrix() const {
  SparseMat M(num_dofs(), num_dofs());
  M.reserve(Eigen::VectorXi::Constant(num_dofs(), 1));
  for (int i = 0; i < num_dofs(); ++i) M.insert(i, i) = mass_diag_[i];
  M.makeCompressed();
  return M;
}

double FeBody::KineticEnergy() const {
  return 0.5 * u_.dot(mass_diag_.cwiseProduct(u_));
}

double FeBody::InternalEnergy() const {
  if (form_ == FeForm::kBC) return CorotatedEnergy();
  double total = 0.0, W;
  for (size_t e = 0; e < elements_.size(); ++e) {
    ElementResponse(static_cast<int>(e), nullptr, nullptr, &W);
    total += W;
  }
  return total;
}

void FeBody::SetInitialVelocity(const Vec3& linear, const Vec3& angular) {
  Vec3 c = Vec3::Zero();
  double m = 0.0;
  for (int i = 0; i < num_nodes(); ++i) c += mass_diag_[3 * i] * node(i), m += mass_diag_[3 * i];
  c /= m;
  for (int i = 0; i < num_nodes(); ++i)
    u_.segment<3>(3 * i) = linear + angular.cross(Vec3(node(i) - c));
}

}  // namespace solfec::body
