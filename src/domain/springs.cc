// PUT_SPRING constraints: initial length and axis at creation, points/axis/stroke per step.
#include "domain/springs.h"

#include <cmath>
#include <string>

#include "base/errors.h"
#include "base/math.h"

namespace solfec::domain {

using contact::Constraint;
using contact::SpringUpdate;

namespace {

Vec3 Point1(const Constraint& c) { return c.body1 ? c.body1->SpatialPoint(c.X1) : c.X_origin; }
Vec3 Point2(const Constraint& c) { return c.body2 ? c.body2->SpatialPoint(c.X2) : c.X_origin; }

// The body and referential point that convect the axis (CONV1/CONV2), or null.
body::Body* ConvectingBody(const Constraint& c, Vec3& X) {
  if (c.spring_update == SpringUpdate::kConvected1) {
    X = c.X1;
    return c.body1;
  }
  if (c.spring_update == SpringUpdate::kConvected2) {
    X = c.X2;
    return c.body2;
  }
  return nullptr;
}

}  // namespace

Vec3 SpringAxis(const Constraint& c, const Vec3& x1, const Vec3& x2) {
  switch (c.spring_update) {
    case SpringUpdate::kFollower: {
      const Vec3 d = x2 - x1;
      const double L = d.norm();
      // Coincident points: keep the previous axis (base N is flipped for one-body springs).
      if (!(L > 1e-12 * (1.0 + c.spring_length0)))
        return c.body2 ? Vec3(c.base.col(2)) : Vec3(-c.base.col(2));
      return d / L;
    }
    case SpringUpdate::kFixed:
      return c.direction;
    case SpringUpdate::kConvected1:
    case SpringUpdate::kConvected2: {
      Vec3 X;
      const body::Body* b = ConvectingBody(c, X);
      const Vec3 d = b->SpatialPoint(X + c.spring_direction_ref) - b->SpatialPoint(X);
      return d.norm() > 0.0 ? Vec3(d.normalized()) : c.direction;
    }
  }
  return c.direction;
}

void UpdateSpring(Constraint& c, bool quasi_static) {
  c.spring_quasi_static = quasi_static;
  c.point = Point1(c);
  c.point2 = Point2(c);
  const Vec3 n = SpringAxis(c, c.point, c.point2);
  const Vec3 d = c.point2 - c.point;
  const double L = c.spring_update == SpringUpdate::kFollower ? d.norm() : d.dot(n);
  c.stroke = L - c.spring_length0;
  // One-body spring with the body as body1: U = base^T v1 and R acts on body1 with +, so the
  // axis is flipped to keep U_N = d stroke/dt and R_N > 0 increasing the stroke.
  c.base = BaseFromNormal(c.body2 ? n : Vec3(-n));
}

double CurrentStroke(const Constraint& c) {
  const Vec3 x1 = Point1(c), x2 = Point2(c);
  const Vec3 d = x2 - x1;
  const double L = c.spring_update == SpringUpdate::kFollower ? d.norm()
                                                              : d.dot(SpringAxis(c, x1, x2));
  return L - c.spring_length0;
}

double SpringPotential(const Constraint& c) {
  if (!c.spring_function) return 0.0;
  const double s = CurrentStroke(c);
  if (s == 0.0) return 0.0;
  // 5-point Gauss-Legendre rule on 2 halves of [0, s].
  constexpr double kX[5] = {0.0, -0.5384693101056831, 0.5384693101056831,
                            -0.9061798459386640, 0.9061798459386640};
  constexpr double kW[5] = {0.5688888888888889, 0.4786286704993665, 0.4786286704993665,
                            0.2369268850561891, 0.2369268850561891};
  double work = 0.0;
  for (int half = 0; half < 2; ++half) {
    const double mid = (0.25 + 0.5 * half) * s, rad = 0.25 * s;
    for (int k = 0; k < 5; ++k) work += kW[k] * rad * c.spring_function(mid + rad * kX[k], 0.0);
  }
  return -work;
}

double SpringDashpotWork(const Constraint& c, double h) {
  if (!c.spring_function) return 0.0;
  const double UN = c.U.z(), V = c.U_prev.z();
  const double s = c.spring_quasi_static ? c.stroke + h * UN : c.stroke + 0.25 * h * (UN - V);
  const double Um = c.spring_quasi_static ? UN : 0.5 * (UN + V);
  return h * (c.R.z() - c.spring_function(s, 0.0)) * Um;
}

contact::Constraint MakeSpring(body::Body* body1, const Vec3& p1, body::Body* body2,
                               const Vec3& p2, contact::SpringFunction f,
                               const std::optional<Vec3>& direction, SpringUpdate update) {
  const char* r = "PUT_SPRING: ";
  if (!body1 && !body2)
    throw InputError(std::string(r) + "both bodies are None (arguments 'body1', 'body2'); pass "
                     "at least one BODY");
  if (body1 && body1 == body2)
    throw InputError(std::string(r) + "'body1' and 'body2' are the same body; a spring joins "
                     "two bodies or a body and a fixed point");
  if (!f) throw InputError(std::string(r) + "the spring function is missing (argument 'function')");
  Constraint c;
  c.kind = contact::ConstraintKind::kSpring;
  c.body1 = body1;
  c.body2 = body2;
  c.X1 = p1;
  c.X2 = p2;
  // The fixed end of a one-body spring is a spatial point.
  if (!body1) c.X_origin = p1;
  if (!body2) c.X_origin = p2;
  c.spring_function = std::move(f);
  const Vec3 x1 = Point1(c), x2 = Point2(c);
  if (!direction) {
    if (update != SpringUpdate::kFixed)
      throw InputError(std::string(r) + "'update' needs 'direction' (a follower spring acts "
                       "along the line of its points); pass 'direction' or drop 'update'");
    c.spring_update = SpringUpdate::kFollower;
    const double L = (x2 - x1).norm();
    // Coincident points (Solfec-1.0): rest length 0, axis (0, 0, 1) while they coincide,
    // then along their separation (SpringAxis keeps the previous axis at zero length).
    const Vec3 n = L > 0.0 ? Vec3((x2 - x1) / L) : Vec3(0.0, 0.0, 1.0);
    c.spring_length0 = L;
    c.base = BaseFromNormal(body2 ? n : Vec3(-n));
  } else {
    const double dn = direction->norm();
    if (!(dn > 0.0) || !std::isfinite(dn))
      throw InputError(std::string(r) + "'direction' must be a nonzero finite vector");
    // Solfec-1.0 (dom.c update_spring) measures the stroke along the direction from point 2
    // to point 1, s = (x1 - x2) . d - L0: the axis kept here is -d, so s = (x2 - x1) . axis.
    c.direction = -*direction / dn;
    c.spring_update = update;
    Vec3 X;
    if (update == SpringUpdate::kConvected1 || update == SpringUpdate::kConvected2) {
      const body::Body* b = ConvectingBody(c, X);
      const char* which = update == SpringUpdate::kConvected1 ? "CONV1" : "CONV2";
      if (!b)
        throw InputError(std::string(r) + "update '" + which + "' convects the direction "
                         "with a body that is None; use 'FIXED' or pass that body");
      if (b->kind() == body::BodyKind::kFiniteElement)
        throw InputError(std::string(r) + "update '" + which + "' is not available for "
                         "FINITE_ELEMENT bodies in this version; use 'FIXED'");
      const Vec3 x = b->SpatialPoint(X);
      c.spring_direction_ref = b->ReferentialPoint(x + c.direction) - b->ReferentialPoint(x);
    }
    c.spring_length0 = (x2 - x1).dot(c.direction);
    c.base = BaseFromNormal(body2 ? c.direction : Vec3(-c.direction));
  }
  UpdateSpring(c);
  c.stroke = 0.0;
  return c;
}

}  // namespace solfec::domain
