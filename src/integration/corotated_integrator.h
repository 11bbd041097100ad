// Time stepping of FINITE_ELEMENT bodies in the body co-rotated form 'BC' (corotated report,
// section 4, eqs. 24-34): DEF_LIM with A0 = M + (eta h/2 + h^2/4) K0 factorized once, DEF_EXP
// with the lumped mass, and the QUASI_STATIC step with the co-rotated K0.
#pragma once

#include "base/types.h"
#include "body/fem/fe_body.h"

namespace solfec::integration {

// Throws InputError for a scheme other than DEFAULT/DEF_LIM/DEF_EXP, and for DEF_EXP when h
// exceeds FeCriticalStep. Changes nothing.
void CheckCorotatedStep(const body::FeBody& b, double h);

// q(t+h/2) = q + h/2 u (eq. 24), Lambda_1 = Lambda_hat(q(t+h/2), Lambda(t)) (eq. 25), kept in
// the body's corotation(); shape updated.
void BeginCorotatedStep(body::FeBody& b, double t, double h);

// b = h f_ext - h L1 K0 [L1^T (q(t+h/2) + eta u(t)) - Z] (eq. 27, q = coordinates);
// DEF_LIM: u_free = u + L1 A0^-1 L1^T b (eqs. 28, 34), the body's inertia operator becomes
// L1 A0 L1^T; DEF_EXP: u_free = u + M^-1 b.
void CorotatedFreeVelocity(body::FeBody& b, double t, double h, const Vec3& gravity);

// u(t+h) = u_free + A^-1 impulse, q(t+h) = q(t+h/2) + h/2 u(t+h) (eq. 31),
// Lambda(t+h) = Lambda_hat(q(t+h), Lambda_1) (eq. 32); external work; shape.
void EndCorotatedStep(body::FeBody& b, double t, double h);

// QUASI_STATIC: u_free = h A^-1 f with A = L (M + h^2 K0) L^T and
// f = f_end - L K0 (L^T q - Z), L = Lambda fitted to q(t). f_end = external force at t+h.
void CorotatedQuasiStaticFree(body::FeBody& b, double h, const VecX& f_end);

}  // namespace solfec::integration
