// Constraint solver bindings: GaussSeidelSolver (options as properties, last statistics).
// The failure policy is applied by the deck layer through Domain::solver_failure, so the
// core solver always runs with 'CONTINUE' here.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <type_traits>

#include "base/errors.h"
#include "bindings/bindings.h"
#include "solvers/auto_solver.h"
#include "solvers/gauss_seidel_solver.h"
#include "solvers/newton_solver.h"
#include "solvers/penalty_solver.h"
#include "solvers/siconos_solver.h"

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
    case DiagSolver::kProjectedNewton: return "PROJECTED_NEWTON";
  }
  return "";
}

}  // namespace

void DefineSolvers(py::module_& m) {
  py::class_<solvers::SolverStats>(m, "SolverStats")
      .def_readonly("iters", &solvers::SolverStats::iters)
      .def_readonly("merit", &solvers::SolverStats::merit)
      .def_readonly("relative_error", &solvers::SolverStats::relative_error)
      .def_readonly("residual", &solvers::SolverStats::residual)
      .def_readonly("converged", &solvers::SolverStats::converged)
      .def_readonly("error", &solvers::SolverStats::error)
      .def_readonly("rerhist", &solvers::SolverStats::rerhist)
      .def_readonly("merhist", &solvers::SolverStats::merhist)
      .def_readonly("mvhist", &solvers::SolverStats::mvhist)
      .def_readonly("winner", &solvers::SolverStats::winner)
      .def_readonly("message", &solvers::SolverStats::message);

  py::class_<solvers::ConstraintSolver>(m, "ConstraintSolver")
      .def_property("itershist_on", &solvers::ConstraintSolver::itershist_on,
                    &solvers::ConstraintSolver::set_itershist)
      .def_property_readonly("itershist", &solvers::ConstraintSolver::itershist);
  py::class_<GaussSeidelSolver, solvers::ConstraintSolver> c(m, "GaussSeidelSolver");
  c.def(py::init<>());
  Option(c, "epsilon", &GaussSeidelOptions::epsilon);
  Option(c, "maxiter", &GaussSeidelOptions::maxiter);
  Option(c, "meritval", &GaussSeidelOptions::meritval);
  Option(c, "diagepsilon", &GaussSeidelOptions::diagepsilon);
  Option(c, "diagmaxiter", &GaussSeidelOptions::diagmaxiter);
  Option(c, "reverse", &GaussSeidelOptions::reverse);
  Option(c, "anderson", &GaussSeidelOptions::anderson);
  Option(c, "innerloops", &GaussSeidelOptions::innerloops);  // solfec-mpi only
  Option(c, "omega", &GaussSeidelOptions::omega);
  Option(c, "residual", &GaussSeidelOptions::residual);  // stopping test (benchmarks)
  c.def_property(  // 'BOTH' (Solfec-1.0) or 'EITHER' (the manual's Alg. 9.1)
      "stopping",
      [](const GaussSeidelSolver& s) {
        switch (s.options().stopping) {
          case GaussSeidelOptions::Stopping::kBoth: return std::string("BOTH");
          case GaussSeidelOptions::Stopping::kEither: return std::string("EITHER");
          case GaussSeidelOptions::Stopping::kResidual: break;
        }
        return std::string("RESIDUAL");
      },
      [](GaussSeidelSolver& s, const std::string& v) {
        GaussSeidelOptions o = s.options();
        if (v == "BOTH") {
          o.stopping = GaussSeidelOptions::Stopping::kBoth;
        } else if (v == "EITHER") {
          o.stopping = GaussSeidelOptions::Stopping::kEither;
        } else if (v == "RESIDUAL") {
          o.stopping = GaussSeidelOptions::Stopping::kResidual;
        } else {
          throw InputError("GAUSS_SEIDEL_SOLVER: unknown stopping '" + v +
                           "' (argument 'stopping'); use 'BOTH', 'EITHER' or 'RESIDUAL'");
        }
        s.set_options(o);
      });
  c.def_property(  // index into ('FULL', 'MIDDLE_JACOBI', 'BOUNDARY_JACOBI', 'SIMPLIFIED')
      "variant", [](const GaussSeidelSolver& s) { return static_cast<int>(s.options().variant); },
      [](GaussSeidelSolver& s, int v) {
        GaussSeidelOptions o = s.options();
        o.variant = static_cast<GaussSeidelOptions::Variant>(v);
        s.set_options(o);
      });
  c.def_property(
      "diagsolver", [](const GaussSeidelSolver& s) { return DiagName(s.options().diagsolver); },
      [](GaussSeidelSolver& s, const std::string& v) {
        GaussSeidelOptions o = s.options();
        for (DiagSolver d : {DiagSolver::kSemismoothNewton, DiagSolver::kProjectedGradient,
                             DiagSolver::kDeSaxceFeng, DiagSolver::kProjectedNewton})
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

  // NEWTON_SOLVER: options as properties (validated by NewtonSolver::set_options).
  using solvers::NewtonOptions;
  using solvers::NewtonSolver;
  py::class_<NewtonSolver, solvers::ConstraintSolver> ns(m, "NewtonSolver");
  ns.def(py::init<>());
  auto newton_option = [&ns](const char* name, auto member) {
    using T = std::remove_reference_t<decltype(NewtonOptions{}.*member)>;
    ns.def_property(
        name, [member](const NewtonSolver& s) { return s.options().*member; },
        [member](NewtonSolver& s, T v) {
          NewtonOptions o = s.options();
          o.*member = v;
          s.set_options(o);
        });
  };
  newton_option("meritval", &NewtonOptions::meritval);
  newton_option("maxiter", &NewtonOptions::maxiter);
  newton_option("linminiter", &NewtonOptions::linminiter);
  newton_option("linmaxiter", &NewtonOptions::linmaxiter);
  newton_option("resdec", &NewtonOptions::resdec);
  newton_option("delta", &NewtonOptions::delta);
  newton_option("proximal", &NewtonOptions::proximal);  // extension (benchmarks)
  newton_option("nonmonlength", &NewtonOptions::nonmonlength);
  newton_option("smoothing", &NewtonOptions::smoothing);
  newton_option("residual", &NewtonOptions::residual);  // stopping test (benchmarks)
  newton_option("gsflag", &NewtonOptions::gsflag);
  newton_option("locdyn", &NewtonOptions::locdyn);
  ns.def_property_readonly("fell_back", &NewtonSolver::fell_back);
  ns.def_property_readonly("linear_iters", &NewtonSolver::linear_iters);
  ns.def_property_readonly("smoothing_sweeps", &NewtonSolver::smoothing_sweeps);
  ns.def_property_readonly("last_stats", &NewtonSolver::last_stats,
                           py::return_value_policy::reference_internal);

  // AUTO_SOLVER: options as properties (validated by AutoSolver::set_options).
  using solvers::AutoOptions;
  using solvers::AutoSolver;
  py::class_<AutoSolver, solvers::ConstraintSolver> as(m, "AutoSolver");
  as.def(py::init<>());
  auto auto_option = [&as](const char* name, auto member) {
    using T = std::remove_reference_t<decltype(AutoOptions{}.*member)>;
    as.def_property(
        name, [member](const AutoSolver& s) { return s.options().*member; },
        [member](AutoSolver& s, T v) {
          AutoOptions o = s.options();
          o.*member = v;
          s.set_options(o);
        });
  };
  auto_option("meritval", &AutoOptions::meritval);
  auto_option("maxiter", &AutoOptions::maxiter);
  auto_option("stallfactor", &AutoOptions::stallfactor);
  auto_option("newtonwindow", &AutoOptions::newtonwindow);
  auto_option("gswindow", &AutoOptions::gswindow);
  as.def_property(
      "first",
      [](const AutoSolver& s) {
        switch (s.options().first) {
          case AutoOptions::First::kNewton: return "NEWTON";
          case AutoOptions::First::kGaussSeidel: return "GAUSS_SEIDEL";
          case AutoOptions::First::kLast: return "LAST";
        }
        return "";
      },
      [](AutoSolver& s, const std::string& v) {
        AutoOptions o = s.options();
        if (v == "NEWTON") o.first = AutoOptions::First::kNewton;
        else if (v == "GAUSS_SEIDEL") o.first = AutoOptions::First::kGaussSeidel;
        else if (v == "LAST") o.first = AutoOptions::First::kLast;
        else
          throw InputError("AUTO_SOLVER: unknown first '" + v +
                           "' (argument 'first'); use 'NEWTON', 'GAUSS_SEIDEL' or 'LAST'");
        s.set_options(o);
      });
  as.def_property_readonly("winner_history", &AutoSolver::winner_history);
  as.def("clear_history", &AutoSolver::clear_history);
  as.def_property_readonly("newton_iters", &AutoSolver::newton_iters);
  as.def_property_readonly("gs_iters", &AutoSolver::gs_iters);
  as.def_property_readonly("switches", &AutoSolver::switches);
  as.def_property_readonly("last_stats", &AutoSolver::last_stats,
                           py::return_value_policy::reference_internal);

  // SICONOS_SOLVER: options as properties (validated by SiconosSolver::set_options);
  // siconos_available() tells whether this build links Siconos numerics.
  using solvers::SiconosOptions;
  using solvers::SiconosSolver;
  m.def("siconos_available", &solvers::SiconosAvailable);
  py::class_<SiconosSolver, solvers::ConstraintSolver> sis(m, "SiconosSolver");
  sis.def(py::init<>());
  auto siconos_option = [&sis](const char* name, auto member) {
    using T = std::remove_reference_t<decltype(SiconosOptions{}.*member)>;
    sis.def_property(
        name, [member](const SiconosSolver& s) { return s.options().*member; },
        [member](SiconosSolver& s, T v) {
          SiconosOptions o = s.options();
          o.*member = v;
          s.set_options(o);
        });
  };
  siconos_option("epsilon", &SiconosOptions::epsilon);
  siconos_option("maxiter", &SiconosOptions::maxiter);
  siconos_option("verbose", &SiconosOptions::verbose);
  sis.def_property_readonly("last_stats", &SiconosSolver::last_stats,
                            py::return_value_policy::reference_internal);

  // Solves a pure Signorini-Coulomb problem U = W R + B given in block CSR form (W: 9 values
  // per block, row-major; B: 3 per row; local T1, T2, N) with `solver`; returns the flat
  // (R, U) and the merit (used by FCLIB_SOLVE).
  m.def("solve_contact_problem",
        [](solvers::ConstraintSolver& solver, const std::vector<int>& row_ptr,
           const std::vector<int>& col, const std::vector<double>& W,
           const std::vector<double>& B, const std::vector<double>& mu) {
          const int n = static_cast<int>(mu.size());
          if (static_cast<int>(row_ptr.size()) != n + 1 || B.size() != 3 * mu.size() ||
              W.size() != 9 * col.size() || row_ptr.back() != static_cast<int>(col.size()))
            throw InputError("FCLIB_SOLVE: inconsistent problem sizes (argument 'path'); "
                             "check the FCLIB file");
          solvers::BlockProblem p;
          p.Resize(n);
          p.row_ptr = row_ptr;
          p.col = col;
          p.W.resize(col.size());
          for (size_t k = 0; k < col.size(); ++k)
            for (int i = 0; i < 3; ++i)
              for (int j = 0; j < 3; ++j) p.W[k](i, j) = W[9 * k + 3 * i + j];
          for (int a = 0; a < n; ++a) {
            p.B[a] = Vec3(B[3 * a], B[3 * a + 1], B[3 * a + 2]);
            p.laws[a].friction = mu[a];
          }
          const solvers::SolverStats stats = solver.Solve(p);
          std::vector<double> R, U;
          for (int a = 0; a < n; ++a)
            for (int i = 0; i < 3; ++i) {
              R.push_back(p.R[a](i));
              U.push_back(p.U[a](i));
            }
          return py::make_tuple(R, U, stats.merit);
        });
}

}  // namespace solfec::bindings
