// BODY factory: dispatch on the kinematic model.
#include "body/body_factory.h"

#include <utility>

#include "base/errors.h"
#include "body/fem/fe_body.h"
#include "body/fem/ffr_body.h"
#include "body/fem/reduced_fe_body.h"
#include "body/pseudo_rigid_body.h"
#include "body/rigid_body.h"

namespace solfec::body {

namespace {

// Node count of the FE mesh: the background mesh, or the single MESH of the shape (FeBody
// checks the shape layout itself; 0 when it is not one MESH).
int MeshNodeCount(const geometry::Shape& shape, const std::optional<geometry::Mesh>& mesh) {
  if (mesh) return static_cast<int>(mesh->nodes.size());
  if (shape.meshes.size() == 1) return static_cast<int>(shape.meshes[0].nodes.size());
  return 0;
}

// FINITE_ELEMENT bodies by form.
std::unique_ptr<Body> MakeFeBody(geometry::Shape shape, material::BulkMaterial material,
                                 std::string label, std::optional<geometry::Mesh> mesh,
                                 const FeOptions& fe) {
  fe.Validate(MeshNodeCount(shape, mesh));
  switch (fe.form) {
    case FeForm::kTL:
    case FeForm::kBC: {
      auto b = std::make_unique<FeBody>(std::move(shape), std::move(material), std::move(label),
                                        std::move(mesh));
      b->set_form(fe.form);
      return b;
    }
    case FeForm::kBCRO:  // reduced order (body/fem/reduced_fe_body.h)
    case FeForm::kBCModal:
      return std::make_unique<ReducedFeBody>(std::move(shape), std::move(material),
                                             std::move(label), std::move(mesh), fe);
    case FeForm::kFFR:  // floating frame of reference (body/fem/ffr_body.h)
      return std::make_unique<FfrBody>(std::move(shape), std::move(material), std::move(label),
                                       std::move(mesh));
  }
  throw InputError(std::string("BODY: form '") + FeFormName(fe.form) +
                   "' is not available yet (argument 'form'); use 'TL' or 'BC'");
}

}  // namespace

std::unique_ptr<Body> MakeBody(BodyKind kind, geometry::Shape shape,
                               material::BulkMaterial material, std::string label,
                               std::optional<geometry::Mesh> mesh, FeOptions fe) {
  if (mesh && kind != BodyKind::kFiniteElement)
    throw InputError(std::string("BODY: a background mesh (argument 'mesh') is available for "
                     "FINITE_ELEMENT bodies only, not for kind '") + KindName(kind) +
                     "'; drop 'mesh' or use kind 'FINITE_ELEMENT'");
  if (shape.empty())
    throw InputError("BODY: shape is empty (argument 'shape'); pass a CONVEX, MESH or SPHERE");
  if (kind != BodyKind::kFiniteElement &&
      (fe.form != FeForm::kTL || fe.evecs.size() > 0 || fe.evals.size() > 0))
    throw InputError(std::string("BODY: arguments 'form' and 'base' apply to FINITE_ELEMENT "
                                 "bodies only, not to kind '") + KindName(kind) + "'");
  switch (kind) {
    case BodyKind::kRigid:
    case BodyKind::kObstacle:
      return std::make_unique<RigidBody>(kind, std::move(shape), std::move(material),
                                         std::move(label));
    case BodyKind::kPseudoRigid:
      return std::make_unique<PseudoRigidBody>(std::move(shape), std::move(material),
                                               std::move(label));
    case BodyKind::kFiniteElement:
      return MakeFeBody(std::move(shape), std::move(material), std::move(label),
                        std::move(mesh), fe);
  }
  throw InputError(std::string("BODY: kind '") + KindName(kind) +
                   "' is not available yet (argument 'kind'); use 'RIGID', "
                   "'PSEUDO_RIGID' or 'OBSTACLE'");
}

}  // namespace solfec::body
