// SICONOS_SOLVER: the contact rows of the local dynamics as Siconos numerics'
// FrictionContactProblem, solved by fc3d_driver (NSGS), as Solfec-1.0's sis.c did.
#include "solvers/siconos_solver.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>

#include "base/errors.h"
#include "solvers/merit.h"

#ifdef SOLFEC_HAVE_SICONOS
#include <csetjmp>

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/NumericsVerbose.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/SparseBlockMatrix.h>
#include <siconos/numerics/sn_error_handling.h>
#endif

namespace solfec::solvers {

namespace {

const char* RowKindName(LawKind kind) {
  switch (kind) {
    case LawKind::kEquality:
      return "an equality row (FIX_POINT, PUT_RIGID_LINK with coincident points, or the glue "
             "between PARTITION parts)";
    case LawKind::kNormalEquality:
      return "a normal-equality row (FIX_DIRECTION, SET_DISPLACEMENT, SET_VELOCITY, "
             "SET_ACCELERATION or PUT_RIGID_LINK)";
    case LawKind::kSpring:
      return "a spring row (PUT_SPRING)";
    case LawKind::kSignoriniCoulomb:
      return "a contact";
  }
  return "an unknown row";
}

#ifdef SOLFEC_HAVE_SICONOS
// Siconos' contact frame is (N, T1, T2), ours (T1, T2, N): Siconos component k is ours kPerm[k].
constexpr int kPerm[3] = {2, 0, 1};

struct SiconosResult {
  int info = 1;
  int iters = 0;
  double error = 0.0;
  bool fatal = false;
  std::string message;
};

// fc3d_driver behind Siconos' error jump buffer (a numerics_error longjmps here instead of
// ending the process). No C++ object with a destructor lives in this frame.
void RunDriver(FrictionContactProblem* fc, double* r, double* u, SolverOptions* so,
               SiconosResult* out) {
  if (setjmp(*sn_get_jmp_buf()) == 0) {
    out->info = fc3d_driver(fc, r, u, so);
    sn_release_jmp_buf();
  } else {
    sn_release_jmp_buf();
    out->fatal = true;
    const char* msg = sn_fatal_error_msg();
    out->message = msg ? msg : "unknown error";
  }
}
#endif

}  // namespace

struct SiconosSolver::Handle {
#ifdef SOLFEC_HAVE_SICONOS
  SolverOptions* so = nullptr;
  ~Handle() {
    if (so) solver_options_delete(so);
  }
#endif
};

SiconosSolver::SiconosSolver() = default;
SiconosSolver::~SiconosSolver() = default;
SiconosSolver::SiconosSolver(SiconosSolver&&) noexcept = default;
SiconosSolver& SiconosSolver::operator=(SiconosSolver&&) noexcept = default;

bool SiconosAvailable() {
#ifdef SOLFEC_HAVE_SICONOS
  return true;
#else
  return false;
#endif
}

void SiconosSolver::set_options(const SiconosOptions& options) {
  if (!(options.epsilon > 0.0) || !std::isfinite(options.epsilon)) {
    std::ostringstream msg;
    msg << "SICONOS_SOLVER: argument 'epsilon' must be a positive number, got "
        << options.epsilon;
    throw InputError(msg.str());
  }
  if (options.maxiter < 1) {
    throw InputError("SICONOS_SOLVER: argument 'maxiter' must be >= 1, got " +
                     std::to_string(options.maxiter));
  }
  options_ = options;
}

SolverStats SiconosSolver::Solve(BlockProblem& problem) {
#ifndef SOLFEC_HAVE_SICONOS
  (void)problem;
  throw InputError(
      "SICONOS_SOLVER: this solfec was built without Siconos numerics; install the Debian "
      "package libsiconos-numerics-dev (bash cmake/setup.sh installs it) and rebuild, or use "
      "GAUSS_SEIDEL_SOLVER");
#else
  problem.Validate("SICONOS_SOLVER");
  problem.EnsureAssembled();
  const int n = problem.size();
  for (int i = 0; i < n; ++i) {
    if (problem.laws[i].kind != LawKind::kSignoriniCoulomb) {
      std::ostringstream msg;
      msg << "SICONOS_SOLVER: constraint row " << i << " is " << RowKindName(problem.laws[i].kind)
          << ", which Siconos' friction-contact problem cannot hold (contacts only); use "
             "GAUSS_SEIDEL_SOLVER, NEWTON_SOLVER or AUTO_SOLVER for models with such "
             "constraints";
      throw InputError(msg.str());
    }
  }
  problem.R.resize(n, Vec3::Zero());
  SolverStats stats;
  if (n == 0) {
    problem.U.clear();
    problem.merit.clear();
    stats.converged = true;
    last_stats_ = stats;
    RecordIters(0);
    return stats;
  }

  // The block structure, columns ascending in every row (Siconos' NSGS finds the diagonal
  // block of a row by its column index).
  const size_t nblocks = problem.W.size();
  std::vector<size_t> index1(n + 1), index2(nblocks), order(nblocks);
  for (int i = 0; i < n; ++i) {
    const int b = problem.row_ptr[i], e = problem.row_ptr[i + 1];
    std::iota(order.begin() + b, order.begin() + e, static_cast<size_t>(b));
    std::sort(order.begin() + b, order.begin() + e,
              [&](size_t x, size_t y) { return problem.col[x] < problem.col[y]; });
    index1[i] = static_cast<size_t>(b);
    for (int k = b; k < e; ++k) index2[k] = static_cast<size_t>(problem.col[order[k]]);
  }
  index1[n] = nblocks;
  // Siconos' Moreau-Jean form of the step's problem: impulses r = h R and M = W / h (the
  // same solutions; its residual then weighs impulses and velocities alike, as
  // GAUSS_SEIDEL_SOLVER's 'residual' does). A problem without a step (FCLIB_SOLVE): h = 1.
  const double h = problem.step > 0.0 ? problem.step : 1.0;
  std::vector<double> values(9 * nblocks);
  std::vector<double*> blocks(nblocks);
  for (size_t k = 0; k < nblocks; ++k) {
    const Mat3& W = problem.W[order[k]];
    double* v = values.data() + 9 * k;
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) v[r + 3 * c] = W(kPerm[r], kPerm[c]) / h;  // column-major
    blocks[k] = v;
  }
  std::vector<unsigned int> sizes(n);
  for (int i = 0; i < n; ++i) sizes[i] = 3u * static_cast<unsigned int>(i + 1);

