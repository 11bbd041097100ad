// Finite-element body in the floating frame of reference form (BODY form 'FFR'): a rigid
// mean-axis frame carrying small linear-elastic deformations (Lozovskiy & Dubois 2016).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <Eigen/SparseCore>

#include "base/types.h"
#include "body/body.h"
#include "body/fem/fe_body.h"
#include "body/fem/sparse_spd_solver.h"
#include "geometry/mesh.h"
#include "geometry/shape.h"
#include "material/bulk_material.h"

namespace solfec::body {

// Generalized state (N mesh nodes; the frame's origin is the lumped-mass centre c of the
// referential mesh, Xbar = X - c):
//   q = [ x_C (3) | O (9, column-major) | psi (3N) ]            size 12 + 3N
//   u = [ v_C (3) | Omega (3)           | lambda (3N) ]          size  6 + 3N
// x_C, v_C: spatial position and velocity of the mass centre; O: rotation of the floating
// frame (spatial = O referential); Omega: angular velocity in the frame (referential, the
// spatial one is O Omega); psi, lambda: nodal displacements and velocities in the frame.
// Current node positions x_a = x_C + O (Xbar_a + psi_a).
// Mean-axis (Tisserand) conditions, exact in the discrete lumped-mass sense:
//   sum_a m_a lambda_a = 0,  sum_a m_a Xbar_a x lambda_a = 0   (and the same for psi).
// They are enforced by the M-orthogonal projector P = I - G (G^T M G)^-1 G^T M onto the
// complement of the 6 rigid modes G_a = [I, -[Xbar_a]x]: every elastic force enters through
// P^T (removes its resultant and moment about c), and A_e^-1 P^T f already lies in range(P)
// because K G = 0 (linear stiffness at the referential configuration).
// Velocity of a material point X (eq. 21-22 of the paper, with the term Omega x psi dropped):
//   v(X) = v_C + O (Omega x Xbar) + O sum_a N_a(X) lambda_a
// so ComputeH gives H = base^T [ I | -O [Xbar]x | N_a O ]. The generalized force conjugate
// to u of nodal spatial forces F_a is [ sum F_a | sum Xbar_a x O^T F_a | O^T F_a ], which
// equals H^T r for a point force r.
// Inertia operator (constant; block diagonal), used by ApplyInverseInertia:
//   A^-1 = diag( I/m, J^-1, P A_e^-1 P^T ),   A_e = M + c K,
// with M the lumped mass (diagonal), J = sum m_a ([Xbar_a]x)^T [Xbar_a]x the lumped inertia
// tensor in the frame, K the linear stiffness and c set by SetElasticOperator (dynamic:
// eta h/2 + h^2/4; quasi-static: h^2). P A_e^-1 P^T is symmetric positive semidefinite, so
// W = H A^-1 H^T is too.
// Geometry (mesh, point location, element/embedded current shape, self-contact exclusions)
// is delegated to an internal FeBody whose node coordinates are kept equal to x_a.
class FfrBody final : public Body {
 public:
  static constexpr int kFrameQ = 12;  // x_C, O
  static constexpr int kFrameU = 6;   // v_C, Omega

  // Scratch kept by the integrator between BeginStep, FreeVelocity and EndStep.
  struct StepState {
    VecX u0;        // u(t)
    VecX external;  // generalized external force (work accounting)
  };

  // Arguments as FeBody (throws the same InputErrors).
  FfrBody(geometry::Shape shape, material::BulkMaterial material, std::string label,
          std::optional<geometry::Mesh> mesh = std::nullopt);

  int num_dofs() const override { return kFrameU + 3 * num_nodes(); }
  void Accept(BodyVisitor& v) override { v.Visit(*this); }
  const FeBody* MeshBody() const override { return mesh_body_.get(); }
  int num_nodes() const { return mesh_body_->num_nodes(); }
  const FeBody& mesh_body() const { return *mesh_body_; }  // current nodes x_a
  StepState& step_state() { return step_; }

  // --- state views
  Vec3 position() const { return q_.head<3>(); }
  Mat3 rotation() const;
  void set_position(const Vec3& x) { q_.head<3>() = x; }
  void set_rotation(const Mat3& O);
  Vec3 linear_velocity() const { return u_.head<3>(); }
  Vec3 angular_velocity() const { return u_.segment<3>(3); }  // referential Omega
  Eigen::VectorBlock<VecX> displacements() { return q_.tail(3 * num_nodes()); }  // psi
  Eigen::VectorBlock<const VecX> displacements() const { return q_.tail(3 * num_nodes()); }
  Eigen::VectorBlock<VecX> elastic_velocities() { return u_.tail(3 * num_nodes()); }  // lambda
  Eigen::VectorBlock<const VecX> elastic_velocities() const {
    return u_.tail(3 * num_nodes());
  }

