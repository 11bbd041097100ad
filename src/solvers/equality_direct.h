// Direct solution of local dynamics whose rows are all linear equalities (FIX_POINT,
// FIX_DIRECTION, SET_VELOCITY, SET_DISPLACEMENT, SET_ACCELERATION, PUT_RIGID_LINK rows): the
// Newton step of such a problem is the linear system itself, solved here exactly instead of
// by GMRES iterations (a clamped finite-element body in QUASI_STATIC analysis took 500-700
// Newton iterations a step with GMRES, src/solvers/README.md).
#pragma once

#include <vector>

#include "base/types.h"
#include "solvers/block_problem.h"

namespace solfec::solvers {

// Scalar unknowns up to which the dense factorisation is used (its cost grows as m^3 / 3:
// 4000 unknowns take about 2e10 flops, a few seconds).
constexpr int kMaxDirectUnknowns = 4000;

// When every row of `problem` is kEquality (U = target: 3 unknowns R) or kNormalEquality
// (U_N = target_N with R_T = 0: 1 unknown R_N), the problem is serial (no coupling) and has
// at most kMaxDirectUnknowns unknowns: assembles W (BlockProblem::EnsureAssembled), solves
// S W S^T r = S (target - B) (S picks the constrained components) by a pivoted LDL^T
// factorisation of the dense symmetric positive semi-definite matrix, and sets R and U.
// Pivots below 1e-12 of the largest are treated as zero (redundant rows, e.g. FIX_POINT and
// FIX_DIRECTION at one point, share the reaction: one solution of the consistent system).
// Returns false otherwise, leaving R and U unchanged (W may be assembled by then).
bool SolveEqualitiesDirectly(BlockProblem& problem);

// Rows of the other kinds (contacts, springs) up to which EqualityElimination builds its
// dense reduced W (3 n x 3 n doubles: 1500 rows take 160 MB).
constexpr int kMaxReducedRows = 1500;

// The equality rows of a problem that also has other rows (contacts, springs) eliminated
// by their Schur complement: with r the equality unknowns (as in SolveEqualitiesDirectly),
// K = S W_ee S^T, G = S W_eo and the other rows' reactions R_o,
//   r = K^+ (t - S B_e - G R_o),
//   U_o = (W_oo - G^T K^+ G) R_o + B_o + G^T K^+ (t - S B_e),
// so the other rows form a smaller problem (reduced W, B; their laws and warm start R)
// whose solution, expanded, solves the whole one. The supports of FE bodies (FIX_POINT,
// FIX_DIRECTION rows) then hold exactly while the contact rows iterate.
class EqualityElimination {
 public:
  // Builds `reduced` from `problem` (assembling W); false when `problem` has no equality
  // rows or only those, more than kMaxDirectUnknowns equality unknowns or kMaxReducedRows
  // other rows (problem's R, U unchanged).
  bool Reduce(BlockProblem& problem, BlockProblem& reduced);
  // problem.R from the solved reduced.R (other rows) and r (equality rows); problem.U.
  void Expand(const BlockProblem& reduced, BlockProblem& problem) const;

 private:
  std::vector<int> eq_, other_;  // row indices
  std::vector<int> first_;       // first unknown of eq_[k] (size eq_ + 1)
  MatX Z_;                       // K^+ G (m x 3 n_o)
  VecX z0_;                      // K^+ (t - S B_e)
};

}  // namespace solfec::solvers
