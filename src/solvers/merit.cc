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

std::array<double, 4> RelativeResidualSums(const BlockProblem& problem) {
  std::array<double, 4> s{0.0, 0.0, 0.0, 0.0};
  const double scale = ResidualScale(problem);
  for (int a = 0; a < problem.size(); ++a) {
    const Mat3& W_aa = problem.W[problem.row_ptr[a]];
    s[0] += RowResidual(problem.laws[a], W_aa, problem.U[a], problem.R[a], true, scale)
                .squaredNorm();
    s[1] += scale * scale * problem.R[a].squaredNorm();
    s[2] += problem.U[a].squaredNorm();
    s[3] += problem.B[a].squaredNorm();
  }
  return s;
}

double RelativeResidualOfSums(const std::array<double, 4>& s) {
  const double scale2 = std::max({s[1], s[2], s[3]});
  return scale2 > 0.0 ? std::sqrt(s[0] / scale2) : 0.0;
}

double RelativeResidual(const BlockProblem& problem) {
  return RelativeResidualOfSums(RelativeResidualSums(problem));
}

}  // namespace solfec::solvers
