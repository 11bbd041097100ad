// Body co-rotated (BC) stepping of FINITE_ELEMENT bodies (corotated report, section 4). Per
// step: two rotation fits (3 x 3 Gauss-Newton over the boundary nodes), one sparse product
// K0 w and, for DEF_LIM, one solve with the Cholesky factor of A0 computed once; rotations
// of nodal vectors by the block-diagonal L cost O(N). No assembly or factorization per step.
#include "integration/corotated_integrator.h"

#include <sstream>
#include <string>

#include "base/errors.h"
#include "integration/fe_integrator.h"

namespace solfec::integration {

using body::FeBody;
using body::Scheme;

namespace {

bool Explicit(const FeBody& b) {
  switch (b.scheme) {
    case Scheme::kDefLim:
      return false;
    case Scheme::kDefault:  // Solfec-1.0's default (bod.c BODY_Create)
    case Scheme::kDefExp:
      return true;
    default: {
      std::string name = std::to_string(b.id());
      if (!b.label().empty()) name += " ('" + b.label() + "')";
      throw InputError(std::string("RUN: scheme '") + body::SchemeName(b.scheme) +
                       "' is not available for FINITE_ELEMENT body " + name +
                       " of form 'BC' (argument 'scheme'); use 'DEF_EXP' (default) or "
                       "'DEF_LIM'");
    }
  }
}

}  // namespace

void CheckCorotatedStep(const FeBody& b, double h) {
  if (!Explicit(b)) return;
  const double hc = FeCriticalStep(b);
  if (h > hc) {
    std::ostringstream msg;
    msg << "RUN: time step h = " << h << " exceeds the critical step " << hc
        << " of FINITE_ELEMENT body " << b.id() << " (form 'BC', scheme 'DEF_EXP'); use "
        << "scheme 'DEF_LIM' or a smaller step";
    throw InputError(msg.str());
  }
}

void BeginCorotatedStep(FeBody& b, double, double h) {
  CheckCorotatedStep(b, h);
  b.step_state().u0 = b.u();
  const Mat3 start = b.CorotationStart();  // Lambda(t), or re-derived after RESTORE/conf
  b.mutable_q() += (0.5 * h) * b.u();
  b.set_corotation(b.FitCorotation(start));  // Lambda_1
  b.UpdateShape();
}

void CorotatedFreeVelocity(FeBody& b, double t, double h, const Vec3& gravity) {
  FeBody::StepState& s = b.step_state();
  if (s.u0.size() != b.num_dofs()) s.u0 = b.u();
  b.impulse().setZero(b.num_dofs());
  s.external = b.ExternalForce(t + 0.5 * h, h, gravity);
  const Mat3& L1 = b.corotation();
  MatX du = h * (s.external + b.CorotatedForce(L1, s.u0, b.damping));
  if (Explicit(b)) {
    b.ResetInertiaOperator();
  } else {
    b.SetCorotatedOperator(L1, 0.5 * b.damping * h + 0.25 * h * h);
  }
  b.ApplyInverseInertia(du);
  b.u_free() = b.u() + du.col(0);
}

void EndCorotatedStep(FeBody& b, double, double h) {
  EndFeMotion(b, h);  // u(t+h) = u_free + Lambda_1 A0^-1 Lambda_1^T impulse, eq. (31)
  b.set_corotation(b.FitCorotation(b.corotation()));  // Lambda(t+h) from Lambda_1
  b.UpdateShape();
}

void CorotatedQuasiStaticFree(FeBody& b, double h, const VecX& f_end) {
  b.UpdateCorotation();
  const Mat3& L = b.corotation();
  MatX du = h * (f_end + b.CorotatedForce(L, b.u(), 0.0));
  b.SetCorotatedOperator(L, h * h);
  b.ApplyInverseInertia(du);
  b.u_free() = du.col(0);
}

}  // namespace solfec::integration
