// Rotation kernels of the rigid integrators: momentum transport and the NEW3 Newton solve.
#include "integration/rigid_rotation.h"

#include <cmath>
#include <string>

#include <Eigen/LU>

#include "base/errors.h"
#include "base/math.h"

namespace solfec::integration {

Vec3 MidFrameMomentum(const Mat3& J, const Vec3& W, double h) {
  return ExpMap(-0.5 * h * W) * (J * W);
}

Vec3 ExplicitAngularVelocity(const Mat3& J, const Mat3& J_inv, const Vec3& W, const Vec3& T,
                             double h) {
  const Vec3 W05 = J_inv * (MidFrameMomentum(J, W, h) + 0.5 * h * T);
  return W + h * (J_inv * (T - W05.cross(J * W05)));
}

Mat3 RightJacobian(const Vec3& phi) {
  const double a = phi.norm();
  const Mat3 S = Skew(phi);
  // Jr = I - (1 - cos a)/a^2 S + (a - sin a)/a^3 S^2; cancellation-free coefficients.
  const double s = std::sin(0.5 * a);
  const double c1 = a > 0.0 ? 2.0 * s * s / (a * a) : 0.5;
  const double a2 = a * a;
  const double c2 = a < 1e-2 ? 1.0 / 6.0 - a2 / 120.0 + a2 * a2 / 5040.0
                             : (a - std::sin(a)) / (a2 * a);
  return Mat3::Identity() - c1 * S + c2 * S * S;
}

Vec3 SolveRotatedMomentum(const Mat3& J, const Mat3& J_inv, const Vec3& P, double a,
                          const Vec3& guess) {
  const double scale = P.norm();
  if (scale == 0.0) return Vec3::Zero();
  Vec3 W = guess.allFinite() ? guess : Vec3(J_inv * P);
  for (int it = 0; it < 50; ++it) {
    const Mat3 E = ExpMap(a * W);
    const Vec3 M = J * W;
    const Vec3 r = E * M - P;
    // Once within 1e-12 relative, one more quadratic Newton step reaches round-off.
    const bool converged = r.norm() <= 1e-12 * scale;
    // d/dW (exp[aW] J W) = exp[aW] J - a exp[aW] [J W]x Jr(aW).
    const Mat3 K = E * J - a * E * Skew(M) * RightJacobian(a * W);
    W -= K.partialPivLu().solve(r);
    if (converged) return W;
  }
  throw SolverError("RIG_IMP: Newton solve of exp[h/2 W] J W = P did not converge in 50 "
                    "iterations; reduce the time step");
}

Mat3 RotateOrthonormal(const Mat3& L0, const Vec3& W, double a) {
  Mat3 L = L0 * ExpMap(a * W);
  const Mat3 E = L.transpose() * L - Mat3::Identity();
  if (E.cwiseAbs().maxCoeff() > 1e-13) L = L * (Mat3::Identity() - 0.5 * E);
  return L;
}

}  // namespace solfec::integration
