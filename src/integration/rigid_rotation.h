// Rotation kernels of the rigid integrators RIG_POS/RIG_NEG/RIG_IMP (Koziara & Bicanic,
// IJNME 81(9), 2009): momentum transport by the exponential map and the NEW3 Newton solve.
#pragma once

#include "base/types.h"

namespace solfec::integration {

// exp[-(h/2) W] J W: the referential angular momentum J W of time t expressed in the body
// frame of time t+h/2, where Lambda(t+h/2) = Lambda(t) exp[(h/2) W] (so Lambda(t+h/2) times
// this vector equals the spatial momentum Lambda(t) J W).
Vec3 MidFrameMomentum(const Mat3& J, const Vec3& W, double h);

// NEW1 (explicit): W(t+h) = W + h J^-1 (T - W05 x J W05), with the half-step estimate
// W05 = J^-1 [exp[-(h/2) W] J W + (h/2) T]; T = referential torque at t+h/2.
Vec3 ExplicitAngularVelocity(const Mat3& J, const Mat3& J_inv, const Vec3& W, const Vec3& T,
                             double h);

// Right Jacobian of SO(3): exp[phi + d] = exp[phi] exp[RightJacobian(phi) d] + O(|d|^2).
Mat3 RightJacobian(const Vec3& phi);

// Solves exp[a W] J W = P for W by Newton's method started from `guess` (the NEW3 system,
// a = h/2). Converges to round-off; throws SolverError when Newton fails in 50 iterations.
Vec3 SolveRotatedMomentum(const Mat3& J, const Mat3& J_inv, const Vec3& P, double a,
                          const Vec3& guess);

// L exp[a W], re-orthonormalised (one polar Newton step) once round-off has accumulated
// beyond 1e-13; the exponential map alone keeps it at the 1e-15 level per step.
Mat3 RotateOrthonormal(const Mat3& L, const Vec3& W, double a);

}  // namespace solfec::integration
