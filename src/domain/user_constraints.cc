// FIX_POINT, FIX_DIRECTION, SET_VELOCITY/SET_DISPLACEMENT/SET_ACCELERATION, PUT_RIGID_LINK rows.
#include "domain/user_constraints.h"

#include <utility>

#include "base/math.h"

namespace solfec::domain {

using contact::Constraint;
using contact::ConstraintKind;

namespace {

// A one-point row of `kind` at X on `body`: the point and its spatial origin where it is now.
Constraint PointRow(ConstraintKind kind, body::Body& body, const Vec3& X) {
  Constraint c;
  c.kind = kind;
  c.body1 = &body;
  c.X1 = X;
  c.X_origin = body.SpatialPoint(X);
  c.point = c.X_origin;
  return c;
}

}  // namespace

Constraint MakeFixPoint(body::Body& body, const Vec3& X, double strength) {
  Constraint c = PointRow(ConstraintKind::kFixPoint, body, X);
  c.strength = strength;
  return c;
}

Constraint MakeFixDirection(body::Body& body, const Vec3& X, const Vec3& direction,
                            body::Body* body2, const Vec3& X2) {
  Constraint c = PointRow(ConstraintKind::kFixDirection, body, X);
  c.base = BaseFromNormal(direction.normalized());
  if (body2) {  // two-body form: n . (x2 - x1) kept (X_origin = x2 - x1 at start)
    c.body2 = body2;
    c.X2 = X2;
    c.point2 = body2->SpatialPoint(X2);
    c.X_origin = c.point2 - c.X_origin;
  }
  return c;
}

Constraint MakeSetVelocity(body::Body& body, const Vec3& X, const Vec3& direction,
                           ScalarOrSeries velocity) {
  Constraint c = PointRow(ConstraintKind::kVeloDir, body, X);
  c.base = BaseFromNormal(direction.normalized());
  c.velocity = std::move(velocity);
  return c;
}

Constraint MakeSetDisplacement(body::Body& body, const Vec3& X, const Vec3& direction,
                               TimeSeries displacement) {
  Constraint c = MakeSetVelocity(body, X, direction, ScalarOrSeries());
  c.has_displacement = true;
  c.displacement = std::move(displacement);
  return c;
}

Constraint MakeSetAcceleration(body::Body& body, const Vec3& X, const Vec3& direction,
                               const TimeSeries& acceleration) {
  return MakeSetVelocity(body, X, direction, ScalarOrSeries(acceleration.Integral()));
}

Constraint MakeRigidLink(body::Body* body1, const Vec3& X1, body::Body* body2, const Vec3& X2,
                         double geometric_epsilon, double strength) {
  Constraint c;
  c.kind = ConstraintKind::kRigidLink;
  c.strength = strength;
  c.body1 = body1;
  c.X1 = X1;
  // Normalised so that body2 always moves: a missing body is an anchor in space.
  if (!body2) {
    c.body1 = nullptr;
    c.body2 = body1;
    c.X2 = X1;
    c.X_origin = X2;
  } else if (!body1) {
    c.body2 = body2;
    c.X2 = X2;
    c.X_origin = X1;
  } else {
    c.body2 = body2;
    c.X2 = X2;
  }
  const Vec3 x1 = c.body1 ? c.body1->SpatialPoint(c.X1) : c.X_origin;
  const Vec3 x2 = c.body2->SpatialPoint(c.X2);
  c.length = (x2 - x1).norm();
  // Coincident points (the given points, as Solfec-1.0 tests them, or the spatial ones,
  // within GEOMETRIC_EPSILON) glue the bodies: a 3-row equality. A distance row of round-off
  // length (a node's point found through an element's shape functions lies ~1e-18 m off)
  // would hold one direction only, re-aimed along the error each step: the other two stay
  // free (wires of inp/wire.py blew up).
  if ((X1 - X2).norm() < geometric_epsilon || c.length < geometric_epsilon) c.length = 0.0;
  if (c.length > 0.0) c.base = BaseFromNormal((x2 - x1) / c.length);
  c.point = x1;
  c.point2 = x2;
  return c;
}

}  // namespace solfec::domain
