// Finite-element body: mesh precomputation, lumped mass, point location, Saint
// Venant-Kirchhoff forces and tangent, loads and energy.
#include "body/fem/fe_body.h"

#include <cmath>
#include <limits>
#include <utility>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/SVD>

#include "base/errors.h"
#include "base/math.h"
#include "body/fem/elements.h"

namespace solfec::body {

namespace {

const geometry::Mesh& SingleMesh(const geometry::Shape& shape, const std::string& label) {
  const std::string who = label.empty() ? std::string() : ", body '" + label + "'";
  if (shape.meshes.size() != 1 || !shape.convexes.empty() || !shape.spheres.empty())
    throw InputError("BODY: a FINITE_ELEMENT body needs a shape that is a single MESH "
                     "(argument 'shape'" + who + "); pass one MESH (or HEX) object; CONVEX "
                     "shapes with a background mesh are not available yet");
  shape.meshes[0].Validate("BODY");
  return shape.meshes[0];
}

geometry::Shape MeshConvexes(const geometry::Shape& shape, const std::string& label) {
  geometry::Shape s;
  s.convexes = SingleMesh(shape, label).ToConvexes();
  return s;
}


}  // namespace

FeBody::FeBody(geometry::Shape shape, material::BulkMaterial material, std::string label)
    : Body(BodyKind::kFiniteElement, MeshConvexes(shape, label), std::move(material),
           std::move(label)),
      mesh_(std::move(shape.meshes[0])) {
  const int nn = num_nodes();
  mass_diag_ = VecX::Zero(3 * nn);
  const double rho = material_.density;
  elements_.resize(mesh_.elements.size());
  for (size_t e = 0; e < mesh_.elements.size(); ++e) {
    const geometry::MeshElement& me = mesh_.elements[e];
    ElementData& ed = elements_[e];
    ed.num_nodes = me.num_nodes;
    ed.nodes.assign(me.nodes.begin(), me.nodes.begin() + me.num_nodes);
    const Mat3X X = ElementNodes(static_cast<int>(e), false);
    for (int a = 0; a < ed.num_nodes; ++a) ed.ref_box.Extend(Vec3(X.col(a)));
    for (const fem::GaussPoint& gp : fem::GaussRule(ed.num_nodes)) {
      GaussData g;
      MatX3 dN;
      fem::ShapeFunctions(ed.num_nodes, gp.xi, g.N, dN);
      const Mat3 J = X * dN;  // dX/dxi
      const double det = J.determinant();
      if (!(det > 0.0))
        throw InputError("BODY: element " + std::to_string(e) + " of the FINITE_ELEMENT mesh "
                         "has a non-positive Jacobian at a Gauss point (argument 'shape'); fix "
                         "the node coordinates or the node order (manual Figure 4.1)");
      g.dNdX = dN * J.inverse();
      g.dV = gp.weight * det;
      for (int a = 0; a < ed.num_nodes; ++a)
        mass_diag_.segment<3>(3 * ed.nodes[a]).array() += rho * g.N[a] * g.dV;
      ed.gauss.push_back(std::move(g));
    }
  }
  for (int i = 0; i < nn; ++i)
    if (!(mass_diag_[3 * i] > 0.0))
      throw InputError("BODY: node " + std::to_string(i) + " of the FINITE_ELEMENT mesh "
                       "belongs to no element (argument 'shape'); remove unused nodes");
  const geometry::MassProperties mp = mesh_.ComputeMassProperties();
  mass_ = rho * mp.volume;
  volume_ = mp.volume;
  center_ = mp.center;
  tensor_ = mp.InertiaTensor(rho);
  q_.resize(3 * nn);
  for (int i = 0; i < nn; ++i) q_.segment<3>(3 * i) = mesh_.nodes[i];
  u_ = VecX::Zero(3 * nn);
  u_free_ = VecX::Zero(3 * nn);
  impulse_ = VecX::Zero(3 * nn);
}

Mat3X FeBody::ElementNodes(int e, bool current) const {
  const ElementData& ed = elements_[e];
  Mat3X x(3, ed.num_nodes);
  for (int a = 0; a < ed.num_nodes; ++a)
    x.col(a) = current ? node(ed.nodes[a]) : mesh_.nodes[ed.nodes[a]];
  return x;
}

void FeBody::UpdateShape() {
  if (shape_.convexes.size() != elements_.size()) shape_ = ref_shape_;
  for (size_t e = 0; e < elements_.size(); ++e) {
    std::vector<Vec3>& v = shape_.convexes[e].vertices;
    const ElementData& ed = elements_[e];
    for (int a = 0; a < ed.num_nodes; ++a) v[a] = node(ed.nodes[a]);
  }
}

void FeBody::Locate(const Vec3& p, bool current, int& element, Vec3& xi) const {
  double best = std::numeric_limits<double>::infinity();
  element = 0;
  xi = fem::NaturalCentre(elements_[0].num_nodes);
  auto consider = [&](int e) {
    const Mat3X x = ElementNodes(e, current);
    Vec3 z;
    if (!fem::InverseMap(elements_[e].num_nodes, x, p, z)) return;
    const double m = fem::OutsideMeasure(elements_[e].num_nodes, z);
    if (m < best) best = m, element = e, xi = z;
  };
  const int ne = static_cast<int>(elements_.size());
  for (int e = 0; e < ne && best > 0.0; ++e) {
    geometry::Aabb box;
    if (current) {
      for (int n : elements_[e].nodes) box.Extend(node(n));
    } else {
      box = elements_[e].ref_box;
    }
    box.Inflate(0.05 * (box.hi - box.lo).norm());
    if (box.Contains(p)) consider(e);
  }
  if (best < 0.5) return;
  // Outside every element box (a contact point off the surface, a far load): also try the
  // element with the nearest centroid.
  double dmin = std::numeric_limits<double>::infinity();
  int nearest = 0;
  for (int e = 0; e < ne; ++e) {
    const double d = (ElementNodes(e, current).rowwise().mean() - p).squaredNorm();
    if (d < dmin) dmin = d, nearest = e;
  }
  consider(nearest);
  if (!std::isfinite(best)) element = nearest;
}

void FeBody::LocateReferential(const Vec3& X, int& element, Vec3& xi) const {
  Locate(X, false, element, xi);
}

void FeBody::Interpolate(const Vec3& X, int& element, VecX& N) const {
  Vec3 xi;
  Locate(X, false, element, xi);
  MatX3 dN;
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
  VecX N;
  MatX3 dN;
  fem::ShapeFunctions(elements_[e].num_nodes, xi, N, dN);
  const Mat3 J0 = ElementNodes(e, false) * dN;
  return ElementNodes(e, true) * dN * J0.inverse();
}

void FeBody::ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const {
  int e;
  VecX N;
  Interpolate(X, e, N);
  const ElementData& ed = elements_[e];
  H.dofs.resize(3 * ed.num_nodes);
  H.values.resize(3, 3 * ed.num_nodes);
  const Mat3 BT = base.transpose();
  for (int a = 0; a < ed.num_nodes; ++a) {
    for (int j = 0; j < 3; ++j) H.dofs[3 * a + j] = 3 * ed.nodes[a] + j;
    H.values.block<3, 3>(0, 3 * a) = N[a] * BT;
  }
}

void FeBody::ApplyInverseInertia(Eigen::Ref<MatX> G) const {
  if (use_operator_) {
    const MatX rhs = G;
    G = operator_.solve(rhs);
  } else {
    G.array().colwise() /= mass_diag_.array();
  }
}

void FeBody::SetInertiaOperator(const SparseMat& A) {
  operator_.compute(A);
  if (operator_.info() != Eigen::Success || (operator_.vectorD().array() <= 0.0).any())
    throw SolverError("RUN: the inertia operator of FINITE_ELEMENT body " + std::to_string(id_) +
                      (label_.empty() ? "" : " ('" + label_ + "')") +
                      " is not positive definite; reduce the time step or the damping");
  use_operator_ = true;
}

SparseMat FeBody::MassMatrix() const {
  SparseMat M(num_dofs(), num_dofs());
  M.reserve(Eigen::VectorXi::Constant(num_dofs(), 1));
  for (int i = 0; i < num_dofs(); ++i) M.insert(i, i) = mass_diag_[i];
  M.makeCompressed();
  return M;
}

void FeBody::ElementResponse(int e, VecX* f, MatX* K, double* W) const {
  const ElementData& ed = elements_[e];
  const int k = ed.num_nodes;
  const double lambda = material_.lame_lambda(), mu = material_.lame_mu();
  const Mat3X x = ElementNodes(e, true);
  if (f) f->setZero(3 * k);
  if (K) K->setZero(3 * k, 3 * k);
  if (W) *W = 0.0;
  for (const GaussData& g : ed.gauss) {
    const Mat3 F = x * g.dNdX;
    const Mat3 E = 0.5 * (F.transpose() * F - Mat3::Identity());
    const double tr = E.trace();
    const Mat3 S = lambda * tr * Mat3::Identity() + 2.0 * mu * E;
    if (W) *W += g.dV * (0.5 * lambda * tr * tr + mu * E.squaredNorm());
    if (f) {
      const Mat3 P = F * S;
      for (int a = 0; a < k; ++a) f->segment<3>(3 * a) -= g.dV * (P * g.dNdX.row(a).transpose());
    }
    if (K) {
      const Mat3X FG = F * g.dNdX.transpose();  // columns F g_a
      const Mat3 FFt = F * F.transpose();
      for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b) {
          const Vec3 ga = g.dNdX.row(a).transpose(), gb = g.dNdX.row(b).transpose();
          const Mat3 Kab = ga.dot(S * gb) * Mat3::Identity() +
                           lambda * FG.col(a) * FG.col(b).transpose() +
                           mu * ga.dot(gb) * FFt + mu * FG.col(b) * FG.col(a).transpose();
          K->block<3, 3>(3 * a, 3 * b) += g.dV * Kab;
        }
    }
  }
}

