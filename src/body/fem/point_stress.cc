// STRESS of a FINITE_ELEMENT body: element values, averaged at mesh nodes.
#include "body/fem/point_stress.h"

#include <limits>

#include "material/hyperelastic.h"

namespace solfec::body {

std::array<double, 7> PointStress(const FeBody& fe, const Vec3& X, double eps) {
  std::array<double, 7> sum{};
  int count = 0;
  for (const auto& [e, xi] : fe.ElementsAtPoint(X, eps)) {
    const Mat3 F = fe.DeformationGradient(e, xi);
    if (!F.allFinite()) continue;
    const auto v = material::StressValues(material::Hyperelastic(fe.element_material(e)), F);
    for (int i = 0; i < 7; ++i) sum[i] += v[i];
    ++count;
  }
  if (count == 0)
    return material::StressValues(material::Hyperelastic(fe.MaterialAt(X)),
                                  fe.DeformationGradient(X));
  for (double& s : sum) s /= count;
  return sum;
}

std::array<double, 7> MaterialStress(const material::BulkMaterial& m, const Mat3& F) {
  return material::StressValues(material::Hyperelastic(m), F);
}

void MaterialStresses(const material::BulkMaterial& m, const std::vector<Mat3>& F,
                      std::vector<Mat3>& sigma, std::vector<double>& mises) {
  const material::Hyperelastic law(m);
  sigma.assign(F.size(), Mat3::Constant(std::numeric_limits<double>::quiet_NaN()));
  mises.assign(F.size(), std::numeric_limits<double>::quiet_NaN());
  for (size_t k = 0; k < F.size(); ++k)
    if (law.DefinedAt(F[k])) {
      sigma[k] = law.Cauchy(F[k]);
      mises[k] = material::VonMises(sigma[k]);
    }
}

}  // namespace solfec::body
