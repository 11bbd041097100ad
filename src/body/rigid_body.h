// Rigid and obstacle body: rotation Lambda and mass centre x, referential angular velocity
// Omega and spatial centre velocity v (manual 4.1.7, tables 4.4/4.5).
#pragma once

#include <string>

#include "base/types.h"
#include "body/body.h"
#include "geometry/shape.h"
#include "material/bulk_material.h"

namespace solfec::body {

using Vec6 = Eigen::Matrix<double, 6, 1>;

// Motion x(X) = x + Lambda (X - X0), X0 = referential mass centre (center()).
// q = [Lambda column-wise (9), x (3)], u = [Omega (3, referential), v (3, spatial)].
// Generalized forces (size 6) are [referential torque (3); spatial force (3)], power
// conjugate to u. The inertia operator is A = diag(J, m I), J = referential inertia tensor
// about the mass centre. An OBSTACLE shares the storage and the kinematics but has infinite
// inertia: A^-1 = 0, no loads, zero kinetic energy.
class RigidBody final : public Body {
 public:
  static constexpr int kConfSize = 12;
  static constexpr int kNumDofs = 6;

  // Scratch kept by the integrator between BeginStep, FreeVelocity and EndStep.
  struct StepState {
    Vec6 u0 = Vec6::Zero();         // u(t)
    Vec6 force = Vec6::Zero();      // f(t+h/2) = [referential torque; spatial force]
    Vec3 momentum = Vec3::Zero();   // RIG_NEG: exp[-h/2 Omega(t)] J Omega(t) + h T(t+h/2)
  };

  // kind is kRigid or kObstacle; meshes in `shape` are converted to convexes (one per
  // element). Throws InputError for an empty shape or a zero volume.
  RigidBody(BodyKind kind, geometry::Shape shape, material::BulkMaterial material,
            std::string label);

  int num_dofs() const override { return kNumDofs; }
  void Accept(BodyVisitor& v) override { v.Visit(*this); }
  bool is_obstacle() const { return kind_ == BodyKind::kObstacle; }
  // An OBSTACLE guided by its own constraints in this step (SET_VELOCITY, SET_DISPLACEMENT,
  // SET_ACCELERATION, FIX_POINT, FIX_DIRECTION; Solfec-1.0 integrates obstacles as rigid
  // bodies that contacts and loads do not push): ApplyInverseInertia uses its rigid inertia
  // (for those constraints' rows, Domain::GuideObstacles) and EndStep takes u_free, the
  // velocity they gave it.
  bool guided() const { return guided_; }
  void set_guided(bool g) { guided_ = g; }

  // --- state views
  Mat3 rotation() const { return Eigen::Map<const Mat3>(q_.data()); }
  Vec3 position() const { return q_.segment<3>(9); }  // current mass centre x
  Vec3 angular_velocity() const { return u_.head<3>(); }  // Omega (referential)
  Vec3 linear_velocity() const { return u_.tail<3>(); }   // v (spatial)
  void set_rotation(const Mat3& L) { Eigen::Map<Mat3>(q_.data()) = L; }
  void set_position(const Vec3& x) { q_.segment<3>(9) = x; }
  void set_angular_velocity(const Vec3& W) { u_.head<3>() = W; }
  void set_linear_velocity(const Vec3& v) { u_.tail<3>() = v; }
  const Mat3& inverse_tensor() const { return inverse_tensor_; }  // J^-1 (0: no rotation)
  // Solfec-1.0's disable_rotation: infinite rotational inertia (J^-1 = 0), so the body keeps
  // its rotation and only translates; Omega is set to 0 (also by SetInitialVelocity).
  void DisableRotation(bool disabled);
 private:
  bool guided_ = false;

 public:
  bool rotation_disabled() const { return rotation_disabled_; }
  StepState& step_state() { return step_; }

  // --- geometry
  void UpdateShape() override;
  Vec3 SpatialPoint(const Vec3& X) const override;
  Vec3 ReferentialPoint(const Vec3& x) const override;
  Vec3 PointVelocity(const Vec3& X) const override;
  void ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const override;
  void ApplyInverseInertia(Eigen::Ref<MatX> G) const override;

  // --- inertia: keeps the current placement of the body (x moves with the new centre)
  void SetCharacteristics(double mass, double volume, const Vec3& center,
                          const Mat3& tensor) override;

  // --- loads and energy
  VecX ExternalForce(double t, double h, const Vec3& gravity) const override;
  double KineticEnergy() const override;
  // `angular` is the SPATIAL angular velocity: Omega = Lambda^T angular.
  void SetInitialVelocity(const Vec3& linear, const Vec3& angular) override;

  // --- momenta (spatial)
  Vec3 LinearMomentum() const { return mass_ * linear_velocity(); }
  // Lambda J Omega: angular momentum about the mass centre (spin part).
  Vec3 SpinMomentum() const;
  // x cross m v + Lambda J Omega: total angular momentum about the spatial origin.
  Vec3 AngularMomentum() const;

 private:
  Mat3 inverse_tensor_ = Mat3::Zero();
  bool rotation_disabled_ = false;
  StepState step_;
};

}  // namespace solfec::body
