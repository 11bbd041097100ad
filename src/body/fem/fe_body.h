// Finite-element body in total Lagrangian form on a single volume mesh of TET4/PYR5/WED6/HEX8
// elements with a Saint Venant-Kirchhoff material (manual 4.1.7, 7.2.1, tables 4.4/4.5).
#pragma once

#include <string>
#include <vector>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include "base/types.h"
#include "body/body.h"
#include "geometry/aabb.h"
#include "geometry/mesh.h"
#include "geometry/shape.h"
#include "material/bulk_material.h"

namespace solfec::body {

using SparseMat = Eigen::SparseMatrix<double>;

// q = current node coordinates [x_0, y_0, z_0, x_1, ...] (3N), u = node velocities (3N).
// x(X) = sum_a N_a(xi(X)) x_a on the element containing the referential point X.
// Mass: lumped (row sums of the consistent mass, M_a = int rho N_a dV), diagonal.
// Internal force f_int = -sum_e int B^T P dV with P = F S, S = lambda tr(E) I + 2 mu E,
// E = (F^T F - I)/2, F = sum_a x_a (dN_a/dX)^T; tangent K = -d f_int / dq (material plus
// geometric part, symmetric). The current shape is one convex per element (vertices = the
// element's current nodes, neighbours = elements sharing a face).
class FeBody : public Body {
 public:
  // Scratch kept by the integrator between BeginStep, FreeVelocity and EndStep.
  struct StepState {
    VecX u0;        // u(t)
    VecX external;  // external generalized force at t+h/2 (for the work)
  };

  // `shape` must hold exactly one MESH (no convexes or spheres); throws InputError naming
  // BODY otherwise, for an invalid mesh, a non-positive Jacobian at a Gauss point or a node
  // that belongs to no element.
  FeBody(geometry::Shape shape, material::BulkMaterial material, std::string label);

  int num_dofs() const override { return static_cast<int>(q_.size()); }
  int num_nodes() const { return static_cast<int>(mesh_.nodes.size()); }
  const geometry::Mesh& mesh() const { return mesh_; }  // referential mesh
  Vec3 node(int i) const { return q_.segment<3>(3 * i); }
  const VecX& lumped_mass() const { return mass_diag_; }  // per dof, size 3N
  StepState& step_state() { return step_; }

  // --- geometry
  void UpdateShape() override;
  Vec3 SpatialPoint(const Vec3& X) const override;
  Vec3 ReferentialPoint(const Vec3& x) const override;
  Vec3 PointVelocity(const Vec3& X) const override;
  void ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const override;
  // G := A^-1 G with A = lumped M, or the operator set by SetInertiaOperator (DEF_LIM).
  void ApplyInverseInertia(Eigen::Ref<MatX> G) const override;
  // Factorizes A (symmetric positive definite, 3N x 3N) with a sparse LDL^T; throws
  // SolverError when A is not positive definite.
  void SetInertiaOperator(const SparseMat& A);
  void ResetInertiaOperator() { use_operator_ = false; }
  SparseMat MassMatrix() const;  // diagonal lumped mass as a sparse matrix

  // Element containing referential point X (or the nearest one when X lies outside the
  // mesh) and its natural coordinates.
  void LocateReferential(const Vec3& X, int& element, Vec3& xi) const;
  // Deformation gradient at referential point X.
  Mat3 DeformationGradient(const Vec3& X) const;

  // --- constitutive response at the current q
  VecX InternalForce() const;   // f_int, size 3N
  SparseMat Stiffness() const;  // K = -d f_int / dq
  // Upper bound of the largest squared eigenfrequency, max over elements of the largest
  // eigenvalue of M_e^-1 K_e (element lumped mass, element tangent at the current q).
  double MaxFrequencySquared() const;

  // --- inertia: BODY_CHARS rescales the lumped masses to the given total mass
  void SetCharacteristics(double mass, double volume, const Vec3& center,
                          const Mat3& tensor) override;

  // --- loads and energy
  VecX ExternalForce(double t, double h, const Vec3& gravity) const override;
  double KineticEnergy() const override;
  double InternalEnergy() const override;
  // v_a = linear + angular x (x_a - c), c = current mass centre.
  void SetInitialVelocity(const Vec3& linear, const Vec3& angular) override;

 private:
  struct GaussData {
    VecX N;       // shape functions
    MatX3 dNdX;   // referential gradients (num_nodes x 3)
    double dV;    // weight * det J0
  };
  struct ElementData {
    int num_nodes = 0;
    std::vector<int> nodes;
    std::vector<GaussData> gauss;
    geometry::Aabb ref_box;
  };

  Mat3X ElementNodes(int e, bool current) const;
  // Element force (3k), tangent (3k x 3k) and strain energy; any output may be null.
  void ElementResponse(int e, VecX* f, MatX* K, double* W) const;
  // Best element for point p in the referential (current = false) or current configuration.
  void Locate(const Vec3& p, bool current, int& element, Vec3& xi) const;
  void Interpolate(const Vec3& X, int& element, VecX& N) const;

  geometry::Mesh mesh_;
  std::vector<ElementData> elements_;
  VecX mass_diag_;
  double mass_scale_ = 1.0;  // 1 / (BODY_CHARS mass ratio), for MaxFrequencySquared
  bool use_operator_ = false;
  Eigen::SimplicialLDLT<SparseMat> operator_;
  StepState step_;
};

}  // namespace solfec::body
