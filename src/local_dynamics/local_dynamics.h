// Assembles the local dynamics U = W R + B (manual eqs. 1.12-1.14) from the constraints
// and the bodies' free velocities, and scatters the solved reactions back as impulses.
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "base/types.h"
#include "body/body.h"
#include "contact/constraint.h"
#include "solvers/block_problem.h"

namespace solfec::local_dynamics {

class LocalDynamics {
 public:
  // Builds W = h H A^-1 H^T (3x3 blocks), B = H u_free and the per-row laws for `cons`
  // (row i = cons[i]) at time t+h (targets of prescribed motions use t+h). Constraint
  // geometry (point, base, gap) must be current (t+h/2 configuration). R is warm-started
  // from each constraint's R. Also sets each constraint's U_prev = H u(t).
  // With matrix_free (NEWTON_SOLVER locdyn 'OFF') only the diagonal blocks are stored and
  // problem.W_operator is set to this object's operator (valid until the next Assemble):
  // W x = sum over bodies h H A^-1 H^T x through Body::ApplyInverseInertia.
  // With quasi_static (SOLFEC 'QUASI_STATIC') the laws are those of MakeLaw's quasi-static
  // form.
  struct Options {
    bool matrix_free = false;
    bool quasi_static = false;
    // OBSTACLE entries count like other bodies' (their constraints guiding them; the
    // obstacle's ApplyInverseInertia then uses its rigid inertia, see RigidBody::guided).
    bool obstacles = false;
  };
  void Assemble(const std::vector<contact::Constraint*>& cons, double t, double h,
                solvers::BlockProblem& problem, Options options);
  void Assemble(const std::vector<contact::Constraint*>& cons, double t, double h,
                solvers::BlockProblem& problem) {
    Assemble(cons, t, h, problem, Options{});
  }

  // Copies R, U back to the constraints and adds h H^T R to each body's impulse().
  void Scatter(const std::vector<contact::Constraint*>& cons, double h,
               const solvers::BlockProblem& problem);

 private:
  struct Entry {  // one body of one constraint
    body::Body* body = nullptr;
    int body_index = -1;  // dense index of the body in this assembly (-1: obstacle)
    double sign = 1.0;
    body::HOperator H;
    MatX G;  // A^-1 H^T (num_dofs x 3), general bodies
    // Co-rotated FE bodies (FeBody::corotated_operator): G holds only the rows of A^-1 H^T at
    // the body's contact nodes (FeBody::CorotatedInverseRows, cached columns, no solve);
    // rows[k] is the row of G of dof H.dofs[k].
    bool compact = false;
    std::vector<int> rows;
    // Bodies with a diagonal A (Body::DiagonalInertia): no G; its rows are H's columns over
    // the masses of their dofs (zero elsewhere).
    const VecX* diag = nullptr;
    // Dense fast path for bodies with 6 dofs all in H (rigid): H6 and G6 = A^-1 H6^T.
    bool dense6 = false;
    Eigen::Matrix<double, 3, 6> H6;
    Eigen::Matrix<double, 6, 3> G6;
  };
  // `node`: the mesh node at X (node-to-face slaves; -1: none), for Body::ComputeNodeH;
  // `face`: X as a mesh face point (node-to-face masters; size 0: none), for ComputeFaceH.
  void BuildEntry(body::Body* b, const Vec3& X, int node, const body::MeshFacePoint& face,
                  const Mat3& base, double sign, Entry& e) const;
  Mat3 Block(const Entry& a, const Entry& b) const;
  // H_a A^-1 H_b^T of two node-form entries of one lumped-mass body: with equal masses on
  // each node's dofs, (sum over the shared nodes of w_a w_b / m) F_a F_b^T. ScatterNodeWeights
  // puts e's weights into node_weight_ (false: not node form or unequal masses), so that
  // ScatteredBlock(e, b) sums over b's nodes alone; ClearNodeWeights(e) zeroes them again.
  // PairBlock(a, scattered, b): ScatteredBlock when both are in node form, else Block.
  bool ScatterNodeWeights(const Entry& e);
  void ClearNodeWeights(const Entry& e);
  Mat3 ScatteredBlock(const Entry& a, const Entry& b) const;
  Mat3 PairBlock(const Entry& a, bool scattered, const Entry& b) const;
  // Rows sharing dofs on bodies with a diagonal A: for each such body (index b), the rows
  // whose entry on it has a nonzero H column at dof d (D = shared_base_[b] + d; with
  // node_keys_[b], d = 3 n for the rows with H in node form at node n) are the
  // second members of shared_by_dof_[D > 0 ? shared_end_[D - 1] : 0, shared_end_[D]), in
  // increasing order (CountingSortBy).
  void IndexSharedDofs();
  // G of the compact entries of body b (rows of A^-1 H^T at all its entries' nodes).
  void BuildCompactEntries(body::Body* b, const std::vector<Entry*>& entries);
  // Rows of W: full block rows (diagonal first, sorted columns) or diagonal blocks only.
  void AssembleW(solvers::BlockProblem& P, bool full);
  // Held contacts (see HeldContactLaw): a Signorini-Coulomb contact (not cohesive, not
  // SPRING_DASHPOT) whose normal relative velocity is fixed by the single-body bilateral
  // rows (FIX_POINT, FIX_DIRECTION, SET_VELOCITY / SET_DISPLACEMENT, PUT_RIGID_LINK to a
  // fixed point) of both its bodies gets HeldContactLaw() and R = 0. "Fixed" is tested per
  // rigid body (6 dofs) in the A^-1 metric: the normal row h_N = N^T H is held when
  // h_N A^-1 h_N^T - w^T K^+ w <= kHeldTolerance h_N A^-1 h_N^T, with K = H_b A^-1 H_b^T the
  // Gram matrix of the body's bilateral rows and w = H_b A^-1 h_N^T; an OBSTACLE side (not
  // in the assembly) is held. Bodies of other kinds are never held.
  void HoldRedundantContacts(const std::vector<contact::Constraint*>& cons,
                             solvers::BlockProblem& P, int num_bodies);
  // y = W x through the bodies (the matrix-free product).
  void ApplyW(const std::vector<Vec3>& x, std::vector<Vec3>& y);

