// Time integration of one body over a step, split around the constraint solve
// (manual eqs. 1.5-1.7): BeginStep, FreeVelocity, then EndStep with the solved impulse.
#pragma once

#include <memory>

#include "base/types.h"
#include "body/body.h"

namespace solfec::integration {

// kDynamic: the split-midpoint schemes of the body kinds; kQuasiStatic: inertia neglected,
// one regularised equilibrium step per time step (quasi_static_integrator.h). The domain
// passes its analysis; gravity and loads are then taken at t+h instead of t+h/2.
enum class Mode { kDynamic, kQuasiStatic };

// The time integrator of one body, chosen once for the body's class (FINITE_ELEMENT: its
// form) and the analysis mode by MakeIntegrator; the domain makes one when a body is added.
// It keeps no state of its own (the body's step_state() carries what a step needs between
// the calls). The body's scheme and damping are read at every step (BODY.scheme may change
// between RUNs).
class BodyIntegrator {
 public:
  virtual ~BodyIntegrator() = default;

  // Validates the step h for the body's kind and scheme before anything moves: throws
  // InputError for a scheme the kind does not have, an explicit step above the body's
  // critical step (pseudo-rigid and FE DEF_EXP), a body too stiff for h, or a form without
  // the analysis (reduced forms in QUASI_STATIC). Rigid kinds: nothing to check.
  virtual void CheckStep(double h) const = 0;

  // The critical step of the body's explicit dynamic scheme at its current configuration
  // (PSEUDO_RIGID and FINITE_ELEMENT 'TL'/'BC' with 'DEF_EXP' or 'DEFAULT': 2 / omega_max,
  // lowered by damping); infinity for implicit schemes, rigid kinds, the reduced and FFR
  // forms (those check their own) and QUASI_STATIC.
  virtual double CriticalStep() const;

  // q(t+h/2) = q(t) + h/2 u(t) for the body's kind and scheme; updates the current shape.
  // QUASI_STATIC: nothing moves.
  virtual void BeginStep(double t, double h) = 0;

  // u_free = u(t) + h A^-1 f(t+h/2) (gravity g plus the body's loads); clears the body's
  // impulse. QUASI_STATIC: u_free = h A^-1 f(t+h) with g = g(t+h).
  virtual void FreeVelocity(double t, double h, const Vec3& gravity) = 0;

  // u(t+h) = u_free + A^-1 impulse; q(t+h) = q(t+h/2) + h/2 u(t+h); accumulates the
  // external work; updates the current shape. QUASI_STATIC: q(t+h) = q(t) + h u(t+h).
  virtual void EndStep(double t, double h) = 0;
};

// The integrator of body b (kept by reference: b must outlive it) in `mode`, by class:
//   body (form)                 DYNAMIC                      QUASI_STATIC
//   RIGID, OBSTACLE             rigid_integrator.h           quasi_static_integrator.h
//   PSEUDO_RIGID                pseudo_rigid_integrator.h    quasi_static_integrator.h
//   FINITE_ELEMENT 'TL'         fe_integrator.h (1)          quasi_static_integrator.h
//   FINITE_ELEMENT 'BC'         corotated_integrator.h       quasi_static_integrator.h
//   'BC-RO', 'BC-MODAL'         reduced_integrator.h         (CheckStep throws)
//   'FFR'                       ffr_integrator.h             ffr_integrator.h
// (1) scheme DEF_SEMI_EXPLICIT: semi_explicit_integrator.h, chosen at each step.
// A new body class or form adds its row here (integrator.cc, BodyVisitor in body/body.h).
std::unique_ptr<BodyIntegrator> MakeIntegrator(body::Body& b, Mode mode = Mode::kDynamic);

}  // namespace solfec::integration
