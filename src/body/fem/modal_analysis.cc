// MODAL_ANALYSIS (shift-invert Lanczos with a CHOLMOD factor), RIGID_DISPLACEMENTS and the
// co-rotated displacement snapshots of COROTATED_DISPLACEMENTS.
#include "body/fem/modal_analysis.h"

#include <Spectra/SymEigsSolver.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

#include "base/errors.h"
#include "base/math.h"
#include "body/fem/corotation.h"
#include "body/fem/sparse_spd_solver.h"

namespace solfec::body {

namespace {

constexpr int kDenseLimit = 300;  // 3N up to which the dense eigensolver is used

VecX ReferenceCoordinates(const FeBody& body) {
  const auto& nodes = body.mesh().nodes;
  VecX Z(3 * nodes.size());
  for (size_t a = 0; a < nodes.size(); ++a) Z.segment<3>(3 * a) = nodes[a];
  return Z;
}

// Lumped-mass centre of node coordinates x (3N) with per-dof masses m (3N).
Vec3 MassCentre(const VecX& x, const VecX& m) {
  Vec3 c = Vec3::Zero();
  double total = 0.0;
  for (Eigen::Index a = 0; a < x.size() / 3; ++a) {
    c += m[3 * a] * x.segment<3>(3 * a);
    total += m[3 * a];
  }
  return c / total;
}

// Orthonormalises the columns of V (in place, left to right) in the inner product
// <a, b> = a^T diag(w) b against the columns of Q (already orthonormal) and each other;
// modified Gram-Schmidt applied twice for round-off orthogonality.
void Orthonormalise(MatX& V, const VecX& w, const MatX* Q = nullptr) {
  for (Eigen::Index j = 0; j < V.cols(); ++j) {
    for (int pass = 0; pass < 2; ++pass) {
      if (Q)
        for (Eigen::Index k = 0; k < Q->cols(); ++k)
          V.col(j) -= Q->col(k).dot(w.cwiseProduct(V.col(j))) * Q->col(k);
      for (Eigen::Index k = 0; k < j; ++k)
        V.col(j) -= V.col(k).dot(w.cwiseProduct(V.col(j))) * V.col(k);
    }
    V.col(j) /= std::sqrt(V.col(j).dot(w.cwiseProduct(V.col(j))));
  }
}

// Shift-invert operator of the deflated standard problem in w = M^1/2 v coordinates:
// y = P S (K - sigma M)^-1 S P x, S = M^1/2, P = I - Wr Wr^T (Wr = S E_rigid, orthonormal).
class DeflatedShiftInvert {
 public:
  using Scalar = double;
  DeflatedShiftInvert(const SparseSpdSolver& solver, const VecX& s, const MatX& Wr)
      : solver_(solver), s_(s), Wr_(Wr), t_(s.size()) {}
  Eigen::Index rows() const { return s_.size(); }
  Eigen::Index cols() const { return s_.size(); }
  void perform_op(const double* x_in, double* y_out) const {
    Eigen::Map<const VecX> x(x_in, rows());
    Eigen::Map<VecX> y(y_out, rows());
    t_ = x - Wr_ * (Wr_.transpose() * x);
    t_ = s_.cwiseProduct(t_);
    Eigen::Map<MatX> column(t_.data(), t_.size(), 1);
    solver_.Solve(column);
    t_ = s_.cwiseProduct(t_);
    y = t_ - Wr_ * (Wr_.transpose() * t_);
    ++operations_;
  }
  int operations() const { return operations_; }

