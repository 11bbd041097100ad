// CHOLMOD-backed SparseSpdSolver: pattern comparison, symbolic analysis reuse, solves.
#include "body/fem/sparse_spd_solver.h"

#include <algorithm>
#include <vector>

#include <Eigen/CholmodSupport>

namespace solfec::body {

using SparseMat = Eigen::SparseMatrix<double>;

struct SparseSpdSolver::Impl {
  Eigen::CholmodSupernodalLLT<SparseMat, Eigen::Lower> llt;
  std::vector<int> outer, inner;  // pattern of the analysed matrix
  bool analysed = false, factorized = false;
  int analyses = 0;

  Impl() { llt.cholmod().print = 0; }  // a failed factorization is reported by the caller

  bool SamePattern(const SparseMat& A) const {
    if (!analysed || A.outerSize() + 1 != static_cast<Eigen::Index>(outer.size()) ||
        A.nonZeros() != static_cast<Eigen::Index>(inner.size()))
      return false;
    return std::equal(outer.begin(), outer.end(), A.outerIndexPtr()) &&
           std::equal(inner.begin(), inner.end(), A.innerIndexPtr());
  }
};

SparseSpdSolver::SparseSpdSolver() : impl_(std::make_unique<Impl>()) {}
SparseSpdSolver::~SparseSpdSolver() = default;
SparseSpdSolver::SparseSpdSolver(SparseSpdSolver&&) noexcept = default;
SparseSpdSolver& SparseSpdSolver::operator=(SparseSpdSolver&&) noexcept = default;

bool SparseSpdSolver::Factorize(const SparseMat& A_in) {
  Impl& s = *impl_;
  SparseMat A = A_in;
  A.makeCompressed();
  if (!s.SamePattern(A)) {
    s.llt.analyzePattern(A);
    s.outer.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1);
    s.inner.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
    s.analysed = true;
    ++s.analyses;
  }
  s.llt.factorize(A);
  s.factorized = s.llt.info() == Eigen::Success;
  return s.factorized;
}

void SparseSpdSolver::Solve(Eigen::Ref<MatX> B) const {
  const MatX rhs = B;
  B = impl_->llt.solve(rhs);
}

bool SparseSpdSolver::factorized() const { return impl_->factorized; }
int SparseSpdSolver::symbolic_analyses() const { return impl_->analyses; }

}  // namespace solfec::body
