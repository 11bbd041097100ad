// The Coulomb friction cone FC = {R : ||R_T|| <= mu R_N} (manual eq. 8.2) and the
// Euclidean projection onto it (used by eqs. 8.6-8.8 and the diagonal solvers).
#pragma once

#include <cmath>

#include "base/types.h"

namespace solfec::solvers {

// Components 0, 1 are tangential and 2 is normal (local base T1, T2, N).
inline double TangentNorm(const Vec3& v) { return std::sqrt(v.x() * v.x() + v.y() * v.y()); }

// proj_FC(S): identity inside FC, zero inside the polar cone (mu ||S_T|| + S_N <= 0) and
// the nearest point of the boundary ray through S_T / ||S_T|| otherwise (eq. 8.8).
inline Vec3 ProjectOnCone(const Vec3& S, double mu) {
  const double st = TangentNorm(S);
  if (st <= mu * S.z()) return S;
  if (mu * st + S.z() <= 0.0) return Vec3::Zero();
  const double pn = (mu * st + S.z()) / (1.0 + mu * mu);
  const double scale = mu * pn / st;  // st > 0 here: st == 0 falls in one of the cases above
  return Vec3(scale * S.x(), scale * S.y(), pn);
}

// The De Saxce-Feng modified velocity [U_T; Ubar_N + mu ||U_T||] (eq. 8.4) for Ubar.
inline Vec3 DeSaxceVelocity(const Vec3& Ubar, double mu) {
  return Vec3(Ubar.x(), Ubar.y(), Ubar.z() + mu * TangentNorm(Ubar));
}

}  // namespace solfec::solvers
