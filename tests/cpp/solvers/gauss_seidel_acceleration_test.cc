// GAUSS_SEIDEL_SOLVER extensions (Anderson acceleration, over-relaxation) on a stack of rigid
// cubes with four redundant contact points per face, the case where plain Alg. 9.1 stalls.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "base/errors.h"
#include "base/math.h"
#include "solvers/friction_cone.h"
#include "solvers/gauss_seidel_solver.h"
#include "solvers/merit.h"

namespace solfec::solvers {
namespace {

using Mat36 = Eigen::Matrix<double, 3, 6>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

// A column of n rigid cubes (edge a, masses m_k) on a floor, every face contact a patch of
// four corner points (rank 6 for 12 unknowns between two cubes, 3 of 12 for the floor's
// normal part), under gravity tilted by `tilt` rad about x for one step h. Body velocities
// are (v, w) at the cube centres; contact k = 4 i + c is corner c of the face below cube i.
// The static solution (U = 0) carries the weight of the cubes above: the reaction sums of
// interface i are sum_{j >= i} m_j h g_vec in the global frame (analytic), while how each
// sum splits among the four corners is not unique (W is rank-deficient).
struct CubeStack {
  BlockProblem problem;
  std::vector<double> expected_N, expected_T;  // per interface: sum of normal, tangential y
};

CubeStack MakeCubeStack(int n, double mu, double tilt, double mu_floor = -1.0, double h = 5e-3,
                        double a = 0.1) {
  const double g = 9.81;
  const Vec3 gravity(0.0, g * std::sin(tilt), -g * std::cos(tilt));
  std::vector<double> m(n);
  std::vector<Mat6> M_inv(n, Mat6::Zero());
  std::vector<Vec6> u_free(n);
  for (int i = 0; i < n; ++i) {
    m[i] = 2.0 + 0.25 * (i % 3);  // 2..2.5 kg
    M_inv[i].topLeftCorner<3, 3>() = Mat3::Identity() / m[i];
    M_inv[i].bottomRightCorner<3, 3>() = Mat3::Identity() * (6.0 / (m[i] * a * a));
    u_free[i].setZero();
    u_free[i].head<3>() = h * gravity;
  }
  // Local base (T1, T2, N) = (x, y, z) everywhere: rows of H are base^T (v + w x r).
  auto H = [](const Vec3& r) {
    Mat36 out;
    out.leftCols<3>() = Mat3::Identity();
    out.rightCols<3>() = -Skew(r);  // w x r = -r x w
    return out;
  };
  const int rows = 4 * n;
  CubeStack s;
  BlockProblem& p = s.problem;
  p.Resize(rows);
  // Per row: (body, H) for the upper cube (+) and the lower cube (-, absent for the floor).
  std::vector<std::vector<std::pair<int, Mat36>>> couple(rows);
  const double corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < 4; ++c) {
      const int r = 4 * i + c;
      const Vec3 arm(0.5 * a * corner[c][0], 0.5 * a * corner[c][1], 0.5 * a);
      couple[r].push_back({i, H(-arm)});  // bottom corner of cube i
      if (i > 0) couple[r].push_back({i - 1, -H(arm)});  // top corner of cube i - 1
      p.laws[r].friction = (i == 0 && mu_floor >= 0.0) ? mu_floor : mu;
    }
  }
  p.row_ptr.assign(1, 0);
  for (int r = 0; r < rows; ++r) {
    Vec3 B = Vec3::Zero();
    for (const auto& [body, Hr] : couple[r]) B += Hr * u_free[body];
    p.B[r] = B;
    for (int pass = 0; pass < 2; ++pass) {  // diagonal block first
      for (int q = 0; q < rows; ++q) {
        if ((pass == 0) != (q == r)) continue;
        Mat3 block = Mat3::Zero();
        bool shared = false;
        for (const auto& [bi, Hi] : couple[r]) {
          for (const auto& [bj, Hj] : couple[q]) {
            if (bi != bj) continue;
            block += h * Hi * M_inv[bi] * Hj.transpose();
            shared = true;
          }
        }
        if (shared) {
          p.col.push_back(q);
          p.W.push_back(block);
        }
      }
    }
    p.row_ptr.push_back(static_cast<int>(p.col.size()));
  }
  // R is a force here (W carries h): interface i carries -gravity * sum_{j >= i} m_j.
  s.expected_N.assign(n, 0.0);
  s.expected_T.assign(n, 0.0);
  double above = 0.0;
  for (int i = n - 1; i >= 0; --i) {
    above += m[i];
    s.expected_N[i] = -gravity.z() * above;
    s.expected_T[i] = -gravity.y() * above;
  }
  return s;
}

