// The choice of a body's integrator (integrator.h): one BodyIntegrator class a row of the
// table of MakeIntegrator, each calling the typed step functions of its body class. The
// choice is made once, by BodyVisitor (the body's own class; no casts, no order of tests).
#include "integration/integrator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "base/errors.h"
#include "body/fem/fe_body.h"
#include "body/fem/ffr_body.h"
#include "body/fem/reduced_fe_body.h"
#include "body/pseudo_rigid_body.h"
#include "body/rigid_body.h"
#include "integration/corotated_integrator.h"
#include "integration/fe_integrator.h"
#include "integration/ffr_integrator.h"
#include "integration/pseudo_rigid_integrator.h"
#include "integration/quasi_static_integrator.h"
#include "integration/reduced_integrator.h"
#include "integration/rigid_integrator.h"

namespace solfec::integration {

using body::FeBody;
using body::FfrBody;
using body::PseudoRigidBody;
using body::ReducedFeBody;
using body::RigidBody;
using body::Scheme;

double BodyIntegrator::CriticalStep() const { return std::numeric_limits<double>::infinity(); }

namespace {

// A deformable body whose stiffness dwarfs its inertia over a step loses its motion to
// round-off: with r = h^2 c^2 / L^2 (c^2 = (lambda + 2 mu) / density the P-wave speed
// squared of the body's material, L = (volume / elements)^(1/3) its element size) the
// step matrix (M plus h^2-scaled K) carries K's rounding of the rigid modes, a relative
// error of about 30 r eps in the motion (an FE cube falling under gravity: 2e-6 at
// r = 4e11; at r = 4e29, young 1e20 with density 1e-12, it never moves). Above
// kStiffRatioMax (error ~1e-2) RUN refuses the step.
constexpr double kStiffRatioMax = 1e13;

void CheckStiffness(const body::Body& b, double h, int elements) {
  const material::BulkMaterial& m = b.material();
  const double modulus = m.young * (1 - m.poisson) / ((1 + m.poisson) * (1 - 2 * m.poisson));
  const double L = std::cbrt(b.volume() / std::max(1, elements));
  const double r = h * h * modulus / (m.density * L * L);
  if (!(L > 0.0) || r <= kStiffRatioMax) return;
  std::ostringstream msg;
  msg.precision(10);
  msg << "RUN: body " << b.id() << (b.label().empty() ? "" : " ('" + b.label() + "')")
      << " is too stiff for the time step: h^2 c^2 / L^2 = " << r << " exceeds "
      << kStiffRatioMax << " (young " << m.young << " Pa, poisson " << m.poisson
      << ", density " << m.density << " kg/m^3, element size L = " << L << " m, h = " << h
      << " s), so its motion would be lost to round-off; use a smaller young or step, or a "
      << "larger density";
  throw InputError(msg.str());
}

// The explicit schemes of the deformable kinds (DEFAULT is DEF_EXP for them).
bool Explicit(Scheme s) { return s == Scheme::kDefault || s == Scheme::kDefExp; }

// --- DYNAMIC

class RigidIntegrator final : public BodyIntegrator {
 public:
  explicit RigidIntegrator(RigidBody& b) : b_(b) {}
  void CheckStep(double) const override {}
  void BeginStep(double t, double h) override { BeginRigidStep(b_, t, h); }
  void FreeVelocity(double t, double h, const Vec3& g) override {
    RigidFreeVelocity(b_, t, h, g);
  }
  void EndStep(double t, double h) override { EndRigidStep(b_, t, h); }

 private:
  RigidBody& b_;
};

class PseudoRigidIntegrator final : public BodyIntegrator {
 public:
  explicit PseudoRigidIntegrator(PseudoRigidBody& b) : b_(b) {}
  void CheckStep(double h) const override {
    CheckPseudoRigidStep(b_, h);
    CheckStiffness(b_, h, 1);
  }
  double CriticalStep() const override {
    return Explicit(b_.scheme) ? PseudoRigidCriticalStep(b_) : BodyIntegrator::CriticalStep();
  }
  void BeginStep(double t, double h) override { BeginPseudoRigidStep(b_, t, h); }
  void FreeVelocity(double t, double h, const Vec3& g) override {
    PseudoRigidFreeVelocity(b_, t, h, g);
  }
  void EndStep(double t, double h) override { EndPseudoRigidStep(b_, t, h); }

 private:
  PseudoRigidBody& b_;
};

// Form 'TL' (total Lagrangian).
class FeIntegrator final : public BodyIntegrator {
 public:
  explicit FeIntegrator(FeBody& b) : b_(b) {}
  void CheckStep(double h) const override {
    CheckFeStep(b_, h);
    CheckStiffness(b_, h, b_.num_elements());
  }
  double CriticalStep() const override {
    return Explicit(b_.scheme) ? FeCriticalStep(b_) : BodyIntegrator::CriticalStep();
  }
  void BeginStep(double t, double h) override { BeginFeStep(b_, t, h); }
  void FreeVelocity(double t, double h, const Vec3& g) override {
    FeFreeVelocity(b_, t, h, g);
  }
  void EndStep(double t, double h) override { EndFeStep(b_, t, h); }

