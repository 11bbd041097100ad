// BODY factory: dispatch on the kinematic model.
#include "body/body_factory.h"

#include <utility>

#include "base/errors.h"
#include "body/fem/fe_body.h"
#include "body/pseudo_rigid_body.h"
#include "body/rigid_body.h"

namespace solfec::body {

std::unique_ptr<Body> MakeBody(BodyKind kind, geometry::Shape shape,
                               material::BulkMaterial material, std::string label,
                               std::optional<geometry::Mesh> mesh) {
  if (mesh && kind != BodyKind::kFiniteElement)
    throw InputError(std::string("BODY: a background mesh (argument 'mesh') is available for "
                     "FINITE_ELEMENT bodies only, not for kind '") + KindName(kind) +
                     "'; drop 'mesh' or use kind 'FINITE_ELEMENT'");
  if (shape.empty())
    throw InputError("BODY: shape is empty (argument 'shape'); pass a CONVEX, MESH or SPHERE");
  switch (kind) {
    case BodyKind::kRigid:
    case BodyKind::kObstacle:
      return std::make_unique<RigidBody>(kind, std::move(shape), std::move(material),
                                         std::move(label));
    case BodyKind::kPseudoRigid:
      return std::make_unique<PseudoRigidBody>(std::move(shape), std::move(material),
                                               std::move(label));
    case BodyKind::kFiniteElement:
      return std::make_unique<FeBody>(std::move(shape), std::move(material), std::move(label),
                                      std::move(mesh));
  }
  throw InputError(std::string("BODY: kind '") + KindName(kind) +
                   "' is not available yet (argument 'kind'); use 'RIGID', "
                   "'PSEUDO_RIGID' or 'OBSTACLE'");
}

}  // namespace solfec::body
