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

  // Throws InputError naming BULK_MATERIAL and the argument (density <= 0, young <= 0,
  // poisson outside (-1, 0.5), unknown model).
  void Validate() const;
  double lame_lambda() const { return young * poisson / ((1 + poisson) * (1 - 2 * poisson)); }
  double lame_mu() const { return young / (2 + 2 * poisson); }
};

}  // namespace solfec::material
