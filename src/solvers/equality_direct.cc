// Dense direct solve of all-equality local dynamics (see equality_direct.h).
#include "solvers/equality_direct.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <vector>

namespace solfec::solvers {

namespace {

// X = K^+ X through the LDL^T factors, pivots below 1e-12 of the largest taken as zero.
void PseudoSolve(const Eigen::LDLT<MatX>& ldlt, MatX& X) {
  X = ldlt.transpositionsP() * X;
  ldlt.matrixL().solveInPlace(X);
  const VecX D = ldlt.vectorD();
  const double tol = 1e-12 * D.cwiseAbs().maxCoeff();
  for (int i = 0; i < D.size(); ++i) {
    if (std::abs(D(i)) > tol) X.row(i) /= D(i);
    else X.row(i).setZero();
  }
  ldlt.matrixU().solveInPlace(X);
  X = ldlt.transpositionsP().transpose() * X;
}

// Whether x solves K x = r to 1e-8 of |r| (+ round-off of K x): false for contradicting
// equality rows (r outside the range of K) or a failed factorisation.
bool Consistent(const MatX& K, const VecX& x, const VecX& r) {
  if (!x.allFinite()) return false;
  const double scale = r.norm() + K.cwiseAbs().maxCoeff() * x.norm() * 1e-6;
  return (K * x - r).norm() <= 1e-8 * scale;
}

int Unknowns(const Law& law) {
  switch (law.kind) {
    case LawKind::kEquality: return 3;
    case LawKind::kNormalEquality: return 1;
    default: return 0;
  }
}

int Component(const Law& law, int c) { return law.kind == LawKind::kEquality ? c : 2; }

}  // namespace

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
  // (Eigen reports a NumericalIssue for the exactly zero pivots of redundant rows: the
  // pseudo-solve drops them and the residual test below judges the result.)
  const Eigen::LDLT<MatX> ldlt(K);
  MatX X = r;
  PseudoSolve(ldlt, X);
  const VecX x = X.col(0);
  if (!Consistent(K, x, r)) return false;
  p.R.assign(n, Vec3::Zero());
  for (int a = 0; a < n; ++a)
    for (int ca = 0; ca < first[a + 1] - first[a]; ++ca)
      p.R[a](component(a, ca)) = x(first[a] + ca);
  p.ComputeU();
  return true;
}


bool EqualityElimination::Reduce(BlockProblem& p, BlockProblem& red) {
  const int n = p.size();
  eq_.clear();
  other_.clear();
  first_.assign(1, 0);
  std::vector<int> index(n, -1);  // position of row a in eq_ or other_
  for (int a = 0; a < n; ++a) {
    const int u = Unknowns(p.laws[a]);
    if (u > 0) {
      index[a] = static_cast<int>(eq_.size());
      eq_.push_back(a);
      first_.push_back(first_.back() + u);
    } else {
      index[a] = static_cast<int>(other_.size());
      other_.push_back(a);
    }
  }
  const int ne = static_cast<int>(eq_.size()), no = static_cast<int>(other_.size());
  const int m = first_.back();
  if (ne == 0 || no == 0 || m > kMaxDirectUnknowns || no > kMaxReducedRows) return false;
  p.EnsureAssembled();
  // K = S W_ee S^T, G = S W_eo, W_oo (dense), t - S B_e.
  MatX K = MatX::Zero(m, m), G = MatX::Zero(m, 3 * no), Woo = MatX::Zero(3 * no, 3 * no);
  VecX r(m);
  for (int e = 0; e < ne; ++e) {
    const int a = eq_[e];
    const Law& la = p.laws[a];
    const int na = first_[e + 1] - first_[e];
    for (int ca = 0; ca < na; ++ca)
      r(first_[e] + ca) = la.target(Component(la, ca)) - p.B[a](Component(la, ca));
  }
  for (int a = 0; a < n; ++a) {
    const Law& la = p.laws[a];
    const bool a_eq = Unknowns(la) > 0;
    const int ia = index[a];
    for (int k = p.row_ptr[a]; k < p.row_ptr[a + 1]; ++k) {
      const int b = p.col[k];
      const Law& lb = p.laws[b];
      const bool b_eq = Unknowns(lb) > 0;
      const int ib = index[b];
      const Mat3& w = p.W[k];
      if (a_eq && b_eq) {
        for (int ca = 0; ca < first_[ia + 1] - first_[ia]; ++ca)
          for (int cb = 0; cb < first_[ib + 1] - first_[ib]; ++cb)
            K(first_[ia] + ca, first_[ib] + cb) += w(Component(la, ca), Component(lb, cb));
      } else if (a_eq) {
        for (int ca = 0; ca < first_[ia + 1] - first_[ia]; ++ca)
          G.block<1, 3>(first_[ia] + ca, 3 * ib) += w.row(Component(la, ca));
      } else if (!b_eq) {
        Woo.block<3, 3>(3 * ia, 3 * ib) += w;
      }
    }
  }
  K = 0.5 * (K + K.transpose()).eval();
  const Eigen::LDLT<MatX> ldlt(K);  // (zero pivots of redundant rows: as above)
  Z_ = G;
  PseudoSolve(ldlt, Z_);
  MatX z0 = r;
  PseudoSolve(ldlt, z0);
  z0_ = z0.col(0);
  if (!Z_.allFinite() || !Consistent(K, z0_, r)) return false;
  Woo.noalias() -= G.transpose() * Z_;
  Woo = 0.5 * (Woo + Woo.transpose()).eval();
  const VecX b0 = G.transpose() * z0_;
  // The reduced problem: diagonal block first in each row, then the nonzero others.
  red.Resize(no);
  red.step = p.step;
  red.row_ptr.assign(1, 0);
  red.col.clear();
  red.W.clear();
  for (int i = 0; i < no; ++i) {
    const int a = other_[i];
    red.laws[i] = p.laws[a];
    red.R[i] = p.R[a];
    red.B[i] = p.B[a] + b0.segment<3>(3 * i);
    red.col.push_back(i);
    red.W.push_back(Woo.block<3, 3>(3 * i, 3 * i));
    for (int j = 0; j < no; ++j) {
      if (j == i) continue;
      const Mat3 w = Woo.block<3, 3>(3 * i, 3 * j);
      if (w.isZero(0.0)) continue;
      red.col.push_back(j);
      red.W.push_back(w);
    }
    red.row_ptr.push_back(static_cast<int>(red.col.size()));
  }
  return true;
}

void EqualityElimination::Expand(const BlockProblem& red, BlockProblem& p) const {
  const int no = static_cast<int>(other_.size());
  VecX Ro(3 * no);
  for (int i = 0; i < no; ++i) {
    Ro.segment<3>(3 * i) = red.R[i];
    p.R[other_[i]] = red.R[i];
    p.laws[other_[i]].cohesive = red.laws[i].cohesive;
  }
  const VecX x = z0_ - Z_ * Ro;
  for (size_t e = 0; e < eq_.size(); ++e) {
    const int a = eq_[e];
    Vec3 R = Vec3::Zero();
    for (int c = 0; c < first_[e + 1] - first_[e]; ++c) R(Component(p.laws[a], c)) = x(first_[e] + c);
    p.R[a] = R;
  }
  p.ComputeU();
}

}  // namespace solfec::solvers