VecX FeBody::InternalForce() const {
  VecX f = VecX::Zero(num_dofs()), fe;
  for (size_t e = 0; e < elements_.size(); ++e) {
    ElementResponse(static_cast<int>(e), &fe, nullptr, nullptr);
    const ElementData& ed = elements_[e];
    for (int a = 0; a < ed.num_nodes; ++a) f.segment<3>(3 * ed.nodes[a]) += fe.segment<3>(3 * a);
  }
  return f;
}

SparseMat FeBody::Stiffness() const {
  std::vector<Eigen::Triplet<double>> trip;
  MatX Ke;
  for (size_t e = 0; e < elements_.size(); ++e) {
    ElementResponse(static_cast<int>(e), nullptr, &Ke, nullptr);
    const ElementData& ed = elements_[e];
    for (int a = 0; a < ed.num_nodes; ++a)
      for (int b = 0; b < ed.num_nodes; ++b)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            trip.emplace_back(3 * ed.nodes[a] + i, 3 * ed.nodes[b] + j, Ke(3 * a + i, 3 * b + j));
  }
  SparseMat K(num_dofs(), num_dofs());
  K.setFromTriplets(trip.begin(), trip.end());
  return K;
}

double FeBody::MaxFrequencySquared() const {
  double w2 = 0.0;
  MatX Ke;
  const double rho = material_.density;
  for (size_t e = 0; e < elements_.size(); ++e) {
    ElementResponse(static_cast<int>(e), nullptr, &Ke, nullptr);
    const ElementData& ed = elements_[e];
    VecX m = VecX::Zero(3 * ed.num_nodes);
    for (const GaussData& g : ed.gauss)
      for (int a = 0; a < ed.num_nodes; ++a) m.segment<3>(3 * a).array() += rho * g.N[a] * g.dV;
    const VecX s = m.cwiseSqrt().cwiseInverse();
    const MatX A = s.asDiagonal() * (0.5 * (Ke + Ke.transpose())) * s.asDiagonal();
    Eigen::SelfAdjointEigenSolver<MatX> es(A, Eigen::EigenvaluesOnly);
    w2 = std::max(w2, es.eigenvalues().maxCoeff());
  }
  return w2 * mass_scale_;
}

