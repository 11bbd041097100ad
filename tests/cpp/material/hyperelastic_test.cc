// Tests of the hyperelastic laws: stresses and tangent against numerical derivatives, the
// natural state, the small-strain limit, objectivity and closed-form uniaxial values.
#include "material/hyperelastic.h"

#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "base/errors.h"

namespace solfec::material {
namespace {

constexpr double kYoung = 5e7, kPoisson = 0.25;

class HyperelasticTest : public ::testing::TestWithParam<HyperModel> {
 protected:
  Hyperelastic law() const { return Hyperelastic(GetParam(), kYoung, kPoisson); }
  // A finite, well-conditioned deformation: F = I + 0.3 * random (det F > 0.3 checked).
  static Mat3 RandomF(unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    Mat3 F;
    do {
      for (int i = 0; i < 9; ++i) F(i / 3, i % 3) = (i / 3 == i % 3 ? 1.0 : 0.0) + 0.3 * d(gen);
    } while (F.determinant() < 0.3);
    return F;
  }
};

// Central differences of W give P: truncation ~ h^2 W''' ~ 1e-12 relative, rounding
// ~ eps W / h ~ 1e-10 relative at h = 1e-6; 1e-6 of max |P| leaves margin.
TEST_P(HyperelasticTest, FirstPiolaIsTheDerivativeOfTheEnergy) {
  const Hyperelastic m = law();
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Mat3 F = RandomF(seed);
    const Mat3 P = m.FirstPiola(F);
    const double h = 1e-6;
    for (int i = 0; i < 3; ++i)
      for (int J = 0; J < 3; ++J) {
        Mat3 Fp = F, Fm = F;
        Fp(i, J) += h, Fm(i, J) -= h;
        const double num = (m.Energy(Fp) - m.Energy(Fm)) / (2 * h);
        EXPECT_NEAR(P(i, J), num, 1e-6 * P.cwiseAbs().maxCoeff()) << i << J << " seed " << seed;
      }
  }
}

// Central differences of P give the tangent (same error estimate as above).
TEST_P(HyperelasticTest, TangentIsTheDerivativeOfTheFirstPiola) {
  const Hyperelastic m = law();
  for (unsigned seed = 11; seed <= 15; ++seed) {
    const Mat3 F = RandomF(seed);
    const Mat9 A = m.Tangent(F);
    const double h = 1e-6;
    for (int k = 0; k < 3; ++k)
      for (int L = 0; L < 3; ++L) {
        Mat3 Fp = F, Fm = F;
        Fp(k, L) += h, Fm(k, L) -= h;
        const Mat3 dP = (m.FirstPiola(Fp) - m.FirstPiola(Fm)) / (2 * h);
        for (int i = 0; i < 3; ++i)
          for (int J = 0; J < 3; ++J)
            EXPECT_NEAR(A(3 * i + J, 3 * k + L), dP(i, J), 1e-6 * A.cwiseAbs().maxCoeff());
      }
    // Hyperelastic tangent has the major symmetry A(iJ, kL) = A(kL, iJ).
    EXPECT_LT((A - A.transpose()).cwiseAbs().maxCoeff(), 1e-9 * A.cwiseAbs().maxCoeff());
  }
}

TEST_P(HyperelasticTest, NaturalStateIsStressAndEnergyFree) {
  const Hyperelastic m = law();
  const Mat3 I = Mat3::Identity();
  EXPECT_NEAR(m.Energy(I), 0.0, 1e-9);  // exact up to rounding of O(mu) terms
  EXPECT_LT(m.FirstPiola(I).cwiseAbs().maxCoeff(), 1e-9 * kYoung);
  EXPECT_LT(m.Cauchy(I).cwiseAbs().maxCoeff(), 1e-9 * kYoung);
}

// F = I + eps G with |eps| = 1e-7: sigma = lambda tr(e) I + 2 mu e, e = sym(eps G), up to
// O(eps^2) relative terms (1e-7) -> relative tolerance 1e-5 of the linear stress.
TEST_P(HyperelasticTest, SmallStrainLimitIsLinearElasticity) {
  const Hyperelastic m = law();
  const double lambda = kYoung * kPoisson / ((1 + kPoisson) * (1 - 2 * kPoisson));
  const double mu = kYoung / (2 + 2 * kPoisson);
  const Mat3 G = RandomF(21) - Mat3::Identity();
  const double eps = 1e-7;
  const Mat3 F = Mat3::Identity() + eps * G;
  const Mat3 e = 0.5 * eps * (G + G.transpose());
  const Mat3 lin = lambda * e.trace() * Mat3::Identity() + 2 * mu * e;
  EXPECT_LT((m.Cauchy(F) - lin).cwiseAbs().maxCoeff(), 1e-5 * lin.cwiseAbs().maxCoeff());
  // The tangent at F = I is the linear elasticity tensor for every model.
  const Mat9 A = m.Tangent(Mat3::Identity());
  for (int i = 0; i < 3; ++i)
    for (int J = 0; J < 3; ++J)
      for (int k = 0; k < 3; ++k)
        for (int L = 0; L < 3; ++L) {
          const double c = lambda * (i == J) * (k == L) + mu * ((i == k) * (J == L) +
                                                                (i == L) * (J == k));
          EXPECT_NEAR(A(3 * i + J, 3 * k + L), c, 1e-9 * kYoung);
        }
}

// P(QF) = Q P(F) and W(QF) = W(F) for a rotation Q (rounding level, 1e-10 relative).
TEST_P(HyperelasticTest, ResponseIsObjective) {
  const Hyperelastic m = law();
  const Mat3 Q = Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()).toRotationMatrix();
  for (unsigned seed = 31; seed <= 33; ++seed) {
    const Mat3 F = RandomF(seed);
    const Mat3 P = m.FirstPiola(F);
    EXPECT_LT((m.FirstPiola(Q * F) - Q * P).cwiseAbs().maxCoeff(),
              1e-10 * P.cwiseAbs().maxCoeff());
    EXPECT_NEAR(m.Energy(Q * F), m.Energy(F), 1e-10 * std::abs(m.Energy(F)));
  }
}

