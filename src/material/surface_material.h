// SURFACE_MATERIAL: interface laws between surface pairs (manual 4.1.5, 7.1) and the
// pair lookup with a default material.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace solfec::material {

enum class SurfaceModel { kSignoriniCoulomb, kSpringDashpot };

struct SurfaceMaterial {
  std::string label;
  int surf1 = 0, surf2 = 0;
  bool is_default = true;  // used when no specific pair matches
  SurfaceModel model = SurfaceModel::kSignoriniCoulomb;
  double friction = 0.0;     // Coulomb coefficient [-]
  double cohesion = 0.0;     // cohesion per unit area [Pa]
  double restitution = 0.0;  // velocity restitution in [0, 1] [-]
  double spring = 0.0;       // normal stiffness [N/m]
  double dashpot = 0.0;      // normal damping [N s/m]
  double hpow = 1.0;         // Hertz exponent of the spring law [-]

  // Throws InputError naming SURFACE_MATERIAL, the argument, its value and valid range:
  // friction [0, 1e3], cohesion [0, 1e30], restitution [0, 1], spring [0, 1e20],
  // dashpot [-1e20, 1e20] (negative: critical), hpow (0, 10]; non-finite values.
  void Validate() const;
};

// Owns surface materials; looks one up for an unordered surface pair.
class SurfaceMaterialTable {
 public:
  SurfaceMaterialTable();
  // Inserts or replaces (same pair, or default) a material; returns a stable pointer.
  SurfaceMaterial* Insert(SurfaceMaterial m);
  // The material of pair {s1, s2}, else the default one (never null).
  const SurfaceMaterial* Find(int s1, int s2) const;
  const SurfaceMaterial* FindByLabel(const std::string& label) const;
  const SurfaceMaterial* default_material() const { return default_; }
  const std::vector<std::unique_ptr<SurfaceMaterial>>& all() const { return all_; }

 private:
  std::vector<std::unique_ptr<SurfaceMaterial>> all_;
  std::map<std::pair<int, int>, SurfaceMaterial*> pairs_;
  SurfaceMaterial* default_ = nullptr;
};

}  // namespace solfec::material
