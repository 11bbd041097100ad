// Body co-rotated form 'BC' of FeBody: rotation fit, referential tangent K0, the co-rotated
// force and the once-factorized operator A0 = M + c K0 (corotated report, section 4).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "base/errors.h"
#include "base/math.h"
#include "body/fem/fe_body.h"

namespace solfec::body {

namespace {

// Every column of G (node-major x, y, z) := blockdiag(R) column, O(rows) per column.
void RotateNodal(const Mat3& R, Eigen::Ref<MatX> G) {
  const Eigen::Index n = G.rows() / 3;
  for (Eigen::Index c = 0; c < G.cols(); ++c) {
    Eigen::Map<Eigen::Matrix<double, 3, Eigen::Dynamic>> m(G.col(c).data(), 3, n);
    const Eigen::Matrix<double, 3, Eigen::Dynamic> r = R * m;
    m = r;
  }
}

// w := w minus its node-mean translation: K0 annihilates translations, and removing them
// keeps the round-off of K0 w relative to the deformation, not to the body's position.
void RemoveTranslation(VecX& w) {
  const Eigen::Index n = w.size() / 3;
  Eigen::Map<Eigen::Matrix<double, 3, Eigen::Dynamic>> m(w.data(), 3, n);
  const Vec3 mean = m.rowwise().mean();
  m.colwise() -= mean;
}

}  // namespace

Mat3 FeBody::FitCorotation(const Mat3& start) const {
  if (!fit_) fit_.emplace(mesh_);
  return fit_->Update(q_.head(3 * num_nodes()), start);
}

Mat3 FeBody::CorotationStart() const {
  // Mass-weighted best-fit rotation: C = sum m_a (x_a - x_c)(X_a - X_c)^T = R S for a rigid
  // motion x = R X + c (S symmetric positive definite), so R = polar(C).
  const int n = num_nodes();
  Vec3 xc = Vec3::Zero(), Xc = Vec3::Zero();
  double m = 0.0;
  for (int a = 0; a < n; ++a) {
    const double ma = mass_diag_[3 * a];
    xc += ma * node(a), Xc += ma * mesh_.nodes[a], m += ma;
  }
  xc /= m, Xc /= m;
  Mat3 C = Mat3::Zero();
  for (int a = 0; a < n; ++a)
    C += mass_diag_[3 * a] * (node(a) - xc) * (mesh_.nodes[a] - Xc).transpose();
  const Mat3 R = PolarRotation(C);
  // |L - R|_F = 2 sqrt(2) sin(angle / 2): 0.5 is about 20 degrees.
  return (corotation_ - R).norm() < 0.5 ? corotation_ : R;
}

const SparseMat& FeBody::ReferentialStiffness() const {
  if (!k0_) {
    // Stiffness() reads q_: evaluate it at q = Z and put the current q back.
    FeBody& self = const_cast<FeBody&>(*this);
    VecX current = q_;
    for (int a = 0; a < num_nodes(); ++a) self.q_.segment<3>(3 * a) = mesh_.nodes[a];
    k0_.emplace(self.Stiffness());
    self.q_ = std::move(current);
  }
  return *k0_;
}

VecX FeBody::CorotatedForce(const Mat3& L, const VecX& v, double eta) const {
  const SparseMat& K0 = ReferentialStiffness();
  VecX w = q_.head(3 * num_nodes());
  if (eta != 0.0) w += eta * v;
  RotateNodal(L.transpose(), w);  // L^T (x + eta v)
  for (int a = 0; a < num_nodes(); ++a) w.segment<3>(3 * a) -= mesh_.nodes[a];
  RemoveTranslation(w);
  VecX f = -(K0 * w);
  RotateNodal(L, f);
  return f;
}

void FeBody::SetCorotatedOperator(const Mat3& L, double c) {
  const double mass = mass_diag_.sum();
  if (c != a0_c_ || mass != a0_mass_ || !a0_.factorized()) {
    const SparseMat A0 = MassMatrix() + c * ReferentialStiffness();
    if (!a0_.Factorize(A0))
      throw SolverError("RUN: the co-rotated operator M + c K0 of FINITE_ELEMENT body " +
                        std::to_string(id_) + (label_.empty() ? "" : " ('" + label_ + "')") +
                        " is not positive definite; check the material and the time step");
    a0_c_ = c, a0_mass_ = mass;
    ++a0_factorizations_;
    a0_columns_.Clear();  // columns of the previous A0
  }
  operator_rotation_ = L;
  use_corotated_ = true;
  use_operator_ = false;
}

void FeBody::ApplyCorotatedInverse(Eigen::Ref<MatX> G) const {
  // A^-1 = L A0^-1 L^T (eq. 34): M is lumped with equal x, y, z entries per node, so
  // L M L^T = M and A = L (M + c K0) L^T.
  RotateNodal(operator_rotation_.transpose(), G);
  a0_.Solve(G);
  ++a0_solves_;
  RotateNodal(operator_rotation_, G);
}

void FeBody::PrefetchCorotatedColumns(const std::vector<int>& nodes) const {
  a0_columns_.Prefetch(nodes, a0_, num_dofs());
}

void FeBody::CorotatedInverseRows(const HOperator& H, const std::vector<int>& nodes,
                                  MatX& G) const {
  // T_q = L^T H_q^T for each node q of H (row j of H_q^T: the value column of dof 3 q + j).
  const Mat3& L = operator_rotation_;
  std::vector<std::pair<int, Mat3>> T;
  for (size_t k = 0; k < H.dofs.size(); ++k) {
    const int q = H.dofs[k] / 3, j = H.dofs[k] % 3;
    auto it = std::find_if(T.begin(), T.end(), [q](const auto& t) { return t.first == q; });
    if (it == T.end()) it = T.insert(T.end(), {q, Mat3::Zero()});
    it->second.row(j) += H.values.col(k).transpose();
  }
  for (auto& t : T) {
    const Mat3 r = L.transpose() * t.second;
    t.second = r;
  }
  // G_p = L sum_q [A0^-1]_pq T_q, the 3 x 3 blocks read from the cached columns of q.
  const int np = static_cast<int>(nodes.size());
  G.setZero(3 * np, 3);
  for (const auto& t : T) {
    const MatX& C = a0_columns_.Columns(t.first, a0_, num_dofs());
    for (int i = 0; i < np; ++i)
      G.middleRows<3>(3 * i) += C.middleRows<3>(3 * nodes[i]) * t.second;
  }
  for (int i = 0; i < np; ++i) {
    const Mat3 r = L * G.middleRows<3>(3 * i);
    G.middleRows<3>(3 * i) = r;
  }
}

double FeBody::CorotatedEnergy() const {
  const Mat3 L = FitCorotation(CorotationStart());
  VecX w = q_.head(3 * num_nodes());
  RotateNodal(L.transpose(), w);
  for (int a = 0; a < num_nodes(); ++a) w.segment<3>(3 * a) -= mesh_.nodes[a];
  RemoveTranslation(w);
  return std::max(0.0, 0.5 * w.dot(ReferentialStiffness() * w));  // K0 is semidefinite
}

}  // namespace solfec::body
