// Ellipsoid with volume and surface ids (Solfec-1.0's ELLIP): the set
// {x : |D^-1 R^T (x - center)| <= 1}, D = diag(radii), R = rot (columns: the semi-axes).
#pragma once

#include <string>

#include "base/types.h"
#include "geometry/aabb.h"
#include "geometry/mass_properties.h"

namespace solfec::geometry {

struct Ellipsoid {
  Vec3 center = Vec3::Zero();
  Vec3 radii = Vec3::Ones();
  Mat3 rot = Mat3::Identity();  // proper rotation; column i is the direction of radii[i]
  int volid = 0;
  int surfid = 0;

  // Throws InputError naming `routine` for a non-finite centre or a radius that is not
  // finite and > 0 (argument 'radii').
  void Validate(const std::string& routine) const;
  // Exact box: half-width along axis k is sqrt(sum_i (rot(k, i) radii[i])^2).
  Aabb Bounds() const;
  // V = 4/3 pi a b c; Euler tensor about the centre E = V/5 R diag(a^2, b^2, c^2) R^T.
  MassProperties ComputeMassProperties() const;
  // x -> A x + t (any invertible A): the image is an ellipsoid whose radii and axes are the
  // singular values and left singular vectors of A R diag(radii); the axes are matched to
  // the images of the old ones (order and sign) so that they move continuously.
  void Transform(const Mat3& A, const Vec3& t);
  // Q = R D^2 R^T: the support function is h(n) = center.n + sqrt(n^T Q n).
  Mat3 Q() const;
  // Point of the ellipsoid furthest along d (d != 0): center + Q d / sqrt(d^T Q d).
  Vec3 Support(const Vec3& d) const;
  // Outward unit normal at a point x of the surface (gradient of |D^-1 R^T (x - c)|^2).
  Vec3 Normal(const Vec3& x) const;
  bool Contains(const Vec3& p, double eps = 0.0) const;
};

// The ellipsoid A R0 diag(r0) maps to, given as (radii, rot): singular values and left
// singular vectors of B = A R0 diag(r0), columns ordered and signed to follow the columns
// of B (a proper rotation).
void AffineEllipsoidAxes(const Mat3& B, Vec3* radii, Mat3* rot);

}  // namespace solfec::geometry