GaussSeidelOptions BenchOptions() {
  GaussSeidelOptions o;  // the box-of-cubes benchmark's settings
  o.epsilon = 1e-6;
  o.maxiter = 1000;
  o.meritval = 1e-12;
  return o;
}

// Checks the interface sums against the analytic loads; returns the largest relative error.
double InterfaceError(const CubeStack& s) {
  double worst = 0.0;
  for (size_t i = 0; i < s.expected_N.size(); ++i) {
    Vec3 sum = Vec3::Zero();
    for (int c = 0; c < 4; ++c) sum += s.problem.R[4 * i + c];
    const double scale = s.expected_N[0];
    worst = std::max({worst, std::abs(sum.z() - s.expected_N[i]) / scale,
                      std::abs(sum.y() - s.expected_T[i]) / scale, std::abs(sum.x()) / scale});
  }
  return worst;
}

// The default (Anderson depth 5) converges at the benchmark's settings in ~8x fewer sweeps
// than plain Alg. 9.1 (anderson = 0; 56 against 483 sweeps). Both stop on the relative
// change 1e-6 of one sweep, which bounds the error only up to the slow modes' factor
// 1 / (1 - rate): the sums are within 2.2e-5 (accelerated) and 3.8e-5 (plain) of the
// analytic loads, hence the 1e-4 bound.
TEST(GaussSeidelAcceleration, RedundantPatchStackConvergesToAnalyticLoadSums) {
  CubeStack fast = MakeCubeStack(10, 0.5, 0.2);  // tan 0.2 = 0.2 < mu: sticks
  const SolverStats s = GaussSeidelSolver(BenchOptions()).Solve(fast.problem);
  EXPECT_EQ(s.error, "OK");
  EXPECT_LT(s.iters, 200);
  EXPECT_LT(InterfaceError(fast), 1e-4);
  for (int r = 0; r < fast.problem.size(); ++r) {
    const Vec3& R = fast.problem.R[r];
    EXPECT_LE(TangentNorm(R), 0.5 * R.z() * (1.0 + 1e-12) + 1e-12) << r;  // in FC
  }

  CubeStack plain = MakeCubeStack(10, 0.5, 0.2);
  GaussSeidelOptions o = BenchOptions();
  o.anderson = 0;
  const SolverStats p = GaussSeidelSolver(o).Solve(plain.problem);
  EXPECT_GT(p.iters, 5 * s.iters);
  EXPECT_LT(InterfaceError(plain), 1e-4);
}

// With tight tolerances the accelerated solver reaches the sums to round-off level.
TEST(GaussSeidelAcceleration, TightToleranceReachesAnalyticSums) {
  CubeStack s = MakeCubeStack(10, 0.3, 0.1);
  GaussSeidelOptions o = BenchOptions();
  o.epsilon = 1e-12;
  o.meritval = 1e-26;
  const SolverStats st = GaussSeidelSolver(o).Solve(s.problem);
  EXPECT_EQ(st.error, "OK");
  EXPECT_LT(InterfaceError(s), 1e-9);
  // The reported merit is that of the returned R.
  EXPECT_NEAR(ComputeMerit(s.problem), st.merit, 1e-12 + 1e-6 * st.merit);
}

