// Local dynamics assembly: W = h H A^-1 H^T in 3x3 blocks, B = H u_free, laws per row.
#include "local_dynamics/local_dynamics.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <string>
#include <typeinfo>
#include <unordered_map>

#include "base/counting_sort.h"
#include "base/errors.h"
#include "base/math.h"
#include "body/fem/fe_body.h"

namespace solfec::local_dynamics {

using contact::Constraint;
using contact::ConstraintKind;
using solvers::Law;
using solvers::LawKind;

namespace {

// Whether an H column has a nonzero entry (a dof the row's velocity depends on).
bool NonZero(const Eigen::Ref<const Vec3>& c) { return c[0] != 0.0 || c[1] != 0.0 || c[2] != 0.0; }

// Current spatial position of a constraint's point on body1 (or its fixed anchor).
Vec3 Point1(const Constraint& c) {
  return c.body1 ? c.body1->SpatialPoint(c.X1) : c.X_origin;
}

// PUT_SPRING row: R_N = f(s, v) at the implicit-midpoint stroke s = s(t+h/2) + h/4 (U_N - V)
// and velocity v = (U_N + V)/2 (V = U_N at t; q(t+h/2) -+ h/2 u gives q(t), q(t+h)), which
// conserves the energy of a linear spring; linearised once at the free velocity U_N = B_N
// with central differences. A positive slope (unstable f) is dropped: f acts explicitly.
// QUASI_STATIC (stroke at q(t), q(t+h) = q(t) + h u): f at s(t) + h U_N and v = U_N,
// linearised at U_N = 0 (the increment vanishes at equilibrium, where R_N = f(s, 0) exactly).
void SetSpringLaw(const Constraint& c, double B_N, double h, Law& law) {
  const bool qs = c.spring_quasi_static;
  law.kind = LawKind::kSpring;
  law.spring_U0 = qs ? 0.0 : B_N;
  // Stroke stops (limits): U_N <= (hi - stroke) / h and U_N >= (lo - stroke) / h. QUASI_STATIC
  // (stroke at q(t), q(t+h) = q(t) + h U_N): the end-of-step stroke stays in [lo, hi].
  // DYNAMIC (stroke at t+h/2): reaching 1/h rather than the exact 2/h makes the stop
  // perfectly plastic: the error e and velocity V at a held stop map as
  // (e, hV) -> (e/2 + hV/4, -e - hV/2), a nilpotent map, so both vanish after two steps
  // (2/h would reflect V every step); the stroke may pass the limit by ~h V/4 on impact.
  if (std::isfinite(c.spring_lo)) law.spring_U_lo = (c.spring_lo - c.stroke) / h;
  if (std::isfinite(c.spring_hi)) law.spring_U_hi = (c.spring_hi - c.stroke) / h;
  if (!c.spring_function) return;  // e.g. restored from a results file: no force
  const double V = c.U_prev.z();
  const double s = qs ? c.stroke : c.stroke + 0.25 * h * (B_N - V);
  const double v = qs ? 0.0 : 0.5 * (B_N + V);
  const auto& f = c.spring_function;
  // Difference steps relative to the spring's length and velocity scales (floor 1 nm).
  const double Ls = std::abs(s) + std::abs(c.spring_length0) + (c.point2 - c.point).norm() + 1e-9;
  const double ds = 1e-6 * Ls;
  const double dv = 1e-6 * (std::abs(v) + std::abs(B_N) + std::abs(V) + Ls / h);
  const double f0 = f(s, v);
  const double fs = (f(s + ds, v) - f(s - ds, v)) / (2.0 * ds);
  const double fv = (f(s, v + dv) - f(s, v - dv)) / (2.0 * dv);
  if (!std::isfinite(f0) || !std::isfinite(fs) || !std::isfinite(fv))
    throw InputError("PUT_SPRING: the spring function of constraint " + std::to_string(c.id) +
                     " is not finite near stroke " + std::to_string(s) + ", velocity " +
                     std::to_string(v) + "; it must return a finite force");
  law.spring_force = f0;
  law.spring_slope = std::min(0.0, qs ? h * fs + fv : 0.25 * h * fs + 0.5 * fv);
}

}  // namespace

Law MakeLaw(const Constraint& c, double t, double h, bool quasi_static) {
  Law law;
  const Vec3 n = c.base.col(2);
  const double reach = quasi_static ? 1.0 / h : 2.0 / h;  // U per unit position error
  // FIX_POINT / FIX_DIRECTION: the position error is measured at t+h/2 and removed at the
  // next step's mid-point (1/h), as for RIGLNK below: 2/h (exact at t+h) keeps a velocity
  // along the constraint alternating in sign from step to step for ever after any kick
  // (U(t+h) = -U(t) at a fixed position; two_fuel_bricks' key: +-0.34 rad/s, +-400 N).
  const double hold = 1.0 / h;
  switch (c.kind) {
    case ConstraintKind::kContact: {
      law.kind = LawKind::kSignoriniCoulomb;
      if (c.material) {
        law.friction = c.material->friction;
        law.restitution = quasi_static ? 0.0 : c.material->restitution;
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
      law.target = c.base.transpose() * hold * (c.X_origin - Point1(c));
      break;
    }
    case ConstraintKind::kFixDirection: {
      law.kind = LawKind::kNormalEquality;
      if (c.body2)  // two bodies: U = n . (v2 - v1) keeps n . (x2 - x1) at its start value
        law.target.z() =
            hold * n.dot(c.X_origin - (c.body2->SpatialPoint(c.X2) - Point1(c)));
      else
        law.target.z() = hold * n.dot(c.X_origin - Point1(c));
      break;
    }
    case ConstraintKind::kVeloDir: {
      law.kind = LawKind::kNormalEquality;
      if (c.has_displacement) {
        // SET_DISPLACEMENT: the velocity of the series' secant over the step plus the error
        // of the point's displacement u now against the series, with reach 1/h. DYNAMIC: u is
        // at t + h/2 and compared with the mean of d(t) and d(t + h); the step's end then
        // meets d(t + h) within two steps of a change of slope, the velocity the secant's.
        // (A reach of 2/h, exact at t + h each step, leaves the velocity alternating about
        // the secant's for ever after a change of slope: 0 and 2 v for a start at speed v.)
        const double u = n.dot(Point1(c) - c.X_origin);
        const double d1 = c.displacement.Value(t + h);
        if (quasi_static) {
          law.target.z() = (d1 - u) / h;
        } else {
          const double d0 = c.displacement.Value(t);
          law.target.z() = (d1 - d0) / h + (0.5 * (d0 + d1) - u) / h;
        }
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
        law.target = c.base.transpose() * reach * (x1 - x2);
      } else {
        // The length error is measured at t+h/2 (DYNAMIC) and the next step measures it at
        // t+3h/2 = t+h/2 + h U: a reach of 1/h removes it there, whereas 2/h (exact at t+h)
        // would return it with the opposite sign at t+3h/2, an undamped oscillation of the
        // length that GS inaccuracies grow (a chain of links: issue 34).
        law.kind = LawKind::kNormalEquality;
        law.target.z() = (c.length - (x2 - x1).norm()) / h;
      }
      break;
    }
    case ConstraintKind::kSpring:
      law.kind = LawKind::kSpring;  // force and slope need B (SetSpringLaw in Assemble)
      break;
    case ConstraintKind::kGlue:  // PARTITION: x2 - x1 -> 0 (U = v2 - v1, identity base)
      law.kind = LawKind::kEquality;
      law.target = c.base.transpose() * reach * (Point1(c) - c.body2->SpatialPoint(c.X2));
      break;
  }
  return law;
}

void LocalDynamics::BuildEntry(body::Body* b, const Vec3& X, int node,
                               const body::MeshFacePoint& face, const Mat3& base, double sign,
                               Entry& e) const {
  e.body = b;
  e.sign = sign;
  e.diag = nullptr;
  e.H.nodes.clear();  // bodies without the node form leave it empty
  body::ComputeConstraintH(*b, X, node, face, base, e.H);
  const int nd = b->num_dofs();
  e.dense6 = nd == 6 && e.H.dofs.size() == 6;
  // Plain FeBody with the co-rotated operator: G later, from cached columns (no solve).
  const auto* fe = typeid(*b) == typeid(body::FeBody) ? static_cast<body::FeBody*>(b) : nullptr;
  e.compact = fe && fe->corotated_operator();
  if (e.compact) return;
  if (!e.dense6 && (e.diag = b->DiagonalInertia())) return;  // Block divides by the masses
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

void LocalDynamics::BuildCompactEntries(body::Body* b, const std::vector<Entry*>& entries) {
  // The body's contact nodes (first-use order) and each dof's row in the compact G.
  const auto& fe = static_cast<const body::FeBody&>(*b);
  std::vector<int> nodes;
  std::unordered_map<int, int> slot;
  for (Entry* e : entries) {
    e->rows.resize(e->H.dofs.size());
    for (size_t k = 0; k < e->H.dofs.size(); ++k) {
      const int dof = e->H.dofs[k];
      auto [it, inserted] = slot.try_emplace(dof / 3, static_cast<int>(nodes.size()));
      if (inserted) nodes.push_back(dof / 3);
      e->rows[k] = 3 * it->second + dof % 3;
    }
  }
  fe.PrefetchCorotatedColumns(nodes);
  for (Entry* e : entries) fe.CorotatedInverseRows(e->H, nodes, e->G);
}

Mat3 LocalDynamics::Block(const Entry& a, const Entry& b) const {
  if (a.dense6 && b.dense6) return a.H6 * b.G6;
  Mat3 W = Mat3::Zero();
  if (b.diag) {
    // Row d of A^-1 H_b^T is H_b's column at d over the mass of d, zero where H_b has none
    // (the terms of the general loop below, without forming G).
    const VecX& m = *b.diag;
    if (dof_col_.size() < static_cast<size_t>(m.size())) dof_col_.resize(m.size(), -1);
    for (size_t l = 0; l < b.H.dofs.size(); ++l) dof_col_[b.H.dofs[l]] = static_cast<int>(l);
    for (size_t k = 0; k < a.H.dofs.size(); ++k) {
      const int dof = a.H.dofs[k], l = dof_col_[dof];
      if (l >= 0) W += a.H.values.col(k) * Vec3(b.H.values.col(l) / m[dof]).transpose();
    }
    for (int dof : b.H.dofs) dof_col_[dof] = -1;
    return W;
  }
  for (size_t k = 0; k < a.H.dofs.size(); ++k) {
    const int dof = b.compact ? a.rows[k] : a.H.dofs[k];  // a and b: entries of one body
    W += a.H.values.col(k) * (b.dense6 ? Vec3(b.G6.row(dof).transpose())
                                       : Vec3(b.G.row(dof).transpose()))
                                  .transpose();
  }
  return W;
}

Mat3 LocalDynamics::PairBlock(const Entry& a, bool scattered, const Entry& b) const {
  return scattered && !b.H.nodes.empty() ? ScatteredBlock(a, b) : Block(a, b);
}

void LocalDynamics::ClearNodeWeights(const Entry& e) {
  for (int node : e.H.nodes) node_weight_[node] = 0.0;
}

bool LocalDynamics::ScatterNodeWeights(const Entry& e) {
  if (!e.diag || e.H.nodes.empty()) return false;
  const VecX& m = *e.diag;
  for (int node : e.H.nodes)
    if (m[3 * node + 1] != m[3 * node] || m[3 * node + 2] != m[3 * node]) return false;
  const size_t nodes = static_cast<size_t>(m.size() / 3);
  if (node_weight_.size() < nodes) node_weight_.resize(nodes, 0.0);
  for (size_t k = 0; k < e.H.nodes.size(); ++k) node_weight_[e.H.nodes[k]] = e.H.weights[k];
  return true;
}

Mat3 LocalDynamics::ScatteredBlock(const Entry& a, const Entry& b) const {
  const VecX& m = *b.diag;
  double s = 0.0;
  for (size_t l = 0; l < b.H.nodes.size(); ++l) {
    const int node = b.H.nodes[l];
    const double wa = node_weight_[node];
    if (wa != 0.0) s += wa * b.H.weights[l] / m[3 * node];
  }
  return s * (a.H.frame * b.H.frame.transpose());
}

void LocalDynamics::Assemble(const std::vector<Constraint*>& cons, double t, double h,
                             solvers::BlockProblem& P, Options options) {
  const bool matrix_free = options.matrix_free;
  const int n = static_cast<int>(cons.size());
  P.Resize(n);
  P.step = h;
  P.W_operator = nullptr;
  h_ = h;
  rows_ = n;
  bodies_.clear();
  if (static_cast<int>(entries_.size()) < n) entries_.resize(n);
  num_entries_.assign(n, 0);

  // Per-row H and A^-1 H^T; rows attached to each (non-obstacle) body.
  std::unordered_map<const body::Body*, int> index;
  int num_bodies = 0;
  for (auto& rows : rows_of_body_) rows.clear();
  for (int i = 0; i < n; ++i) {
    const Constraint& c = *cons[i];
    const bool two = c.body1 && c.body2;
    if (c.body1)
      BuildEntry(c.body1, c.X1, -1, c.face1, c.base, two ? -1.0 : 1.0,
                 entries_[i][num_entries_[i]++]);
    if (c.body2)
      BuildEntry(c.body2, c.X2, contact::SlaveNode(c), {}, c.base, 1.0,
                 entries_[i][num_entries_[i]++]);
    for (int k = 0; k < num_entries_[i]; ++k) {
      Entry& e = entries_[i][k];
      e.body_index = -1;
      if (e.body->kind() == body::BodyKind::kObstacle && !options.obstacles) continue;
      auto [it, inserted] = index.try_emplace(e.body, num_bodies);
      if (inserted) bodies_.push_back(e.body);
      if (inserted && ++num_bodies > static_cast<int>(rows_of_body_.size()))
        rows_of_body_.emplace_back();
      e.body_index = it->second;
      std::vector<int>& rows = rows_of_body_[e.body_index];
      if (rows.empty() || rows.back() != i) rows.push_back(i);  // self-contact: once
    }
  }
  // Co-rotated FE bodies: G of all their entries at once (shared contact-node list).
  std::vector<std::vector<Entry*>> compact(num_bodies);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < num_entries_[i]; ++k)
      if (entries_[i][k].compact) compact[entries_[i][k].body_index].push_back(&entries_[i][k]);
  for (int b = 0; b < num_bodies; ++b)
    if (!compact[b].empty()) BuildCompactEntries(bodies_[b], compact[b]);

  auto apply_H = [](const Entry& e, const VecX& u) {
    Vec3 r = Vec3::Zero();
    for (size_t k = 0; k < e.H.dofs.size(); ++k) r += e.H.values.col(k) * u[e.H.dofs[k]];
    return r;
  };

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
    P.laws[i] = MakeLaw(c, t, h, options.quasi_static);
    if (c.kind == ConstraintKind::kSpring) SetSpringLaw(c, B.z(), h, P.laws[i]);
    P.R[i] = c.R;
  }
  HoldRedundantContacts(cons, P, num_bodies);
  AssembleW(P, !matrix_free);
  if (matrix_free) {
    operator_ = Operator(this);
    P.W_operator = &operator_;
  }
}

solvers::Law HeldContactLaw() {
  solvers::Law law;
  law.kind = LawKind::kSpring;  // R_T = 0, R_N = 0 + 0 (U_N - 0)
  return law;
}

void LocalDynamics::HoldRedundantContacts(const std::vector<Constraint*>& cons,
                                          solvers::BlockProblem& P, int num_bodies) {
  const int n = static_cast<int>(cons.size());
  // Per body: its single-body bilateral rows as (entry, local component) pairs; allocated at
  // the first such row, so a model without them pays one pass over its constraints.
  std::vector<std::vector<std::pair<const Entry*, int>>> rows;
  for (int i = 0; i < n; ++i) {
    if (num_entries_[i] != 1) continue;
    const Constraint& c = *cons[i];
    const Entry& e = entries_[i][0];
    if (e.body_index < 0 || !e.dense6) continue;
    int first = 2;  // the normal component only
    switch (c.kind) {
      case ConstraintKind::kFixPoint: first = 0; break;
      case ConstraintKind::kRigidLink: first = c.length <= 0.0 ? 0 : 2; break;
      case ConstraintKind::kFixDirection:
      case ConstraintKind::kVeloDir: break;
      default: continue;
    }
    if (rows.empty()) rows.resize(num_bodies);
    for (int j = first; j < 3; ++j) rows[e.body_index].emplace_back(&e, j);
  }
  if (rows.empty()) return;
  // Per body (when needed): eigen-decomposition of the Gram matrix K of its bilateral rows.
  struct Span {
    bool done = false;
    MatX V;  // eigenvectors of the eigenvalues kept
    VecX inv;  // their inverses
  };
  std::vector<Span> spans(num_bodies);
  auto span = [&](int b) -> const Span& {
    Span& s = spans[b];
    if (s.done) return s;
    s.done = true;
    const auto& r = rows[b];
    const int m = static_cast<int>(r.size());
    MatX K(m, m);
    for (int p = 0; p < m; ++p)
      for (int q = 0; q < m; ++q)
        K(p, q) = r[p].first->H6.row(r[p].second).dot(r[q].first->G6.col(r[q].second));
    Eigen::SelfAdjointEigenSolver<MatX> eig(K);
    const VecX& lambda = eig.eigenvalues();
    const double cut = 1e-12 * std::max(lambda.maxCoeff(), 0.0);
    int kept = 0;
    for (int l = 0; l < m; ++l) kept += lambda[l] > cut;
    s.V.resize(m, kept);
    s.inv.resize(kept);
    for (int l = 0, k = 0; l < m; ++l) {
      if (!(lambda[l] > cut)) continue;
      s.V.col(k) = eig.eigenvectors().col(l);
      s.inv[k++] = 1.0 / lambda[l];
    }
    return s;
  };
  for (int i = 0; i < n; ++i) {
    const Constraint& c = *cons[i];
    const solvers::Law& law = P.laws[i];
    if (c.kind != ConstraintKind::kContact || law.kind != LawKind::kSignoriniCoulomb ||
        law.cohesive || law.spring_dashpot)
      continue;
    bool held = true;
    for (int k = 0; k < num_entries_[i] && held; ++k) {
      const Entry& e = entries_[i][k];
      if (e.body_index < 0) continue;  // an OBSTACLE moves as prescribed
      const auto& r = rows[e.body_index];
      if (!e.dense6 || r.empty()) {
        held = false;
        break;
      }
      const Span& s = span(e.body_index);
      const double free = e.H6.row(2).dot(e.G6.col(2));  // h_N A^-1 h_N^T
      VecX w(r.size());
      for (size_t p = 0; p < r.size(); ++p)
        w[p] = r[p].first->H6.row(r[p].second).dot(e.G6.col(2));
      const VecX y = s.V.transpose() * w;
      const double blocked = y.dot(s.inv.cwiseProduct(y));  // w^T K^+ w
      held = free - blocked <= kHeldTolerance * free;
    }
    if (held) {
      P.laws[i] = HeldContactLaw();
      P.R[i].setZero();
    }
  }
}

void LocalDynamics::AssembleW(solvers::BlockProblem& P, bool full) {
  const int n = rows_;
  const double h = h_;
  P.row_ptr.assign(1, 0);
  P.col.clear();
  P.W.clear();
  if (!full) {
    // Diagonal blocks only: W_ii = sum over pairs of entries of row i on one body.
    for (int i = 0; i < n; ++i) {
      Mat3 Wii = Mat3::Zero();
      for (int ka = 0; ka < num_entries_[i]; ++ka) {
        const Entry& ea = entries_[i][ka];
        if (ea.body_index < 0) continue;
        const bool scattered = ScatterNodeWeights(ea);
        for (int kb = 0; kb < num_entries_[i]; ++kb) {
          const Entry& eb = entries_[i][kb];
          if (eb.body == ea.body) Wii += (h * ea.sign * eb.sign) * PairBlock(ea, scattered, eb);
        }
        if (scattered) ClearNodeWeights(ea);
      }
      P.col.push_back(i);
      P.W.push_back(Wii);
      P.row_ptr.push_back(i + 1);
    }
    return;
  }
  slot_.assign(n, -1);
  IndexSharedDofs();
  seen_.assign(n, -1);
  int stamp = 0;
  std::vector<int> touched;
  for (int i = 0; i < n; ++i) {
    // Row i of W: diagonal first, then couplings through shared bodies (sorted columns).
    const size_t start = P.col.size();
    P.col.push_back(i);
    P.W.push_back(Mat3::Zero());
    slot_[i] = static_cast<int>(start);
    touched.assign(1, i);
    for (int ka = 0; ka < num_entries_[i]; ++ka) {
      const Entry& ea = entries_[i][ka];
      if (ea.body_index < 0) continue;
      // Node form on a lumped-mass body: ea's weights scattered by node, so that a block with
      // another node-form entry sums over that entry's nodes alone.
      const bool scattered = ScatterNodeWeights(ea);
      auto couple = [&](int j) {
        for (int kb = 0; kb < num_entries_[j]; ++kb) {
          const Entry& eb = entries_[j][kb];
          if (eb.body != ea.body) continue;
          if (slot_[j] < 0) {
            slot_[j] = static_cast<int>(P.col.size());
            P.col.push_back(j);
            P.W.push_back(Mat3::Zero());
            touched.push_back(j);
          }
          P.W[slot_[j]] += (h * ea.sign * eb.sign) * PairBlock(ea, scattered, eb);
        }
      };
      if (!ea.diag) {
        for (int j : rows_of_body_[ea.body_index]) couple(j);
        continue;
      }
      // Diagonal A: only the rows sharing a dof where both H columns are nonzero (the other
      // blocks are zero), each once.
      const int base = shared_base_[ea.body_index];
      ++stamp;
      auto couple_sharing = [&](int d) {
        for (int p = d > 0 ? shared_end_[d - 1] : 0; p < shared_end_[d]; ++p) {
          const int j = shared_by_dof_[p].second;
          if (seen_[j] == stamp) continue;
          seen_[j] = stamp;
          couple(j);
        }
      };
      if (node_keys_[ea.body_index]) {
        for (int node : ea.H.nodes) couple_sharing(base + 3 * node);
      } else {
        for (size_t k = 0; k < ea.H.dofs.size(); ++k)
          if (NonZero(ea.H.values.col(k))) couple_sharing(base + ea.H.dofs[k]);
      }
      if (scattered) ClearNodeWeights(ea);
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

void LocalDynamics::IndexSharedDofs() {
  const int nb = static_cast<int>(bodies_.size());
  shared_base_.assign(nb, -1);
  int total = 0;
  for (int b = 0; b < nb; ++b)
    if (bodies_[b]->DiagonalInertia()) {
      shared_base_[b] = total;
      total += bodies_[b]->num_dofs();
    }
  // A body whose entries all have H in node form (all three dofs of each node nonzero) is
  // keyed by node (its first dof): a third of the pairs, the same rows found.
  node_keys_.assign(nb, 1);
  for (int i = 0; i < rows_; ++i)
    for (int k = 0; k < num_entries_[i]; ++k) {
      const Entry& e = entries_[i][k];
      if (e.diag && e.body_index >= 0 && e.H.nodes.empty()) node_keys_[e.body_index] = 0;
    }
  // (dof, row) of the entries' nonzero columns, rows in increasing order, then sorted by dof
  // (stable: each dof's rows stay in increasing order).
  shared_pairs_.clear();
  for (int i = 0; i < rows_; ++i)
    for (int k = 0; k < num_entries_[i]; ++k) {
      const Entry& e = entries_[i][k];
      if (!e.diag || e.body_index < 0) continue;
      const int base = shared_base_[e.body_index];
      if (node_keys_[e.body_index]) {
        for (int node : e.H.nodes) shared_pairs_.emplace_back(base + 3 * node, i);
        continue;
      }
      for (size_t c = 0; c < e.H.dofs.size(); ++c)
        if (NonZero(e.H.values.col(c))) shared_pairs_.emplace_back(base + e.H.dofs[c], i);
    }
  CountingSortBy(shared_pairs_, total, [](const std::pair<int, int>& p) { return p.first; },
                 shared_end_, shared_by_dof_);
}

void LocalDynamics::ApplyW(const std::vector<Vec3>& x, std::vector<Vec3>& y) {
  // z_b = sum over rows i on body b of sign H^T x_i; z_b <- A_b^-1 z_b; y_i = h sign H z_b.
  const int nb = static_cast<int>(bodies_.size());
  if (static_cast<int>(body_work_.size()) < nb) body_work_.resize(nb);
  for (int b = 0; b < nb; ++b) body_work_[b].setZero(bodies_[b]->num_dofs(), 1);
  for (int i = 0; i < rows_; ++i) {
    for (int k = 0; k < num_entries_[i]; ++k) {
      const Entry& e = entries_[i][k];
      if (e.body_index < 0) continue;
      MatX& z = body_work_[e.body_index];
      const Vec3 r = e.sign * x[i];
      for (size_t d = 0; d < e.H.dofs.size(); ++d) z(e.H.dofs[d], 0) += e.H.values.col(d).dot(r);
    }
  }
  for (int b = 0; b < nb; ++b) bodies_[b]->ApplyInverseInertia(body_work_[b]);
  y.assign(rows_, Vec3::Zero());
  for (int i = 0; i < rows_; ++i) {
    Vec3 yi = Vec3::Zero();
    for (int k = 0; k < num_entries_[i]; ++k) {
      const Entry& e = entries_[i][k];
      if (e.body_index < 0) continue;
      const MatX& z = body_work_[e.body_index];
      Vec3 v = Vec3::Zero();
      for (size_t d = 0; d < e.H.dofs.size(); ++d) v += e.H.values.col(d) * z(e.H.dofs[d], 0);
      yi += (h_ * e.sign) * v;
    }
    y[i] = yi;
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
