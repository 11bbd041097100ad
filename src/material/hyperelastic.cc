// Hyperelastic constitutive laws: Saint Venant-Kirchhoff, compressible neo-Hookean, Blatz-Ko.
#include "material/hyperelastic.h"

#include <cmath>
#include <sstream>

#include "base/errors.h"

namespace solfec::material {

HyperModel HyperModelFromName(const std::string& name) {
  if (name == "KIRCHHOFF") return HyperModel::kKirchhoff;
  if (name == "NEO_HOOKEAN") return HyperModel::kNeoHookean;
  if (name == "BLATZ_KO") return HyperModel::kBlatzKo;
  throw InputError("BULK_MATERIAL: unknown model '" + name +
                   "' (argument 'model'); use 'KIRCHHOFF', 'NEO_HOOKEAN' or 'BLATZ_KO'");
}

Hyperelastic::Hyperelastic(HyperModel model, double young, double poisson)
    : model_(model),
      lambda_(young * poisson / ((1 + poisson) * (1 - 2 * poisson))),
      mu_(young / (2 + 2 * poisson)),
      beta_(poisson / (1 - 2 * poisson)) {}

Hyperelastic::Hyperelastic(const BulkMaterial& m)
    : Hyperelastic(HyperModelFromName(m.model), m.young, m.poisson) {}

double Hyperelastic::LogJ(const Mat3& F) const {
  const double J = F.determinant();
  if (!(J > 0.0)) {
    std::ostringstream msg;
    msg << "hyperelastic material: det F = " << J
        << " <= 0 (an element turned inside out); reduce the time step or use a stiffer mesh";
    throw SolverError(msg.str());
  }
  return std::log(J);
}

double Hyperelastic::Energy(const Mat3& F) const {
  const Mat3 C = F.transpose() * F;
  switch (model_) {
    case HyperModel::kKirchhoff: {
      const Mat3 E = 0.5 * (C - Mat3::Identity());
      const double tr = E.trace();
      return 0.5 * lambda_ * tr * tr + mu_ * E.squaredNorm();
    }
    case HyperModel::kNeoHookean: {
      const double lj = LogJ(F);
      return 0.5 * mu_ * (C.trace() - 3.0) - mu_ * lj + 0.5 * lambda_ * lj * lj;
    }
    case HyperModel::kBlatzKo: {
      const double lj = LogJ(F);
      const double vol = beta_ == 0.0 ? 2.0 * lj : std::expm1(2.0 * beta_ * lj) / beta_;
      return 0.5 * mu_ * (C.inverse().trace() - 3.0 + vol);
    }
  }
  return 0.0;
}

Mat3 Hyperelastic::SecondPiola(const Mat3& F) const {
  const Mat3 I = Mat3::Identity();
  const Mat3 C = F.transpose() * F;
  switch (model_) {
    case HyperModel::kKirchhoff: {
      const Mat3 E = 0.5 * (C - I);
      return lambda_ * E.trace() * I + 2.0 * mu_ * E;
    }
    case HyperModel::kNeoHookean: {
      const double lj = LogJ(F);
      const Mat3 Ci = C.inverse();
      return mu_ * (I - Ci) + (lambda_ * lj) * Ci;
    }
    case HyperModel::kBlatzKo: {
      const double lj = LogJ(F);
      const Mat3 Ci = C.inverse();
      return mu_ * (std::exp(2.0 * beta_ * lj) * Ci - Ci * Ci);
    }
  }
  return Mat3::Zero();
}

Mat3 Hyperelastic::FirstPiola(const Mat3& F) const { return F * SecondPiola(F); }

Mat3 Hyperelastic::SecondPiolaDerivative(const Mat3& F, const Mat3& dF) const {
  const Mat3 I = Mat3::Identity();
  const Mat3 C = F.transpose() * F;
  const Mat3 dC = dF.transpose() * F + F.transpose() * dF;
  switch (model_) {
    case HyperModel::kKirchhoff:
      return (0.5 * lambda_ * dC.trace()) * I + mu_ * dC;
    case HyperModel::kNeoHookean: {
      const double lj = LogJ(F);
      const Mat3 Ci = C.inverse();
      const Mat3 dCi = -Ci * dC * Ci;
      const double dlj = 0.5 * (Ci * dC).trace();
      return (lambda_ * lj - mu_) * dCi + (lambda_ * dlj) * Ci;
    }
    case HyperModel::kBlatzKo: {
      const double lj = LogJ(F);
      const Mat3 Ci = C.inverse();
      const Mat3 dCi = -Ci * dC * Ci;
      const double j2b = std::exp(2.0 * beta_ * lj);
      const double dj2b = j2b * beta_ * (Ci * dC).trace();
      return mu_ * (dj2b * Ci + j2b * dCi - dCi * Ci - Ci * dCi);
    }
  }
  return Mat3::Zero();
}

Mat3 Hyperelastic::FirstPiolaDerivative(const Mat3& F, const Mat3& dF) const {
  return dF * SecondPiola(F) + F * SecondPiolaDerivative(F, dF);
}

Mat9 Hyperelastic::Tangent(const Mat3& F) const {
  const Mat3 S = SecondPiola(F);
  Mat9 A;
  for (int k = 0; k < 3; ++k)
    for (int L = 0; L < 3; ++L) {
      Mat3 dF = Mat3::Zero();
      dF(k, L) = 1.0;
      const Mat3 dP = dF * S + F * SecondPiolaDerivative(F, dF);
      for (int i = 0; i < 3; ++i)
        for (int J = 0; J < 3; ++J) A(3 * i + J, 3 * k + L) = dP(i, J);
    }
  return A;
}

Mat3 Hyperelastic::Cauchy(const Mat3& F) const {
  return FirstPiola(F) * F.transpose() / F.determinant();
}

double Hyperelastic::WaveSpeed(double density) const {
  return std::sqrt((lambda_ + 2.0 * mu_) / density);
}

bool Hyperelastic::DefinedAt(const Mat3& F) const {
  return model_ == HyperModel::kKirchhoff || F.determinant() > 0.0;
}

std::array<double, 7> StressValues(const Hyperelastic& law, const Mat3& F) {
  const Mat3 s = law.Cauchy(F);
  return {s(0, 0), s(1, 1), s(2, 2), s(0, 1), s(0, 2), s(1, 2), VonMises(s)};
}

double VonMises(const Mat3& sigma) {
  const Mat3 dev = sigma - (sigma.trace() / 3.0) * Mat3::Identity();
  return std::sqrt(1.5 * dev.squaredNorm());
}

}  // namespace solfec::material
