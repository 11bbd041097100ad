// Dense direct solve of all-equality local dynamics (see equality_direct.h).
#include "solvers/equality_direct.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <vector>

namespace solfec::solvers {

bool SolveEqualitiesDirectly(BlockProblem& p) {
  // (serial problems only: NewtonSolver does not call it from SolveCoupled)
  const int n = p.size();
  if (n == 0) return false;
  // first[a]: index of row a's first unknown; kEquality rows have the components 0, 1, 2,
  // kNormalEquality rows the normal component 2 only.
  std::vector<int> first(n + 1, 0);
  for (int a = 0; a < n; ++a) {
    int count = 0;
    switch (p.laws[a].kind) {
      case LawKind::kEquality: count = 3; break;
      case LawKind::kNormalEquality: count = 1; break;
      default: return false;
    }
    first[a + 1] = first[a] + count;
    if (first[a + 1] > kMaxDirectUnknowns) return false;
  }
  const int m = first[n];
  auto component = [&](int a, int c) { return p.laws[a].kind == LawKind::kEquality ? c : 2; };
  p.EnsureAssembled();
  MatX K = MatX::Zero(m, m);
  VecX r(m);
  for (int a = 0; a < n; ++a) {
    const int na = first[a + 1] - first[a];
    for (int ca = 0; ca < na; ++ca) {
      const int i = component(a, ca);
      r(first[a] + ca) = p.laws[a].target(i) - p.B[a](i);
    }
    for (int k = p.row_ptr[a]; k < p.row_ptr[a + 1]; ++k) {
      const int b = p.col[k];
      const int nb = first[b + 1] - first[b];
      for (int ca = 0; ca < na; ++ca)
        for (int cb = 0; cb < nb; ++cb)
          K(first[a] + ca, first[b] + cb) += p.W[k](component(a, ca), component(b, cb));
    }
  }
  K = 0.5 * (K + K.transpose()).eval();
  const Eigen::LDLT<MatX> ldlt(K);
  if (ldlt.info() != Eigen::Success) return false;
  // x = P^T L^-T D^+ L^-1 P r, D^+ dropping pivots below 1e-12 of the largest.
  VecX y = ldlt.transpositionsP() * r;
  ldlt.matrixL().solveInPlace(y);
  const VecX D = ldlt.vectorD();
  const double tol = 1e-12 * D.cwiseAbs().maxCoeff();
  for (int i = 0; i < m; ++i) y(i) = std::abs(D(i)) > tol ? y(i) / D(i) : 0.0;
  ldlt.matrixU().solveInPlace(y);
  const VecX x = ldlt.transpositionsP().transpose() * y;
  if (!x.allFinite()) return false;
  p.R.assign(n, Vec3::Zero());
  for (int a = 0; a < n; ++a)
    for (int ca = 0; ca < first[a + 1] - first[a]; ++ca)
      p.R[a](component(a, ca)) = x(first[a] + ca);
  p.ComputeU();
  return true;
}

}  // namespace solfec::solvers
