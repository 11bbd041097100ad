// Merit function g(R) (manual eqs. 8.1-8.9) and the per-row velocity-form residuals.
#include "solvers/merit.h"

#include <algorithm>

#include "solvers/friction_cone.h"

namespace solfec::solvers {

Vec3 RowResidual(const Law& law, const Mat3& W_aa, const Vec3& U, const Vec3& R) {
  switch (law.kind) {
    case LawKind::kEquality:
      return U - law.target;
    case LawKind::kNormalEquality: {
      // Tangential part: the velocity the (ideally zero) tangential reaction causes.
      const Vec3 RT(R.x(), R.y(), 0.0);
      const Vec3 WRT = W_aa * RT;
      return Vec3(WRT.x(), WRT.y(), U.z() - law.target.z());
    }
    case LawKind::kSignoriniCoulomb:
      break;
  }
  const double mu = law.friction;
  // Cohesive contacts live in the cone shifted by the cohesion (R_N >= -cohesion).
  Vec3 Rs = R;
  if (law.cohesive) Rs.z() += law.cohesion;
  // Ubar_N = U_N + eta min(0, U_N^t) (eq. 7.1); F of eq. 8.4.
  Vec3 Ubar = U;
  Ubar.z() += law.restitution * std::min(0.0, law.UN_prev);
  const Vec3 F = DeSaxceVelocity(Ubar, mu);
  // C = F + m(R - F), m(S) = S - proj_FC(S) (eqs. 8.7, 8.9).
  const Vec3 S = Rs - F;
  Vec3 C = F + (S - ProjectOnCone(S, mu));
  // R in FC is part of eq. 8.9: add its distance from FC mapped to velocity by W_aa.
  const Vec3 outside = Rs - ProjectOnCone(Rs, mu);
  if (!outside.isZero(0.0)) C.noalias() += W_aa * outside;
  return C;
}

double MeritDenominator(const std::vector<Vec3>& B, const std::vector<Mat3>& W_inv) {
  double den = 0.0;
  for (size_t a = 0; a < B.size(); ++a) den += B[a].dot(W_inv[a] * B[a]);
  // Zero free velocity (e.g. resting bodies without loads): fall back to an absolute measure.
  constexpr double kTiny = 1e-300;
  return den > kTiny ? den : 1.0;
}

double ComputeMerit(BlockProblem& problem, const std::vector<Mat3>& W_inv, double denominator) {
  problem.ComputeU();
  const int n = problem.size();
  problem.merit.resize(n);
  double total = 0.0;
  for (int a = 0; a < n; ++a) {
    const Mat3& W_aa = problem.W[problem.row_ptr[a]];
    const double share =
        RowMeritNumerator(problem.laws[a], W_aa, W_inv[a], problem.U[a], problem.R[a]) /
        denominator;
    problem.merit[a] = share;
    total += share;
  }
  return total;
}

double ComputeMerit(BlockProblem& problem) {
  std::vector<Mat3> W_inv;
  InvertDiagonalBlocks(problem, W_inv);
  return ComputeMerit(problem, W_inv, MeritDenominator(problem.B, W_inv));
}

}  // namespace solfec::solvers
