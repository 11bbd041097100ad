// Finite-element body in total Lagrangian form on a single volume mesh of TET4/PYR5/WED6/HEX8
// elements with a Saint Venant-Kirchhoff material (manual 4.1.7, 7.2.1, tables 4.4/4.5).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/SparseCore>

#include "base/time_series.h"
#include "base/types.h"
#include "body/body.h"
#include "body/fem/corotation.h"
#include "body/fem/sparse_spd_solver.h"
#include "body/fem/element_tree.h"
#include "body/fem/fe_form.h"
#include "body/fem/inverse_column_cache.h"
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
// E = (F^T F - I)/2 (KIRCHHOFF; NEO_HOOKEAN / BLATZ_KO: S of material/hyperelastic.h),
// F = sum_a x_a (dN_a/dX)^T; tangent K = -d f_int / dq (material plus
// geometric part, symmetric). The current shape is one convex per element (vertices = the
// element's current nodes, neighbours = elements sharing a face) or, with a background
// mesh, the user's convexes and spheres carried by the mesh motion (embedded pieces: each
// convex vertex and sphere centre x = sum N_a(xi(X)) x_a on its fixed element; sphere radii
// do not change). Mass and inertia always come from the mesh (the mesh is the body's
// volume). Elements may carry their own material (APPLY_BULKMAT, by volume id).
class FeBody : public Body {
 public:
  // Scratch kept by the integrator between BeginStep, FreeVelocity and EndStep.
  struct StepState {
    VecX u0;        // u(t)
    VecX external;  // external generalized force at t+h/2 (for the work)
    VecX q_free;    // DEF_SEMI_EXPLICIT: sub-stepped free configuration at t+h
    int substeps = 1;                   // DEF_SEMI_EXPLICIT: sub-steps of the current step
    bool semi_explicit_warned = false;  // DEF_SEMI_EXPLICIT: sub-step warning printed
  };

  // Without `mesh`, `shape` must hold exactly one MESH (no convexes or spheres); with
  // `mesh`, `shape` holds the convexes and spheres embedded in it (no MESH). Throws
  // InputError naming BODY otherwise, for an invalid mesh, an element with a non-positive
  // Jacobian at a Gauss point, a node that belongs to no element, or an embedded vertex
  // farther outside the mesh than 10% of its nearest element's size (argument 'mesh').
  FeBody(geometry::Shape shape, material::BulkMaterial material, std::string label,
         std::optional<geometry::Mesh> mesh = std::nullopt);

  int num_dofs() const override { return static_cast<int>(q_.size()); }
  void Accept(BodyVisitor& v) override { v.Visit(*this); }
  const FeBody* AsFeBody() const override { return this; }
  FeBody* AsFeBody() override { return this; }
  const FeBody* MeshBody() const override { return this; }
  int num_nodes() const { return static_cast<int>(mesh_.nodes.size()); }
  int num_elements() const { return static_cast<int>(elements_.size()); }
  const geometry::Mesh& mesh() const { return mesh_; }  // referential mesh
  // Formulation (BODY argument 'form'); the integrators dispatch on it.
  FeForm form() const { return form_; }
  void set_form(FeForm f) { form_ = f; }
  bool embedded() const { return embedded_; }  // convexes/spheres in a background mesh
  Vec3 node(int i) const { return coords_->segment<3>(3 * i); }
  // The current coordinates of all nodes (x, y, z node after node; node(i) is a segment).
  const VecX& node_coordinates() const { return *coords_; }
  const VecX& lumped_mass() const { return mass_diag_; }  // per dof, size 3N
  StepState& step_state() { return step_; }

