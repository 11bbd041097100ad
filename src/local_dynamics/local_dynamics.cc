// Local dynamics assembly: W = h H A^-1 H^T in 3x3 blocks, B = H u_free, laws per row.
#include "local_dynamics/local_dynamics.h"

#include <algorithm>
#include <unordered_map>

#include "base/math.h"

namespace solfec::local_dynamics {

using contact::Constraint;
using contact::ConstraintKind;
using solvers::Law;
using solvers::LawKind;

namespace {

// Current spatial position of a constraint's point on body1 (or its fixed anchor).
Vec3 Point1(const Constraint& c) {
  return c.body1 ? c.body1->SpatialPoint(c.X1) : c.X_origin;
}

}  // namespace

Law MakeLaw(const Constraint& c, double t, double h) {
  Law law;
  const Vec3 n = c.base.col(2);
  switch (c.kind) {
    case ConstraintKind::kContact: {
      law.kind = LawKind::kSignoriniCoulomb;
      if (c.material) {
        law.friction = c.material->friction;
        law.restitution = c.material->restitution;
        law.cohesion = c.material->cohesion * c.area;
        law.spring_dashpot = c.material->model == material::SurfaceModel::kSpringDashpot;
        law.spring = c.material->spring;
        law.dashpot = c.material->dashpot;
        law.hpow = c.material->hpow;
      }
      law.gap = c.gap;
      law.cohesive = c.cohesive;
      law.UN_prev = c.U_prev.z();
      break;
    }
    case ConstraintKind::kFixPoint: {
      law.kind = LawKind::kEquality;
      law.target = c.base.transpose() * (2.0 / h) * (c.X_origin - Point1(c));
      break;
    }
    case ConstraintKind::kFixDirection: {
      law.kind = LawKind::kNormalEquality;
      law.target.z() = (2.0 / h) * n.dot(c.X_origin - Point1(c));
      break;
    }
    case ConstraintKind::kVeloDir: {
      law.kind = LawKind::kNormalEquality;
      if (c.has_displacement) {
        const double d = c.displacement.Value(t + h);
        law.target.z() = (2.0 / h) * (n.dot(c.X_origin - Point1(c)) + d);
      } else {
        law.target.z() = c.velocity(t + h);
      }
      break;
    }
    case ConstraintKind::kRigidLink: {
      // body1 may be an anchor (null body1 means X_origin is fixed in space); body2 moves.
      const Vec3 x1 = Point1(c);
      const Vec3 x2 = c.body2 ? c.body2->SpatialPoint(c.X2) : c.X_origin;
      if (c.length <= 0.0) {
        law.kind = LawKind::kEquality;
        law.target = c.base.transpose() * (2.0 / h) * (x1 - x2);
      } else {
        law.kind = LawKind::kNormalEquality;
        law.target.z() = (2.0 / h) * (c.length - (x2 - x1).norm());
      }
      break;
    }
  }
  return law;
}

void LocalDynamics::BuildEntry(body::Body* b, const Vec3& X, const Mat3& base, double sign,
                               Entry& e) const {
  e.body = b;
  e.sign = sign;
  b->ComputeH(X, base, e.H);
  const int nd = b->num_dofs();
  e.dense6 = nd == 6 && e.H.dofs.size() == 6;
  if (e.dense6) {
    for (int k = 0; k < 6; ++k) {
      e.H6.col(e.H.dofs[k]) = e.H.values.col(k);
    }
    e.G6 = e.H6.transpose();
    b->ApplyInverseInertia(e.G6);
  } else {
    e.G.setZero(nd, 3);
    for (size_t k = 0; k < e.H.dofs.size(); ++k) e.G.row(e.H.dofs[k]) = e.H.values.col(k);
    b->ApplyInverseInertia(e.G);
  }
}

Mat3 LocalDynamics::Block(const Entry& a, const Entry& b) const {
  if (a.dense6 && b.dense6) return a.H6 * b.G6;
  Mat3 W = Mat3::Zero();
  for (size_t k = 0; k < a.H.dofs.size(); ++k) {
    const int dof = a.H.dofs[k];
    W += a.H.values.col(k) * (b.dense6 ? Vec3(b.G6.row(dof).transpose())
                                       : Vec3(b.G.row(dof).transpose()))
                                  .transpose();
  }
  return W;
}

void LocalDynamics::Assemble(const std::vector<Constraint*>& cons, double t, double h,
                             solvers::BlockProblem& P) {
  const int n = static_cast<int>(cons.size());
  P.Resize(n);
  P.step = h;
  if (static_cast<int>(entries_.size()) < n) entries_.resize(n);
  num_entries_.assign(n, 0);

  // Per-row H and A^-1 H^T; rows attached to each (non-obstacle) body.
  std::unordered_map<const body::Body*, int> index;
  int num_bodies = 0;
  for (auto& rows : rows_of_body_) rows.clear();
  for (int i = 0; i < n; ++i) {
    const Constraint& c = *cons[i];
    const bool two = c.body1 && c.body2;
    if (c.body1) BuildEntry(c.body1, c.X1, c.base, two ? -1.0 : 1.0, entries_[i][num_entries_[i]++]);
    if (c.body2) BuildEntry(c.body2, c.X2, c.base, 1.0, entries_[i][num_entries_[i]++]);
    for (int k = 0; k < num_entries_[i]; ++k) {
      Entry& e = entries_[i][k];
      e.body_index = -1;
      if (e.body->kind() == body::BodyKind::kObstacle) continue;
      auto [it, inserted] = index.try_emplace(e.body, num_bodies);
      if (inserted && ++num_bodies > static_cast<int>(rows_of_body_.size()))
        rows_of_body_.emplace_back();
      e.body_index = it->second;
      std::vector<int>& rows = rows_of_body_[e.body_index];
      if (rows.empty() || rows.back() != i) rows.push_back(i);  // self-contact: once
    }
  }

  auto apply_H = [](const Entry& e, const VecX& u) {
    Vec3 r = Vec3::Zero();
    for (size_t k = 0; k < e.H.dofs.size(); ++k) r += e.H.values.col(k) * u[e.H.dofs[k]];
    return r;
  };

  slot_.assign(n, -1);
  std::vector<int> touched;
  P.row_ptr.assign(1, 0);
  P.col.clear();
  P.W.clear();
  for (int i = 0; i < n; ++i) {
    Constraint& c = *cons[i];
    // B = H u_free, U_prev = H u(t), law and warm start.
    Vec3 B = Vec3::Zero(), U0 = Vec3::Zero();
    for (int k = 0; k < num_entries_[i]; ++k) {
      const Entry& e = entries_[i][k];
      B += e.sign * apply_H(e, e.body->u_free());
      U0 += e.sign * apply_H(e, e.body->u());
    }
    c.U_prev = U0;
    P.B[i] = B;
    P.laws[i] = MakeLaw(c, t, h);
    P.R[i] = c.R;

    // Row i of W: diagonal first, then couplings through shared bodies (sorted columns).
    const size_t start = P.col.size();
    P.col.push_back(i);
    P.W.push_back(Mat3::Zero());
    slot_[i] = static_cast<int>(start);
    touched.assign(1, i);
    for (int ka = 0; ka < num_entries_[i]; ++ka) {
      const Entry& ea = entries_[i][ka];
      if (ea.body_index < 0) continue;
      for (int j : rows_of_body_[ea.body_index]) {
        for (int kb = 0; kb < num_entries_[j]; ++kb) {
          const Entry& eb = entries_[j][kb];
          if (eb.body != ea.body) continue;
          if (slot_[j] < 0) {
            slot_[j] = static_cast<int>(P.col.size());
            P.col.push_back(j);
            P.W.push_back(Mat3::Zero());
            touched.push_back(j);
          }
          P.W[slot_[j]] += (h * ea.sign * eb.sign) * Block(ea, eb);
        }
      }
    }
    // Sort the off-diagonal blocks by column.
    const size_t m = P.col.size() - start;
    if (m > 2) {
      std::vector<std::pair<int, Mat3>> row;
      row.reserve(m - 1);
      for (size_t k = start + 1; k < P.col.size(); ++k) row.emplace_back(P.col[k], P.W[k]);
      std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t k = 0; k < row.size(); ++k) {
        P.col[start + 1 + k] = row[k].first;
        P.W[start + 1 + k] = row[k].second;
      }
    }
    for (int j : touched) slot_[j] = -1;
    P.row_ptr.push_back(static_cast<int>(P.col.size()));
  }
}

void LocalDynamics::Scatter(const std::vector<Constraint*>& cons, double h,
                            const solvers::BlockProblem& P) {
  for (size_t i = 0; i < cons.size(); ++i) {
    Constraint& c = *cons[i];
    c.R = P.R[i];
    c.U = P.U[i];
    c.cohesive = P.laws[i].cohesive;
    for (int k = 0; k < num_entries_[i]; ++k) {
      const Entry& e = entries_[i][k];
      VecX& imp = e.body->impulse();
      const Vec3 r = (h * e.sign) * P.R[i];
      for (size_t d = 0; d < e.H.dofs.size(); ++d) imp[e.H.dofs[d]] += e.H.values.col(d).dot(r);
    }
  }
}

}  // namespace solfec::local_dynamics
