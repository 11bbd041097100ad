// Pseudo-rigid body: homogeneous deformation x(X) = F (X - X0) + x with a Saint
// Venant-Kirchhoff material (manual 4.1.7, tables 4.4/4.5, 7.2.1).
#pragma once

#include <string>

#include <Eigen/Cholesky>

#include "base/types.h"
#include "body/body.h"
#include "geometry/shape.h"
#include "material/bulk_material.h"

namespace solfec::body {

using Mat9 = Eigen::Matrix<double, 9, 9>;
using Vec9 = Eigen::Matrix<double, 9, 1>;
using Vec12 = Eigen::Matrix<double, 12, 1>;

// q = [F column-wise (9), x (3)], u = [dF/dt column-wise (9), v (3)], X0 = referential mass
// centre (center()). With A = X - X0 the point velocity is v(X) = Fdot A + v. Generalized
// forces (size 12) are power conjugate to u: a spatial force f at X contributes f A^T on the
// F dofs and f on the v dofs. Inertia: M = blockdiag(rho E kron I3, m I3), E = int A A^T dV
// (Euler tensor), i.e. M^-1 acts on the F part as Fdot -> Fdot (rho E)^-1. Elasticity:
// W = V psi(F), psi = lambda/2 tr(Eg)^2 + mu Eg:Eg, Eg = (F^T F - I)/2; internal
// generalized force -V P(F), P = F S, S = lambda tr(Eg) I + 2 mu Eg; K = d(V P)/dF (9x9).
// Only convexes and meshes (converted to convexes) are accepted: a sphere would not stay a
// sphere under a general F.
class PseudoRigidBody final : public Body {
 public:
  static constexpr int kConfSize = 12;
  static constexpr int kNumDofs = 12;

  // Scratch kept by the integrator between BeginStep, FreeVelocity and EndStep.
  struct StepState {
    Vec12 u0 = Vec12::Zero();        // u(t)
    Vec12 external = Vec12::Zero();  // external generalized force at t+h/2 (for the work)
  };

  PseudoRigidBody(geometry::Shape shape, material::BulkMaterial material, std::string label);

  int num_dofs() const override { return kNumDofs; }
  void Accept(BodyVisitor& v) override { v.Visit(*this); }

  // --- state views
  Mat3 deformation() const { return Eigen::Map<const Mat3>(q_.data()); }  // F
  Vec3 position() const { return q_.segment<3>(9); }                         // x
  Mat3 deformation_rate() const { return Eigen::Map<const Mat3>(u_.data()); }  // dF/dt
  Vec3 linear_velocity() const { return u_.segment<3>(9); }                     // v
  void set_deformation(const Mat3& F) { Eigen::Map<Mat3>(q_.data()) = F; }
  void set_position(const Vec3& x) { q_.segment<3>(9) = x; }
  void set_deformation_rate(const Mat3& D) { Eigen::Map<Mat3>(u_.data()) = D; }
  void set_linear_velocity(const Vec3& v) { u_.segment<3>(9) = v; }
  const Mat3& euler_inertia() const { return euler_; }  // rho E
  StepState& step_state() { return step_; }

  // --- geometry
  void UpdateShape() override;
  Vec3 SpatialPoint(const Vec3& X) const override;
  Vec3 ReferentialPoint(const Vec3& x) const override;
  Vec3 PointVelocity(const Vec3& X) const override;
  void ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const override;
  // G := A^-1 G with A = M, or the operator set by SetInertiaOperator (DEF_LIM).
  void ApplyInverseInertia(Eigen::Ref<MatX> G) const override;
  // A = blockdiag(A_FF, m I3): the scheme's inertia operator for this step (A_FF is the
  // 9x9 deformation block, symmetric positive definite). Throws SolverError otherwise.
  void SetInertiaOperator(const Mat9& A_FF);
  void ResetInertiaOperator() { use_operator_ = false; }

  // --- inertia: BODY_CHARS tensor J gives rho E = tr(J)/2 I - J; keeps the placement
  void SetCharacteristics(double mass, double volume, const Vec3& center,
                          const Mat3& tensor) override;
  Mat9 MassFF() const;  // rho E kron I3

  // --- constitutive response at the current F
  Vec9 InternalForce() const;  // -V P(F), column-wise
  Mat9 Stiffness() const;      // K = d(V P)/dF at the current F (column-wise)

  // --- loads and energy
  VecX ExternalForce(double t, double h, const Vec3& gravity) const override;
  double KineticEnergy() const override;
  double InternalEnergy() const override;
  // v = linear, Fdot = [angular]x F (spatial angular velocity of a rigid motion field).
  void SetInitialVelocity(const Vec3& linear, const Vec3& angular) override;

 private:
  Mat3 euler_ = Mat3::Zero();      // rho E about X0
  Mat3 euler_inv_ = Mat3::Zero();  // (rho E)^-1
  bool use_operator_ = false;
  Eigen::LDLT<Mat9> operator_;
  StepState step_;
};

}  // namespace solfec::body
