// Combination of mass properties and exact integration of tetrahedral cones.
#include "geometry/mass_properties.h"

namespace solfec::geometry {

MassProperties& MassProperties::operator+=(const MassProperties& o) {
  const double v = volume + o.volume;
  if (v == 0.0) {
    // Nothing (or two cancelling signed pieces) to average over: keep the sum of tensors.
    euler += o.euler;
    return *this;
  }
  const Vec3 c = (volume * center + o.volume * o.center) / v;
  const Vec3 d1 = center - c;
  const Vec3 d2 = o.center - c;
  // Parallel-axis shift of both Euler tensors to the common centroid.
  euler += o.euler + volume * d1 * d1.transpose() + o.volume * d2 * d2.transpose();
  volume = v;
  center = c;
  return *this;
}

void ConeIntegrator::AddTriangle(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ra = a - apex_;
  const Vec3 rb = b - apex_;
  const Vec3 rc = c - apex_;
  const double v = ra.dot(rb.cross(rc)) / 6.0;
  const Vec3 sum = ra + rb + rc;  // the apex contributes a zero vertex
  volume_ += v;
  first_ += v * sum / 4.0;
  // int r r^T dV over a tetrahedron = V/20 (sum_i r_i r_i^T + (sum_i r_i)(sum_i r_i)^T).
  second_ += (v / 20.0) * (ra * ra.transpose() + rb * rb.transpose() + rc * rc.transpose() +
                           sum * sum.transpose());
}

void ConeIntegrator::AddPolygon(const Vec3* vertices, int n) {
  if (n < 3) return;
  if (n == 3) {
    AddTriangle(vertices[0], vertices[1], vertices[2]);
    return;
  }
  Vec3 m = Vec3::Zero();
  for (int i = 0; i < n; ++i) m += vertices[i];
  m /= n;
  for (int i = 0; i < n; ++i) AddTriangle(m, vertices[i], vertices[(i + 1) % n]);
}

MassProperties ConeIntegrator::Finish() const {
  MassProperties mp;
  mp.volume = volume_;
  if (volume_ == 0.0) {
    mp.center = apex_;
    return mp;
  }
  const Vec3 d = first_ / volume_;
  mp.center = apex_ + d;
  mp.euler = second_ - volume_ * d * d.transpose();
  mp.euler = 0.5 * (mp.euler + mp.euler.transpose());
  return mp;
}

}  // namespace solfec::geometry
