// BlockProblem storage helpers: resizing, U = B + W R and input validation.
#include "solvers/block_problem.h"

#include <cmath>
#include <sstream>
#include <string>

#include "base/errors.h"

namespace solfec::solvers {

namespace {

// Sum of x * 0 over a range: 0 if every entry is finite, NaN otherwise (vectorizes).
template <typename T>
double NonFiniteProbe(const std::vector<T>& v) {
  double probe = 0.0;
  for (const T& x : v) probe += (x.array() * 0.0).sum();
  return probe;
}

[[noreturn]] void ThrowInput(const char* routine, const std::string& what, const char* arg,
                             const std::string& fix) {
  throw InputError(std::string(routine) + ": " + what + " (argument '" + arg + "'); " + fix);
}

void ValidateLaw(const char* routine, const Law& law, int row) {
  const std::string at = " of constraint row " + std::to_string(row);
  auto finite = [](double x) { return std::isfinite(x); };
  if (!finite(law.friction) || law.friction < 0.0) {
    ThrowInput(routine, "friction " + std::to_string(law.friction) + at + " is not >= 0",
               "friction", "use a friction coefficient >= 0");
  }
  if (!finite(law.restitution) || law.restitution < 0.0 || law.restitution > 1.0) {
    ThrowInput(routine, "restitution " + std::to_string(law.restitution) + at +
               " is outside [0, 1]", "restitution", "use a restitution in [0, 1]");
  }
  if (!finite(law.cohesion) || law.cohesion < 0.0) {
    ThrowInput(routine, "cohesion " + std::to_string(law.cohesion) + at + " is not >= 0",
               "cohesion", "use a cohesion >= 0 [N]");
  }
  if (!finite(law.UN_prev) || !law.target.allFinite()) {
    throw SolverError(std::string(routine) + ": non-finite UN_prev or target" + at);
  }
  if (law.kind == LawKind::kSpring &&
      !(finite(law.spring_force) && finite(law.spring_slope) && finite(law.spring_U0))) {
    throw SolverError(std::string(routine) + ": non-finite spring force, slope or U0" + at +
                      " (PUT_SPRING); check the spring's force-displacement and dashpot data");
  }
  if (law.kind == LawKind::kSpring &&
      (std::isnan(law.spring_U_lo) || std::isnan(law.spring_U_hi) ||
       law.spring_U_lo > law.spring_U_hi)) {
    throw SolverError(std::string(routine) + ": spring stop bounds [" +
                      std::to_string(law.spring_U_lo) + ", " + std::to_string(law.spring_U_hi) +
                      "]" + at + " are not ordered (PUT_SPRING limits)");
  }
}

}  // namespace

void BlockProblem::Resize(int n) {
  row_ptr.assign(static_cast<size_t>(n) + 1, 0);
  col.clear();
  W.clear();
  B.resize(n, Vec3::Zero());
  laws.resize(n);
  R.resize(n, Vec3::Zero());
  U.resize(n, Vec3::Zero());
  merit.resize(n, 0.0);
}

void BlockProblem::MultiplyW(const std::vector<Vec3>& x, std::vector<Vec3>& y) const {
  const int n = size();
  if (W_operator) {
    y.resize(n);
    W_operator->Apply(x, y);
    return;
  }
  y.resize(n);
  // The row sum in a local (kept in registers) rather than in y[a]: same arithmetic as
  // accumulating into y[a] (the Newton iterates depend on it), fewer loads and stores.
  for (int a = 0; a < n; ++a) {
    Vec3 acc = Vec3::Zero();
    for (int k = row_ptr[a]; k < row_ptr[a + 1]; ++k) acc.noalias() += W[k] * x[col[k]];
    y[a] = acc;
  }
}

void BlockProblem::EnsureAssembled() {
  if (!W_operator) return;
  const WOperator* op = W_operator;
  W_operator = nullptr;
  op->AssembleFull(*this);
}

void BlockProblem::ComputeU() {
  const int n = size();
  if (W_operator) {
    if (R.size() != B.size()) R.assign(n, Vec3::Zero());
    MultiplyW(R, U);
    for (int a = 0; a < n; ++a) U[a] += B[a];
    return;
  }
  U.resize(n);
  for (int a = 0; a < n; ++a) {
    Vec3 u = B[a];
    for (int k = row_ptr[a]; k < row_ptr[a + 1]; ++k) u.noalias() += W[k] * R[col[k]];
    U[a] = u;
  }
}

bool InvertSpdBlock(const Mat3& W, Mat3& inv) {
  // Sylvester's criterion on the leading minors, relative to the block's scale.
  const double scale = W.trace() / 3.0;
  const double minor2 = W(0, 0) * W(1, 1) - W(0, 1) * W(1, 0);
  const double det = W.determinant();
  constexpr double kRelTol = 1e-14;
  if (!(scale > 0.0 && W(0, 0) > 0.0 && minor2 > kRelTol * scale * scale &&
        det > kRelTol * scale * scale * scale)) {
    inv.setZero();
    return false;
  }
  inv = W.inverse();
  return true;
}

int InvertDiagonalBlocks(const BlockProblem& problem, std::vector<Mat3>& W_inv) {
  const int n = problem.size();
  W_inv.resize(n);
  int singular = 0;
  for (int a = 0; a < n; ++a) {
    if (!InvertSpdBlock(problem.W[problem.row_ptr[a]], W_inv[a])) ++singular;
  }
  return singular;
}

void BlockProblem::Validate(const char* routine) const {
  const int n = size();
  const std::string rows = std::to_string(n);
  if (static_cast<int>(row_ptr.size()) != n + 1 || row_ptr[0] != 0) {
    ThrowInput(routine, "row_ptr has " + std::to_string(row_ptr.size()) + " entries for " +
               rows + " rows", "row_ptr", "use size()+1 offsets starting at 0");
  }
  if (static_cast<int>(laws.size()) != n || !(R.empty() || static_cast<int>(R.size()) == n)) {
    ThrowInput(routine, "laws/R sizes do not match " + rows + " rows", "laws",
               "give one law and one warm-start reaction per row (R may be empty)");
  }
  const int nnz = row_ptr[n];
  if (static_cast<int>(col.size()) != nnz || static_cast<int>(W.size()) != nnz) {
    ThrowInput(routine, "col/W sizes do not match row_ptr[n] = " + std::to_string(nnz), "W",
               "store one column index per 3x3 block");
  }
  for (int a = 0; a < n; ++a) {
    if (row_ptr[a + 1] <= row_ptr[a] || col[row_ptr[a]] != a) {
      ThrowInput(routine, "row " + std::to_string(a) + " does not start with its diagonal block",
                 "W", "store W_aa first in each row");
    }
    for (int k = row_ptr[a]; k < row_ptr[a + 1]; ++k) {
      if (col[k] < 0 || col[k] >= n) {
        ThrowInput(routine, "column index " + std::to_string(col[k]) + " out of range", "col",
                   "use indices in [0, size())");
      }
    }
    ValidateLaw(routine, laws[a], a);
  }
  if (!std::isfinite(NonFiniteProbe(W) + NonFiniteProbe(B) + NonFiniteProbe(R))) {
    throw SolverError(std::string(routine) + ": non-finite entries in W, B or R");
  }
}

}  // namespace solfec::solvers
