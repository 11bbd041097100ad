// Reduced-order co-rotated finite-element body (forms 'BC-RO', 'BC-MODAL'): reduced matrices,
// projections between the full and the reduced state, H_bar and the explicit inverse A_bar^-1.
#include "body/fem/reduced_fe_body.h"

#include <cmath>
#include <sstream>
#include <string>
#include <utility>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "base/errors.h"
#include "base/math.h"

namespace solfec::body {

namespace {

// blockdiag(L) w for w = [w_0, w_1, ...] (3-vectors).
VecX RotateNodes(const Mat3& L, const VecX& w) {
  VecX out(w.size());
  Eigen::Map<Mat3X>(out.data(), 3, w.size() / 3) =
      L * Eigen::Map<const Mat3X>(w.data(), 3, w.size() / 3);
  return out;
}

std::string Who(const std::string& label) {
  return label.empty() ? std::string() : ", body '" + label + "'";
}

}  // namespace

ReducedFeBody::ReducedFeBody(geometry::Shape shape, material::BulkMaterial material,
                             std::string label, std::optional<geometry::Mesh> mesh,
                             const FeOptions& fe)
    : FeBody(std::move(shape), std::move(material), std::move(label), std::move(mesh)) {
  set_form(fe.form);
  E_ = fe.evecs;
  evals_ = fe.evals;
  Z_ = q_;  // FeBody starts with q = the referential node coordinates
  x_ = Z_;
  v_ = VecX::Zero(Z_.size());
  set_node_coordinates(&x_);
  fit_ = CorotationFit(FeBody::mesh());
  // K_bar from the stiffness at the referential configuration K0 (x = Z).
  if (modal()) {
    for (int i = 0; i < evals_.size(); ++i)
      if (evals_[i] < -1e-8 * std::max(1.0, evals_.cwiseAbs().maxCoeff()))
        throw InputError("BODY: eigenvalue " + std::to_string(i) + " of the BC-MODAL base is "
                         "negative (argument 'base'" + Who(label_) + "); pass the eigenvalues "
                         "of K0 E = M E diag(evals)");
    Kbar_ = evals_.cwiseMax(0.0).asDiagonal();
    const double top = evals_.size() ? evals_.maxCoeff() : 0.0;
    while (num_rigid_ < 6 && num_rigid_ < evals_.size() && evals_[num_rigid_] <= 1e-8 * top)
      ++num_rigid_;
  } else {
    const MatX KE = FullStiffness() * E_;
    Kbar_ = E_.transpose() * KE;
    Kbar_ = 0.5 * (Kbar_ + Kbar_.transpose());
  }
  BuildReducedMatrices();
  const int n = num_modes();
  StoreReducedState(VecX::Zero(n));
  u_free_ = VecX::Zero(n);
  impulse_ = VecX::Zero(n);
}

void ReducedFeBody::BuildReducedMatrices() {
  const VecX& m = lumped_mass();
  Mbar_ = E_.transpose() * m.asDiagonal() * E_;
  Mbar_ = 0.5 * (Mbar_ + Mbar_.transpose());
  if (modal()) {
    // E^T M E = I (eq. 84); after BODY_CHARS the masses are scaled uniformly.
    const double s = Mbar_.diagonal().mean();
    const double off = (Mbar_ - s * MatX::Identity(num_modes(), num_modes())).cwiseAbs().maxCoeff();
    if (off > 1e-6 * s) {
      std::ostringstream msg;
      msg << "BODY: the BC-MODAL base is not M-orthonormal, max |E^T M E - I| = " << off
          << " (argument 'base'" << Who(label_) << "); use the eigenvectors of the lumped mass "
          << "problem K0 E = M E diag(evals) normalised so that E^T M E = I, or form 'BC-RO'";
      throw InputError(msg.str());
    }
    Mbar_ = s * MatX::Identity(num_modes(), num_modes());
    P_ = (E_.transpose() * m.asDiagonal()) / s;
  } else {
    const MatX G = E_.transpose() * E_;
    Eigen::SelfAdjointEigenSolver<MatX> es(G, Eigen::EigenvaluesOnly);
    if (!(es.eigenvalues().minCoeff() > 1e-10 * es.eigenvalues().maxCoeff()))
      throw InputError("BODY: the BC-RO base has linearly dependent columns (argument 'base'" +
                       Who(label_) + "); orthonormalise it (e.g. by POD or QR) and drop "
                       "repeated modes");
    P_ = G.ldlt().solve(E_.transpose());
  }
  operator_c_ = -1.0;
  SetReducedOperator(0.0);
}

VecX ReducedFeBody::Project(const Mat3& L, const VecX& w) const {
  return P_ * RotateNodes(L.transpose(), w);
}

VecX ReducedFeBody::Expand(const Mat3& L, const VecX& r) const {
  return RotateNodes(L, E_ * r);
}

VecX ReducedFeBody::ProjectForce(const Mat3& L, const VecX& w) const {
  return E_.transpose() * RotateNodes(L.transpose(), w);
}

VecX ReducedFeBody::Deformation(const Mat3& L) const { return x_ - RotateNodes(L, Z_); }

void ReducedFeBody::StoreReducedState(const VecX& ubar) {
  const int n = num_modes();
  q_.resize(9 + n);
  q_.head<9>() = Eigen::Map<const Eigen::Matrix<double, 9, 1>>(rotation_.data());
  q_.tail(n) = Project(rotation_, Deformation(rotation_));
  u_ = ubar;
  synced_q_ = q_;
  synced_u_ = u_;
}

void ReducedFeBody::RebuildFullState() {
  const int n = num_modes();
  if (q_.size() != 9 + n || u_.size() != n)
    throw InputError("BODY: a " + std::string(FeFormName(form())) + " body needs " +
                     std::to_string(9 + n) + " configuration and " + std::to_string(n) +
                     " velocity values (argument 'conf'/'velo'" + Who(label_) + ")");
  rotation_ = Eigen::Map<const Mat3>(q_.data());
  x_ = RotateNodes(rotation_, Z_ + E_ * q_.tail(n));
  v_ = Expand(rotation_, u_);
  synced_q_ = q_;
  synced_u_ = u_;
}

void ReducedFeBody::SetReducedOperator(double c) {
  if (c == operator_c_) return;
  operator_c_ = c;
  if (modal()) {  // diag(1 + c lambda_i), eq. 87
    Ainv_ = (Mbar_.diagonal() + c * Kbar_.diagonal()).cwiseInverse().asDiagonal();
    return;
  }
  const MatX A = Mbar_ + c * Kbar_;
  Eigen::LLT<MatX> llt(A);
  if (llt.info() != Eigen::Success)
    throw SolverError("RUN: the reduced inertia operator of " + std::string(FeFormName(form())) +
                      " body " + std::to_string(id_) + Who(label_) +
                      " is not positive definite; check the base (argument 'base')");
  Ainv_ = llt.solve(MatX::Identity(A.rows(), A.cols()));
  Ainv_ = 0.5 * (Ainv_ + Ainv_.transpose());
}

void ReducedFeBody::UpdateShape() {
  if (q_.size() != synced_q_.size() || u_.size() != synced_u_.size() || q_ != synced_q_ ||
      u_ != synced_u_)
    RebuildFullState();  // q or u written from outside: READ mode, restart, BODY.conf
  FeBody::UpdateShape();
}

Vec3 ReducedFeBody::PointVelocity(const Vec3& X) const {
  HOperator H;
  FeBody::ComputeH(X, Mat3::Identity(), H);
  Vec3 v = Vec3::Zero();
  for (size_t k = 0; k < H.dofs.size(); ++k) v += H.values.col(k) * v_[H.dofs[k]];
  return v;
}

void ReducedFeBody::ComputeH(const Vec3& X, const Mat3& base, HOperator& H) const {
  HOperator full;
  FeBody::ComputeH(X, base, full);
  const int n = num_modes();
  H.values.setZero(3, n);
  for (size_t k = 0; k + 2 < full.dofs.size(); k += 3) {
    const int node = full.dofs[k] / 3;
    H.values.noalias() += full.values.block<3, 3>(0, k) * rotation_ * E_.middleRows<3>(3 * node);
  }
  H.dofs.resize(n);
  for (int i = 0; i < n; ++i) H.dofs[i] = i;
}

void ReducedFeBody::ApplyInverseInertia(Eigen::Ref<MatX> G) const {
  const MatX r = Ainv_ * G;
  G = r;
}

VecX ReducedFeBody::FullExternalForce(double t, const Vec3& gravity) const {
  FullView full(*this);
  return NodalLoadForce(t, gravity);
}

VecX ReducedFeBody::FullInternalForce() const {
  FullView full(*this);
  return InternalForce();
}

SparseMat ReducedFeBody::FullStiffness() const {
  FullView full(*this);
  return Stiffness();
}

VecX ReducedFeBody::CallbackForce(double t, double h) const {
  VecX f = VecX::Zero(num_modes());
  for (const PointLoad& load : loads_) {
    if (!load.callback) continue;
    const VecX r = load.callback(q_, u_, t, h);
    if (r.size() != num_modes() || !r.allFinite())
      throw InputError("FORCE: callback returned " + std::to_string(r.size()) +
                       " values (argument 'value'); a " + FeFormName(form()) + " body callback "
                       "must return " + std::to_string(num_modes()) +
                       " finite numbers (the reduced force conjugate to velo)");
    f += r;
  }
  return f;
}

VecX ReducedFeBody::ExternalForce(double t, double h, const Vec3& gravity) const {
  return ProjectForce(rotation_, FullExternalForce(t, gravity)) + CallbackForce(t, h);
}

double ReducedFeBody::KineticEnergy() const {
  return 0.5 * v_.dot(lumped_mass().cwiseProduct(v_));
}

double ReducedFeBody::InternalEnergy() const {
  const VecX qbar = q_.tail(num_modes());
  return 0.5 * qbar.dot(Kbar_ * qbar);
}

void ReducedFeBody::SetInitialVelocity(const Vec3& linear, const Vec3& angular) {
  u_ = VecX::Zero(x_.size());  // FeBody writes the full rigid field into u_
  FeBody::SetInitialVelocity(linear, angular);
  const VecX ubar = Project(rotation_, u_);
  v_ = Expand(rotation_, ubar);
  StoreReducedState(ubar);
}

void ReducedFeBody::SetCharacteristics(double mass, double volume, const Vec3& center,
                                       const Mat3& tensor) {
  FeBody::SetCharacteristics(mass, volume, center, tensor);
  BuildReducedMatrices();
}

}  // namespace solfec::body