  // --- geometry
  void UpdateShape() override;
  Vec3 SpatialPoint(const Vec3& X) const override;
  Vec3 ReferentialPoint(const Vec3& x) const override;
  Vec3 PointVelocity(const Vec3& X) const override;
  void ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const override;
  // With lumped masses (DiagonalInertia) a node's H is the node's alone, as ComputeH gives it
  // at the node's referential point (the other shape functions vanish there), without the
  // element search and inverse map.
  bool ComputeNodeH(int node, const Mat3& base, HOperator& H) const override;
  // Likewise at a point of a boundary face (a node-to-face master point): the element's
  // shape functions restricted to a face of a linear element are the face's (linear on a
  // triangle, bilinear on a quadrilateral), so H is base^T over the face's nodes with the
  // given weights, as ComputeH gives it after locating the point.
  bool ComputeFaceH(const MeshFacePoint& p, const Mat3& base, HOperator& H) const override;
  // G := A^-1 G with A = lumped M, or the operator set by SetInertiaOperator (DEF_LIM).
  void ApplyInverseInertia(Eigen::Ref<MatX> G) const override;
  // The lumped masses while no operator is set (explicit schemes).
  const VecX* DiagonalInertia() const override {
    return use_corotated_ || use_operator_ ? nullptr : &mass_diag_;
  }
  // Factorizes A (symmetric positive definite, 3N x 3N) with CHOLMOD (sparse Cholesky); throws
  // SolverError when A is not positive definite.
  void SetInertiaOperator(const SparseMat& A);
  // As SetInertiaOperator, but returns false (and keeps no operator) when A is not positive
  // definite.
  bool TrySetInertiaOperator(const SparseMat& A);
  // A = M + c K with K = Stiffness(). When the initial-stress part makes A indefinite (a
  // prestressed body whose rigid modes are held by constraints, which A does not contain),
  // A + tau I with the smallest tau found in decades from 1e-8 max diag(c K) (a modified
  // Newton step); M + c K_material as the last resort; throws SolverError when even that
  // fails.
  void SetStiffnessOperator(const SparseMat& K, double c);
  void ResetInertiaOperator() { use_operator_ = false, use_corotated_ = false; }
  SparseMat MassMatrix() const;  // diagonal lumped mass as a sparse matrix
  // Current mass centre, sum m_a x_a / sum m_a over the nodes (m_a = integral of rho N_a: the
  // centre of the interpolated motion, also where it lies outside the mesh, e.g. in a pipe).
  Vec3 CurrentMassCenter() const;

  // Element containing referential point X (or the nearest one when X lies outside the
  // mesh) and its natural coordinates.
  void LocateReferential(const Vec3& X, int& element, Vec3& xi) const;
  // Deformation gradient at referential point X.
  Mat3 DeformationGradient(const Vec3& X) const;
  // Deformation gradient of element e at its natural coordinates xi.
  Mat3 DeformationGradient(int e, const Vec3& xi) const;
  // The elements whose values define a field at referential point X, with X's natural
  // coordinates in each: when X is a mesh node (max-norm distance below eps), every element
  // holding that node (nodal averages of STRESS, as Solfec-1.0's FEM_Point_Values and
  // Code_Aster's nodal stresses); otherwise the one element holding X.
  std::vector<std::pair<int, Vec3>> ElementsAtPoint(const Vec3& X, double eps) const;

  // --- constitutive response at the current q
  VecX InternalForce() const;   // f_int, size 3N
  // K = -d f_int / dq; geometric = false leaves out the initial-stress part (ga . S gb) I,
  // which keeps K positive semidefinite.
  SparseMat Stiffness(bool geometric = true) const;
  // K v computed element by element (no assembly); K = Stiffness() (hyperelastic.h models).
  VecX StiffnessProduct(const VecX& v) const;
  // Upper bound of the largest squared eigenfrequency, max over elements of the largest
  // eigenvalue of M_e^-1 K_e (element lumped mass, element tangent at the current q; form
  // 'BC': at the referential q, since its internal force is L K0 L^T and L (a rotation of
  // every node) leaves the eigenvalues unchanged). One eigen solve per element, so the value
  // is kept while it cannot change: the same q (bitwise; form 'BC': always), masses and
  // materials.
  double MaxFrequencySquared() const;

