// Body interface: state (q, u), current geometry, the H operator of a point and the
// inverse inertia, forces and energy. Kinds: rigid, pseudo-rigid, (fem later), obstacle.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/time_series.h"
#include "base/types.h"
#include "geometry/shape.h"
#include "material/bulk_material.h"

namespace solfec::body {

enum class BodyKind { kRigid, kPseudoRigid, kFiniteElement, kObstacle };
const char* KindName(BodyKind k);  // "RIGID", ...

// The concrete body classes (one per kinematic model; FINITE_ELEMENT forms 'TL' and 'BC' are
// FeBody, 'BC-RO' and 'BC-MODAL' ReducedFeBody, 'FFR' FfrBody).
class RigidBody;  // RIGID and OBSTACLE
class PseudoRigidBody;
class FeBody;
class ReducedFeBody;
class FfrBody;

// Chooses by the concrete class of a body, once (Body::Accept calls the Visit of the body's
// own class: no cast, no order of tests; integration::MakeIntegrator picks a body's time
// integrator this way). A new body class adds its Visit here, and the compiler then names
// every visitor that must handle it.
class BodyVisitor {
 public:
  virtual void Visit(RigidBody& b) = 0;
  virtual void Visit(PseudoRigidBody& b) = 0;
  virtual void Visit(FeBody& b) = 0;
  virtual void Visit(ReducedFeBody& b) = 0;
  virtual void Visit(FfrBody& b) = 0;

 protected:
  ~BodyVisitor() = default;
};

// Time integration schemes of manual table 4.6.
enum class Scheme { kDefault, kRigPos, kRigNeg, kRigImp, kDefExp, kDefLim, kDefLim2, kDefImp,
                    kDefSemiExplicit };  // DEF_SEMI_EXPLICIT: FINITE_ELEMENT only
const char* SchemeName(Scheme s);

// Sparse 3 x ndofs operator of one body in one constraint: U_local += H u, where u is the
// body's generalized velocity and only the listed dofs are nonzero.
struct HOperator {
  std::vector<int> dofs;
  Mat3X values;  // 3 x dofs.size()
  // Node form, set by bodies whose H is [w_0 F, w_1 F, ...] over the dof triples
  // (3 n_k, 3 n_k + 1, 3 n_k + 2) of mesh nodes n_k (FeBody with lumped masses: F = base^T,
  // w = the shape functions at X); `nodes` empty otherwise. With equal masses on a node's
  // dofs a W block is then (sum over shared nodes of w_a w_b / m) F_a F_b^T.
  std::vector<int> nodes;
  std::vector<double> weights;
  Mat3 frame = Mat3::Zero();
};

// A point of a face of a body's mesh given by the face's nodes and their shape-function
// weights there (the master point of a node-to-face contact): size 0 when not known.
struct MeshFacePoint {
  int size = 0;
  std::array<int, 4> nodes{};
  std::array<double, 4> weights{};
};

// A point load (manual 4.2 FORCE / TORQUE).
struct PointLoad {
  enum class Type { kForce, kTorque } type = Type::kForce;
  bool convected = false;          // 'CONVECTED' direction follows the body
  Vec3 point = Vec3::Zero();       // referential point (forces)
  Vec3 direction = Vec3::UnitZ();  // unit direction
  ScalarOrSeries value;            // magnitude [N] or [N m]
  // FORCE with a Python callback: returns the generalized force (rigid: spatial force,
  // spatial torque, referential torque = 9 values; others: size of u).
  std::function<VecX(const VecX& q, const VecX& u, double t, double h)> callback;
};

class Body {
 public:
  Body(BodyKind kind, geometry::Shape shape, material::BulkMaterial material, std::string label);
  virtual ~Body() = default;
  Body(const Body&) = delete;
  Body& operator=(const Body&) = delete;

  // --- identity
  Id id() const { return id_; }
  void set_id(Id id) { id_ = id; }
  BodyKind kind() const { return kind_; }
  // v.Visit(*this) with the body's concrete class (BodyVisitor).
  virtual void Accept(BodyVisitor& v) = 0;
  // This body as an FeBody (and its reduced forms), else nullptr: one virtual call where a
  // dynamic_cast compares type names (node-to-face contact asks it of every body each step).
  virtual const FeBody* AsFeBody() const { return nullptr; }
  virtual FeBody* AsFeBody() { return nullptr; }
  // This body as a ReducedFeBody (forms 'BC-RO', 'BC-MODAL'), else nullptr.
  virtual const ReducedFeBody* AsReducedFeBody() const { return nullptr; }
  // The mesh body of a FINITE_ELEMENT body, its nodes at the current positions: the body
  // itself for forms TL/BC/BC-RO/BC-MODAL, the internal one for FFR; nullptr for other kinds.
  virtual const FeBody* MeshBody() const { return nullptr; }
  const std::string& label() const { return label_; }
  const material::BulkMaterial& material() const { return material_; }

  // --- state: generalized configuration q and velocity u (layouts of manual tables 4.4/4.5)
  virtual int num_dofs() const = 0;  // size of u
  const VecX& q() const { return q_; }
  const VecX& u() const { return u_; }
  VecX& mutable_q() { return q_; }
  VecX& mutable_u() { return u_; }
  // Velocity before the constraint impulse: u_free = u + h A^-1 f(t+h/2).
  VecX& u_free() { return u_free_; }
  // Generalized constraint impulse accumulated this step: sum over constraints H^T R.
  VecX& impulse() { return impulse_; }

