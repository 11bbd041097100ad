// Merit function g(R) (manual eq. 8.1) over a whole BlockProblem.
#include "solvers/merit.h"

namespace solfec::solvers {

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
