// Floating frame of reference body: state layout, mean-axis projection, H operator, inverse
// inertia and loads (equations in ffr_body.h and src/body/README.md).
#include "body/fem/ffr_body.h"

#include <string>
#include <utility>

#include <Eigen/LU>

#include "base/errors.h"
#include "base/math.h"
#include "body/fem/elements.h"

namespace solfec::body {

namespace {

Mat3 Skew(const Vec3& a) {
  Mat3 s;
  s << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return s;
}

}  // namespace

FfrBody::FfrBody(geometry::Shape shape, material::BulkMaterial material, std::string label,
                 std::optional<geometry::Mesh> mesh)
    : FfrBody(std::make_unique<FeBody>(std::move(shape), std::move(material), std::move(label),
                                       std::move(mesh))) {}

FfrBody::FfrBody(std::unique_ptr<FeBody> mesh_body)
    : Body(BodyKind::kFiniteElement, mesh_body->ref_shape(), mesh_body->material(),
           mesh_body->label()),
      mesh_body_(std::move(mesh_body)) {
  InitFrameData();
  const int n = num_nodes();
  q_ = VecX::Zero(kFrameQ + 3 * n);
  set_position(origin_);
  set_rotation(Mat3::Identity());
  u_ = VecX::Zero(kFrameU + 3 * n);
  u_free_ = u_;
  impulse_ = u_;
}

void FfrBody::InitFrameData() {
  const FeBody& fe = *mesh_body_;
  const int n = num_nodes();
  mass_body_diag_ = fe.lumped_mass();
  mass_total_ = 0.0;
  origin_.setZero();
  for (int a = 0; a < n; ++a) {
    const double m = mass_body_diag_[3 * a];
    mass_total_ += m;
    origin_ += m * fe.mesh().nodes[a];
  }
  origin_ /= mass_total_;
  xbar_.resize(3, n);
  J_.setZero();
  for (int a = 0; a < n; ++a) {
    const Vec3 X = fe.mesh().nodes[a] - origin_;
    xbar_.col(a) = X;
    J_ += mass_body_diag_[3 * a] * (X.squaredNorm() * Mat3::Identity() - X * X.transpose());
  }
  J_inv_ = J_.inverse();
  // K at the referential nodes (F = I, S = 0): the linear elastic stiffness.
  K_ = fe.Stiffness(/*geometric=*/false);
  mass_ = fe.mass();
  volume_ = fe.volume();
  center_ = fe.center();
  tensor_ = fe.tensor();
  coefficient_ = -1.0;
}

Mat3 FfrBody::rotation() const { return Eigen::Map<const Mat3>(q_.data() + 3); }

void FfrBody::set_rotation(const Mat3& O) { Eigen::Map<Mat3>(q_.data() + 3) = O; }

void FfrBody::ProjectForce(Eigen::Ref<MatX> f) const {
  const int n = num_nodes();
  for (Eigen::Index k = 0; k < f.cols(); ++k) {
    Vec3 F = Vec3::Zero(), T = Vec3::Zero();
    for (int a = 0; a < n; ++a) {
      const Vec3 fa = f.col(k).segment<3>(3 * a);
      F += fa;
      T += Vec3(xbar_.col(a)).cross(fa);
    }
    const Vec3 acc = F / mass_total_, alpha = J_inv_ * T;
    for (int a = 0; a < n; ++a)
      f.col(k).segment<3>(3 * a) -=
          mass_body_diag_[3 * a] * (acc + alpha.cross(Vec3(xbar_.col(a))));
  }
}

void FfrBody::ProjectVelocity(Eigen::Ref<MatX> v) const {
  const int n = num_nodes();
  for (Eigen::Index k = 0; k < v.cols(); ++k) {
    const VecX col = v.col(k);
    const Vec3 vc = MomentumOf(col) / mass_total_, w = J_inv_ * AngularMomentumOf(col);
    for (int a = 0; a < n; ++a) v.col(k).segment<3>(3 * a) -= vc + w.cross(Vec3(xbar_.col(a)));
  }
}

Vec3 FfrBody::MomentumOf(const VecX& v) const {
  Vec3 p = Vec3::Zero();
  for (int a = 0; a < num_nodes(); ++a) p += mass_body_diag_[3 * a] * v.segment<3>(3 * a);
  return p;
}

Vec3 FfrBody::AngularMomentumOf(const VecX& v) const {
  Vec3 L = Vec3::Zero();
  for (int a = 0; a < num_nodes(); ++a)
    L += mass_body_diag_[3 * a] * Vec3(xbar_.col(a)).cross(Vec3(v.segment<3>(3 * a)));
  return L;
}

VecX FfrBody::CentrifugalForce(const Vec3& W) const {
  VecX f(3 * num_nodes());
  for (int a = 0; a < num_nodes(); ++a)
    f.segment<3>(3 * a) = -mass_body_diag_[3 * a] * W.cross(W.cross(Vec3(xbar_.col(a))));
  return f;
}

VecX FfrBody::GeneralizedForce(const VecX& F) const {
  const int n = num_nodes();
  const Mat3 Ot = rotation().transpose();
  VecX g = VecX::Zero(num_dofs());
  for (int a = 0; a < n; ++a) {
    const Vec3 Fa = F.segment<3>(3 * a), fa = Ot * Fa;
    g.head<3>() += Fa;
    g.segment<3>(3) += Vec3(xbar_.col(a)).cross(fa);
    g.segment<3>(kFrameU + 3 * a) = fa;
  }
  return g;
}

void FfrBody::SetElasticOperator(double c) {
  if (c == coefficient_) return;
  const int nd = 3 * num_nodes();
  SparseMat A = c * K_;
  for (int i = 0; i < nd; ++i) A.coeffRef(i, i) += mass_body_diag_[i];
  A.makeCompressed();
  if (!operator_.Factorize(A)) {
    coefficient_ = -1.0;
    throw SolverError("RUN: the elastic inertia operator M + c K of FINITE_ELEMENT body " +
                      std::to_string(id_) + " (form 'FFR') is not positive definite; check "
                      "the material and the time step");
  }
  coefficient_ = c;
}

void FfrBody::UpdateShape() {
  const int n = num_nodes();
  const Mat3 O = rotation();
  const Vec3 x = position();
  VecX& nodes = mesh_body_->mutable_q();
  for (int a = 0; a < n; ++a)
    nodes.segment<3>(3 * a) = x + O * (Vec3(xbar_.col(a)) + Vec3(q_.segment<3>(kFrameQ + 3 * a)));
  mesh_body_->UpdateShape();
  const geometry::Shape& s = mesh_body_->shape();
  if (shape_.convexes.size() != s.convexes.size() || shape_.spheres.size() != s.spheres.size()) {
    shape_ = s;
    return;
  }
  for (size_t c = 0; c < s.convexes.size(); ++c)
    shape_.convexes[c].vertices = s.convexes[c].vertices;
  for (size_t i = 0; i < s.spheres.size(); ++i) shape_.spheres[i].center = s.spheres[i].center;
}

void FfrBody::Interpolate(const Vec3& X, int& element, VecX& N) const {
  Vec3 xi;
  mesh_body_->LocateReferential(X, element, xi);
  MatX3 dN;
  fem::ShapeFunctions(mesh_body_->mesh().elements[element].num_nodes, xi, N, dN);
}

Vec3 FfrBody::SpatialPoint(const Vec3& X) const { return mesh_body_->SpatialPoint(X); }

Vec3 FfrBody::ReferentialPoint(const Vec3& x) const { return mesh_body_->ReferentialPoint(x); }

Vec3 FfrBody::PointVelocity(const Vec3& X) const {
  int e;
  VecX N;
  Interpolate(X, e, N);
  const geometry::MeshElement& me = mesh_body_->mesh().elements[e];
  Vec3 psi = Vec3::Zero(), lam = Vec3::Zero();
  const Eigen::VectorBlock<const VecX> q_psi = displacements();
  const Eigen::VectorBlock<const VecX> u_lam = elastic_velocities();
  for (int a = 0; a < me.num_nodes; ++a) {
    psi += N[a] * q_psi.segment<3>(3 * me.nodes[a]);
    lam += N[a] * u_lam.segment<3>(3 * me.nodes[a]);
  }
  const Vec3 local = angular_velocity().cross(Vec3(X - origin_ + psi)) + lam;
  return linear_velocity() + rotation() * local;
}

void FfrBody::ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const {
  int e;
  VecX N;
  Interpolate(X, e, N);
  const geometry::MeshElement& me = mesh_body_->mesh().elements[e];
  const Mat3 BT = base.transpose();
  const Mat3 BO = BT * rotation();
  H.dofs.resize(kFrameU + 3 * me.num_nodes);
  H.values.resize(3, kFrameU + 3 * me.num_nodes);
  for (int k = 0; k < kFrameU; ++k) H.dofs[k] = k;
  H.values.block<3, 3>(0, 0) = BT;
  H.values.block<3, 3>(0, 3) = -BO * Skew(X - origin_);
  for (int a = 0; a < me.num_nodes; ++a) {
    for (int j = 0; j < 3; ++j) H.dofs[kFrameU + 3 * a + j] = kFrameU + 3 * me.nodes[a] + j;
    H.values.block<3, 3>(0, kFrameU + 3 * a) = N[a] * BO;
  }
}

void FfrBody::ApplyInverseInertia(Eigen::Ref<MatX> G) const {
  if (coefficient_ < 0.0)
    throw SolverError("RUN: FINITE_ELEMENT body " + std::to_string(id_) + " (form 'FFR') has "
                      "no inertia operator yet (internal: SetElasticOperator not called)");
  G.topRows<3>() /= mass_total_;
  G.middleRows<3>(3) = J_inv_ * G.middleRows<3>(3);
  Eigen::Ref<MatX> el = G.bottomRows(3 * num_nodes());
  ProjectForce(el);
  operator_.Solve(el);
  ProjectVelocity(el);  // round-off only: A_e^-1 P^T f lies in range(P)
}

void FfrBody::RebuildFrameData() {
  const Vec3 x = position();
  const Vec3 old_origin = origin_;
  InitFrameData();
  // x_a = x_C + O (X_a - c + psi_a): moving c by d moves x_C by O d.
  set_position(x + rotation() * (origin_ - old_origin));
}

void FfrBody::SetCharacteristics(double mass, double volume, const Vec3& center,
                                 const Mat3& tensor) {
  mesh_body_->SetCharacteristics(mass, volume, center, tensor);
  RebuildFrameData();
  Body::SetCharacteristics(mass, volume, center, tensor);
  UpdateShape();
}

void FfrBody::AddPressure(int surfid, ScalarOrSeries value) {
  mesh_body_->AddPressure(surfid, std::move(value), true);  // x_a: the current faces
}

void FfrBody::ApplyBulkMaterial(int volid, const material::BulkMaterial& m) {
  if (m.model != "KIRCHHOFF")
    throw InputError("APPLY_BULKMAT: FINITE_ELEMENT bodies of form 'FFR' are linear elastic; "
                     "material model '" + m.model + "' needs form 'TL' (argument 'material')");
  mesh_body_->ApplyBulkMaterial(volid, m);
  RebuildFrameData();
  UpdateShape();
}

VecX FfrBody::ExternalForce(double t, double h, const Vec3& gravity) const {
  const int n = num_nodes();
  VecX F(3 * n);
  for (int a = 0; a < n; ++a) F.segment<3>(3 * a) = mass_body_diag_[3 * a] * gravity;
  VecX torque = VecX::Zero(3);
  VecX callbacks = VecX::Zero(num_dofs());
  const Mat3 O = rotation();
  for (const PointLoad& load : loads_) {
    if (load.callback) {
      const VecX r = load.callback(q_, u_, t, h);
      if (r.size() != num_dofs() || !r.allFinite())
        throw InputError("FORCE: callback returned " + std::to_string(r.size()) +
                         " values (argument 'value'); a FINITE_ELEMENT body of form 'FFR' "
                         "callback must return " + std::to_string(num_dofs()) +
                         " finite numbers (the generalized force conjugate to velo: v_C, "
                         "Omega, lambda)");
      callbacks += r;
      continue;
    }
    const Vec3 d = load.convected ? Vec3(O * load.direction) : load.direction;
    const Vec3 v = load.value(t) * d;
    if (load.type == PointLoad::Type::kTorque) {
      torque += O.transpose() * v;  // referential torque
      continue;
    }
    int e;
    VecX N;
    Interpolate(load.point, e, N);
    const geometry::MeshElement& me = mesh_body_->mesh().elements[e];
    for (int a = 0; a < me.num_nodes; ++a) F.segment<3>(3 * me.nodes[a]) += N[a] * v;
  }
  F += mesh_body_->PressureForce(t);  // zero without PRESSUREs; nodes are the current x_a
  VecX g = GeneralizedForce(F);
  g.segment<3>(3) += torque;
  return g + callbacks;
}

double FfrBody::KineticEnergy() const {
  const Vec3 v = linear_velocity(), W = angular_velocity();
  const Eigen::VectorBlock<const VecX> lam = elastic_velocities();
  return 0.5 * (mass_total_ * v.squaredNorm() + W.dot(J_ * W) +
                lam.dot(mass_body_diag_.cwiseProduct(lam)));
}

double FfrBody::InternalEnergy() const {
  const VecX psi = displacements();
  return 0.5 * psi.dot(K_ * psi);
}

void FfrBody::SetInitialVelocity(const Vec3& linear, const Vec3& angular) {
  u_.head<3>() = linear;
  u_.segment<3>(3) = rotation().transpose() * angular;
  elastic_velocities().setZero();
}

}  // namespace solfec::body
