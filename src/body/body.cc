// Body base class: construction, kind and scheme names, default BODY_CHARS.
#include "body/body.h"

#include <cmath>
#include <utility>

#include "base/errors.h"

namespace solfec::body {

const char* KindName(BodyKind k) {
  switch (k) {
    case BodyKind::kRigid: return "RIGID";
    case BodyKind::kPseudoRigid: return "PSEUDO_RIGID";
    case BodyKind::kFiniteElement: return "FINITE_ELEMENT";
    case BodyKind::kObstacle: return "OBSTACLE";
  }
  return "UNKNOWN";
}

const char* SchemeName(Scheme s) {
  switch (s) {
    case Scheme::kDefault: return "DEFAULT";
    case Scheme::kRigPos: return "RIG_POS";
    case Scheme::kRigNeg: return "RIG_NEG";
    case Scheme::kRigImp: return "RIG_IMP";
    case Scheme::kDefExp: return "DEF_EXP";
    case Scheme::kDefLim: return "DEF_LIM";
    case Scheme::kDefLim2: return "DEF_LIM2";
    case Scheme::kDefImp: return "DEF_IMP";
    case Scheme::kDefSemiExplicit: return "DEF_SEMI_EXPLICIT";
  }
  return "UNKNOWN";
}

Body::Body(BodyKind kind, geometry::Shape shape, material::BulkMaterial material,
           std::string label)
    : kind_(kind),
      label_(std::move(label)),
      material_(std::move(material)),
      ref_shape_(shape),
      shape_(std::move(shape)) {}

void Body::SetCharacteristics(double mass, double volume, const Vec3& center,
                              const Mat3& tensor) {
  if (!std::isfinite(mass) || mass <= 0.0)
    throw InputError("BODY_CHARS: mass = " + std::to_string(mass) +
                     " is not positive (argument 'mass'); pass a positive mass [kg]");
  if (!std::isfinite(volume) || volume <= 0.0)
    throw InputError("BODY_CHARS: volume = " + std::to_string(volume) +
                     " is not positive (argument 'volume'); pass a positive volume [m^3]");
  if (!center.allFinite())
    throw InputError("BODY_CHARS: center is not finite (argument 'center'); pass (x, y, z) [m]");
  const double scale = tensor.cwiseAbs().maxCoeff();
  if (!tensor.allFinite() || (tensor - tensor.transpose()).cwiseAbs().maxCoeff() > 1e-10 * scale)
    throw InputError("BODY_CHARS: tensor is not symmetric (argument 'tensor'); pass a "
                     "symmetric 3x3 tensor as 9 numbers");
  mass_ = mass;
  volume_ = volume;
  center_ = center;
  tensor_ = 0.5 * (tensor + tensor.transpose());
}

geometry::MassProperties Body::InitInertiaFromShape() {
  const geometry::MassProperties mp = ref_shape_.ComputeMassProperties();
  if (!std::isfinite(mp.volume) || mp.volume <= 0.0)
    throw InputError("BODY: shape has zero or negative volume (argument 'shape'); pass closed "
                     "CONVEX/MESH pieces with outward faces or SPHEREs of positive radius");
  mass_ = material_.density * mp.volume;
  volume_ = mp.volume;
  center_ = mp.center;
  tensor_ = mp.InertiaTensor(material_.density);
  return mp;
}

void Body::MapShapeAffine(const Mat3& A, const Vec3& t) {
  bool same = shape_.convexes.size() == ref_shape_.convexes.size() &&
              shape_.spheres.size() == ref_shape_.spheres.size() &&
              shape_.ellipsoids.size() == ref_shape_.ellipsoids.size();
  for (size_t i = 0; same && i < shape_.convexes.size(); ++i)
    same = shape_.convexes[i].vertices.size() == ref_shape_.convexes[i].vertices.size();
  if (!same) shape_ = ref_shape_;
  for (size_t i = 0; i < shape_.convexes.size(); ++i) {
    const std::vector<Vec3>& X = ref_shape_.convexes[i].vertices;
    std::vector<Vec3>& x = shape_.convexes[i].vertices;
    for (size_t j = 0; j < X.size(); ++j) x[j] = A * X[j] + t;
  }
  for (size_t i = 0; i < shape_.spheres.size(); ++i)
    shape_.spheres[i].center = A * ref_shape_.spheres[i].center + t;
  // Ellipsoids: the image of the referential one (rigid A: axes rotate; pseudo-rigid F:
  // radii and axes of F R0 diag(r0), i.e. of F^-T A0 F^-1 with A0 = R0 diag(r0)^-2 R0^T).
  for (size_t i = 0; i < shape_.ellipsoids.size(); ++i) {
    const geometry::Ellipsoid& E = ref_shape_.ellipsoids[i];
    geometry::Ellipsoid& e = shape_.ellipsoids[i];
    e.center = A * E.center + t;
    geometry::AffineEllipsoidAxes(A * E.rot * E.radii.asDiagonal(), &e.radii, &e.rot);
  }
}

}  // namespace solfec::body
