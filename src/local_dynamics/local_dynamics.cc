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
      }
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

void LocalDynamics::BuildEntries(const Constraint& c, std::vector<Entry>& out) const {
  out.clear();
  auto add = [&](body::Body* b, const Vec3& X, double sign) {
    Entry e;
    e.body = b;
    e.sign = sign;
    b->ComputeH(X, c.base, e.H);
    e.G = MatX::Zero(b->num_dofs(), 3);
    for (size_t k = 0; k < e.H.dofs.size(); ++k) e.G.row(e.H.dofs[k]) = e.H.values.col(k);
    b->ApplyInverseInertia(e.G);
    out.push_back(std::move(e));
  };
  const bool two = c.body1 && c.body2;
  if (c.body1) add(c.body1, c.X1, two ? -1.0 : 1.0);
  if (c.body2) add(c.body2, c.X2, 1.0);
}

void LocalDynamics::Assemble(const std::vector<Constraint*>& cons, double t, double h,
                             solvers::BlockProblem& P) {
  const int n = static_cast<int>(cons.size());
  P.Resize(n);
  P.step = h;
  entries_.resize(n);

  // Per-row H and A^-1 H^T; rows attached to each body (obstacles couple nothing).
  std::unordered_map<const body::Body*, std::vector<int>> rows_of_body;
  for (int i = 0; i < n; ++i) {
    BuildEntries(*cons[i], entries_[i]);
    for (const Entry& e : entries_[i])
      if (e.body->kind() != body::BodyKind::kObstacle) {
        std::vector<int>& rows = rows_of_body[e.body];
        if (rows.empty() || rows.back() != i) rows.push_back(i);  // self-contact: once
      }
  }

  // H_a u for a body entry.
  auto apply_H = [](const Entry& e, const VecX& u) {
    Vec3 r = Vec3::Zero();
    for (size_t k = 0; k < e.H.dofs.size(); ++k) r += e.H.values.col(k) * u[e.H.dofs[k]];
    return r;
  };
  // h H_a G_b over the dofs of H_a.
  auto block = [h](const Entry& a, const Entry& b) {
    Mat3 W = Mat3::Zero();
    for (size_t k = 0; k < a.H.dofs.size(); ++k)
      W += a.H.values.col(k) * b.G.row(a.H.dofs[k]);
    return Mat3(h * a.sign * b.sign * W);
  };

  std::vector<std::pair<int, Mat3>> row;
  std::unordered_map<int, int> slot;
  P.row_ptr.assign(1, 0);
  P.col.clear();
  P.W.clear();
  for (int i = 0; i < n; ++i) {
    Constraint& c = *cons[i];
    // B = H u_free, U_prev = H u(t), law and warm start.
    Vec3 B = Vec3::Zero(), U0 = Vec3::Zero();
    for (const Entry& e : entries_[i]) {
      B += e.sign * apply_H(e, e.body->u_free());
      U0 += e.sign * apply_H(e, e.body->u());
    }
    c.U_prev = U0;
    P.B[i] = B;
    P.laws[i] = MakeLaw(c, t, h);
    P.R[i] = c.R;

    // Row i of W: diagonal first, then couplings through shared bodies.
    row.clear();
    slot.clear();
    row.emplace_back(i, Mat3::Zero());
    slot[i] = 0;
    for (const Entry& ea : entries_[i]) {
      const auto it = rows_of_body.find(ea.body);
      if (it == rows_of_body.end()) continue;
      for (int j : it->second) {
        for (const Entry& eb : entries_[j]) {
          if (eb.body != ea.body) continue;
          auto [s, inserted] = slot.emplace(j, static_cast<int>(row.size()));
          if (inserted) row.emplace_back(j, Mat3::Zero());
          row[s->second].second += block(ea, eb);
        }
      }
    }
    std::sort(row.begin() + 1, row.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [j, W] : row) {
      P.col.push_back(j);
      P.W.push_back(W);
    }
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
    for (const Entry& e : entries_[i]) {
      VecX& imp = e.body->impulse();
      const Vec3 r = (h * e.sign) * P.R[i];
      for (size_t k = 0; k < e.H.dofs.size(); ++k)
        imp[e.H.dofs[k]] += e.H.values.col(k).dot(r);
    }
  }
}

}  // namespace solfec::local_dynamics
