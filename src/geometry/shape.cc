// Shape: collections of convexes, spheres and meshes, and their rigid/affine transformations.
#include "geometry/shape.h"

#include <cmath>

#include "base/errors.h"
#include "base/math.h"

namespace solfec::geometry {
namespace {

// Relative tolerance on A^T A = s^2 I for a transformation applied to spheres.
constexpr double kUniformScaleTolerance = 1e-10;

}  // namespace

void Shape::Append(Shape o) {
  const int offset = static_cast<int>(convexes.size());
  for (Convex& c : o.convexes) {
    for (int& n : c.neighbors) n += offset;
    convexes.push_back(std::move(c));
  }
  for (Sphere& s : o.spheres) spheres.push_back(std::move(s));
  for (Mesh& m : o.meshes) meshes.push_back(std::move(m));
  for (Ellipsoid& e : o.ellipsoids) ellipsoids.push_back(std::move(e));
}

Aabb Shape::Bounds() const {
  Aabb box;
  for (const Convex& c : convexes) box.Extend(c.Bounds());
  for (const Sphere& s : spheres) box.Extend(s.Bounds());
  for (const Mesh& m : meshes) box.Extend(m.Bounds());
  for (const Ellipsoid& e : ellipsoids) box.Extend(e.Bounds());
  return box;
}

MassProperties Shape::ComputeMassProperties() const {
  MassProperties total;
  for (const Convex& c : convexes) total += c.ComputeMassProperties();
  for (const Sphere& s : spheres) total += s.ComputeMassProperties();
  for (const Mesh& m : meshes) total += m.ComputeMassProperties();
  for (const Ellipsoid& e : ellipsoids) total += e.ComputeMassProperties();
  return total;
}

void Shape::Transform(const Mat3& A, const Vec3& t, const std::string& routine) {
  const double det = A.determinant();
  const double scale = std::cbrt(std::abs(det));
  if (!spheres.empty()) {
    // Spheres stay spheres only under similarity transformations: A^T A = s^2 I.
    const Mat3 AtA = A.transpose() * A;
    const double s2 = scale * scale;
    if (!(s2 > 0.0) || (AtA - s2 * Mat3::Identity()).norm() > kUniformScaleTolerance * s2) {
      const std::string argument = routine == "SCALE" ? "coefs" : "transformation";
      throw InputError(routine + ": non-uniform scaling of a SPHERE (argument '" + argument +
                       "'); scale spheres by equal factors along x, y and z");
    }
  }
  for (Convex& c : convexes) c.Transform(A, t);
  for (Sphere& s : spheres) {
    s.center = A * s.center + t;
    s.radius *= scale;
  }
  for (Mesh& m : meshes) m.Transform(A, t);
  for (Ellipsoid& e : ellipsoids) e.Transform(A, t);
}

void Shape::Translate(const Vec3& v) { Transform(Mat3::Identity(), v, "TRANSLATE"); }

void Shape::Rotate(const Vec3& point, const Vec3& axis, double degrees) {
  if (!(axis.norm() > 0.0) || !axis.allFinite()) {
    throw InputError(
        "ROTATE: the rotation axis is zero or not finite (argument 'vector'); "
        "give a non-zero direction");
  }
  const Mat3 R = AxisAngle(axis, degrees * kPi / 180.0);
  // x -> R (x - point) + point.
  Transform(R, point - R * point, "ROTATE");
}

void Shape::Scale(const Vec3& coefs) {
  if (!coefs.allFinite() || (coefs.array() == 0.0).any()) {
    throw InputError(
        "SCALE: scaling factors must be finite and non-zero (argument 'coefs'); "
        "give three non-zero numbers");
  }
  Transform(coefs.asDiagonal().toDenseMatrix(), Vec3::Zero(), "SCALE");
}

}  // namespace solfec::geometry
