// Body state codec: one definition of what a body's state is (body_state.h).
#include "body/body_state.h"

#include <stdexcept>
#include <string>

namespace solfec::body {

std::array<double, 3> WorkOf(const Body& b) {
  return {b.external_work, b.contact_work, b.friction_work};
}

void SetWork(Body& b, const std::array<double, 3>& work) {
  b.external_work = work[0];
  b.contact_work = work[1];
  b.friction_work = work[2];
}

BodyState PackState(const Body& b) {
  BodyState s;
  s.id = b.id();
  s.q = b.q().data();
  s.nq = static_cast<int>(b.q().size());
  s.u = b.u().data();
  s.nu = static_cast<int>(b.u().size());
  s.work = WorkOf(b);
  return s;
}

bool StateFits(const Body& b, const BodyState& s) {
  return b.q().size() == s.nq && b.u().size() == s.nu;
}

void UnpackState(Body& b, const BodyState& s) {
  if (!StateFits(b, s))
    throw std::invalid_argument("UnpackState: body " + std::to_string(b.id()) + " has q, u of " +
                                std::to_string(b.q().size()) + ", " +
                                std::to_string(b.u().size()) + " values but the state " +
                                std::to_string(s.nq) + ", " + std::to_string(s.nu));
  b.mutable_q() = Eigen::Map<const VecX>(s.q, s.nq);
  b.mutable_u() = Eigen::Map<const VecX>(s.u, s.nu);
  SetWork(b, s.work);
  b.UpdateShape();
}

std::size_t FlatStateSize(const Body& b) {
  return 6 + static_cast<std::size_t>(b.q().size() + b.u().size());
}

void AppendFlatState(const Body& b, std::vector<double>& out) {
  const BodyState s = PackState(b);
  out.push_back(static_cast<double>(s.id));
  out.push_back(static_cast<double>(s.nq));
  out.push_back(static_cast<double>(s.nu));
  out.insert(out.end(), s.q, s.q + s.nq);
  out.insert(out.end(), s.u, s.u + s.nu);
  out.insert(out.end(), s.work.begin(), s.work.end());
}

BodyState ReadFlatState(const double*& p) {
  BodyState s;
  s.id = static_cast<Id>(p[0]);
  s.nq = static_cast<int>(p[1]);
  s.nu = static_cast<int>(p[2]);
  s.q = p + 3;
  s.u = s.q + s.nq;
  const double* w = s.u + s.nu;
  s.work = {w[0], w[1], w[2]};
  p = w + 3;
  return s;
}

}  // namespace solfec::body