// Over-relaxation (omega = 1.5, projected on FC) changes the path, not the solution: the
// interface sums agree with the analytic ones as for omega = 1.
TEST(GaussSeidelAcceleration, OverRelaxationGivesTheSameSolution) {
  for (int anderson : {0, 5}) {
    CubeStack s = MakeCubeStack(6, 0.5, 0.2);
    GaussSeidelOptions o = BenchOptions();
    o.epsilon = 1e-10;
    o.meritval = 1e-22;
    o.maxiter = 20000;
    o.omega = 1.5;
    o.anderson = anderson;
    const SolverStats st = GaussSeidelSolver(o).Solve(s.problem);
    EXPECT_EQ(st.error, "OK") << anderson;
    EXPECT_LT(InterfaceError(s), 1e-7) << anderson;
  }
}

// A stack sliding on the floor (tan tilt > mu_floor = 0.1) as one block (the interfaces,
// mu = 0.5, stick: they carry the ratio (g_t - a) / g_n = mu_floor < 0.5): acceleration keeps
// every iterate inside FC and the floor carries friction mu_floor sum R_N against the slip.
TEST(GaussSeidelAcceleration, SlidingStackStaysInConeAndConverges) {
  CubeStack s = MakeCubeStack(5, 0.5, 0.3, 0.1);  // tan 0.3 = 0.31 > 0.1
  GaussSeidelOptions o = BenchOptions();
  o.epsilon = 1e-10;
  o.meritval = 1e-22;
  const SolverStats st = GaussSeidelSolver(o).Solve(s.problem);
  EXPECT_EQ(st.error, "OK");
  for (int r = 0; r < s.problem.size(); ++r) {
    const Vec3& R = s.problem.R[r];
    EXPECT_GE(R.z(), 0.0) << r;
    const double mu = s.problem.laws[r].friction;
    EXPECT_LE(TangentNorm(R), mu * R.z() * (1.0 + 1e-12) + 1e-12) << r;
  }
  Vec3 floor = Vec3::Zero();
  for (int c = 0; c < 4; ++c) floor += s.problem.R[c];
  EXPECT_NEAR(std::abs(floor.y()), 0.1 * floor.z(), 1e-8 * floor.z());
}

// Acceleration only acts between sweeps, from the second residual on: the first two sweeps
// of the accelerated run are those of plain Alg. 9.1 (anderson = 0), bit for bit.
TEST(GaussSeidelAcceleration, OffSettingsAreThePlainAlgorithm) {
  CubeStack a = MakeCubeStack(3, 0.5, 0.0);
  CubeStack b = a;
  GaussSeidelOptions o = BenchOptions();
  o.maxiter = 7;
  o.epsilon = 1e-30;
  o.meritval = 1e-40;
  o.anderson = 0;
  const SolverStats sa = GaussSeidelSolver(o).Solve(a.problem);
  o.anderson = 5;
  const SolverStats sb = GaussSeidelSolver(o).Solve(b.problem);
  // The first two sweeps coincide (Anderson needs two residuals before its first step).
  ASSERT_GE(sa.rerhist.size(), 2u);
  EXPECT_DOUBLE_EQ(sa.rerhist[0], sb.rerhist[0]);
  EXPECT_DOUBLE_EQ(sa.rerhist[1], sb.rerhist[1]);
}

TEST(GaussSeidelAcceleration, InvalidExtensionOptionsNameTheArgument) {
  GaussSeidelOptions o;
  o.omega = 2.0;
  try {
    GaussSeidelSolver gs(o);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'omega'"), std::string::npos);
  }
  o = GaussSeidelOptions();
  o.anderson = -1;
  try {
    GaussSeidelSolver gs(o);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'anderson'"), std::string::npos);
  }
}

}  // namespace
}  // namespace solfec::solvers
