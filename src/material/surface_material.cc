// SURFACE_MATERIAL validation and the surface-pair lookup table.
#include "material/surface_material.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/errors.h"

namespace solfec::material {

void SurfaceMaterial::Validate() const {
  // Valid ranges (docs/deck-language.md): wide enough for any physical interface, narrow
  // enough that reactions (friction R, spring gap^hpow, cohesion area) stay far from overflow.
  auto check = [](const std::string& arg, double v, bool lo_open, double lo, double hi,
                  const char* unit) {
    if (std::isfinite(v) && (lo_open ? v > lo : v >= lo) && v <= hi) return;
    throw InputError("SURFACE_MATERIAL: invalid " + arg + " = " + ShortestDecimal(v) + " (argument '" +
                     arg + "'); valid range " + (lo_open ? "(" : "[") + ShortestDecimal(lo) + ", " +
                     ShortestDecimal(hi) + "]" + unit);
  };
  check("friction", friction, false, 0.0, 1e3, "");
  check("cohesion", cohesion, false, 0.0, 1e30, " Pa");
  check("restitution", restitution, false, 0.0, 1.0, "");
  check("spring", spring, false, 0.0, 1e20, " N/m");
  check("dashpot", dashpot, false, -1e20, 1e20, " N s/m (negative: critical damping)");
  check("hpow", hpow, true, 0.0, 10.0, "");
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
