// BODY: creates a body of the requested kind from a shape and a bulk material.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "body/body.h"
#include "body/fem/fe_form.h"
#include "geometry/shape.h"
#include "material/bulk_material.h"

namespace solfec::body {

// RIGID and OBSTACLE give a RigidBody, PSEUDO_RIGID a PseudoRigidBody, FINITE_ELEMENT an
// FeBody (shape = a single MESH, or convexes/spheres embedded in the background `mesh`).
// Throws InputError naming BODY for an empty shape, a zero volume, an unavailable kind or a
// `mesh` given for a kind other than FINITE_ELEMENT. `fe` selects the FINITE_ELEMENT form and
// reduced base (FeOptions::Validate); other kinds accept only the default (form 'TL', no base).
std::unique_ptr<Body> MakeBody(BodyKind kind, geometry::Shape shape,
                               material::BulkMaterial material, std::string label,
                               std::optional<geometry::Mesh> mesh = std::nullopt,
                               FeOptions fe = {});

}  // namespace solfec::body
