// Time stepping of floating-frame (form 'FFR') finite-element bodies in the split-midpoint
// form BeginStep / FreeVelocity / EndStep, dynamic and quasi-static.
#pragma once

#include "base/types.h"
#include "body/fem/ffr_body.h"

namespace solfec::integration {

// Throws InputError for a scheme other than DEFAULT/DEF_LIM (the FFR step is always the
// trapezoidal one of the paper). Changes nothing.
void CheckFfrStep(const body::FfrBody& b, double h);

// Dynamic: x_C += h/2 v_C, O := O exp[(h/2) Omega], psi += h/2 lambda; shape at t+h/2.
// Quasi-static: nothing moves.
void BeginFfrStep(body::FfrBody& b, double t, double h, bool quasi_static);

// Dynamic (`gravity` = g(t+h/2), loads at t+h/2):
//   v_free = v_C + (h/m) F
//   Omega_free solves exp[(h/2) W] J W = exp[-(h/2) Omega] J Omega + h T   (RIG_IMP)
//   lambda_free = lambda + h P A_e^-1 P^T (f + (f_c(Omega) + f_c(Omega_free))/2
//                                          - K psi(t+h/2) - eta K lambda)
//   with A_e = M + (eta h/2 + h^2/4) K, f_c the centrifugal force (paper eq. 18).
// Quasi-static (`gravity` = g(t+h), loads at t+h): u_free = h A^-1 (f - [0, 0, K psi]) with
//   A_e = M + h^2 K. Clears b.impulse().
void FfrFreeVelocity(body::FfrBody& b, double t, double h, const Vec3& gravity,
                     bool quasi_static);

// u(t+h) = u_free + A^-1 impulse; dynamic: x_C += h/2 v_C, O := O exp[(h/2) Omega(t+h)],
// psi += h/2 lambda(t+h); quasi-static: the same with full steps h from q(t). External
// work; shape.
void EndFfrStep(body::FfrBody& b, double t, double h, bool quasi_static);

}  // namespace solfec::integration
