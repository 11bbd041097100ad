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

}  // namespace solfec::body
