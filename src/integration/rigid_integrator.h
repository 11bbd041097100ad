// Time stepping of RIGID and OBSTACLE bodies: the rotation schemes RIG_POS, RIG_NEG (default)
// and RIG_IMP of Koziara & Bicanic, IJNME 81(9), 2009, in the split-midpoint form
// BeginStep / FreeVelocity / EndStep of integrator.h (properties: rigid_integrator.cc).
#pragma once

#include "base/types.h"
#include "body/rigid_body.h"

namespace solfec::integration {

// Lambda(t+h/2) = Lambda(t) exp[(h/2) Omega(t)], x(t+h/2) = x(t) + (h/2) v(t); records u(t);
// updates the current shape.
void BeginRigidStep(body::RigidBody& b, double t, double h);

// u_free of the body's scheme from f(t+h/2) (gravity plus loads); clears b.impulse().
// OBSTACLE: u_free = u (infinite inertia).
void RigidFreeVelocity(body::RigidBody& b, double t, double h, const Vec3& gravity);

// Omega* = u_free + A^-1 impulse moves the body to t+h; the stored Omega(t+h) per scheme;
// external work. OBSTACLE: finishes the motion with u(t), or with u_free when its own
// constraints guided it (RigidBody::guided).
void EndRigidStep(body::RigidBody& b, double t, double h);

}  // namespace solfec::integration
