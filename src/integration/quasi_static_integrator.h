// QUASI_STATIC time stepping of all body kinds: one linearised equilibrium step per time step
// in velocity form, so that the constraint solvers work unchanged.
//
// Inertia is neglected: u(t) is not carried from step to step (no kinetic memory). With the
// operator A = M_reg + h^2 K(q(t)), M_reg = M (the body's mass matrix, a regularisation):
//   u_free   = h A^-1 (f_ext(t+h) + f_int(q(t)))     (the full residual, not an increment)
//   u(t+h)   = u_free + A^-1 H^T R h                  (R from the constraint solve at q(t))
//   q(t+h)   = q(t) + h u(t+h)                        (no split midpoint: gaps, H and the
//                                                      constraint targets use q(t))
// so h u(t+h) is one Newton step of the equilibrium f_ext + f_int(q) + H^T R = 0 with the
// stiffness K regularised by M / h^2, and R is the total (not incremental) reaction. The
// residual left by the linearisation and by the regularisation re-enters the next step's
// f_int(q(t)) and is corrected there: under loads held constant the equilibrium error of an
// elastic mode of frequency w contracts by 1 / (1 + (h w)^2) per step, and while the loads
// move the lag is ~ 1/(h w_min)^2 of the load change per step, w_min the lowest elastic
// frequency sqrt(K/M). So choose h >> 1/w_min (e.g. h w_min > 100 for 1e-4 relative).
// Bodies without stiffness (RIGID; rigid modes of deformable bodies that no constraint holds)
// under a net load F simply move: h u = h^2 A^-1 F per step.
//   FINITE_ELEMENT: A = lumped M + h^2 K(q(t)), sparse Cholesky (CHOLMOD) once per step.
//   PSEUDO_RIGID:   A = blockdiag(rho E kron I3 + h^2 K(F(t)), m I3).
//   RIGID:          A = diag(J, m I); u_free = h [J^-1 T, F / m] (no gyroscopic term);
//                   Lambda(t+h) = Lambda(t) exp[h Omega(t+h)], x(t+h) = x(t) + h v(t+h).
//   OBSTACLE:       moves with its prescribed velocity, q(t+h) = q(t) + h u.
// The bodies' `scheme` and `damping` are ignored. The stored velocity u(t+h) is the
// displacement increment over h. External work: (q(t+h) - q(t)) . (f_ext(t) + f_ext(t+h))/2
// (so FORCE callbacks are evaluated at t and at t+h). Kinetic energy is left as the bodies
// compute it from the stored pseudo-velocity (1/2 u^T M u): it is not part of the energy
// balance, but it measures how far the run still is from equilibrium (-> 0 at rest), and
// the ENERGY routine and the results files then report the same number.
// Contacts act only where they are detected at q(t) (shapes overlapping): bodies meant to
// touch must start with a small overlap, otherwise the first free step h^2 A^-1 F, which is
// large for unheld rigid modes, carries them through each other.
// Why not a few Newton iterations per step on the free problem: with constraints every
// iteration would need its own constraint solve (H^T R is only known after it); carrying the
// residual instead makes consecutive steps at constant load exactly those Newton iterations,
// with the constraint solver inside the loop, at the cost of one factorisation per step.
#pragma once

#include "base/types.h"
#include "body/fem/fe_body.h"
#include "body/pseudo_rigid_body.h"
#include "body/rigid_body.h"

namespace solfec::integration {

// Nothing moves at the start of a quasi-static step (no split midpoint): BeginStep of a
// quasi-static integrator does nothing. By body class:

// u_free = h A^-1 (f_ext(t+h) + f_int(q(t))) with `gravity` = g(t+h); sets A as the body's
// inertia operator for the local dynamics; clears b.impulse(). Form 'BC': the co-rotated
// A = Lambda (M + h^2 K0) Lambda^T (corotated_integrator.h).
void QuasiStaticFreeVelocity(body::FeBody& b, double t, double h, const Vec3& gravity);
void QuasiStaticFreeVelocity(body::PseudoRigidBody& b, double t, double h, const Vec3& gravity);
// OBSTACLE: u_free = u (prescribed motion).
void QuasiStaticFreeVelocity(body::RigidBody& b, double t, double h, const Vec3& gravity);

// u(t+h) = u_free + A^-1 impulse; q(t+h) = q(t) + h u(t+h); external work; shape (form
// 'BC': Lambda refitted). OBSTACLE: q(t+h) = q(t) + h u.
void EndQuasiStaticStep(body::FeBody& b, double h);
void EndQuasiStaticStep(body::PseudoRigidBody& b, double h);
void EndQuasiStaticStep(body::RigidBody& b, double h);

}  // namespace solfec::integration
