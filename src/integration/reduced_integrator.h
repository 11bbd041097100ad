// DEF_LIM time stepping of reduced-order co-rotated finite-element bodies, forms 'BC-RO' and
// 'BC-MODAL' (co-rotated reduced-order report, section 5, eqs. 37-57, and appendix B).
#pragma once

#include "base/types.h"
#include "body/fem/reduced_fe_body.h"

namespace solfec::integration {

// Reduced forms always integrate with DEF_LIM (as Solfec-1.0): schemes DEFAULT, DEF_LIM,
// DEF_LIM2 and DEF_IMP are accepted; DEF_EXP and the rigid schemes throw InputError naming RUN
// (argument 'scheme'). quasi_static = true throws InputError (QUASI_STATIC analysis of
// reduced bodies is not available).
void CheckReducedStep(const body::ReducedFeBody& b, bool quasi_static);

// x(t+h/2) = x(t) + h/2 v(t) (eq. 37); Lambda_1 = Lambda_hat(x(t+h/2), Lambda(t)) (eq. 38)
// becomes the body's rotation for H_bar and the force projection of this step.
void BeginReducedStep(body::ReducedFeBody& b, double t, double h, bool quasi_static);

// u_bar_free = u_bar(t) + A_bar^-1 b_bar with b_bar of eq. 47 (BC-MODAL: eq. 88), the
// deformation q_bar(t+h/2) projected by eq. 40 (85) and v_bar(t) by eq. 48 (89); A_bar of
// eq. 45 (87) with c = eta h/2 + h^2/4, eta = the body's damping.
void ReducedFreeVelocity(body::ReducedFeBody& b, double t, double h, const Vec3& gravity,
                         bool quasi_static);

// u_bar(t+h) = u_bar_free + A_bar^-1 impulse (eq. 44); full u(t+h) (eq. 51), x (eq. 52),
// Lambda(t+h) (eq. 53); non-incremental re-projection u_bar (eq. 54; BC-MODAL: only the
// deformable components, eqs. 90-91), u = Lambda E u_bar (eq. 55), x (eq. 56), q_bar (eq. 57
// / 92). Accumulates the work of the non-callback external forces.
void EndReducedStep(body::ReducedFeBody& b, double t, double h, bool quasi_static);

}  // namespace solfec::integration