INSTANTIATE_TEST_SUITE_P(Models, HyperelasticTest,
                         ::testing::Values(HyperModel::kKirchhoff, HyperModel::kNeoHookean,
                                           HyperModel::kBlatzKo));

// Uniaxial stretch F = diag(a, b, b) with lateral stretches b chosen freely: closed forms.
// KIRCHHOFF: S11 = lambda (tr E) + 2 mu E11, P11 = a S11.
// NEO_HOOKEAN: P11 = mu (a - 1/a) + lambda ln(a b^2) / a.
// BLATZ_KO (nu = 1/4, beta = 1/2): P11 = G (J / a - 1/a^3), J = a b^2.
TEST(HyperelasticUniaxial, ClosedFormFirstPiola) {
  const double a = 1.3, b = 0.9, G = kYoung / (2 + 2 * kPoisson);
  const double lambda = kYoung * kPoisson / ((1 + kPoisson) * (1 - 2 * kPoisson));
  const Mat3 F = Vec3(a, b, b).asDiagonal();
  const double E11 = 0.5 * (a * a - 1), E22 = 0.5 * (b * b - 1);
  const double svk = a * (lambda * (E11 + 2 * E22) + 2 * G * E11);
  const double nh = G * (a - 1 / a) + lambda * std::log(a * b * b) / a;
  const double bk = G * (a * b * b / a - 1 / (a * a * a));
  // Relative 1e-12: a handful of floating-point operations on O(1) numbers.
  EXPECT_NEAR(Hyperelastic(HyperModel::kKirchhoff, kYoung, kPoisson).FirstPiola(F)(0, 0), svk,
              1e-12 * std::abs(svk));
  EXPECT_NEAR(Hyperelastic(HyperModel::kNeoHookean, kYoung, kPoisson).FirstPiola(F)(0, 0), nh,
              1e-12 * std::abs(nh));
  EXPECT_NEAR(Hyperelastic(HyperModel::kBlatzKo, kYoung, kPoisson).FirstPiola(F)(0, 0), bk,
              1e-12 * std::abs(bk));
  // Blatz-Ko energy with nu = 1/4 is the paper's G/2 (I2/I3 + 2 sqrt(I3) - 5).
  const double I2 = a * a * b * b * 2 + b * b * b * b, I3 = a * a * b * b * b * b;
  EXPECT_NEAR(Hyperelastic(HyperModel::kBlatzKo, kYoung, kPoisson).Energy(F),
              0.5 * G * (I2 / I3 + 2 * std::sqrt(I3) - 5), 1e-12 * G);
}

// nu = 0 (beta = 0): the Blatz-Ko volumetric term is the limit 2 ln J (finite, continuous).
TEST(HyperelasticUniaxial, BlatzKoZeroPoissonUsesTheLogarithmicLimit) {
  const Mat3 F = Vec3(1.2, 1.0, 1.0).asDiagonal();
  const double W0 = Hyperelastic(HyperModel::kBlatzKo, 1.0, 0.0).Energy(F);
  const double Weps = Hyperelastic(HyperModel::kBlatzKo, 1.0, 1e-9).Energy(F);
  EXPECT_NEAR(W0, Weps, 1e-8);  // O(beta) difference
  EXPECT_NEAR(W0, 0.25 * (1 / 1.44 - 1 + 2 * std::log(1.2)), 1e-14);
}

TEST(HyperelasticErrors, InvertedMaterialAndUnknownModelAreReported) {
  const Mat3 F = Vec3(1.0, 1.0, -0.5).asDiagonal();
  EXPECT_THROW(Hyperelastic(HyperModel::kNeoHookean, 1.0, 0.3).FirstPiola(F), SolverError);
  EXPECT_THROW(Hyperelastic(HyperModel::kBlatzKo, 1.0, 0.3).Energy(F), SolverError);
  BulkMaterial m;
  m.model = "MOONEY";
  EXPECT_THROW(m.Validate(), InputError);
  m.model = "BLATZ_KO";
  EXPECT_NO_THROW(m.Validate());
}

TEST(HyperelasticVonMises, UniaxialCauchyStressGivesItsMagnitude) {
  EXPECT_DOUBLE_EQ(VonMises(Vec3(3.0, 0.0, 0.0).asDiagonal()), 3.0);
  EXPECT_NEAR(VonMises(Mat3::Identity() * 5.0), 0.0, 1e-15);
}

}  // namespace
}  // namespace solfec::material