  // --- body co-rotated form 'BC' (fe_body_corotated.cc; corotated report section 4).
  // Lambda is not part of q (q stays the 3N node coordinates): the body keeps the last fitted
  // rotation and re-derives it from q when q was overwritten (RESTORE, BODY.conf).
  // Stored rotation Lambda (identity until the first BC step or UpdateCorotation).
  const Mat3& corotation() const { return corotation_; }
  // Lambda_hat(q, start) of appendix A on the current q.
  Mat3 FitCorotation(const Mat3& start) const;
  // A safe Gauss-Newton start for the current q: the stored Lambda when it lies within
  // ~20 degrees of the mass-weighted best-fit (Kabsch) rotation of the nodes, else the latter.
  Mat3 CorotationStart() const;
  // Lambda := FitCorotation(CorotationStart()); also accepts an explicit value.
  void UpdateCorotation() { corotation_ = FitCorotation(CorotationStart()); }
  void set_corotation(const Mat3& L) { corotation_ = L; }
  // K0 = Stiffness() at the referential configuration (built on first use and kept).
  const SparseMat& ReferentialStiffness() const;
  // f = -L K0 (L^T x - Z + eta L^T v): co-rotated internal plus damping force at the current q.
  VecX CorotatedForce(const Mat3& L, const VecX& v, double eta) const;
  // The inertia operator becomes A = L A0 L^T, A0 = M + c K0, applied as L A0^-1 L^T in
  // ApplyInverseInertia; A0 is factorized (CHOLMOD) only when c or the masses change.
  void SetCorotatedOperator(const Mat3& L, double c);
  int corotated_factorizations() const { return a0_factorizations_; }
  // 1/2 d~^T K0 d~, d~ = Lambda^T x - Z with Lambda fitted to the current q.
  double CorotatedEnergy() const;
  // W assembly without solves: while the operator of SetCorotatedOperator is active
  // (corotated_operator()), A^-1 = L A0^-1 L^T with A0 factorized once, so the three columns
  // of A0^-1 at a node stay valid until A0 is refactorized. They are cached per node on first
  // use (InverseColumnCache: least recently used eviction beyond corotated_cache_bytes,
  // default 256 MB = ~530 nodes of a 20k-dof mesh; cleared when A0 is refactorized).
  bool corotated_operator() const { return use_corotated_; }
  // Solves the missing cached columns of `nodes` in blocks (many right-hand sides per solve).
  void PrefetchCorotatedColumns(const std::vector<int>& nodes) const;
  // G (3 nodes.size() x 3) = the rows of A^-1 H^T at the dofs of `nodes` (in list order):
  // G_p = L sum_q [A0^-1]_pq L^T H_q^T over the nodes q of H, from the cached columns.
  // Requires corotated_operator() and H of this body (dof = 3 node + direction).
  void CorotatedInverseRows(const HOperator& H, const std::vector<int>& nodes, MatX& G) const;
  const InverseColumnCache& corotated_columns() const { return a0_columns_; }
  void set_corotated_cache_bytes(std::size_t bytes) { a0_columns_.set_capacity_bytes(bytes); }
  // Solves with the factor of A0 so far: ApplyInverseInertia calls plus column-cache misses.
  long corotated_solves() const { return a0_solves_ + a0_columns_.stats().solves; }

  // Pieces a and b of the current shape are excluded from self-contact: mesh elements that
  // share a node; embedded pieces that touch in the referential configuration.
  bool SelfContactExcluded(int a, int b) const override;
  // Inverse map restricted to the elements carrying piece `piece` (mesh: the element
  // itself; embedded: the elements of the piece's vertices or sphere centre), extrapolated.
  Vec3 ReferentialPointOnPiece(const Vec3& x, int piece) const override;

  // --- materials: APPLY_BULKMAT gives the elements with volume id `volid` material `m`
  // (stiffness and mass; the lumped masses and inertia are recomputed, which discards an
  // earlier BODY_CHARS). Throws InputError naming APPLY_BULKMAT when no element has volid.
  void ApplyBulkMaterial(int volid, const material::BulkMaterial& m);
  const material::BulkMaterial& element_material(int e) const {
    return materials_[elements_[e].material];
  }
  // Material of the element holding referential point X (for STRESS).
  const material::BulkMaterial& MaterialAt(const Vec3& X) const;

  // --- inertia: BODY_CHARS rescales the lumped masses to the given total mass
  void SetCharacteristics(double mass, double volume, const Vec3& center,
                          const Mat3& tensor) override;

  // --- loads and energy
  // PRESSURE: pressure p(t) on the boundary faces with surface id `surfid`: traction p n,
  // n the outward normal, as Solfec-1.0 (negative p pushes into the body: an internal
  // pressure P is PRESSURE(-P)). follower = false: on the referential faces (area vectors
  // of the undeformed mesh, a dead load: Solfec-1.0's fem.c accumulate_pressure);
  // follower = true: on the current faces (Nanson's J F^-T N dA).
  // Throws InputError naming PRESSURE (argument 'surfid') when no boundary face has it.
  void AddPressure(int surfid, ScalarOrSeries value, bool follower = false);
  struct PressureLoad {
    int surfid;
    ScalarOrSeries value;
    bool follower;
  };
  // The PRESSURE loads, in the order added (PARTITION copies them).
  std::vector<PressureLoad> pressure_loads() const {
    std::vector<PressureLoad> out;
    for (const Pressure& p : pressures_) out.push_back({p.surfid, p.value, p.follower});
    return out;
  }
  // Generalized force of the pressures at time t (part of ExternalForce).
  VecX PressureForce(double t) const;
  VecX ExternalForce(double t, double h, const Vec3& gravity) const override;
  double KineticEnergy() const override;
  double InternalEnergy() const override;
  // v_a = linear + angular x (x_a - c), c = current mass centre.
  void SetInitialVelocity(const Vec3& linear, const Vec3& angular) override;

