// Reduced-order co-rotated finite-element body, forms 'BC-RO' and 'BC-MODAL' (co-rotated
// reduced-order report, section 5 and appendix B).
#pragma once

#include <optional>
#include <string>

#include "base/types.h"
#include "body/fem/corotation.h"
#include "body/fem/fe_body.h"
#include "body/fem/fe_form.h"

namespace solfec::body {

// Generalized state seen by the solver and the results file:
//   q = [Lambda (9 values, column-wise, as RIGID), q_bar (n)],   u = u_bar (n),
// with Lambda the gross rotation (appendix A), q_bar = P Lambda^T (x - Lambda Z) the reduced
// co-rotated deformation (eqs. 57 / 92) and u_bar the reduced velocity (eqs. 54 / 90-91).
// P = (E^T E)^-1 E^T for BC-RO (= E^T for an orthonormal POD base, eq. 40) and P = E^T M for
// BC-MODAL (eq. 85). The full node coordinates x (3N) and velocities v (3N) are kept inside
// the body for the geometry, energies and loads; a q/u written from outside (READ mode,
// restart, BODY.conf/velo) is detected by UpdateShape, which then rebuilds (eq. 58)
//   x = Lambda (Z + E q_bar),   v = Lambda E u_bar.
// The inertia operator is A_bar = M_bar + c K_bar (eq. 45; BC-MODAL: diag(1 + c lambda_i),
// eq. 87), M_bar = E^T M E, K_bar = E^T K0 E, stored as an explicit dense inverse (eq. 66).
class ReducedFeBody final : public FeBody {
 public:
  // Scratch of reduced_integrator.cc between BeginStep, FreeVelocity and EndStep.
  struct ReducedStep {
    Mat3 lambda1 = Mat3::Identity();  // Lambda_1 = Lambda_hat(q(t+h/2), Lambda(t)), eq. 38
    VecX u0;                          // full velocity u(t)
    VecX ubar0;                       // reduced velocity u_bar(t)
    VecX force;                       // full external force at t+h/2 (work)
  };

  // fe.form must be kBCRO or kBCModal with a validated base (FeOptions::Validate). Throws
  // InputError naming BODY (argument 'base') when the base is rank deficient, when a
  // BC-MODAL base is not M-orthonormal (|E^T M E - I| > 1e-6, M the lumped mass), or when
  // its eigenvalues are negative.
  ReducedFeBody(geometry::Shape shape, material::BulkMaterial material, std::string label,
                std::optional<geometry::Mesh> mesh, const FeOptions& fe);

  // n; 3N while FullView is alive (FeBody sizes its full-space vectors by num_dofs()).
  int num_dofs() const override {
    return full_view_ ? static_cast<int>(Z_.size()) : static_cast<int>(E_.cols());
  }
  void Accept(BodyVisitor& v) override { v.Visit(*this); }
  const ReducedFeBody* AsReducedFeBody() const override { return this; }
  int num_modes() const { return static_cast<int>(E_.cols()); }
  bool modal() const { return form() == FeForm::kBCModal; }
  const MatX& base() const { return E_; }                // E (3N x n)
  const VecX& eigenvalues() const { return evals_; }     // as given (BC-MODAL: lambda_i)
  // BC-MODAL: the leading modes with lambda_i <= 1e-8 max lambda (at most 6), the rigid
  // modes of eq. 91 (0 for BC-RO).
  int num_rigid_modes() const { return num_rigid_; }
  const VecX& reference() const { return Z_; }           // Z, referential node coordinates
  const VecX& coordinates() const { return x_; }         // full x (3N)
  VecX& mutable_coordinates() { return x_; }
  const VecX& velocities() const { return v_; }          // full v (3N)
  VecX& mutable_velocities() { return v_; }
  const Mat3& rotation() const { return rotation_; }
  void set_rotation(const Mat3& L) { rotation_ = L; }
  const CorotationFit& corotation_fit() const { return fit_; }
  const MatX& reduced_mass() const { return Mbar_; }       // M_bar (n x n)
  const MatX& reduced_stiffness() const { return Kbar_; }  // K_bar (n x n)
  ReducedStep& reduced_step() { return rstep_; }

  // P Lambda^T w (3N -> n) and Lambda E r (n -> 3N).
  VecX Project(const Mat3& L, const VecX& w) const;
  VecX Expand(const Mat3& L, const VecX& r) const;
  // Lambda_1-blocked E^T Lambda^T w (3N -> n): the force projection of eqs. 42 / 88.
  VecX ProjectForce(const Mat3& L, const VecX& w) const;
  // d = x - Lambda Z (eqs. 8, 39).
  VecX Deformation(const Mat3& L) const;
  // Writes q = [Lambda, P Lambda^T (x - Lambda Z)] and u = u_bar from the internal state.
  void StoreReducedState(const VecX& ubar);
  // x = Lambda (Z + E q_bar), v = Lambda E u_bar from q and u (eq. 58).
  void RebuildFullState();

  // A_bar^-1 = (M_bar + c K_bar)^-1 as an explicit dense inverse, recomputed when c changes.
  void SetReducedOperator(double c);
  const MatX& inverse_operator() const { return Ainv_; }

  // --- Body interface on the reduced state
  void UpdateShape() override;
  Vec3 PointVelocity(const Vec3& X) const override;
  // H_bar = H Lambda_1 E (3 x n, dense, eq. 46) with Lambda_1 = rotation().
  void ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const override;
  // G := A_bar^-1 G (n rows); before any SetReducedOperator, A_bar = M_bar.
  void ApplyInverseInertia(Eigen::Ref<MatX> G) const override;
  const VecX* DiagonalInertia() const override { return nullptr; }  // A_bar is dense
  // Full external force (3N): gravity, pressures and point loads (no callbacks).
  // Full-space mechanics of FeBody (InternalForce, Stiffness, PressureForce) evaluated at x.
  VecX FullInternalForce() const;
  SparseMat FullStiffness() const;
  VecX FullExternalForce(double t, const Vec3& gravity) const;
  // Sum of the FORCE callbacks (reduced q, u in; n values out).
  VecX CallbackForce(double t, double h) const;
  // Reduced generalized force E^T Lambda^T f_full plus FORCE callbacks (which receive the
  // reduced q, u and return n values).
  VecX ExternalForce(double t, double h, const Vec3& gravity) const override;
  double KineticEnergy() const override;     // v^T M v / 2 with the full v
  double InternalEnergy() const override;    // q_bar^T K_bar q_bar / 2 (linear, co-rotated)
  void SetInitialVelocity(const Vec3& linear, const Vec3& angular) override;
  void SetCharacteristics(double mass, double volume, const Vec3& center,
                          const Mat3& tensor) override;

 private:
  // num_dofs() = 3N within the scope (calls of FeBody's full-space mechanics).
  struct FullView {
    explicit FullView(const ReducedFeBody& b) : b_(b) { b_.full_view_ = true; }
    ~FullView() { b_.full_view_ = false; }
    const ReducedFeBody& b_;
  };
  void BuildReducedMatrices();

  MatX E_, P_;  // base and projection (n x 3N)
  VecX evals_;
  VecX Z_, x_, v_;
  Mat3 rotation_ = Mat3::Identity();
  CorotationFit fit_;
  MatX Mbar_, Kbar_, Ainv_;
  double operator_c_ = -1.0;
  VecX synced_q_, synced_u_;  // q, u as last written by StoreReducedState
  ReducedStep rstep_;
  mutable bool full_view_ = false;
  int num_rigid_ = 0;
};

}  // namespace solfec::body