  // The solvers::WOperator view of this assembly.
  class Operator final : public solvers::WOperator {
   public:
    explicit Operator(LocalDynamics* owner = nullptr) : owner_(owner) {}
    void Apply(const std::vector<Vec3>& x, std::vector<Vec3>& y) const override {
      owner_->ApplyW(x, y);
    }
    void AssembleFull(solvers::BlockProblem& problem) const override {
      owner_->AssembleW(problem, true);
    }

   private:
    LocalDynamics* owner_;
  };
  Operator operator_;  // re-pointed at this object by every matrix-free Assemble

  // Work arrays reused between steps (capacity kept).
  std::vector<std::array<Entry, 2>> entries_;  // per row: up to two bodies
  std::vector<int> num_entries_;
  std::vector<std::vector<int>> rows_of_body_;
  std::vector<int> slot_;
  std::vector<int> shared_base_, shared_end_, seen_;
  std::vector<char> node_keys_;  // per body: shared rows keyed by node (IndexSharedDofs)
  std::vector<double> node_weight_;  // ScatterNodeWeights (zero outside a scatter)
  std::vector<std::pair<int, int>> shared_pairs_, shared_by_dof_;  // (dof, row)
  mutable std::vector<int> dof_col_;  // Block: H column of each dof of b (-1: none)
  std::vector<body::Body*> bodies_;  // dense body index -> body (non-obstacles)
  std::vector<MatX> body_work_;      // per body: H^T x, then A^-1 H^T x (matrix-free)
  double h_ = 0.0;
  int rows_ = 0;
};

// The prescribed local velocity of a user constraint at the end of the step, including the
// drift correction that returns the point to its prescribed position. DYNAMIC: FIXPNT
// U = (P0 - x)/h with x at t+h/2 (FIXDIR along the normal), and RIGLNK
// (U_N = (length - |x2 - x1|)/h), zero the error at the next step's mid-point
// x(t+3h/2) = x(t+h/2) + h U, where it is measured next: 2/h (exact at t+h) would return it
// there with the opposite sign, step after step (issue 34), and keeps any velocity along
// the constraint alternating in sign for ever (U(t+h) = -U(t)). Glue points and coincident
// RIGLNK points keep 2 (P0 - x)/h.
// QUASI_STATIC (quasi_static = true): x(t+h) = x(t) + h U, so U = (P0 - x)/h, and contacts
// have no restitution (there is no impact velocity to restitute).
solvers::Law MakeLaw(const contact::Constraint& c, double t, double h,
                     bool quasi_static = false);

// The law of a held contact (LocalDynamics::HoldRedundantContacts): R = 0. The contact's
// normal relative velocity is fixed by bilateral constraints of both bodies, so any normal
// force it carried would be cancelled by their reactions (a rigid model cannot tell how the
// load is shared: W is singular there), and its only effect would be the friction it
// allows. Solved as a row R_T = 0, R_N = 0 (a kSpring row with zero force and slope, which
// every solver handles); U = B + W R is still computed and reported.
solvers::Law HeldContactLaw();
// Relative bound on the part of a contact normal's mobility left free by the bilateral rows
// (about a 1e-4 rad tilt of the normal out of their span; face-on-face contact normals of
// meshes come with tilts of ~1e-6 rad).
inline constexpr double kHeldTolerance = 1e-8;

}  // namespace solfec::local_dynamics