 protected:
  // Node coordinates (3N) that the geometry and mechanics read: q_ by default; a body whose
  // generalized state is not the node coordinates (ReducedFeBody) points it at its own copy.
  void set_node_coordinates(const VecX* x) { coords_ = x; }
  // Node forces (3N) of gravity, the pressures and the point FORCEs at time t; FORCE
  // callbacks (generalized forces of the body's own state layout) are left out.
  VecX NodalLoadForce(double t, const Vec3& gravity) const;

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
    geometry::Aabb ref_box;  // referential node box
    int material = 0;        // index into materials_
  };
  struct EmbeddedPoint {  // a convex vertex or sphere centre carried by element `element`
    int element = 0;
    VecX N;
  };
  struct Pressure {
    int surfid = 0;
    ScalarOrSeries value;
    bool follower = false;  // current faces (true) or referential faces (false)
    std::vector<std::vector<int>> faces;  // boundary faces (mesh nodes, outward CCW)
  };

  void SetupElements();
  // Lumped masses, mass, volume, centre and inertia tensor from the element materials.
  void ComputeMass();
  // Element boxes (5% inflated) in the referential or current configuration.
  std::vector<geometry::Aabb> ElementBoxes(bool current) const;
  void EmbedPieces();             // embedded_points_ and the self-contact exclusions
  void MeshTouchingElements();    // self-contact exclusions of mesh elements
  Mat3X ElementNodes(int e, bool current) const;
  // The same into x (3 x the element's node count; allocation-free storage in Locate).
  void FillElementNodes(int e, bool current, Eigen::Ref<Mat3X> x) const;
  // Element force (3k), tangent (3k x 3k) and strain energy; any output may be null; at the
  // current nodes, or at the referential ones (current = false: form 'BC''s K0).
  void ElementResponse(int e, VecX* f, MatX* K, double* W, bool geometric = true,
                       bool current = true) const;
  // ElementResponse of the NEO_HOOKEAN / BLATZ_KO models (material/hyperelastic.h).
  void HyperelasticResponse(int e, VecX* f, MatX* K, double* W, bool geometric,
                            bool current) const;
  // Best element for point p in the referential (current = false) or current configuration.
  void Locate(const Vec3& p, bool current, int& element, Vec3& xi) const;
  void Interpolate(const Vec3& X, int& element, VecX& N) const;

  geometry::Mesh mesh_;
  FeForm form_ = FeForm::kTL;
  bool embedded_ = false;
  std::vector<ElementData> elements_;
  std::vector<material::BulkMaterial> materials_;  // [0] = the BODY material
  std::vector<EmbeddedPoint> embedded_points_;     // convex vertices, then sphere centres
  std::vector<std::vector<int>> piece_elements_;   // embedded: elements carrying each piece
  std::vector<std::vector<int>> touching_;         // per piece, sorted excluded pieces
  fem::ElementTree ref_tree_, cur_tree_;               // element boxes (point location)
  std::vector<Pressure> pressures_;
  VecX mass_diag_;
  double mass_scale_ = 1.0;  // 1 / (BODY_CHARS mass ratio), for MaxFrequencySquared
  struct FrequencyCache {  // MaxFrequencySquared's last value and what it depends on
    bool valid = false;
    VecX q;                   // form 'BC': not used (referential q)
    std::size_t materials = 0;  // APPLY_BULKMAT appends a material
    double w2 = 0.0;          // before mass_scale
  };
  mutable FrequencyCache w2_cache_;
  bool use_operator_ = false;
  SparseSpdSolver operator_;  // CHOLMOD, symbolic analysis kept while the pattern holds
  // form 'BC' (fe_body_corotated.cc)
  void ApplyCorotatedInverse(Eigen::Ref<MatX> G) const;
  Mat3 corotation_ = Mat3::Identity();
  mutable std::optional<SparseMat> k0_;     // referential tangent K0
  mutable std::optional<CorotationFit> fit_;  // appendix-A boundary normals
  SparseSpdSolver a0_;                      // A0 = M + c K0
  double a0_c_ = -1.0, a0_mass_ = -1.0;     // c and total mass of the factorized A0
  int a0_factorizations_ = 0;
  mutable long a0_solves_ = 0;                // ApplyCorotatedInverse calls
  mutable InverseColumnCache a0_columns_;     // node columns of A0^-1 (W assembly)
  bool use_corotated_ = false;              // ApplyInverseInertia = L A0^-1 L^T
  Mat3 operator_rotation_ = Mat3::Identity();
  StepState step_;
  const VecX* coords_ = &q_;  // see set_node_coordinates
};

}  // namespace solfec::body
