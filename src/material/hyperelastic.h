// Hyperelastic constitutive laws of BULK_MATERIAL models: energy W(F), stresses and tangent.
#pragma once

#include <array>
#include <string>

#include <Eigen/Core>

#include "base/types.h"
#include "material/bulk_material.h"

namespace solfec::material {

enum class HyperModel { kKirchhoff, kNeoHookean, kBlatzKo };

// Model of a BULK_MATERIAL model name; throws InputError naming BULK_MATERIAL (argument
// 'model') for an unknown name.
HyperModel HyperModelFromName(const std::string& name);

// dP_iJ / dF_kL stored at (3 i + J, 3 k + L) (row-major vec of P and F).
using Mat9 = Eigen::Matrix<double, 9, 9>;

// Strain energy per unit referential volume W(F), with C = F^T F, E = (C - I)/2, J = det F,
// Lame constants lambda = E nu/((1+nu)(1-2nu)), mu = G = E/(2(1+nu)) of (young, poisson):
//   KIRCHHOFF   W = lambda/2 (tr E)^2 + mu E:E                    (Saint Venant-Kirchhoff)
//   NEO_HOOKEAN W = mu/2 (tr C - 3) - mu ln J + lambda/2 (ln J)^2 (compressible)
//   BLATZ_KO    W = G/2 [tr(C^-1) - 3 + (J^(2 beta) - 1)/beta],   beta = nu/(1 - 2 nu)
//               (Blatz-Ko with f = 0; I2/I3 = tr C^-1; beta -> 0 gives 2 ln J; nu = 1/4
//               gives the foam-rubber form G/2 (I2/I3 + 2 sqrt(I3) - 5) of the paper).
// All three reduce to linear elasticity with (young, poisson) for small strains.
// S = dW/dE (second Piola-Kirchhoff), P = F S (first Piola-Kirchhoff), sigma = P F^T / J.
// NEO_HOOKEAN and BLATZ_KO throw SolverError when det F <= 0 (inverted material).
class Hyperelastic {
 public:
  Hyperelastic(HyperModel model, double young, double poisson);
  explicit Hyperelastic(const BulkMaterial& m);

  HyperModel model() const { return model_; }
  double lambda() const { return lambda_; }
  double mu() const { return mu_; }

  double Energy(const Mat3& F) const;
  Mat3 SecondPiola(const Mat3& F) const;
  Mat3 FirstPiola(const Mat3& F) const;
  // Directional derivative of S along dF (dS = dS/dF : dF).
  Mat3 SecondPiolaDerivative(const Mat3& F, const Mat3& dF) const;
  // dP = dF S + F dS.
  Mat3 FirstPiolaDerivative(const Mat3& F, const Mat3& dF) const;
  Mat9 Tangent(const Mat3& F) const;  // dP/dF
  Mat3 Cauchy(const Mat3& F) const;
  // Whether the model is defined at F: NEO_HOOKEAN and BLATZ_KO need det F > 0.
  bool DefinedAt(const Mat3& F) const;
  // Small-strain dilatational wave speed sqrt((lambda + 2 mu) / density).
  double WaveSpeed(double density) const;

 private:
  double LogJ(const Mat3& F) const;  // throws SolverError for det F <= 0

  HyperModel model_;
  double lambda_, mu_, beta_;
};

// sqrt(3/2 dev(sigma):dev(sigma)).
double VonMises(const Mat3& sigma);

// The values of STRESS and of HISTORY's stress entities: the Cauchy stress of `law` at F as
// (sx, sy, sz, sxy, sxz, syz, mises). Throws as Cauchy where the model is undefined.
std::array<double, 7> StressValues(const Hyperelastic& law, const Mat3& F);

}  // namespace solfec::material