  // --- geometry: referential shape (as created) and current shape (from q)
  const geometry::Shape& ref_shape() const { return ref_shape_; }
  const geometry::Shape& shape() const { return shape_; }
  virtual void UpdateShape() = 0;
  virtual Vec3 SpatialPoint(const Vec3& X) const = 0;       // x(X)
  virtual Vec3 ReferentialPoint(const Vec3& x) const = 0;   // X(x), inverse motion
  virtual Vec3 PointVelocity(const Vec3& X) const = 0;      // spatial velocity of X
  // U_local = base^T v(X): fills H (3 x ndofs, sparse columns).
  virtual void ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const = 0;
  // ComputeH at the referential point of mesh node `node` when the body can give it without
  // locating the point (FE meshes with lumped masses: the node alone); false: call ComputeH.
  virtual bool ComputeNodeH(int /*node*/, const Mat3& /*base*/, HOperator& /*H*/) const {
    return false;
  }
  // ComputeH at a point of a mesh face from its nodes and weights, when the body can give it
  // without locating the point (as ComputeNodeH); false: call ComputeH.
  virtual bool ComputeFaceH(const MeshFacePoint& /*p*/, const Mat3& /*base*/,
                            HOperator& /*H*/) const {
    return false;
  }
  // G := A^-1 G for G with num_dofs() rows (A = inertia operator of the scheme).
  virtual void ApplyInverseInertia(Eigen::Ref<MatX> G) const = 0;
  // The diagonal of A when A is diagonal (lumped masses: explicit FE schemes), one entry a
  // dof; nullptr otherwise. Then A^-1 H^T has the rows of H's dofs only, and constraints
  // couple (W_ij != 0) only through dofs they share (LocalDynamics).
  virtual const VecX* DiagonalInertia() const { return nullptr; }

  // --- inertia (manual BODY members): referential mass, volume, mass centre, tensor
  double mass() const { return mass_; }
  double volume() const { return volume_; }
  const Vec3& center() const { return center_; }
  const Mat3& tensor() const { return tensor_; }
  // BODY_CHARS: overwrite the inertia characteristics.
  virtual void SetCharacteristics(double mass, double volume, const Vec3& center,
                                  const Mat3& tensor);

  // --- loads and energy
  std::vector<PointLoad>& loads() { return loads_; }
  // Generalized external force at time t (gravity g plus point loads), size num_dofs().
  virtual VecX ExternalForce(double t, double h, const Vec3& gravity) const = 0;
  virtual double KineticEnergy() const = 0;
  // Elastic strain energy [J] (0 for rigid kinds).
  virtual double InternalEnergy() const { return 0.0; }
  // INITIAL_VELOCITY(linear, angular): rigid sets v and Omega; deformable bodies a rigid
  // motion field.
  virtual void SetInitialVelocity(const Vec3& linear, const Vec3& angular) = 0;

  // Self-contact filter: true when pieces a and b of the current shape must not be tested
  // against each other (e.g. they touch in the referential configuration).
  virtual bool SelfContactExcluded(int a, int b) const { return a == b; }
  // X(x) seen from piece `piece` of the current shape: for self-contact both points of a
  // contact lie on one body, and each side must map back into its own piece.
  virtual Vec3 ReferentialPointOnPiece(const Vec3& x, int /*piece*/) const {
    return ReferentialPoint(x);
  }

  // --- options (manual BODY read/write members)
  Scheme scheme = Scheme::kDefault;
  double damping = 0.0;
  bool selfcontact = false;

  // Energies accumulated by the integrator and the domain (ENERGY): work of external
  // forces, of normal and of tangential contact reactions [J].
  double external_work = 0.0;
  double contact_work = 0.0;
  double friction_work = 0.0;

 protected:
  // Mass, volume, mass centre and inertia tensor (about the centre) of the referential shape
  // with the material density; throws InputError naming BODY for a non-positive volume.
  geometry::MassProperties InitInertiaFromShape();
  // Current shape x = A X + t of the referential shape (rigid and pseudo-rigid motions);
  // coordinates are overwritten in place once the piece layout matches.
  void MapShapeAffine(const Mat3& A, const Vec3& t);

  Id id_ = kNoId;
  BodyKind kind_;
  std::string label_;
  material::BulkMaterial material_;
  geometry::Shape ref_shape_, shape_;
  VecX q_, u_, u_free_, impulse_;
  double mass_ = 0.0, volume_ = 0.0;
  Vec3 center_ = Vec3::Zero();
  Mat3 tensor_ = Mat3::Zero();
  std::vector<PointLoad> loads_;
};

// H at referential point X of b, which is mesh node `node` if node >= 0 (node-to-face
// slaves) or the face point `face` if face.size > 0 (node-to-face masters on a mesh):
// Body::ComputeNodeH or Body::ComputeFaceH when they apply, else Body::ComputeH.
inline void ComputeConstraintH(const Body& b, const Vec3& X, int node,
                               const MeshFacePoint& face, const Mat3& base, HOperator& H) {
  if (node >= 0 && b.ComputeNodeH(node, base, H)) return;
  if (face.size > 0 && b.ComputeFaceH(face, base, H)) return;
  b.ComputeH(X, base, H);
}

}  // namespace solfec::body
