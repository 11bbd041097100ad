// Pseudo-rigid body kinematics, inertia, Saint Venant-Kirchhoff response, loads and energy.
#include "body/pseudo_rigid_body.h"

#include <cmath>
#include <utility>

#include <Eigen/LU>
#include <Eigen/SVD>

#include "base/errors.h"
#include "base/math.h"

namespace solfec::body {

namespace {

// Convexes and spheres stay; meshes become convexes (one per element).
geometry::Shape PseudoRigidShape(geometry::Shape shape, const std::string& /*label*/) {
  if (shape.empty())
    throw InputError("BODY: shape is empty (argument 'shape'); pass a CONVEX, MESH or SPHERE");
  // Spheres (Solfec-1.0): their centres follow F, their radii stay (MapShapeAffine);
  // ellipsoids deform with F (an ellipsoid under F).
  std::vector<geometry::Mesh> meshes = std::move(shape.meshes);
  shape.meshes.clear();
  for (const geometry::Mesh& m : meshes) {
    geometry::Shape piece;
    piece.convexes = m.ToConvexes();
    shape.Append(std::move(piece));
  }
  return shape;
}



}  // namespace

PseudoRigidBody::PseudoRigidBody(geometry::Shape shape, material::BulkMaterial material,
                                 std::string label)
    : Body(BodyKind::kPseudoRigid, PseudoRigidShape(std::move(shape), label),
           std::move(material), std::move(label)) {
  const geometry::MassProperties mp = InitInertiaFromShape();
  euler_ = material_.density * mp.euler;
  if (!IsPositiveDefinite(euler_))
    throw InputError("BODY: shape has a degenerate Euler tensor (argument 'shape'); pass a "
                     "shape with non-zero extent in every direction");
  euler_inv_ = euler_.inverse();
  q_ = VecX::Zero(kConfSize);
  set_deformation(Mat3::Identity());
  set_position(center_);
  u_ = VecX::Zero(kNumDofs);
  u_free_ = VecX::Zero(kNumDofs);
  impulse_ = VecX::Zero(kNumDofs);
}

void PseudoRigidBody::UpdateShape() {
  const Mat3 F = deformation();
  const Vec3 t = position() - F * center_;  // x(X) = F X + t
  MapShapeAffine(F, t);
}

Vec3 PseudoRigidBody::SpatialPoint(const Vec3& X) const {
  return position() + deformation() * (X - center_);
}

Vec3 PseudoRigidBody::ReferentialPoint(const Vec3& x) const {
  return center_ + deformation().partialPivLu().solve(Vec3(x - position()));
}

Vec3 PseudoRigidBody::PointVelocity(const Vec3& X) const {
  return linear_velocity() + deformation_rate() * (X - center_);
}

void PseudoRigidBody::ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const {
  // U = base^T (Fdot A + v) = base^T [A_0 I, A_1 I, A_2 I, I] u, A = X - X0.
  H.dofs.resize(kNumDofs);
  for (int k = 0; k < kNumDofs; ++k) H.dofs[k] = k;
  H.values.resize(3, kNumDofs);
  const Vec3 A = X - center_;
  const Mat3 BT = base.transpose();
  for (int i = 0; i < 3; ++i) H.values.block<3, 3>(0, 3 * i) = A[i] * BT;
  H.values.block<3, 3>(0, 9) = BT;
}

void PseudoRigidBody::ApplyInverseInertia(Eigen::Ref<MatX> G) const {
  if (use_operator_) {
    const MatX top = G.topRows<9>();
    G.topRows<9>() = operator_.solve(top);
  } else {
    // (rho E kron I3)^-1 vec(Y) = vec(Y (rho E)^-1) for each column.
    for (Eigen::Index c = 0; c < G.cols(); ++c) {
      Mat3 Y;
      for (int i = 0; i < 9; ++i) Y(i % 3, i / 3) = G(i, c);
      const Mat3 Z = Y * euler_inv_;
      for (int i = 0; i < 9; ++i) G(i, c) = Z(i % 3, i / 3);
    }
  }
  G.bottomRows<3>() /= mass_;
}

void PseudoRigidBody::SetInertiaOperator(const Mat9& A_FF) {
  operator_.compute(A_FF);
  if (operator_.info() != Eigen::Success || !operator_.isPositive() ||
      (operator_.vectorD().array() <= 0.0).any())
    throw SolverError("RUN: the inertia operator of PSEUDO_RIGID body " + std::to_string(id_) +
                      (label_.empty() ? "" : " ('" + label_ + "')") +
                      " is not positive definite; reduce the time step or the damping");
  use_operator_ = true;
}

Mat9 PseudoRigidBody::MassFF() const {
  Mat9 M = Mat9::Zero();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) M.block<3, 3>(3 * i, 3 * j) = euler_(i, j) * Mat3::Identity();
  return M;
}