  // --- constant frame data
  const Vec3& frame_origin() const { return origin_; }   // c (referential)
  Vec3 local_node(int a) const { return xbar_.col(a); }  // Xbar_a
  double frame_mass() const { return mass_total_; }      // sum of lumped masses
  const Mat3& frame_inertia() const { return J_; }        // lumped J (in the frame)
  const Mat3& frame_inverse_inertia() const { return J_inv_; }
  const VecX& lumped_mass() const { return mass_body_diag_; }  // per dof, size 3N
  const SparseMat& stiffness() const { return K_; }            // linear K, 3N x 3N

  // --- mean-axis projection (f, v: 3N x k)
  void ProjectForce(Eigen::Ref<MatX> f) const;     // f := P^T f
  void ProjectVelocity(Eigen::Ref<MatX> v) const;  // v := P v
  // Mean-axis residuals: |sum m_a v_a| and |sum m_a Xbar_a x v_a| of a nodal field v (3N).
  Vec3 MomentumOf(const VecX& v) const;
  Vec3 AngularMomentumOf(const VecX& v) const;

  // Nodal centrifugal force in the frame, -m_a W x (W x Xbar_a) (paper eq. 18), size 3N.
  VecX CentrifugalForce(const Vec3& W) const;
  // Generalized force of nodal spatial forces F (3N): [sum F | sum Xbar x O^T F | O^T F].
  VecX GeneralizedForce(const VecX& F) const;

  // PRESSURE: follower pressure on the current boundary faces with `surfid` (always: the
  // frame turns the faces); its nodal forces enter through GeneralizedForce.
  void AddPressure(int surfid, ScalarOrSeries value);
  // APPLY_BULKMAT: the material of the elements of `volid` (as FeBody); the lumped masses,
  // the frame data and K are rebuilt, the current node positions kept.
  void ApplyBulkMaterial(int volid, const material::BulkMaterial& m);

  // A_e = M + c K, factorized (CHOLMOD) only when c changes; throws SolverError if not SPD.
  void SetElasticOperator(double c);
  double elastic_coefficient() const { return coefficient_; }

  // --- Body interface
  void UpdateShape() override;  // x_a from q; the internal FeBody's current shape
  Vec3 SpatialPoint(const Vec3& X) const override;
  Vec3 ReferentialPoint(const Vec3& x) const override;
  // Full velocity v_C + O (Omega x (Xbar + psi(X)) + lambda(X)).
  Vec3 PointVelocity(const Vec3& X) const override;
  void ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const override;
  void ApplyInverseInertia(Eigen::Ref<MatX> G) const override;
  // Rescales the lumped masses (as FeBody) and rebuilds the frame data and operator.
  void SetCharacteristics(double mass, double volume, const Vec3& center,
                          const Mat3& tensor) override;
  // Gravity m_a g, point FORCEs (CONVECTED: direction O d), TORQUEs on the frame (spatial
  // torque T enters as O^T T; CONVECTED: T is referential) and FORCE callbacks (returning
  // the generalized force, size num_dofs()).
  VecX ExternalForce(double t, double h, const Vec3& gravity) const override;
  // 1/2 m |v_C|^2 + 1/2 Omega . J Omega + 1/2 lambda . M lambda (mean-axis decomposition).
  double KineticEnergy() const override;
  double InternalEnergy() const override;  // 1/2 psi . K psi
  // v_C = linear, Omega = O^T angular, lambda = 0 (rigid motion about the mass centre).
  void SetInitialVelocity(const Vec3& linear, const Vec3& angular) override;
  bool SelfContactExcluded(int a, int b) const override {
    return mesh_body_->SelfContactExcluded(a, b);
  }
  Vec3 ReferentialPointOnPiece(const Vec3& x, int piece) const override {
    return mesh_body_->ReferentialPointOnPiece(x, piece);
  }

 private:
  explicit FfrBody(std::unique_ptr<FeBody> mesh_body);
  void InitFrameData();  // origin, Xbar, J, K; resets the operator
  // InitFrameData after the mesh body's masses or materials changed, keeping the current
  // node positions (the frame origin moves with the lumped-mass centre).
  void RebuildFrameData();
  // Element and shape functions of referential point X.
  void Interpolate(const Vec3& X, int& element, VecX& N) const;

  std::unique_ptr<FeBody> mesh_body_;
  Vec3 origin_ = Vec3::Zero();
  Mat3X xbar_;  // 3 x N
  Mat3 J_ = Mat3::Identity(), J_inv_ = Mat3::Identity();
  VecX mass_body_diag_;
  double mass_total_ = 0.0;  // sum of lumped nodal masses
  SparseMat K_;
  double coefficient_ = -1.0;
  SparseSpdSolver operator_;
  StepState step_;
};

}  // namespace solfec::body
