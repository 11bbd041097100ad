// The local dynamics U = W R + B as a block-sparse problem with one 3x3 block row per
// constraint and a law per row (manual eqs. 1.14-1.15, 9.1); solvers work on this alone.
#pragma once

#include <vector>

#include "base/types.h"

namespace solfec::solvers {

enum class LawKind {
  kSignoriniCoulomb,  // contact: Signorini + Coulomb with restitution and cohesion (7.1.1)
  kEquality,          // U = target (FIXPNT, all three components)
  kNormalEquality,    // U_N = target.z(), R_T = 0 (FIXDIR, VELODIR, RIGLNK)
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
};

// W in block compressed-row form: row i holds blocks W[row_ptr[i] .. row_ptr[i+1]) with
// column indices col[k]; the diagonal block is stored first in each row.
struct BlockProblem {
  int size() const { return static_cast<int>(B.size()); }
  // Resizes every per-row array to n rows with empty W.
  void Resize(int n);
  // U = B + W R (manual eq. 9.1).
  void ComputeU();
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
};

// Inverts the SPD 3x3 block W (Sylvester test with a relative tolerance); returns false
// and sets inv to zero when W is not safely positive definite.
bool InvertSpdBlock(const Mat3& W, Mat3& inv);

// W_aa^-1 for every row of `problem`; returns the number of rows whose diagonal block is
// not positive definite (their inverse is zero).
int InvertDiagonalBlocks(const BlockProblem& problem, std::vector<Mat3>& W_inv);

}  // namespace solfec::solvers
