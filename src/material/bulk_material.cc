// BULK_MATERIAL validation.
#include "material/bulk_material.h"

#include <cmath>
#include <string>

#include "base/errors.h"
#include "material/hyperelastic.h"

namespace solfec::material {

void BulkMaterial::Validate() const {
  auto check = [](const std::string& arg, double v, double lo, double hi, const char* unit) {
    if (std::isfinite(v) && v >= lo && v <= hi) return;
    throw InputError("BULK_MATERIAL: invalid " + arg + " = " + ShortestDecimal(v) + " (argument '" +
                     arg + "'); valid range [" + ShortestDecimal(lo) + ", " + ShortestDecimal(hi) + "]" + unit);
  };
  HyperModelFromName(model);  // throws for an unknown model
  check("density", density, kDensityMin, kDensityMax, " kg/m^3");
  check("young", young, kYoungMin, kYoungMax, " Pa");
  check("poisson", poisson, kPoissonMin, kPoissonMax, "");
}

}  // namespace solfec::material
