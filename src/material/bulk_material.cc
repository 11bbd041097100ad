// BULK_MATERIAL validation.
#include "material/bulk_material.h"

#include <cmath>

#include "base/errors.h"
#include "material/hyperelastic.h"

namespace solfec::material {

void BulkMaterial::Validate() const {
  auto bad = [](const std::string& arg, double v, const std::string& fix) {
    throw InputError("BULK_MATERIAL: invalid " + arg + " = " + std::to_string(v) +
                     " (argument '" + arg + "'); " + fix);
  };
  HyperModelFromName(model);  // throws for an unknown model
  if (!std::isfinite(density) || density <= 0.0) bad("density", density, "pass a positive value [kg/m^3]");
  if (!std::isfinite(young) || young <= 0.0) bad("young", young, "pass a positive value [Pa]");
  if (!std::isfinite(poisson) || poisson <= -1.0 || poisson >= 0.5)
    bad("poisson", poisson, "pass a value in (-1, 0.5)");
}

}  // namespace solfec::material