  std::vector<double> q(3 * n), mu(n), r(3 * n), u(3 * n);
  int iters = 0;
  double error = 0.0;
  bool converged = true;
  // Re-solved when a cohesive bond breaks (at most once per cohesive contact).
  for (int round = 0;; ++round) {
    // q = B + restitution term, minus W times the cohesion shift; r = R + shift.
    std::vector<Vec3> shift(n, Vec3::Zero());
    for (int i = 0; i < n; ++i) {
      const Law& law = problem.laws[i];
      if (law.cohesive) shift[i].z() = law.cohesion;
    }
    std::vector<Vec3> Wshift(n, Vec3::Zero());
    for (int i = 0; i < n; ++i)
      for (int k = problem.row_ptr[i]; k < problem.row_ptr[i + 1]; ++k)
        Wshift[i] += problem.W[k] * shift[problem.col[k]];
    for (int i = 0; i < n; ++i) {
      const Law& law = problem.laws[i];
      Vec3 qi = problem.B[i] - Wshift[i];
      qi.z() += law.restitution * std::min(0.0, law.UN_prev);
      const Vec3 ri = problem.R[i] + shift[i];
      for (int c = 0; c < 3; ++c) {
        q[3 * i + c] = qi(kPerm[c]);
        r[3 * i + c] = h * ri(kPerm[c]);
        u[3 * i + c] = 0.0;
      }
      mu[i] = law.friction;
    }

    SparseBlockStructuredMatrix sbm;
    SBM_null(&sbm);
    sbm.nbblocks = static_cast<unsigned int>(nblocks);
    sbm.block = blocks.data();
    sbm.blocknumber0 = sbm.blocknumber1 = static_cast<unsigned int>(n);
    sbm.blocksize0 = sbm.blocksize1 = sizes.data();
    sbm.filled1 = static_cast<size_t>(n) + 1;
    sbm.filled2 = nblocks;
    sbm.index1_data = index1.data();
    sbm.index2_data = index2.data();
    NumericsMatrix* M = NM_new_SBM(3 * n, 3 * n, &sbm);
    FrictionContactProblem fc;
    fc.dimension = 3;
    fc.numberOfContacts = n;
    fc.M = M;
    fc.q = q.data();
    fc.mu = mu.data();
    if (!handle_) handle_ = std::make_unique<Handle>();
    if (!handle_->so) handle_->so = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    SolverOptions* so = handle_->so;
    so->iparam[SICONOS_IPARAM_MAX_ITER] = options_.maxiter;
    so->dparam[SICONOS_DPARAM_TOL] = options_.epsilon;
    so->iparam[SICONOS_IPARAM_ITER_DONE] = 0;
    so->dparam[SICONOS_DPARAM_RESIDU] = 0.0;
    numerics_set_verbose(options_.verbose ? 1 : 0);

    SiconosResult result;
    RunDriver(&fc, r.data(), u.data(), so, &result);
    result.iters = so->iparam[SICONOS_IPARAM_ITER_DONE];
    result.error = so->dparam[SICONOS_DPARAM_RESIDU];
    // The SBM's arrays are ours; the diagonal-block index is Siconos' (malloc'ed by NSGS).
    free(sbm.diagonal_blocks);
    sbm.diagonal_blocks = nullptr;
    NM_free_not_SBM(M);
    if (result.fatal) {
      solver_options_delete(so);  // left in an unknown state: a fresh one next time
      handle_->so = nullptr;
      throw SolverError("SICONOS_SOLVER: Siconos numerics stopped with an error: " +
                        result.message);
    }

    iters += result.iters;
    error = result.error;
    converged = result.info == 0;
    bool broke = false;
    for (int i = 0; i < n; ++i) {
      Vec3 Ri;
      for (int c = 0; c < 3; ++c) Ri(kPerm[c]) = r[3 * i + c] / h;
      Law& law = problem.laws[i];
      if (law.cohesive && Ri.z() <= 1e-12 * law.cohesion &&
          u[3 * i] > 0.0) {  // at R_N = -cohesion and separating: the bond breaks
        law.cohesive = false;
        broke = true;
      }
      problem.R[i] = Ri - shift[i];
    }
    if (!broke || round > n) break;
  }

  problem.ComputeU();
  stats.merit = ComputeMerit(problem);
  stats.row_merit = problem.merit;
  stats.iters = iters;
  stats.relative_error = error;           // Siconos' own final error
  stats.residual = RelativeResidual(problem);  // the same function, from our side
  stats.converged = converged;
  stats.error = converged ? "OK" : "DIVERGED";
  if (!converged) {
    std::ostringstream msg;
    msg << "SICONOS_SOLVER: Siconos NSGS did not reach epsilon " << options_.epsilon << " in "
        << options_.maxiter << " iterations (residual " << error << ")";
    stats.message = msg.str();
  }
  last_stats_ = stats;
  RecordIters(iters);
  return stats;
#endif
}

}  // namespace solfec::solvers
