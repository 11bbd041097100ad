// BULK_MATERIAL validation.
#include "material/bulk_material.h"

#include <cmath>
#include <charconv>
#include <string>

#include "base/errors.h"
#include "material/hyperelastic.h"

namespace solfec::material {

namespace {

// The shortest decimal form that reads back as v (0.49999999999 stays so, 1e300 is 1e+300).
std::string Shortest(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

}  // namespace

void BulkMaterial::Validate() const {
  auto check = [](const std::string& arg, double v, double lo, double hi, const char* unit) {
    if (std::isfinite(v) && v >= lo && v <= hi) return;
    throw InputError("BULK_MATERIAL: invalid " + arg + " = " + Shortest(v) + " (argument '" +
                     arg + "'); valid range [" + Shortest(lo) + ", " + Shortest(hi) + "]" + unit);
  };
  HyperModelFromName(model);  // throws for an unknown model
  check("density", density, kDensityMin, kDensityMax, " kg/m^3");
  check("young", young, kYoungMin, kYoungMax, " Pa");
  check("poisson", poisson, kPoissonMin, kPoissonMax, "");
}

}  // namespace solfec::material
