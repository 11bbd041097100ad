// SURFACE_MATERIAL validation and the surface-pair lookup table.
#include "material/surface_material.h"

#include <algorithm>
#include <cmath>

#include "base/errors.h"

namespace solfec::material {

void SurfaceMaterial::Validate() const {
  auto check = [](const char* arg, double v, bool ok, const char* fix) {
    if (!std::isfinite(v) || !ok)
      throw InputError(std::string("SURFACE_MATERIAL: invalid ") + arg + " = " +
                       std::to_string(v) + " (argument '" + arg + "'); " + fix);
  };
  check("friction", friction, friction >= 0.0, "pass a value >= 0");
  check("cohesion", cohesion, cohesion >= 0.0, "pass a value >= 0 [Pa]");
  check("restitution", restitution, restitution >= 0.0 && restitution <= 1.0,
        "pass a value in [0, 1]");
  check("spring", spring, spring >= 0.0, "pass a value >= 0 [N/m]");
  check("dashpot", dashpot, true, "pass a finite value [N s/m]");
  check("hpow", hpow, hpow > 0.0, "pass a value > 0");
}

SurfaceMaterialTable::SurfaceMaterialTable() {
  SurfaceMaterial d;
  d.label = "DEFAULT";
  Insert(d);
}

SurfaceMaterial* SurfaceMaterialTable::Insert(SurfaceMaterial m) {
  m.Validate();
  if (m.is_default) {
    if (default_ && default_->label == "DEFAULT" && m.label != "DEFAULT") {
      *default_ = m;  // the implicit default is replaced in place
      return default_;
    }
    all_.push_back(std::make_unique<SurfaceMaterial>(std::move(m)));
    default_ = all_.back().get();
    return default_;
  }
  const auto key = std::minmax(m.surf1, m.surf2);
  all_.push_back(std::make_unique<SurfaceMaterial>(std::move(m)));
  pairs_[{key.first, key.second}] = all_.back().get();
  return all_.back().get();
}

const SurfaceMaterial* SurfaceMaterialTable::Find(int s1, int s2) const {
  const auto key = std::minmax(s1, s2);
  const auto it = pairs_.find({key.first, key.second});
  return it != pairs_.end() ? it->second : default_;
}

const SurfaceMaterial* SurfaceMaterialTable::FindByLabel(const std::string& label) const {
  for (const auto& m : all_)
    if (m->label == label) return m.get();
  return nullptr;
}

}  // namespace solfec::material
