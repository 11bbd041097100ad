// Merit function g(R) (manual eq. 8.1) over a whole BlockProblem.
#include "solvers/merit.h"

#include <cmath>

namespace solfec::solvers {

double MeritDenominatorSum(const std::vector<Vec3>& B, const std::vector<Mat3>& W_inv) {
  double den = 0.0;
  for (size_t a = 0; a < B.size(); ++a) den += B[a].dot(W_inv[a] * B[a]);
  return den;
}

double MeritDenominatorOfSum(double sum) {
  // Zero free velocity (e.g. resting bodies without loads): fall back to an absolute measure.
  constexpr double kTiny = 1e-300;
  return sum > kTiny ? sum : 1.0;
}

double MeritDenominator(const std::vector<Vec3>& B, const std::vector<Mat3>& W_inv) {
  return MeritDenominatorOfSum(MeritDenominatorSum(B, W_inv));
}

double ComputeMerit(BlockProblem& problem, const std::vector<Mat3>& W_inv, double denominator) {
  problem.ComputeU();
  return MeritFromU(problem, W_inv, denominator);
}

double MeritFromU(BlockProblem& problem, const std::vector<Mat3>& W_inv, double denominator) {
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

double RelativeResidual(const BlockProblem& problem) {
  double c2 = 0.0, r2 = 0.0, u2 = 0.0, b2 = 0.0;
  for (int a = 0; a < problem.size(); ++a) {
    const Mat3& W_aa = problem.W[problem.row_ptr[a]];
    c2 += RowResidual(problem.laws[a], W_aa, problem.U[a], problem.R[a], true).squaredNorm();
    r2 += problem.R[a].squaredNorm();
    u2 += problem.U[a].squaredNorm();
    b2 += problem.B[a].squaredNorm();
  }
  const double scale2 = std::max({r2, u2, b2});
  return scale2 > 0.0 ? std::sqrt(c2 / scale2) : 0.0;
}

}  // namespace solfec::solvers