 private:
  const SparseSpdSolver& solver_;
  const VecX& s_;
  const MatX& Wr_;
  mutable VecX t_;
  mutable int operations_ = 0;
};

// Elastic modes in w-coordinates by the dense path: eigenvectors of Q^T C Q, C = S^-1 K S^-1,
// Q an orthonormal basis of the complement of Wr.
MatX DenseElasticModes(const SparseMat& K, const VecX& s, const MatX& Wr, int count) {
  const Eigen::Index n = s.size();
  const VecX si = s.cwiseInverse();
  const MatX C = si.asDiagonal() * MatX(K) * si.asDiagonal();
  Eigen::HouseholderQR<MatX> qr(Wr);
  const MatX Qfull = qr.householderQ() * MatX::Identity(n, n);
  const MatX Q = Qfull.rightCols(n - Wr.cols());
  const MatX Cc = Q.transpose() * C * Q;
  Eigen::SelfAdjointEigenSolver<MatX> es(0.5 * (Cc + Cc.transpose()));
  return Q * es.eigenvectors().leftCols(count);
}

// Elastic modes in w-coordinates by shift-invert Lanczos (Spectra).
MatX LanczosElasticModes(const SparseMat& K, const VecX& m, const VecX& s, const MatX& Wr,
                         int count, const ModalOptions& options, int& operations) {
  const Eigen::Index n = s.size();
  // sigma < 0 keeps K - sigma M positive definite; |sigma| well below the first elastic
  // eigenvalue (about 1e-6 of the mean diagonal ratio K_ii / M_ii) keeps the spectrum of the
  // operator spread while the factor stays well conditioned.
  double ratio = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) ratio += K.coeff(i, i) / m[i];
  const double sigma = -1e-6 * ratio / static_cast<double>(n);
  SparseMat A = K;
  for (Eigen::Index i = 0; i < n; ++i) A.coeffRef(i, i) -= sigma * m[i];
  SparseSpdSolver solver;
  if (!solver.Factorize(A))
    throw SolverError("MODAL_ANALYSIS: K0 - sigma M is not positive definite (sigma = " +
                      std::to_string(sigma) + "); check the body's material and mesh");
  DeflatedShiftInvert op(solver, s, Wr);
  const Eigen::Index ncv = std::min<Eigen::Index>(n - Wr.cols(), std::max(2 * count + 1, count + 20));
  Spectra::SymEigsSolver<DeflatedShiftInvert> eigs(op, count, ncv);
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  VecX r(n);
  for (Eigen::Index i = 0; i < n; ++i) r[i] = u(rng);
  r -= Wr * (Wr.transpose() * r);
  eigs.init(r.data());
  eigs.compute(Spectra::SortRule::LargestMagn, options.max_restarts, options.tolerance,
               Spectra::SortRule::LargestAlge);
  operations = op.operations();
  if (eigs.info() != Spectra::CompInfo::Successful)
    throw SolverError("MODAL_ANALYSIS: the Lanczos iteration did not converge in " +
                      std::to_string(options.max_restarts) +
                      " restarts (argument 'maxiter'); raise maxiter or abstol");
  if (options.verbose)
    std::printf("MODAL_ANALYSIS: %d modes, %d restarts, %d operator applications\n", count,
                static_cast<int>(eigs.num_iterations()), operations);
  return eigs.eigenvectors(count);
}

}  // namespace

MatX RigidDisplacements(const FeBody& body, bool mass_weighted) {
  const VecX Z = ReferenceCoordinates(body);
  const VecX& m = body.lumped_mass();
  const Vec3 c = MassCentre(Z, m);
  const Eigen::Index N = Z.size() / 3;
  MatX E = MatX::Zero(3 * N, 6);
  for (Eigen::Index a = 0; a < N; ++a) {
    const Vec3 r = Z.segment<3>(3 * a) - c;
    for (int i = 0; i < 3; ++i) {
      E(3 * a + i, i) = 1.0;
      E.block<3, 1>(3 * a, 3 + i) = Vec3::Unit(i).cross(r);
    }
  }
  Orthonormalise(E, mass_weighted ? m : VecX::Ones(3 * N));
  return E;
}