 private:
  FeBody& b_;
};

// Form 'BC' (body co-rotated).
class CorotatedIntegrator final : public BodyIntegrator {
 public:
  explicit CorotatedIntegrator(FeBody& b) : b_(b) {}
  void CheckStep(double h) const override {
    CheckCorotatedStep(b_, h);
    CheckStiffness(b_, h, b_.num_elements());
  }
  double CriticalStep() const override {
    return Explicit(b_.scheme) ? FeCriticalStep(b_) : BodyIntegrator::CriticalStep();
  }
  void BeginStep(double t, double h) override { BeginCorotatedStep(b_, t, h); }
  void FreeVelocity(double t, double h, const Vec3& g) override {
    CorotatedFreeVelocity(b_, t, h, g);
  }
  void EndStep(double t, double h) override { EndCorotatedStep(b_, t, h); }

 private:
  FeBody& b_;
};

// --- both modes

// Forms 'BC-RO' and 'BC-MODAL' (QUASI_STATIC: CheckStep throws).
class ReducedIntegrator final : public BodyIntegrator {
 public:
  ReducedIntegrator(ReducedFeBody& b, bool quasi_static) : b_(b), qs_(quasi_static) {}
  void CheckStep(double) const override { CheckReducedStep(b_, qs_); }
  void BeginStep(double t, double h) override { BeginReducedStep(b_, t, h, qs_); }
  void FreeVelocity(double t, double h, const Vec3& g) override {
    ReducedFreeVelocity(b_, t, h, g, qs_);
  }
  void EndStep(double t, double h) override { EndReducedStep(b_, t, h, qs_); }

 private:
  ReducedFeBody& b_;
  bool qs_;
};

// Form 'FFR' (floating frame of reference).
class FfrIntegrator final : public BodyIntegrator {
 public:
  FfrIntegrator(FfrBody& b, bool quasi_static) : b_(b), qs_(quasi_static) {}
  void CheckStep(double h) const override {
    if (!qs_) CheckFfrStep(b_, h);
  }
  void BeginStep(double t, double h) override { BeginFfrStep(b_, t, h, qs_); }
  void FreeVelocity(double t, double h, const Vec3& g) override {
    FfrFreeVelocity(b_, t, h, g, qs_);
  }
  void EndStep(double t, double h) override { EndFfrStep(b_, t, h, qs_); }

 private:
  FfrBody& b_;
  bool qs_;
};

// --- QUASI_STATIC (quasi_static_integrator.h): the scheme is ignored, nothing to check,
// nothing moves before the solve.

template <class B>
class QuasiStaticIntegrator final : public BodyIntegrator {
 public:
  explicit QuasiStaticIntegrator(B& b) : b_(b) {}
  void CheckStep(double) const override {}
  void BeginStep(double, double) override {}
  void FreeVelocity(double t, double h, const Vec3& g) override {
    QuasiStaticFreeVelocity(b_, t, h, g);
  }
  void EndStep(double, double h) override { EndQuasiStaticStep(b_, h); }

 private:
  B& b_;
};

// The table of MakeIntegrator (integrator.h).
class Chooser final : public body::BodyVisitor {
 public:
  explicit Chooser(Mode mode) : qs_(mode == Mode::kQuasiStatic) {}
  void Visit(RigidBody& b) override { Make<RigidIntegrator>(b); }
  void Visit(PseudoRigidBody& b) override { Make<PseudoRigidIntegrator>(b); }
  void Visit(FeBody& b) override {
    if (b.form() == body::FeForm::kBC)
      Make<CorotatedIntegrator>(b);
    else
      Make<FeIntegrator>(b);
  }
  void Visit(ReducedFeBody& b) override { made = std::make_unique<ReducedIntegrator>(b, qs_); }
  void Visit(FfrBody& b) override { made = std::make_unique<FfrIntegrator>(b, qs_); }

  std::unique_ptr<BodyIntegrator> made;

 private:
  // The DYNAMIC integrator `Dynamic`, or the QUASI_STATIC one of the body's class.
  template <class Dynamic, class B>
  void Make(B& b) {
    if (qs_)
      made = std::make_unique<QuasiStaticIntegrator<B>>(b);
    else
      made = std::make_unique<Dynamic>(b);
  }

  bool qs_;
};

}  // namespace

std::unique_ptr<BodyIntegrator> MakeIntegrator(body::Body& b, Mode mode) {
  Chooser chooser(mode);
  b.Accept(chooser);
  return std::move(chooser.made);
}

}  // namespace solfec::integration
