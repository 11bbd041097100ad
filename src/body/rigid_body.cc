// Rigid and obstacle body kinematics, inertia, loads and energy.
#include "body/rigid_body.h"

#include <cmath>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include "base/errors.h"
#include "base/math.h"

namespace solfec::body {

namespace {

// A rigid body does not need element topology: each mesh element becomes a convex (with
// face adjacency kept in Convex::neighbors), appended after the shape's own convexes.
geometry::Shape MeshesToConvexes(geometry::Shape shape) {
  if (shape.empty())
    throw InputError("BODY: shape is empty (argument 'shape'); pass a CONVEX, MESH or SPHERE");
  std::vector<geometry::Mesh> meshes = std::move(shape.meshes);
  shape.meshes.clear();
  for (const geometry::Mesh& m : meshes) {
    geometry::Shape piece;
    piece.convexes = m.ToConvexes();
    shape.Append(std::move(piece));
  }
  return shape;
}

// Positive definiteness of a symmetric 3x3 tensor.

}  // namespace

RigidBody::RigidBody(BodyKind kind, geometry::Shape shape, material::BulkMaterial material,
                     std::string label)
    : Body(kind, MeshesToConvexes(std::move(shape)), std::move(material), std::move(label)) {
  if (kind != BodyKind::kRigid && kind != BodyKind::kObstacle)
    throw InputError(std::string("BODY: kind '") + KindName(kind) +
                     "' is not a rigid kind (argument 'kind'); use 'RIGID' or 'OBSTACLE'");
  // Inertia: m = density |V|, X0 = centroid, J = density (tr(E) I - E) about X0.
  InitInertiaFromShape();
  if (!IsPositiveDefinite(tensor_))
    throw InputError("BODY: shape has a degenerate inertia tensor (argument 'shape'); pass a "
                     "shape with non-zero extent in every direction");
  inverse_tensor_ = tensor_.inverse();

  // Identity rotation at the referential centre, at rest (tables 4.4/4.5).
  q_ = VecX::Zero(kConfSize);
  set_rotation(Mat3::Identity());
  set_position(center_);
  u_ = VecX::Zero(kNumDofs);
  u_free_ = VecX::Zero(kNumDofs);
  impulse_ = VecX::Zero(kNumDofs);
}

void RigidBody::UpdateShape() {
  const Mat3 L = rotation();
  const Vec3 t = position() - L * center_;  // x(X) = L X + t
  MapShapeAffine(L, t);
}

Vec3 RigidBody::SpatialPoint(const Vec3& X) const {
  return position() + rotation() * (X - center_);
}

Vec3 RigidBody::ReferentialPoint(const Vec3& x) const {
  return center_ + rotation().transpose() * (x - position());
}

Vec3 RigidBody::PointVelocity(const Vec3& X) const {
  return linear_velocity() + rotation() * angular_velocity().cross(X - center_);
}

void RigidBody::ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const {
  // U = base^T (v + Lambda (Omega x A)) = base^T [-Lambda [A]x, I] u, A = X - X0.
  H.dofs = {0, 1, 2, 3, 4, 5};
  H.values.resize(3, kNumDofs);
  const Mat3 LA = rotation() * Skew(X - center_);
  H.values.leftCols<3>() = -base.transpose() * LA;
  H.values.rightCols<3>() = base.transpose();
}

void RigidBody::ApplyInverseInertia(Eigen::Ref<MatX> G) const {
  if (is_obstacle() && !guided_) {
    G.setZero();  // infinite inertia
    return;
  }
  G.topRows<3>() = inverse_tensor_ * G.topRows<3>();
  G.bottomRows<3>() /= mass_;
}

void RigidBody::SetCharacteristics(double mass, double volume, const Vec3& center,
                                   const Mat3& tensor) {
  if (!IsPositiveDefinite(0.5 * (tensor + tensor.transpose())))
    throw InputError("BODY_CHARS: tensor is not positive definite (argument 'tensor'); pass the "
                     "referential inertia tensor about the mass centre");
  const Vec3 old_center = center_;
  Body::SetCharacteristics(mass, volume, center, tensor);
  inverse_tensor_ = rotation_disabled_ ? Mat3::Zero() : Mat3(tensor_.inverse());
  // The body keeps its placement: the new centre is the material point X0' whose current
  // position is x + Lambda (X0' - X0) and whose velocity is v + Lambda (Omega x (X0' - X0)).
  const Vec3 d = center_ - old_center;
  const Mat3 L = rotation();
  set_position(position() + L * d);
  set_linear_velocity(linear_velocity() + L * angular_velocity().cross(d));
}

VecX RigidBody::ExternalForce(double t, double h, const Vec3& gravity) const {
  VecX f = VecX::Zero(kNumDofs);
  if (is_obstacle()) return f;
  const Mat3 L = rotation();
  Vec3 force = mass_ * gravity, spatial_torque = Vec3::Zero(), ref_torque = Vec3::Zero();
  for (const PointLoad& load : loads_) {
    if (load.callback) {
      // User generalized force: (spatial force, spatial torque, referential torque).
      const VecX r = load.callback(q_, u_, t, h);
      if (r.size() != 9 || !r.allFinite())
        throw InputError("FORCE: callback returned " + std::to_string(r.size()) +
                         " values (argument 'value'); a rigid body callback must return 9 "
                         "finite numbers (spatial force, spatial torque, referential torque)");
      force += r.segment<3>(0);
      spatial_torque += r.segment<3>(3);
      ref_torque += r.segment<3>(6);
      continue;
    }
    const double value = load.value(t);
    if (load.type == PointLoad::Type::kTorque) {
      // Convected torques are referential already; spatial ones are pulled back below.
      if (load.convected)
        ref_torque += value * load.direction;
      else
        spatial_torque += value * load.direction;
    } else {
      const Vec3 d = load.convected ? Vec3(L * load.direction) : load.direction;
      const Vec3 f_spatial = value * d;
      force += f_spatial;
      spatial_torque += (L * (load.point - center_)).cross(f_spatial);  // (x(X) - x) x f
    }
  }
  f.head<3>() = ref_torque + L.transpose() * spatial_torque;
  f.tail<3>() = force;
  return f;
}

double RigidBody::KineticEnergy() const {
  if (is_obstacle()) return 0.0;
  const Vec3 W = angular_velocity(), v = linear_velocity();
  return 0.5 * W.dot(tensor_ * W) + 0.5 * mass_ * v.squaredNorm();
}

void RigidBody::SetInitialVelocity(const Vec3& linear, const Vec3& angular) {
  set_linear_velocity(linear);
  set_angular_velocity(rotation_disabled_ ? Vec3::Zero() : Vec3(rotation().transpose() * angular));
}

void RigidBody::DisableRotation(bool disabled) {
  rotation_disabled_ = disabled;
  inverse_tensor_ = disabled ? Mat3::Zero() : Mat3(tensor_.inverse());
  if (disabled) set_angular_velocity(Vec3::Zero());
}

Vec3 RigidBody::SpinMomentum() const {
  return rotation() * (tensor_ * angular_velocity());
}

Vec3 RigidBody::AngularMomentum() const {
  return position().cross(LinearMomentum()) + SpinMomentum();
}

}  // namespace solfec::body
