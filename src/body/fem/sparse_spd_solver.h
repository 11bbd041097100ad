// Sparse symmetric positive definite factorization (CHOLMOD supernodal Cholesky) that keeps
// the symbolic analysis while the sparsity pattern stays the same.
#pragma once

#include <memory>

#include <Eigen/SparseCore>

#include "base/types.h"

namespace solfec::body {

// A = L L^T of a sparse SPD matrix (only the lower triangle is read). The fill-reducing
// ordering and the symbolic factorization are computed once and reused by every Factorize
// with the same pattern (the inertia operators of a body keep their pattern step to step).
class SparseSpdSolver {
 public:
  SparseSpdSolver();
  ~SparseSpdSolver();
  SparseSpdSolver(SparseSpdSolver&&) noexcept;
  SparseSpdSolver& operator=(SparseSpdSolver&&) noexcept;

  // Numeric factorization of A (square, compressed column storage); false when A is not
  // positive definite (the previous factor is then unusable).
  bool Factorize(const Eigen::SparseMatrix<double>& A);
  // B := A^-1 B for the last successful Factorize.
  void Solve(Eigen::Ref<MatX> B) const;
  bool factorized() const;
  int symbolic_analyses() const;  // how many times the pattern was analysed

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace solfec::body