void PseudoRigidBody::SetCharacteristics(double mass, double volume, const Vec3& center,
                                         const Mat3& tensor) {
  const Mat3 J = 0.5 * (tensor + tensor.transpose());
  const Mat3 rhoE = 0.5 * J.trace() * Mat3::Identity() - J;
  if (!IsPositiveDefinite(J) || !IsPositiveDefinite(rhoE))
    throw InputError("BODY_CHARS: tensor is not a positive definite inertia tensor of a solid "
                     "(argument 'tensor'); pass the referential inertia tensor about the mass "
                     "centre (each principal moment below the sum of the other two)");
  const Vec3 old_center = center_;
  Body::SetCharacteristics(mass, volume, center, tensor);
  euler_ = rhoE;
  euler_inv_ = euler_.inverse();
  const Vec3 d = center_ - old_center;  // keep the placement of the material
  set_position(position() + deformation() * d);
  set_linear_velocity(linear_velocity() + deformation_rate() * d);
}

Vec9 PseudoRigidBody::InternalForce() const {
  const Mat3 F = deformation();
  const double lambda = material_.lame_lambda(), mu = material_.lame_mu();
  const Mat3 Eg = 0.5 * (F.transpose() * F - Mat3::Identity());
  const Mat3 S = lambda * Eg.trace() * Mat3::Identity() + 2.0 * mu * Eg;
  const Mat3 P = -volume_ * (F * S);
  return Eigen::Map<const Vec9>(P.data());
}

Mat9 PseudoRigidBody::Stiffness() const {
  const Mat3 F = deformation();
  const double lambda = material_.lame_lambda(), mu = material_.lame_mu();
  const Mat3 Eg = 0.5 * (F.transpose() * F - Mat3::Identity());
  const Mat3 S = lambda * Eg.trace() * Mat3::Identity() + 2.0 * mu * Eg;
  Mat9 K;
  for (int j = 0; j < 9; ++j) {
    Mat3 dF = Mat3::Zero();
    dF(j % 3, j / 3) = 1.0;
    const Mat3 FtdF = F.transpose() * dF;
    const Mat3 dE = 0.5 * (FtdF + FtdF.transpose());
    const Mat3 dS = lambda * dE.trace() * Mat3::Identity() + 2.0 * mu * dE;
    const Mat3 dP = volume_ * (dF * S + F * dS);
    K.col(j) = Eigen::Map<const Vec9>(dP.data());
  }
  return K;
}

VecX PseudoRigidBody::ExternalForce(double t, double h, const Vec3& gravity) const {
  VecX f = VecX::Zero(kNumDofs);
  f.tail<3>() = mass_ * gravity;
  Mat3 G = Mat3::Zero();  // generalized force on F (power conjugate to Fdot)
  const Mat3 F = deformation();
  for (const PointLoad& load : loads_) {
    if (load.callback) {
      const VecX r = load.callback(q_, u_, t, h);
      if (r.size() != kNumDofs || !r.allFinite())
        throw InputError("FORCE: callback returned " + std::to_string(r.size()) +
                         " values (argument 'value'); a PSEUDO_RIGID body callback must "
                         "return 12 finite numbers (the generalized force conjugate to velo)");
      f += r;
      continue;
    }
    const double value = load.value(t);
    const Vec3 d = load.convected ? Vec3(PolarRotation(F) * load.direction) : load.direction;
    if (load.type == PointLoad::Type::kTorque) {
      // G : ([w]x F) = T . w for all w  <=  G = 1/2 [T]x F^-T.
      G += 0.5 * Skew(value * d) * F.inverse().transpose();
    } else {
      const Vec3 fs = value * d;
      f.tail<3>() += fs;
      G += fs * (load.point - center_).transpose();
    }
  }
  f.head<9>() += Eigen::Map<const Vec9>(G.data());
  return f;
}

double PseudoRigidBody::KineticEnergy() const {
  const Mat3 D = deformation_rate();
  return 0.5 * (D * euler_ * D.transpose()).trace() + 0.5 * mass_ * linear_velocity().squaredNorm();
}

double PseudoRigidBody::InternalEnergy() const {
  const Mat3 F = deformation();
  const double lambda = material_.lame_lambda(), mu = material_.lame_mu();
  const Mat3 Eg = 0.5 * (F.transpose() * F - Mat3::Identity());
  const double tr = Eg.trace();
  return volume_ * (0.5 * lambda * tr * tr + mu * Eg.squaredNorm());
}

void PseudoRigidBody::SetInitialVelocity(const Vec3& linear, const Vec3& angular) {
  set_linear_velocity(linear);
  set_deformation_rate(Skew(angular) * deformation());
}

}  // namespace solfec::body
