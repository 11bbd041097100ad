// The local dynamics U = W R + B as a block-sparse problem with one 3x3 block row per
// constraint and a law per row (manual eqs. 1.14-1.15, 9.1); solvers work on this alone.
#pragma once

#include <limits>
#include <vector>

#include "base/types.h"

namespace solfec::solvers {

enum class LawKind {
  kSignoriniCoulomb,  // contact: Signorini + Coulomb with restitution and cohesion (7.1.1)
  kEquality,          // U = target (FIXPNT, all three components)
  kNormalEquality,    // U_N = target.z(), R_T = 0 (FIXDIR, VELODIR, RIGLNK)
  // Linearised spring-dashpot element (PUT_SPRING), one per step:
  //   R_T = 0,  R_N = spring_force + spring_slope * (U_N - spring_U0).
  // Sign convention (same as contacts, contact/constraint.h): the row's normal N points
  // from body1 to body2, U = base^T (v2 - v1) and R acts + on body2, - on body1. So R_N > 0
  // pushes the two bodies apart along N (repulsion: a compressed spring), R_N < 0 pulls them
  // together (a stretched spring); U_N > 0 means the bodies separate. spring_slope
  // has units N s/m; spring_slope <= 0 (the force decreases as the opening velocity grows,
  // e.g. -(d + h k) for a dashpot d and a spring stiffness k) is the stable case. Validate
  // accepts any finite values; the row is solvable while 1 - spring_slope W_NN > 0.
  // Stroke limits (PUT_SPRING limits): U_N is kept in [spring_U_lo, spring_U_hi] by a
  // rigid stop added to R_N (a box complementarity: at U_N = spring_U_hi the stop force is
  // <= 0, at spring_U_lo it is >= 0, inside the box it is 0); infinite bounds: no stop.
  kSpring,
};

struct Law {
  LawKind kind = LawKind::kSignoriniCoulomb;
  double friction = 0.0;     // mu
  double restitution = 0.0;  // eta in U_N + eta min(0, U_N^t) (7.1)
  double UN_prev = 0.0;      // U_N^t, normal relative velocity at the start of the step
  double cohesion = 0.0;     // cohesive force bound: R_N >= -cohesion while cohesive [N]
  bool cohesive = false;     // in/out: set false when R_N reaches -cohesion
  Vec3 target = Vec3::Zero();  // prescribed local velocity (equality laws)
  // Spring-dashpot data (manual 7.1.2), copied from the surface material for every contact;
  // used by PenaltySolver, which treats every kSignoriniCoulomb row as a spring-dashpot one.
  bool spring_dashpot = false;  // the material model is 'SPRING_DASHPOT'
  double spring = 0.0;   // s [N/m] (per contact point)
  double dashpot = 0.0;  // d [N s/m]; < 0: critical damping 2 sqrt(s h / W_NN)
  double hpow = 1.0;     // Hertz exponent p: spring force s |g|^p
  double gap = 0.0;      // g at q(t + h/2) (< 0: penetration) [m]
  // kSpring rows: R_N = spring_force + spring_slope * (U_N - spring_U0) (see LawKind).
  double spring_force = 0.0;  // [N] force at U_N = spring_U0
  double spring_slope = 0.0;  // [N s/m] dR_N / dU_N, <= 0 for a stable element
  double spring_U0 = 0.0;     // [m/s] linearisation point of U_N
  double spring_U_lo = -std::numeric_limits<double>::infinity();  // [m/s] stop bounds on U_N
  double spring_U_hi = std::numeric_limits<double>::infinity();
};

struct BlockProblem;

// Matrix-free W (NEWTON_SOLVER locdyn 'OFF', the former BODY_SPACE_SOLVER): products
// y = W x = sum over bodies h H A^-1 H^T x computed through the bodies, never assembled.
// A BlockProblem with W_operator set stores only its diagonal blocks (row_ptr[i] = i,
// col[i] = i): ComputeU, the merit and NEWTON_SOLVER use Apply; solvers that need the
// off-diagonal blocks (Gauss-Seidel, penalty, Newton's Gauss-Seidel fallback) call
// EnsureAssembled first. Implemented by local_dynamics::LocalDynamics.
class WOperator {
 public:
  virtual ~WOperator() = default;
  // y = W x (both of size problem.size()).
  virtual void Apply(const std::vector<Vec3>& x, std::vector<Vec3>& y) const = 0;
  // Replaces problem.row_ptr, col, W by the full block rows (diagonal first), leaving the
  // other fields alone.
  virtual void AssembleFull(BlockProblem& problem) const = 0;
};

// W in block compressed-row form: row i holds blocks W[row_ptr[i] .. row_ptr[i+1]) with
// column indices col[k]; the diagonal block is stored first in each row.
struct BlockProblem {
  int size() const { return static_cast<int>(B.size()); }
  // Resizes every per-row array to n rows with empty W.
  void Resize(int n);
  // U = B + W R (manual eq. 9.1).
  void ComputeU();
  // y = W x through the stored blocks or the W_operator.
  void MultiplyW(const std::vector<Vec3>& x, std::vector<Vec3>& y) const;
  // With a W_operator: assembles the full block rows and clears W_operator (no-op without).
  void EnsureAssembled();
  // Checks shapes (R may be empty, meaning zeros), the diagonal-first layout and law
  // parameters (InputError naming `routine`) and that W, B, R are finite (SolverError).
  void Validate(const char* routine) const;

  std::vector<int> row_ptr{0};
  std::vector<int> col;
  std::vector<Mat3> W;
  std::vector<Vec3> B;
  std::vector<Law> laws;
  std::vector<Vec3> R;  // in: warm start; out: solution
  std::vector<Vec3> U;  // out: B + W R
  std::vector<double> merit;  // out: per-row share of the merit function g(R) (eq. 8.1)
  double step = 0.0;    // h (for information; laws are in velocity form)
  const WOperator* W_operator = nullptr;  // matrix-free W (then W holds the diagonal only)
};

// Inverts the SPD 3x3 block W (Sylvester test with a relative tolerance); returns false
// and sets inv to zero when W is not safely positive definite.
bool InvertSpdBlock(const Mat3& W, Mat3& inv);

// W_aa^-1 for every row of `problem`; returns the number of rows whose diagonal block is
// not positive definite (their inverse is zero).
int InvertDiagonalBlocks(const BlockProblem& problem, std::vector<Mat3>& W_inv);

}  // namespace solfec::solvers