void FeBody::SetCharacteristics(double mass, double volume, const Vec3& center,
                                const Mat3& tensor) {
  const double ratio = mass / mass_;
  Body::SetCharacteristics(mass, volume, center, tensor);
  mass_diag_ *= ratio;
  mass_scale_ /= ratio;
}

VecX FeBody::ExternalForce(double t, double h, const Vec3& gravity) const {
  VecX f(num_dofs());
  for (int i = 0; i < num_nodes(); ++i) f.segment<3>(3 * i) = mass_diag_[3 * i] * gravity;
  for (const PointLoad& load : loads_) {
    if (load.callback) {
      const VecX r = load.callback(q_, u_, t, h);
      if (r.size() != num_dofs() || !r.allFinite())
        throw InputError("FORCE: callback returned " + std::to_string(r.size()) +
                         " values (argument 'value'); a FINITE_ELEMENT body callback must "
                         "return " + std::to_string(num_dofs()) +
                         " finite numbers (the generalized force conjugate to velo)");
      f += r;
      continue;
    }
    if (load.type == PointLoad::Type::kTorque)
      throw InputError("TORQUE: not available for FINITE_ELEMENT bodies (argument 'body'); "
                       "apply point FORCEs instead");
    const Vec3 d = load.convected ? Vec3(PolarRotation(DeformationGradient(load.point)) *
                                         load.direction)
                                  : load.direction;
    int e;
    VecX N;
    Interpolate(load.point, e, N);
    const Vec3 fs = load.value(t) * d;
    for (int a = 0; a < elements_[e].num_nodes; ++a)
      f.segment<3>(3 * elements_[e].nodes[a]) += N[a] * fs;
  }
  return f;
}

double FeBody::KineticEnergy() const {
  return 0.5 * u_.dot(mass_diag_.cwiseProduct(u_));
}

double FeBody::InternalEnergy() const {
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
