// Constraint solver bindings: GaussSeidelSolver (options as properties, last statistics).
// The failure policy is applied by the deck layer through Domain::solver_failure, so the
// core solver always runs with 'CONTINUE' here.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "base/errors.h"
#include "bindings/bindings.h"
#include "solvers/gauss_seidel_solver.h"
#include "solvers/penalty_solver.h"

namespace py = pybind11;

namespace solfec::bindings {

using solvers::DiagSolver;
using solvers::GaussSeidelOptions;
using solvers::GaussSeidelSolver;

namespace {

template <typename T>
void Option(py::class_<GaussSeidelSolver, solvers::ConstraintSolver>& c, const char* name,
            T GaussSeidelOptions::*member) {
  c.def_property(
      name, [member](const GaussSeidelSolver& s) { return s.options().*member; },
      [member](GaussSeidelSolver& s, T v) {
        GaussSeidelOptions o = s.options();
        o.*member = v;
        s.set_options(o);
      });
}

const char* DiagName(DiagSolver d) {
  switch (d) {
    case DiagSolver::kSemismoothNewton: return "SEMISMOOTH_NEWTON";
    case DiagSolver::kProjectedGradient: return "PROJECTED_GRADIENT";
    case DiagSolver::kDeSaxceFeng: return "DE_SAXCE_FENG";
  }
  return "";
}

}  // namespace

void DefineSolvers(py::module_& m) {
  py::class_<solvers::SolverStats>(m, "SolverStats")
      .def_readonly("iters", &solvers::SolverStats::iters)
      .def_readonly("merit", &solvers::SolverStats::merit)
      .def_readonly("relative_error", &solvers::SolverStats::relative_error)
      .def_readonly("converged", &solvers::SolverStats::converged)
      .def_readonly("error", &solvers::SolverStats::error)
      .def_readonly("rerhist", &solvers::SolverStats::rerhist)
      .def_readonly("merhist", &solvers::SolverStats::merhist);

  py::class_<solvers::ConstraintSolver>(m, "ConstraintSolver");
  py::class_<GaussSeidelSolver, solvers::ConstraintSolver> c(m, "GaussSeidelSolver");
  c.def(py::init<>());
  Option(c, "epsilon", &GaussSeidelOptions::epsilon);
  Option(c, "maxiter", &GaussSeidelOptions::maxiter);
  Option(c, "meritval", &GaussSeidelOptions::meritval);
  Option(c, "diagepsilon", &GaussSeidelOptions::diagepsilon);
  Option(c, "diagmaxiter", &GaussSeidelOptions::diagmaxiter);
  Option(c, "reverse", &GaussSeidelOptions::reverse);
  Option(c, "anderson", &GaussSeidelOptions::anderson);
  Option(c, "omega", &GaussSeidelOptions::omega);
  c.def_property(
      "diagsolver", [](const GaussSeidelSolver& s) { return DiagName(s.options().diagsolver); },
      [](GaussSeidelSolver& s, const std::string& v) {
        GaussSeidelOptions o = s.options();
        for (DiagSolver d : {DiagSolver::kSemismoothNewton, DiagSolver::kProjectedGradient,
                             DiagSolver::kDeSaxceFeng})
          if (v == DiagName(d)) {
            o.diagsolver = d;
            s.set_options(o);
            return;
          }
        throw InputError("GAUSS_SEIDEL_SOLVER: unknown diagsolver '" + v + "'");
      });
  c.def_property_readonly("last_stats", &GaussSeidelSolver::last_stats,
                          py::return_value_policy::reference_internal);

  using solvers::PenaltySolver;
  using solvers::PenaltyVariant;
  py::class_<PenaltySolver, solvers::ConstraintSolver> ps(m, "PenaltySolver");
  ps.def(py::init<>());
  ps.def_property(
      "variant",
      [](const PenaltySolver& s) {
        return s.variant() == PenaltyVariant::kImplicit ? "IMPLICIT" : "EXPLICIT";
      },
      [](PenaltySolver& s, const std::string& v) {
        if (v == "IMPLICIT") s.set_variant(PenaltyVariant::kImplicit);
        else if (v == "EXPLICIT") s.set_variant(PenaltyVariant::kExplicit);
        else
          throw InputError("PENALTY_SOLVER: unknown variant '" + v +
                           "' (argument 'variant'); use 'IMPLICIT' or 'EXPLICIT'");
      });
  ps.def_property(
      "epsilon", &PenaltySolver::epsilon,
      [](PenaltySolver& s, double v) { s.set_sweeps(v, s.max_sweeps()); });
  ps.def_property(
      "maxiter", &PenaltySolver::max_sweeps,
      [](PenaltySolver& s, int v) { s.set_sweeps(s.epsilon(), v); });
  ps.def_property_readonly("last_stats", &PenaltySolver::last_stats,
                           py::return_value_policy::reference_internal);
}

}  // namespace solfec::bindings