SparseMat ReferenceStiffness(FeBody& body) {
  // The reduced forms keep their node coordinates outside q (set_node_coordinates).
  if (body.form() == FeForm::kBCRO || body.form() == FeForm::kBCModal)
    throw InputError(std::string("MODAL_ANALYSIS: body '") + body.label() + "' has form " +
                     FeFormName(body.form()) +
                     " (argument 'body'); run it on a 'TL' or 'BC' body with the same mesh and "
                     "material");
  VecX saved = body.q();
  body.mutable_q() = ReferenceCoordinates(body);
  SparseMat K;
  try {
    K = body.Stiffness();
  } catch (...) {
    body.mutable_q() = saved;
    throw;
  }
  body.mutable_q() = saved;
  return K;
}

ModalBase ModalAnalysis(FeBody& body, int num, const ModalOptions& options) {
  const int n = 3 * body.num_nodes();
  if (num < 6 || num > n)
    throw InputError("MODAL_ANALYSIS: num = " + std::to_string(num) +
                     " is out of range (argument 'num'); use 6 <= num <= " + std::to_string(n) +
                     " (3 x the node count; the first six modes are the rigid ones)");
  if (options.tolerance <= 0.0 || options.max_restarts < 1)
    throw InputError("MODAL_ANALYSIS: abstol and maxiter must be positive (argument 'abstol' / "
                     "'maxiter')");
  ModalBase out;
  const MatX R = RigidDisplacements(body, true);
  out.evals = VecX::Zero(num);
  out.evecs.resize(n, num);
  out.evecs.leftCols(6) = R;
  const int count = num - 6;
  if (count == 0) return out;

  const SparseMat K = ReferenceStiffness(body);
  const VecX& m = body.lumped_mass();
  const VecX s = m.cwiseSqrt();
  const MatX Wr = s.asDiagonal() * R;
  const bool dense = n <= kDenseLimit || count + 20 >= n - 6;
  MatX W = dense ? DenseElasticModes(K, s, Wr, count)
                 : LanczosElasticModes(K, m, s, Wr, count, options, out.operations);
  out.dense = dense;

  // Back to v = S^-1 w; M-orthonormal and M-orthogonal to the rigid span; Rayleigh-Ritz.
  MatX V = s.cwiseInverse().asDiagonal() * W;
  Orthonormalise(V, m, &R);
  const MatX Kr = V.transpose() * (K * V);
  Eigen::SelfAdjointEigenSolver<MatX> es(0.5 * (Kr + Kr.transpose()));
  out.evecs.rightCols(count) = V * es.eigenvectors();
  out.evals.tail(count) = es.eigenvalues();
  return out;
}

MatX CorotatedDisplacements(const FeBody& body, const MatX& X, std::vector<Mat3>* rotations,
                            const std::string& routine) {
  const VecX Z = ReferenceCoordinates(body);
  const Eigen::Index n = Z.size(), N = n / 3;
  if (X.rows() != n)
    throw InputError(routine + ": a configuration has " + std::to_string(X.rows()) +
                     " values, the FINITE_ELEMENT body has " + std::to_string(n) +
                     " (3 x its node count); pass full node coordinates (a reduced-order body "
                     "stores reduced coordinates)");
  const VecX& m = body.lumped_mass();
  const Vec3 Zc = MassCentre(Z, m);
  const CorotationFit fit(body.mesh());
  MatX D(n, X.cols());
  if (rotations) rotations->clear();
  for (Eigen::Index k = 0; k < X.cols(); ++k) {
    const VecX x = X.col(k);
    const Vec3 xc = MassCentre(x, m);
    Mat3 A = Mat3::Zero();
    for (Eigen::Index a = 0; a < N; ++a)
      A += m[3 * a] * (x.segment<3>(3 * a) - xc) * (Z.segment<3>(3 * a) - Zc).transpose();
    const Mat3 L = fit.Update(x, PolarRotation(A));
    for (Eigen::Index a = 0; a < N; ++a)
      D.block<3, 1>(3 * a, k) =
          L.transpose() * (x.segment<3>(3 * a) - xc) - (Z.segment<3>(3 * a) - Zc);
    if (rotations) rotations->push_back(L);
  }
  return D;
}

}  // namespace solfec::body
