// BULK_MATERIAL: volume material properties (manual 4.1.6, 7.2.1 Kirchhoff-Saint Venant).
#pragma once

#include <string>

namespace solfec::material {

struct BulkMaterial {
  std::string label;
  std::string model = "KIRCHHOFF";  // KIRCHHOFF, NEO_HOOKEAN or BLATZ_KO (hyperelastic.h)
  double young = 1e6;     // Young's modulus [Pa]
  double poisson = 0.25;  // Poisson's ratio [-]
  double density = 1e3;   // mass density [kg/m^3]

  // Valid ranges (SI; docs/deck-language.md): beyond them the mass and stiffness products
  // lose the body's motion to round-off or overflow (young = 1e300: an FE body never moves).
  static constexpr double kYoungMin = 1e-6, kYoungMax = 1e20;        // [Pa]
  static constexpr double kDensityMin = 1e-12, kDensityMax = 1e12;   // [kg/m^3]
  static constexpr double kPoissonMin = -0.999, kPoissonMax = 0.4999999;  // lambda/mu <= 5e6

  // Throws InputError naming BULK_MATERIAL, the argument, its value and valid range (values
  // out of the ranges above, non-finite values, unknown model).
  void Validate() const;
  double lame_lambda() const { return young * poisson / ((1 + poisson) * (1 - 2 * poisson)); }
  double lame_mu() const { return young / (2 + 2 * poisson); }
};

}  // namespace solfec::material
